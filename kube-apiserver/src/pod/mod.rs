//! What kube-apiserver's pod storage adds to the generic store (its `pkg/registry/core/pod`):
//! a new Pod Pending with its QoS class, and the subresources `binding` (a scheduler assigns a
//! node; the legacy `bindings` resource does the same), `eviction` (a delete that honours PodDisruptionBudgets, [`eviction`]),
//! `ephemeralcontainers` and `resize` (updates of one part of a Pod), and the CSR `approval`
//! subresource, which is the same kind of partial update.

pub mod eviction;
pub mod parts;

use std::sync::Arc;

use async_trait::async_trait;
use serde_json::{Value, json};

use kube_apimachinery::GroupVersionKind;
use kube_generic_apiserver::meta;
use kube_generic_apiserver::registry::SubresourceInfo;
use kube_generic_apiserver::registry::rest::{Context, Creater, RestStorage};
use kube_generic_apiserver::registry::store::{Store, Target};
use kube_generic_apiserver::status::ApiError;

/// A Pod's QoS class (`qos.GetPodQOS`): Guaranteed when every container limits CPU and memory
/// and requests what it limits, BestEffort when none requests or limits anything, else
/// Burstable.
pub fn qos_class(pod: &Value) -> &'static str {
    let spec = &pod["spec"];
    let containers: Vec<&Value> = ["containers", "initContainers"]
        .iter()
        .flat_map(|f| spec[*f].as_array().into_iter().flatten())
        .collect();
    let (mut any, mut guaranteed) = (false, true);
    for c in containers {
        let requests = c["resources"]["requests"].as_object();
        let limits = c["resources"]["limits"].as_object();
        let relevant = |m: Option<&serde_json::Map<String, Value>>| {
            m.into_iter()
                .flatten()
                .filter(|(k, _)| *k == "cpu" || *k == "memory")
                .count()
        };
        if relevant(requests) + relevant(limits) > 0 {
            any = true;
        }
        for resource in ["cpu", "memory"] {
            let limit = limits.and_then(|l| l.get(resource));
            let request = requests.and_then(|r| r.get(resource)).or(limit);
            if limit.is_none() || request != limit {
                guaranteed = false;
            }
        }
    }
    match (any, guaranteed) {
        (false, _) => "BestEffort",
        (true, true) => "Guaranteed",
        (true, false) => "Burstable",
    }
}

/// `pods/binding`: assigns the Pod to the node a Binding names, once (Kubernetes'
/// `BindingREST`), marking it scheduled.
pub struct BindingStorage(pub Arc<Store>);

#[async_trait]
impl Creater for BindingStorage {
    async fn create(
        &self,
        ctx: &Context<'_>,
        namespace: Option<&str>,
        binding: Value,
        dry_run: bool,
    ) -> Result<Value, ApiError> {
        let name = ctx.name.unwrap_or_default();
        if meta::name(&binding) != name {
            return Err(ApiError::bad_request(
                "name in URL does not match name in Binding object",
            ));
        }
        self.bind(name, namespace, binding, dry_run).await
    }
}

impl RestStorage for BindingStorage {
    fn creater(&self) -> Option<&dyn Creater> {
        Some(self)
    }
}

/// `bindings`: the Pod a Binding names bound as `pods/binding` binds it (Kubernetes'
/// `LegacyBindingREST`, what schedulers posted before the subresource).
pub struct LegacyBindingStorage(pub BindingStorage);

#[async_trait]
impl Creater for LegacyBindingStorage {
    async fn create(
        &self,
        _ctx: &Context<'_>,
        namespace: Option<&str>,
        binding: Value,
        dry_run: bool,
    ) -> Result<Value, ApiError> {
        let name = meta::name(&binding).to_string();
        self.0.bind(&name, namespace, binding, dry_run).await
    }
}

impl RestStorage for LegacyBindingStorage {
    fn creater(&self) -> Option<&dyn Creater> {
        Some(self)
    }
}

impl BindingStorage {
    /// Binds the Pod `name` as `binding` says.
    async fn bind(
        &self,
        name: &str,
        namespace: Option<&str>,
        binding: Value,
        dry_run: bool,
    ) -> Result<Value, ApiError> {
        // ValidatePodBinding's errors are not a Status in Kubernetes: they answer 500.
        let kind = binding["target"]["kind"].as_str().unwrap_or_default();
        if !kind.is_empty() && kind != "Node" {
            return Err(ApiError::internal(format!(
                "target.kind: Unsupported value: {kind:?}: supported values: \"Node\", \"<empty>\""
            )));
        }
        let node = binding["target"]["name"].as_str().unwrap_or_default().to_string();
        if node.is_empty() {
            return Err(ApiError::internal("target.name: Required value"));
        }
        let annotations = binding["metadata"]["annotations"]
            .as_object()
            .cloned()
            .unwrap_or_default();
        let precondition = meta::resource_version(&binding).map_err(ApiError::bad_request)?;
        let uid = meta::field(&binding, "uid").to_string();
        let assign = |pod: &Value| {
            if !uid.is_empty() && meta::field(pod, "uid") != uid {
                return Err(ApiError::conflict(
                    "",
                    "pods/binding",
                    name,
                    &format!(
                        "Precondition failed: UID in precondition: {uid}, UID in object meta: {}",
                        meta::field(pod, "uid")
                    ),
                ));
            }
            if meta::deleting(pod) {
                return Err(ApiError::internal(format!(
                    "pod {name} is being deleted, cannot be assigned to a host"
                )));
            }
            if let Some(assigned) = pod["spec"]["nodeName"].as_str().filter(|n| !n.is_empty()) {
                return Err(ApiError::conflict(
                    "",
                    "pods/binding",
                    name,
                    &format!("pod {name} is already assigned to node {assigned:?}"),
                ));
            }
            if pod["spec"]["schedulingGates"].as_array().is_some_and(|g| !g.is_empty()) {
                return Err(ApiError::internal(format!(
                    "pod {name} has non-empty .spec.schedulingGates"
                )));
            }
            let mut next = pod.clone();
            next["spec"]["nodeName"] = json!(node);
            if !annotations.is_empty() {
                let m = meta::meta_mut(&mut next);
                let target = m.entry("annotations").or_insert_with(|| json!({}));
                if let Some(target) = target.as_object_mut() {
                    target.extend(annotations.clone());
                }
            }
            set_condition(&mut next, "PodScheduled", "True");
            Ok(next)
        };
        self.0
            .guaranteed_update(namespace, name, precondition, dry_run, assign, Target::Subresource)
            .await?;
        Ok(success())
    }
}

/// What `binding` and `eviction` answer: a Status of Success.
pub fn success() -> Value {
    json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Success", "code": 201})
}

/// Sets the Pod condition `kind` to `status`, its transition time now when it changes
/// (`podutil.UpdatePodCondition`).
fn set_condition(pod: &mut Value, kind: &str, status: &str) {
    if !pod["status"].is_object() {
        pod["status"] = json!({});
    }
    let conditions = &mut pod["status"]["conditions"];
    if !conditions.is_array() {
        *conditions = json!([]);
    }
    let Some(list) = conditions.as_array_mut() else { return };
    match list.iter_mut().find(|c| c["type"] == kind) {
        Some(c) if c["status"] == status => {}
        Some(c) => {
            c["status"] = json!(status);
            c["lastTransitionTime"] = json!(meta::now());
        }
        None => list.push(json!({"type": kind, "status": status, "lastTransitionTime": meta::now()})),
    }
}

/// The subresources kube-apiserver adds to Pods (over the Pods' store, with PodDisruptionBudgets
/// when the server has them).
pub fn pod_subresources(pods: &Arc<Store>, budgets: Option<Arc<Store>>) -> Vec<SubresourceInfo> {
    let pod = GroupVersionKind::from_static("", "v1", "Pod");
    let mut out = vec![
        SubresourceInfo {
            name: "binding",
            kind: GroupVersionKind::from_static("", "v1", "Binding"),
            storage: Arc::new(BindingStorage(pods.clone())),
            edges: None,
        },
        SubresourceInfo {
            name: "ephemeralcontainers",
            kind: pod.clone(),
            storage: Arc::new(parts::PartStorage {
                store: pods.clone(),
                part: parts::Part::EphemeralContainers,
            }),
            edges: None,
        },
        SubresourceInfo {
            name: "resize",
            kind: pod,
            storage: Arc::new(parts::PartStorage {
                store: pods.clone(),
                part: parts::Part::Resize,
            }),
            edges: None,
        },
    ];
    if let Some(budgets) = budgets {
        out.push(SubresourceInfo {
            name: "eviction",
            kind: GroupVersionKind::from_static("policy", "v1", "Eviction"),
            storage: Arc::new(eviction::EvictionStorage {
                pods: pods.clone(),
                budgets,
            }),
            edges: None,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn qos_classes_follow_requests_and_limits() {
        let pod = |resources: Value| json!({"spec": {"containers": [{"name": "a", "resources": resources}]}});
        assert_eq!(qos_class(&pod(json!({}))), "BestEffort");
        assert_eq!(qos_class(&pod(json!({"requests": {"cpu": "1"}}))), "Burstable");
        assert_eq!(
            qos_class(&pod(json!({"limits": {"cpu": "1", "memory": "1Gi"}}))),
            "Guaranteed"
        );
        assert_eq!(
            qos_class(&pod(
                json!({"requests": {"cpu": "500m", "memory": "1Gi"}, "limits": {"cpu": "1", "memory": "1Gi"}})
            )),
            "Burstable"
        );
    }
}
