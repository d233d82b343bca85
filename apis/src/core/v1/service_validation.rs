//! Hand-written validation of a Service, as Kubernetes' `ValidateService` checks what its
//! declarative rules cannot: ports (named when there are several, names unique DNS labels,
//! numbers in range, target ports numbers or port names, no port or node port twice), node ports
//! only where the type has them, the ExternalName of an ExternalName Service, the selector's
//! labels, external IPs and the ClientIP affinity timeout. Messages as Kubernetes words them.

use std::collections::BTreeSet;

use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
use kube_apimachinery::validation::{BadValue, ErrorList, FieldError, Operation, Path, content};

use super::{Protocol, Service, ServicePort, ServiceType};

/// The longest ClientIP affinity, a day (`MaxClientIPServiceAffinitySeconds`).
const MAX_CLIENT_IP_AFFINITY_SECONDS: i32 = 86400;

/// `IsValidPortNum`.
pub(super) fn port_number(port: i32) -> Option<&'static str> {
    (!(1..=65535).contains(&port)).then_some("must be between 1 and 65535, inclusive")
}

/// `IsValidPortName`: an IANA service name.
pub fn port_name(name: &str) -> Vec<String> {
    let mut out = Vec::new();
    if name.len() > 15 {
        out.push("must be no more than 15 characters".into());
    }
    if !name
        .bytes()
        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        || name.is_empty()
    {
        out.push("must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)".into());
    }
    if !name.bytes().any(|b| b.is_ascii_lowercase()) {
        out.push("must contain at least one letter (a-z)".into());
    }
    if name.contains("--") {
        out.push("must not contain consecutive hyphens".into());
    }
    if name.starts_with('-') || name.ends_with('-') {
        out.push("must not begin or end with a hyphen".into());
    }
    out
}

fn protocol_name(p: Option<&Protocol>) -> &'static str {
    match p {
        None => "",
        Some(Protocol::ProtocolTCP) => "TCP",
        Some(Protocol::ProtocolUDP) => "UDP",
        Some(Protocol::ProtocolSCTP) => "SCTP",
    }
}

/// A port as Go's `%#v` prints the key of a duplicate (`core.ServicePort{...}`).
fn go_port_key(protocol: &str, port: i32) -> BadValue {
    BadValue::Other(format!(
        "core.ServicePort{{Name:\"\", Protocol:{protocol:?}, AppProtocol:(*string)(nil), Port:{port}, TargetPort:intstr.IntOrString{{Type:0, IntVal:0, StrVal:\"\"}}, NodePort:0}}"
    ))
}

/// `validateServicePort`.
fn port_errors(
    sp: &ServicePort,
    require_name: bool,
    names: &mut BTreeSet<String>,
    path: &Path<'_>,
    errs: &mut ErrorList,
) {
    let name = sp.name.as_deref().unwrap_or_default();
    let name_path = path.child("name");
    if require_name && name.is_empty() {
        errs.push(FieldError::required(&name_path, ""));
    } else if !name.is_empty() {
        for m in content::dns1123_label(name) {
            errs.push(FieldError::invalid(&name_path, name, m));
        }
        if !names.insert(name.to_string()) {
            errs.push(FieldError::duplicate(&name_path, name));
        }
    }
    if let Some(m) = port_number(sp.port) {
        errs.push(FieldError::invalid(&path.child("port"), i64::from(sp.port), m));
    }
    if sp.protocol.is_none() {
        errs.push(FieldError::required(&path.child("protocol"), ""));
    }
    let target = path.child("targetPort");
    match &sp.target_port {
        Some(IntOrString::Int(p)) => {
            if let Some(m) = port_number(*p) {
                errs.push(FieldError::invalid(&target, i64::from(*p), m));
            }
        }
        Some(IntOrString::String(p)) => {
            for m in port_name(p) {
                errs.push(FieldError::invalid(&target, p.as_str(), m));
            }
        }
        None => {}
    }
    if let Some(app) = sp.app_protocol.as_deref() {
        for m in content::qualified_name(app) {
            errs.push(FieldError::invalid(&path.child("appProtocol"), app, m));
        }
    }
}

/// `ValidateService`'s checks beyond the declarative rules.
pub fn validate_custom_service(op: &Operation, path: &Path<'_>, obj: &Service, old: Option<&Service>) -> ErrorList {
    let mut errs = ErrorList::new();
    let _ = (op, old);
    let Some(spec) = obj.spec.as_ref() else { return errs };
    let spec_path = path.child("spec");
    let ports_path = spec_path.child("ports");
    let ports = spec.ports.as_deref().unwrap_or_default();
    let headless = spec.cluster_ip.as_deref() == Some("None");
    let kind = spec.type_.as_ref();
    let external_name = kind == Some(&ServiceType::ServiceTypeExternalName);
    if ports.is_empty() && !headless && !external_name {
        errs.push(FieldError::required(&ports_path, ""));
    }
    let ips_path = spec_path.child("clusterIPs");
    match kind {
        Some(ServiceType::ServiceTypeLoadBalancer | ServiceType::ServiceTypeNodePort) if headless => {
            let what = if kind == Some(&ServiceType::ServiceTypeNodePort) {
                "NodePort"
            } else {
                "LoadBalancer"
            };
            errs.push(FieldError::invalid(
                &ips_path.index(0),
                "None",
                format!("may not be set to 'None' for {what} services"),
            ));
        }
        Some(ServiceType::ServiceTypeExternalName) => {
            if spec.cluster_ips.as_ref().is_some_and(|ips| !ips.is_empty()) {
                errs.push(FieldError::forbidden(
                    &ips_path,
                    "may not be set for ExternalName services",
                ));
            }
            if spec.ip_families.as_ref().is_some_and(|f| !f.is_empty()) {
                let at = spec_path.child("ipFamilies");
                errs.push(FieldError::forbidden(&at, "may not be set for ExternalName services"));
            }
            if spec.ip_family_policy.is_some() {
                let at = spec_path.child("ipFamilyPolicy");
                errs.push(FieldError::forbidden(&at, "may not be set for ExternalName services"));
            }
            // A CNAME may end in a dot, fully qualified.
            let name_path = spec_path.child("externalName");
            let cname = spec.external_name.as_deref().unwrap_or_default();
            let cname = cname.strip_suffix('.').unwrap_or(cname);
            if cname.is_empty() {
                errs.push(FieldError::required(&name_path, ""));
            }
            for m in content::dns1123_subdomain(cname)
                .into_iter()
                .filter(|_| !cname.is_empty())
            {
                errs.push(FieldError::invalid(&name_path, cname, m));
            }
        }
        _ => {}
    }
    let mut names = BTreeSet::new();
    for (i, port) in ports.iter().enumerate() {
        port_errors(port, ports.len() > 1, &mut names, &ports_path.index(i), &mut errs);
    }
    let selector_path = spec_path.child("selector");
    for (k, v) in spec.selector.iter().flatten() {
        for m in content::qualified_name(k) {
            errs.push(FieldError::invalid(&selector_path, k.as_str(), m));
        }
        for m in content::label_value(v) {
            errs.push(FieldError::invalid(&selector_path, v.as_str(), m));
        }
    }
    let timeout = spec
        .session_affinity_config
        .as_ref()
        .and_then(|c| c.client_ip.as_ref())
        .and_then(|c| c.timeout_seconds);
    if let Some(t) = timeout.filter(|t| !(1..=MAX_CLIENT_IP_AFFINITY_SECONDS).contains(t)) {
        let config = spec_path.child("sessionAffinityConfig");
        let client_ip = config.child("clientIP");
        errs.push(FieldError::invalid(
            &client_ip.child("timeoutSeconds"),
            i64::from(t),
            format!("must be greater than 0 and less than {MAX_CLIENT_IP_AFFINITY_SECONDS}"),
        ));
    }
    let external_path = spec_path.child("externalIPs");
    for (i, ip) in spec.external_ips.iter().flatten().enumerate() {
        if ip.parse::<std::net::IpAddr>().is_err() {
            errs.push(FieldError::invalid(
                &external_path.index(i),
                ip.as_str(),
                "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)",
            ));
        }
    }
    if kind == Some(&ServiceType::ServiceTypeClusterIP) {
        for (i, port) in ports.iter().enumerate() {
            if port.node_port.unwrap_or(0) != 0 {
                let at = ports_path.index(i);
                errs.push(FieldError::forbidden(
                    &at.child("nodePort"),
                    "may not be used when `type` is 'ClusterIP'",
                ));
            }
        }
    }
    let mut node_ports = BTreeSet::new();
    for (i, port) in ports.iter().enumerate() {
        let Some(node_port) = port.node_port.filter(|p| *p != 0) else {
            continue;
        };
        if !node_ports.insert((protocol_name(port.protocol.as_ref()), node_port)) {
            let at = ports_path.index(i);
            errs.push(FieldError::duplicate(&at.child("nodePort"), i64::from(node_port)));
        }
    }
    let mut seen = BTreeSet::new();
    for (i, port) in ports.iter().enumerate() {
        let protocol = protocol_name(port.protocol.as_ref());
        if !seen.insert((protocol, port.port)) {
            errs.push(FieldError::duplicate(
                &ports_path.index(i),
                go_port_key(protocol, port.port),
            ));
        }
    }
    errs
}
