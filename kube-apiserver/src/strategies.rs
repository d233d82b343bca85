//! kube-apiserver's strategy of each resource (its `pkg/registry/<group>/<resource>/strategy.go`
//! files): a table by group and resource over the generic strategy, which every resource not in
//! it keeps; each returns deleted objects where Kubernetes' storage does.

use std::sync::Arc;
use std::time::Duration;

use kube_apimachinery::RestMapping;
use serde_json::{Value, json};

use crate::rbac::strategy::RbacStrategy;
use kube_generic_apiserver::meta;
use kube_generic_apiserver::registry::strategy::{GenericStrategy, Strategy};
use kube_generic_apiserver::status::Cause;

/// What the strategies are configured with.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// `--event-ttl`: how long an Event is kept after its last write.
    pub event_ttl: Duration,
}

/// How one resource's strategy is made from the generic one.
type Make = fn(GenericStrategy, &Settings) -> Arc<dyn Strategy>;

fn rbac(generic: GenericStrategy, _: &Settings) -> Arc<dyn Strategy> {
    Arc::new(RbacStrategy(generic))
}

/// The resources whose strategy is not the generic one, by (group, resource).
const STRATEGIES: &[(&str, &str, Make)] = &[
    ("", "namespaces", |generic, _| Arc::new(NamespaceStrategy(generic))),
    // Every write keeps the Event for `--event-ttl` from then, as kube-apiserver's Event storage
    // does (its TTLFunc ignores the object).
    ("", "events", |generic, settings| {
        Arc::new(GenericStrategy {
            ttl: Some(settings.event_ttl),
            ..generic
        })
    }),
    ("apiextensions.k8s.io", "customresourcedefinitions", |generic, _| {
        kube_apiextensions_apiserver::install::strategy(generic)
    }),
    ("rbac.authorization.k8s.io", "clusterrolebindings", rbac),
    ("rbac.authorization.k8s.io", "clusterroles", rbac),
    ("rbac.authorization.k8s.io", "rolebindings", rbac),
    ("rbac.authorization.k8s.io", "roles", rbac),
];

/// The resources whose DELETE answers with the deleted object, as their storage in Kubernetes
/// sets `ReturnDeletedObject`; every other resource answers a Success Status.
const RETURN_DELETED_OBJECT: &[(&str, &str)] = &[
    ("", "namespaces"),
    ("", "persistentvolumeclaims"),
    ("", "persistentvolumes"),
    ("", "pods"),
    ("", "serviceaccounts"),
    ("", "services"),
    ("storage.k8s.io", "storageclasses"),
];

/// Kubernetes' strategy of the resource `m` maps.
pub fn strategy(m: &RestMapping, settings: &Settings) -> Arc<dyn Strategy> {
    let generic = GenericStrategy {
        return_deleted_object: RETURN_DELETED_OBJECT.contains(&(m.group, m.resource)),
        ..GenericStrategy::for_mapping(m)
    };
    match STRATEGIES
        .iter()
        .find(|(group, resource, _)| *group == m.group && *resource == m.resource)
    {
        Some((_, _, make)) => make(generic, settings),
        None => Arc::new(generic),
    }
}

/// Namespaces: a DNS-label name, `status.phase` Active and the `kubernetes` finalizer from
/// creation, and the label `kubernetes.io/metadata.name` naming it always (Kubernetes'
/// namespace defaults and strategy: selectors such as a NetworkPolicy's pick namespaces by it).
#[derive(Clone, Copy, Debug)]
pub struct NamespaceStrategy(pub GenericStrategy);

/// The label every namespace carries, its name.
const NAMESPACE_NAME_LABEL: &str = "kubernetes.io/metadata.name";

/// Sets the label naming the namespace.
fn label_namespace_name(obj: &mut Value) {
    let name = meta::name(obj).to_string();
    if name.is_empty() {
        return;
    }
    let m = meta::meta_mut(obj);
    if !m.get("labels").is_some_and(Value::is_object) {
        m.insert("labels".into(), json!({}));
    }
    m["labels"][NAMESPACE_NAME_LABEL] = json!(name);
}

impl Strategy for NamespaceStrategy {
    fn prepare_for_create(&self, obj: &mut Value) {
        self.0.prepare_for_create(obj);
        obj["status"] = json!({"phase": "Active"});
        // The namespace controller's finalizer, which a deletion waits for (it may be removed
        // over the namespace's life, so only creation adds it).
        if !obj.get("spec").is_some_and(Value::is_object) {
            obj["spec"] = json!({});
        }
        let finalizers = &mut obj["spec"]["finalizers"];
        if !finalizers.is_array() {
            *finalizers = json!([]);
        }
        if let Some(list) = finalizers.as_array_mut()
            && !list.iter().any(|f| f == "kubernetes")
        {
            list.push(json!("kubernetes"));
        }
        label_namespace_name(obj);
    }

    fn prepare_for_update(&self, new: &mut Value, old: &Value) {
        self.0.prepare_for_update(new, old);
        label_namespace_name(new);
    }

    fn prepare_for_status_update(&self, new: &mut Value, old: &Value) {
        self.0.prepare_for_status_update(new, old)
    }

    fn validate(&self, obj: &Value) -> Vec<Cause> {
        let mut causes = meta::validate_name(obj, true);
        causes.extend(meta::validate_object_meta(obj));
        causes
    }

    fn returns_deleted_object(&self) -> bool {
        self.0.returns_deleted_object()
    }
}
