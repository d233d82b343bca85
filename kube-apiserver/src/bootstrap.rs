//! The objects kube-apiserver creates at start, so that a fresh server looks like a fresh
//! cluster: the system namespaces (its `start-system-namespaces-controller` hook: `kube-system`,
//! `kube-public`, `default`, `kube-node-lease`) and the system PriorityClasses
//! (`scheduling/bootstrap-system-priority-classes`). Each is created when missing and left alone
//! when it exists, as Kubernetes' controllers do; a server without the resource creates nothing.
//! They run as the server's bootstrap hooks: a served server has them before its first request.

use std::sync::Arc;

use serde_json::{Value, json};

use kube_generic_apiserver::registry::store::Store;

/// The namespaces kube-apiserver keeps (`--system-namespaces`' default, with `kube-node-lease`
/// added), in its order.
pub const SYSTEM_NAMESPACES: [&str; 4] = ["kube-system", "kube-public", "default", "kube-node-lease"];

/// The priority of `system-cluster-critical`: twice the highest a user may give
/// (`HighestUserDefinablePriority`, 10^9).
const SYSTEM_CRITICAL_PRIORITY: i64 = 2_000_000_000;

/// A system namespace as Kubernetes' controller sends it, a name: the namespace strategy adds
/// the name label, the `kubernetes` finalizer and phase Active, as for any namespace.
fn namespace(name: &str) -> Value {
    json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": name}})
}

/// The system PriorityClasses, node-critical first (Kubernetes' `SystemPriorityClasses`), with
/// the preemption policy defaulting gives them.
pub fn priority_classes() -> Vec<Value> {
    [
        (
            "system-node-critical",
            SYSTEM_CRITICAL_PRIORITY + 1000,
            "Used for system critical pods that must not be moved from their current node.",
        ),
        (
            "system-cluster-critical",
            SYSTEM_CRITICAL_PRIORITY,
            "Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.",
        ),
    ]
    .into_iter()
    .map(|(name, value, description)| {
        json!({
            "apiVersion": "scheduling.k8s.io/v1",
            "kind": "PriorityClass",
            "metadata": {"name": name},
            "value": value,
            "description": description,
            "preemptionPolicy": "PreemptLowerPriority",
        })
    })
    .collect()
}

/// Creates each of `objects` in `store` unless it exists.
async fn ensure(store: &Store, objects: Vec<Value>) {
    for object in objects {
        match store.create(None, object, false).await {
            Ok(_) => {}
            Err(e) if e.code == 409 => {}
            Err(e) => tracing::warn!(error = %e.message, "creating a bootstrap object failed"),
        }
    }
}

/// Creates the system namespaces that are missing.
pub async fn system_namespaces(namespaces: Arc<Store>) {
    ensure(&namespaces, SYSTEM_NAMESPACES.map(namespace).to_vec()).await
}

/// Creates the system PriorityClasses that are missing.
pub async fn system_priority_classes(priority_classes: Arc<Store>) {
    ensure(&priority_classes, self::priority_classes()).await
}
