//! `pods/eviction` (Kubernetes' `EvictionREST`, what `kubectl drain` posts): a Pod that is
//! not running (Pending, Succeeded, Failed) or already going is deleted at once; a running one
//! only when the PodDisruptionBudget selecting it allows a disruption, which the eviction takes
//! (its `disruptionsAllowed` decremented, the Pod noted in `disruptedPods`). Otherwise 429 with
//! Kubernetes' DisruptionBudget cause, as a drain retries on.

use std::sync::Arc;

use async_trait::async_trait;
use serde_json::{Value, json};

use kube_generic_apiserver::meta;
use kube_generic_apiserver::registry::rest::{Context, Creater, RestStorage};
use kube_generic_apiserver::registry::store::{Preconditions, Store, Target};
use kube_generic_apiserver::selector::{LabelSelector, format};
use kube_generic_apiserver::status::{ApiError, Cause};

/// How often an eviction retries when the budget changed under it.
const RETRIES: usize = 5;

/// The eviction subresource's storage.
pub struct EvictionStorage {
    /// The Pods' store.
    pub pods: Arc<Store>,
    /// The PodDisruptionBudgets' store.
    pub budgets: Arc<Store>,
}

/// The 429 of an eviction a budget refuses, with its cause.
fn too_many_requests(retry_after: u64, cause: String) -> ApiError {
    let mut e = ApiError::too_many_requests(retry_after);
    e.message = "Cannot evict pod as it would violate the pod's disruption budget.".into();
    e.details.causes = vec![Cause {
        reason: "DisruptionBudget",
        message: cause,
        field: String::new(),
    }];
    e
}

/// Whether a budget needs no say: the Pod is not running, or already being deleted
/// (`canIgnorePDB`).
fn ignores_budgets(pod: &Value) -> bool {
    matches!(
        pod["status"]["phase"].as_str().unwrap_or("Pending"),
        "Succeeded" | "Failed" | "Pending"
    ) || meta::deleting(pod)
}

/// Whether the Pod is Ready (its Ready condition True).
fn ready(pod: &Value) -> bool {
    pod["status"]["conditions"]
        .as_array()
        .into_iter()
        .flatten()
        .any(|c| c["type"] == "Ready" && c["status"] == "True")
}

impl EvictionStorage {
    /// The budgets of the Pod's namespace whose selector selects it.
    async fn budgets_of(&self, pod: &Value) -> Result<Vec<Value>, ApiError> {
        let namespace = meta::field(pod, "namespace").to_string();
        let page = self.budgets.list(Some(&namespace), None, None, None).await?;
        let labels = meta::labels(pod);
        let mut out = Vec::new();
        for stored in page.items {
            let budget = stored.value()?;
            // A budget without a selector selects nothing; an empty one, every Pod.
            let Some(selector) = budget["spec"].get("selector").filter(|s| !s.is_null()) else {
                continue;
            };
            let selector = LabelSelector::parse(&format(selector)).map_err(ApiError::internal)?;
            if selector.matches(labels) {
                out.push(budget);
            }
        }
        Ok(out)
    }

    /// Takes one disruption of `budget` for the Pod `pod_name` (`checkAndDecrement`).
    async fn take(&self, namespace: &str, budget: &str, pod_name: &str, dry_run: bool) -> Result<(), ApiError> {
        let decrement = |current: &Value| -> Result<Value, ApiError> {
            let status = &current["status"];
            let observed = status["observedGeneration"].as_i64().unwrap_or(0);
            let generation = current["metadata"]["generation"].as_i64().unwrap_or(0);
            if observed < generation {
                return Err(too_many_requests(
                    10,
                    format!("The disruption budget {budget} is still being processed by the server."),
                ));
            }
            let allowed = status["disruptionsAllowed"].as_i64().unwrap_or(0);
            if allowed < 0 {
                return Err(ApiError::forbidden_resource(
                    "policy",
                    "poddisruptionbudget",
                    budget,
                    "pdb disruptions allowed is negative",
                ));
            }
            if allowed == 0 {
                return Err(too_many_requests(
                    0,
                    format!(
                        "The disruption budget {budget} needs {} healthy pods and has {} currently",
                        status["desiredHealthy"].as_i64().unwrap_or(0),
                        status["currentHealthy"].as_i64().unwrap_or(0)
                    ),
                ));
            }
            let mut next = current.clone();
            next["status"]["disruptionsAllowed"] = json!(allowed - 1);
            if !next["status"]["disruptedPods"].is_object() {
                next["status"]["disruptedPods"] = json!({});
            }
            next["status"]["disruptedPods"][pod_name] = json!(meta::now());
            if allowed == 1 {
                set_disruption_allowed(&mut next);
            }
            Ok(next)
        };
        self.budgets
            .guaranteed_update(Some(namespace), budget, None, dry_run, decrement, Target::Status)
            .await
            .map(|_| ())
    }
}

/// The budget's DisruptionAllowed condition once no disruption is left.
fn set_disruption_allowed(budget: &mut Value) {
    let condition = json!({
        "type": "DisruptionAllowed",
        "status": "False",
        "reason": "InsufficientPods",
        "message": "",
        "observedGeneration": budget["status"]["observedGeneration"].clone(),
        "lastTransitionTime": meta::now(),
    });
    let conditions = &mut budget["status"]["conditions"];
    if !conditions.is_array() {
        *conditions = json!([]);
    }
    if let Some(list) = conditions.as_array_mut() {
        list.retain(|c| c["type"] != "DisruptionAllowed");
        list.push(condition);
    }
}

#[async_trait]
impl Creater for EvictionStorage {
    async fn create(
        &self,
        ctx: &Context<'_>,
        namespace: Option<&str>,
        eviction: Value,
        dry_run: bool,
    ) -> Result<Value, ApiError> {
        let name = ctx.name.unwrap_or_default();
        if meta::name(&eviction) != name {
            return Err(ApiError::bad_request(
                "name in URL does not match name in Eviction object",
            ));
        }
        let options = &eviction["deleteOptions"];
        let dry_run = dry_run || options["dryRun"].as_array().is_some_and(|d| !d.is_empty());
        let preconditions = Preconditions {
            resource_version: options["preconditions"]["resourceVersion"]
                .as_str()
                .and_then(|rv| rv.parse().ok()),
            uid: options["preconditions"]["uid"].as_str().map(str::to_string),
        };
        let ns = namespace.unwrap_or_default();
        let delete = || async {
            self.pods
                .delete(namespace, name, &preconditions, dry_run)
                .await
                .map(|_| super::success())
        };
        let mut last = None;
        for _ in 0..RETRIES {
            let pod = self.pods.get(namespace, name).await?;
            if ignores_budgets(&pod) {
                return delete().await;
            }
            let budgets = self.budgets_of(&pod).await?;
            let budget = match budgets.as_slice() {
                [] => return delete().await,
                [one] => one,
                _ => {
                    return Err(ApiError::internal(
                        "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.",
                    ));
                }
            };
            // An unready Pod does not count as healthy: the AlwaysAllow policy lets it go.
            if !ready(&pod) && budget["spec"]["unhealthyPodEvictionPolicy"] == "AlwaysAllow" {
                return delete().await;
            }
            match self.take(ns, meta::name(budget), name, dry_run).await {
                Ok(()) => return delete().await,
                Err(e) if e.code == 409 => last = Some(e),
                Err(e) => return Err(e),
            }
        }
        Err(last.unwrap_or_else(|| ApiError::conflict("", "pods/eviction", name, "too many concurrent writes")))
    }
}

impl RestStorage for EvictionStorage {
    fn creater(&self) -> Option<&dyn Creater> {
        Some(self)
    }
}
