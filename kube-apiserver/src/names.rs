//! The short names and categories of Kubernetes' resources, as kube-apiserver's REST storages
//! declare them (`ShortNames()`, `Categories()`): not in k8s.io/api's types, so not in the
//! imported packages' tags. Discovery lists them, so that `kubectl get po`, `kubectl get all` and
//! `kubectl get api-extensions` work as against a cluster.

use kube_apimachinery::RestMapping;

/// (group, resource, short names, categories).
type Names = (
    &'static str,
    &'static str,
    &'static [&'static str],
    &'static [&'static str],
);

const ALL: &[&str] = &["all"];
const API_EXTENSIONS: &[&str] = &["api-extensions"];

/// kube-apiserver 1.36's table (`kubectl api-resources` against it).
const NAMES: &[Names] = &[
    ("", "componentstatuses", &["cs"], &[]),
    ("", "configmaps", &["cm"], &[]),
    ("", "endpoints", &["ep"], &[]),
    ("", "events", &["ev"], &[]),
    ("", "limitranges", &["limits"], &[]),
    ("", "namespaces", &["ns"], &[]),
    ("", "nodes", &["no"], &[]),
    ("", "persistentvolumeclaims", &["pvc"], &[]),
    ("", "persistentvolumes", &["pv"], &[]),
    ("", "pods", &["po"], ALL),
    ("", "replicationcontrollers", &["rc"], ALL),
    ("", "resourcequotas", &["quota"], &[]),
    ("", "serviceaccounts", &["sa"], &[]),
    ("", "services", &["svc"], ALL),
    (
        "admissionregistration.k8s.io",
        "mutatingadmissionpolicies",
        &[],
        API_EXTENSIONS,
    ),
    (
        "admissionregistration.k8s.io",
        "mutatingadmissionpolicybindings",
        &[],
        API_EXTENSIONS,
    ),
    (
        "admissionregistration.k8s.io",
        "mutatingwebhookconfigurations",
        &[],
        API_EXTENSIONS,
    ),
    (
        "admissionregistration.k8s.io",
        "validatingadmissionpolicies",
        &[],
        API_EXTENSIONS,
    ),
    (
        "admissionregistration.k8s.io",
        "validatingadmissionpolicybindings",
        &[],
        API_EXTENSIONS,
    ),
    (
        "admissionregistration.k8s.io",
        "validatingwebhookconfigurations",
        &[],
        API_EXTENSIONS,
    ),
    ("apps", "daemonsets", &["ds"], ALL),
    ("apps", "deployments", &["deploy"], ALL),
    ("apps", "replicasets", &["rs"], ALL),
    ("apps", "statefulsets", &["sts"], ALL),
    ("autoscaling", "horizontalpodautoscalers", &["hpa"], ALL),
    ("batch", "cronjobs", &["cj"], ALL),
    ("batch", "jobs", &[], ALL),
    ("certificates.k8s.io", "certificatesigningrequests", &["csr"], &[]),
    ("events.k8s.io", "events", &["ev"], &[]),
    ("networking.k8s.io", "ingresses", &["ing"], &[]),
    ("networking.k8s.io", "ipaddresses", &["ip"], &[]),
    ("networking.k8s.io", "networkpolicies", &["netpol"], &[]),
    ("policy", "poddisruptionbudgets", &["pdb"], &[]),
    ("scheduling.k8s.io", "priorityclasses", &["pc"], &[]),
    ("storage.k8s.io", "storageclasses", &["sc"], &[]),
    ("storage.k8s.io", "volumeattributesclasses", &["vac"], &[]),
];

/// Gives `mapping` kube-apiserver's short names and categories for its resource where its own
/// tags name none.
pub fn apply(mapping: &mut RestMapping) {
    let Some((_, _, short_names, categories)) = NAMES
        .iter()
        .find(|(g, r, _, _)| *g == mapping.group && *r == mapping.resource)
    else {
        return;
    };
    if mapping.short_names.is_empty() {
        mapping.short_names = short_names;
    }
    if mapping.categories.is_empty() {
        mapping.categories = categories;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_sorted_and_has_no_duplicates() {
        let keys: Vec<(&str, &str)> = NAMES.iter().map(|(g, r, _, _)| (*g, *r)).collect();
        let mut sorted = keys.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(keys, sorted);
    }
}
