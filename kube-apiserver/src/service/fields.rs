//! What Kubernetes' Service storage does to a Service's fields before it allocates: ClusterIP
//! and ClusterIPs kept in step, IP family fields defaulted for the cluster's one family
//! (`initIPFamilyFields`), allocated values an update left out carried over from the stored
//! Service (`patchAllocatedValues`), and values a type change leaves meaningless dropped
//! (`dropTypeDependentFields`).

use serde_json::{Value, json};

use super::ip_allocator::Family;
use kube_apimachinery::validation::{BadValue, FieldError, Path};

/// `ClusterIP: None`: a headless Service.
pub const NONE: &str = "None";

/// A Service's `spec.type`.
pub fn type_of(service: &Value) -> &str {
    service["spec"]["type"].as_str().unwrap_or("ClusterIP")
}

/// Every type but ExternalName has ClusterIPs.
pub fn needs_cluster_ip(service: &Value) -> bool {
    type_of(service) != "ExternalName"
}

/// NodePort and LoadBalancer Services have node ports.
pub fn needs_node_port(service: &Value) -> bool {
    matches!(type_of(service), "NodePort" | "LoadBalancer")
}

/// Whether ports get node ports allocated: a NodePort Service's always, a LoadBalancer's
/// unless `allocateLoadBalancerNodePorts` is false.
pub fn allocates_node_ports(service: &Value) -> bool {
    match type_of(service) {
        "NodePort" => true,
        "LoadBalancer" => service["spec"]["allocateLoadBalancerNodePorts"] != false,
        _ => false,
    }
}

/// A LoadBalancer Service with the Local traffic policy has a health check node port.
pub fn needs_health_check_node_port(service: &Value) -> bool {
    type_of(service) == "LoadBalancer" && service["spec"]["externalTrafficPolicy"] == "Local"
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(str::to_string)
        .collect()
}

/// Sets `spec.clusterIPs` from `spec.clusterIP` or the other way round, whichever was given.
pub fn normalize_cluster_ips(service: &mut Value) {
    let spec = &mut service["spec"];
    let ip = spec["clusterIP"].as_str().unwrap_or_default().to_string();
    let ips = strings(&spec["clusterIPs"]);
    if !ip.is_empty() && ips.is_empty() {
        spec["clusterIPs"] = json!([ip]);
    } else if ip.is_empty()
        && let Some(first) = ips.first()
    {
        spec["clusterIP"] = json!(first);
    }
}

/// Go's `%#v` of a list of strings, as an Invalid value prints it.
fn go_strings(list: &[String]) -> BadValue {
    let quoted: Vec<String> = list.iter().map(|s| format!("{s:?}")).collect();
    BadValue::Other(format!("[]string{{{}}}", quoted.join(", ")))
}

/// `initIPFamilyFields` for a cluster of one family: the policy defaulted (SingleStack; a
/// headless Service without a selector RequireDualStack, with both families), the families
/// from the ClusterIPs or the cluster's, and what asks for a family the cluster lacks refused.
pub fn init_ip_family_fields(service: &mut Value, old: Option<&Value>, family: Family) -> Vec<FieldError> {
    if !needs_cluster_ip(service) {
        return Vec::new();
    }
    let spec_path = Path::new("spec");
    let headless_selectorless =
        service["spec"]["clusterIP"] == NONE && service["spec"]["selector"].as_object().is_none_or(|s| s.is_empty());
    if service["spec"]["ipFamilyPolicy"].as_str().is_none() {
        let policy = match old.and_then(|o| o["spec"]["ipFamilyPolicy"].as_str()) {
            Some(p) => p,
            None if headless_selectorless => "RequireDualStack",
            None => "SingleStack",
        };
        service["spec"]["ipFamilyPolicy"] = json!(policy);
    }
    let policy = service["spec"]["ipFamilyPolicy"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let mut families = strings(&service["spec"]["ipFamilies"]);
    let ips = strings(&service["spec"]["clusterIPs"]);
    let mut errs = Vec::new();
    let policy_path = spec_path.child("ipFamilyPolicy");
    if policy == "SingleStack" {
        if ips.len() == 2 {
            errs.push(FieldError::invalid(
                &policy_path,
                policy.as_str(),
                "must be 'RequireDualStack' or 'PreferDualStack' when multiple cluster IPs are specified",
            ));
        }
        if families.len() == 2 {
            errs.push(FieldError::invalid(
                &policy_path,
                policy.as_str(),
                "must be 'RequireDualStack' or 'PreferDualStack' when multiple IP families are specified",
            ));
        }
    }
    let ips_path = spec_path.child("clusterIPs");
    for (i, ip) in ips.iter().enumerate() {
        if ip == NONE {
            break;
        }
        let Ok(addr) = ip.parse::<std::net::IpAddr>() else {
            errs.push(FieldError::invalid(
                &ips_path.index(i),
                ip.as_str(),
                "must be a valid IP address",
            ));
            continue;
        };
        let of = Family::of(&addr);
        if i >= families.len() {
            if of == family {
                families.push(of.name().to_string());
            } else {
                errs.push(FieldError::invalid(
                    &ips_path.index(i),
                    go_strings(&ips),
                    format!("{} is not configured on this cluster", of.name()),
                ));
            }
        }
    }
    if !errs.is_empty() {
        return errs;
    }
    let other = match family {
        Family::V4 => Family::V6,
        Family::V6 => Family::V4,
    };
    if headless_selectorless {
        if families.is_empty() {
            families.push(family.name().into());
        }
        if families.len() < 2 && policy != "SingleStack" {
            let alternative = if families[0] == "IPv4" { "IPv6" } else { "IPv4" };
            families.push(alternative.into());
        }
        service["spec"]["ipFamilies"] = json!(families);
        return errs;
    }
    if policy == "RequireDualStack" {
        errs.push(FieldError::invalid(
            &policy_path,
            policy.as_str(),
            "this cluster is not configured for dual-stack services",
        ));
    }
    let families_path = spec_path.child("ipFamilies");
    for (i, f) in families.iter().enumerate() {
        if f != family.name() {
            let detail = if f == other.name() {
                "not configured on this cluster"
            } else {
                "must be 'IPv4' or 'IPv6'"
            };
            errs.push(FieldError::invalid(&families_path.index(i), f.as_str(), detail));
        }
    }
    if families.is_empty() {
        families.push(family.name().into());
    }
    service["spec"]["ipFamilies"] = json!(families);
    errs
}

/// `patchAllocatedValues`: what an update leaves out of what was allocated (the ClusterIPs, a
/// port's node port by the port's name, the health check node port) is kept.
pub fn patch_allocated_values(new: &mut Value, old: &Value) {
    if needs_cluster_ip(old) && needs_cluster_ip(new) {
        if new["spec"]["clusterIP"].as_str().unwrap_or_default().is_empty() {
            new["spec"]["clusterIP"] = old["spec"]["clusterIP"].clone();
        }
        if strings(&new["spec"]["clusterIPs"]).is_empty() && !strings(&old["spec"]["clusterIPs"]).is_empty() {
            new["spec"]["clusterIPs"] = old["spec"]["clusterIPs"].clone();
        }
    }
    if needs_node_port(old) && needs_node_port(new) {
        let in_new = super::port_allocator::node_ports(new);
        let by_name: Vec<(String, i64)> = old["spec"]["ports"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|p| {
                Some((
                    p["name"].as_str().unwrap_or_default().to_string(),
                    p["nodePort"].as_i64()?,
                ))
            })
            .collect();
        if let Some(ports) = new["spec"]["ports"].as_array_mut() {
            for port in ports {
                if port["nodePort"].as_i64().unwrap_or(0) != 0 {
                    continue;
                }
                let name = port["name"].as_str().unwrap_or_default();
                if let Some((_, np)) = by_name.iter().find(|(n, _)| n == name)
                    && !in_new.contains(&(*np as i32))
                {
                    port["nodePort"] = json!(np);
                }
            }
        }
    }
    if needs_health_check_node_port(old)
        && needs_health_check_node_port(new)
        && new["spec"]["healthCheckNodePort"].as_i64().unwrap_or(0) == 0
    {
        new["spec"]["healthCheckNodePort"] = old["spec"]["healthCheckNodePort"].clone();
    }
}

/// `dropTypeDependentFields`: a type change that leaves the ClusterIPs, node ports or health
/// check port meaningless drops them, when the update kept them as they were.
pub fn drop_type_dependent_fields(new: &mut Value, old: &Value) {
    let same = |field: &str, new: &Value| new["spec"][field] == old["spec"][field];
    if needs_cluster_ip(old) && !needs_cluster_ip(new) && same("clusterIP", new) && same("clusterIPs", new) {
        if let Some(spec) = new["spec"].as_object_mut() {
            spec.remove("clusterIP");
            spec.remove("clusterIPs");
        }
        for field in ["ipFamilies", "ipFamilyPolicy"] {
            if same(field, new)
                && let Some(spec) = new["spec"].as_object_mut()
            {
                spec.remove(field);
            }
        }
    }
    let node_ports = |s: &Value| {
        s["spec"]["ports"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|p| p["nodePort"].clone())
            .collect::<Vec<_>>()
    };
    if needs_node_port(old) && !needs_node_port(new) && node_ports(new) == node_ports(old) {
        for port in new["spec"]["ports"].as_array_mut().into_iter().flatten() {
            if let Some(port) = port.as_object_mut() {
                port.remove("nodePort");
            }
        }
    }
    if needs_health_check_node_port(old)
        && !needs_health_check_node_port(new)
        && same("healthCheckNodePort", new)
        && let Some(spec) = new["spec"].as_object_mut()
    {
        spec.remove("healthCheckNodePort");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn service(spec: Value) -> Value {
        json!({"metadata": {"name": "s"}, "spec": spec})
    }

    #[test]
    fn families_default_to_the_clusters_one() {
        let mut s = service(json!({"type": "ClusterIP", "selector": {"app": "a"}}));
        assert!(init_ip_family_fields(&mut s, None, Family::V4).is_empty());
        assert_eq!(s["spec"]["ipFamilyPolicy"], "SingleStack");
        assert_eq!(s["spec"]["ipFamilies"], json!(["IPv4"]));
        // Headless without a selector: both families, as on any cluster.
        let mut s = service(json!({"type": "ClusterIP", "clusterIP": "None"}));
        assert!(init_ip_family_fields(&mut s, None, Family::V4).is_empty());
        assert_eq!(s["spec"]["ipFamilyPolicy"], "RequireDualStack");
        assert_eq!(s["spec"]["ipFamilies"], json!(["IPv4", "IPv6"]));
        let mut s = service(json!({"type": "ClusterIP", "ipFamilyPolicy": "RequireDualStack"}));
        let errs = init_ip_family_fields(&mut s, None, Family::V4);
        assert_eq!(errs.len(), 1);
        assert_eq!(errs[0].field, "spec.ipFamilyPolicy");
        let mut s = service(json!({"type": "ClusterIP", "clusterIPs": ["fd00::1"]}));
        let errs = init_ip_family_fields(&mut s, None, Family::V4);
        assert_eq!(
            errs[0].body(),
            "Invalid value: []string{\"fd00::1\"}: IPv6 is not configured on this cluster"
        );
        let mut s = service(json!({"type": "ExternalName", "externalName": "example.com"}));
        assert!(init_ip_family_fields(&mut s, None, Family::V4).is_empty());
        assert!(s["spec"].get("ipFamilies").is_none());
    }

    #[test]
    fn updates_keep_allocations_and_type_changes_drop_them() {
        let old = service(json!({
            "type": "NodePort", "clusterIP": "10.0.0.7", "clusterIPs": ["10.0.0.7"],
            "ports": [{"name": "http", "port": 80, "nodePort": 30080}],
        }));
        let mut new = service(json!({"type": "NodePort", "ports": [{"name": "http", "port": 80}]}));
        patch_allocated_values(&mut new, &old);
        assert_eq!(new["spec"]["clusterIPs"], json!(["10.0.0.7"]));
        assert_eq!(new["spec"]["ports"][0]["nodePort"], 30080);
        let mut new = old.clone();
        new["spec"]["type"] = json!("ClusterIP");
        drop_type_dependent_fields(&mut new, &old);
        assert!(new["spec"]["ports"][0].get("nodePort").is_none());
        assert_eq!(new["spec"]["clusterIP"], "10.0.0.7");
        let mut new = old.clone();
        new["spec"]["type"] = json!("ExternalName");
        drop_type_dependent_fields(&mut new, &old);
        assert!(new["spec"].get("clusterIP").is_none());
    }
}
