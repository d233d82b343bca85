//! The objects kube-apiserver creates at start, so that a fresh server looks like a fresh
//! cluster: the system namespaces (its `start-system-namespaces-controller` hook: `kube-system`,
//! `kube-public`, `default`, `kube-node-lease`), the system PriorityClasses
//! (`scheduling/bootstrap-system-priority-classes`) and API Priority and Fairness' configuration
//! ([`flowcontrol`]), each created when missing and left alone when it exists, as Kubernetes'
//! controllers do; and `kube-system/extension-apiserver-authentication`
//! (`start-cluster-authentication-info-controller`), kept holding the client CA. A server without
//! the resource creates nothing. They run as the server's bootstrap hooks: a served server has
//! them before its first request.

pub mod flowcontrol;

use std::sync::Arc;

use serde_json::{Value, json};

use kube_generic_apiserver::registry::store::{Store, Target};

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

/// The namespace and name of the ConfigMap that tells extension API servers how this server
/// authenticates its clients.
const AUTHENTICATION_INFO: (&str, &str) = ("kube-system", "extension-apiserver-authentication");

/// The authentication ConfigMap: the client CA's PEM under `client-ca-file`, when there is one.
pub fn authentication_info(client_ca: Option<&str>) -> Value {
    let mut data = serde_json::Map::new();
    if let Some(ca) = client_ca.filter(|ca| !ca.is_empty()) {
        data.insert("client-ca-file".into(), json!(ca));
    }
    json!({
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {"name": AUTHENTICATION_INFO.1, "namespace": AUTHENTICATION_INFO.0},
        "data": data,
    })
}

/// Writes the authentication ConfigMap, replacing its data when the CA changed since the last
/// start (kube-apiserver's ClientCARegistrationHook).
pub async fn cluster_authentication_info(configmaps: Arc<Store>, client_ca: Option<String>) {
    let (namespace, name) = AUTHENTICATION_INFO;
    let wanted = authentication_info(client_ca.as_deref());
    let result = match configmaps.create(Some(namespace), wanted.clone(), false).await {
        Err(e) if e.code == 409 => {
            let data = wanted["data"].clone();
            let update = |current: &Value| {
                let mut next = current.clone();
                next["data"] = data.clone();
                Ok(next)
            };
            configmaps
                .guaranteed_update(Some(namespace), name, None, false, update, Target::Main)
                .await
        }
        other => other,
    };
    if let Err(e) = result {
        tracing::warn!(error = %e.message, "writing kube-system/extension-apiserver-authentication failed");
    }
}
