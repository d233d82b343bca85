//! kube-apiserver's strategy of each resource (its `pkg/registry/<group>/<resource>/strategy.go`
//! files): a table by group and resource over the generic strategy, which every resource not in
//! it keeps; each returns deleted objects where Kubernetes' storage does. Namespaces, Pods,
//! PersistentVolumes and claims, Jobs and StatefulSets have theirs here.

use std::borrow::Cow;
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
    ("", "pods", |generic, _| Arc::new(OnCreate(generic, pending_pod))),
    ("", "persistentvolumes", |generic, _| {
        Arc::new(OnCreate(generic, pending_volume))
    }),
    ("", "persistentvolumeclaims", |generic, _| {
        Arc::new(OnCreate(generic, pending_claim))
    }),
    ("batch", "jobs", |generic, _| Arc::new(OnCreate(generic, job_selector))),
    ("apps", "statefulsets", |generic, _| {
        Arc::new(StatefulSetStrategy(generic))
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

/// The labels a generated selector puts on a Job's pods: the Job's name and uid, each under its
/// current and its legacy key.
const JOB_NAME_LABELS: [&str; 2] = ["job-name", "batch.kubernetes.io/job-name"];
const CONTROLLER_UID_LABELS: [&str; 2] = ["controller-uid", "batch.kubernetes.io/controller-uid"];

/// Labels the pod template of `job` and selects it by the Job's uid; labels a client set are
/// kept (a conflict is then validation's to report).
fn generate_job_selector(job: &mut Value) {
    let name = meta::name(job).to_string();
    let uid = meta::field(job, "uid").to_string();
    let spec = &mut job["spec"];
    if !spec.is_object() {
        return;
    }
    let template = &mut spec["template"];
    if !template["metadata"].is_object() {
        template["metadata"] = json!({});
    }
    let labels = &mut template["metadata"]["labels"];
    if !labels.is_object() {
        *labels = json!({});
    }
    if let Some(labels) = labels.as_object_mut() {
        for key in JOB_NAME_LABELS {
            labels.entry(key).or_insert_with(|| json!(name));
        }
        for key in CONTROLLER_UID_LABELS {
            labels.entry(key).or_insert_with(|| json!(uid));
        }
    }
    let selector = &mut spec["selector"];
    if !selector.is_object() {
        *selector = json!({});
    }
    if !selector["matchLabels"].is_object() {
        selector["matchLabels"] = json!({});
    }
    if let Some(match_labels) = selector["matchLabels"].as_object_mut() {
        match_labels
            .entry(CONTROLLER_UID_LABELS[1])
            .or_insert_with(|| json!(uid));
    }
}

/// A strategy that is the generic one with something more done at creation: what Kubernetes'
/// strategies of Pods and Jobs add.
#[derive(Clone, Copy)]
pub struct OnCreate(pub GenericStrategy, pub fn(&mut Value));

impl Strategy for OnCreate {
    fn prepare_for_create(&self, obj: &mut Value) {
        self.0.prepare_for_create(obj);
        (self.1)(obj);
    }

    fn prepare_for_update(&self, new: &mut Value, old: &Value) {
        self.0.prepare_for_update(new, old)
    }

    fn prepare_for_status_update(&self, new: &mut Value, old: &Value) {
        self.0.prepare_for_status_update(new, old)
    }

    fn validate(&self, obj: &Value) -> Vec<Cause> {
        self.0.validate(obj)
    }

    fn validate_update(&self, new: &Value, old: &Value) -> Vec<Cause> {
        self.0.validate_update(new, old)
    }

    fn validate_status_update(&self, new: &Value, old: &Value) -> Vec<Cause> {
        self.0.validate_status_update(new, old)
    }

    fn returns_deleted_object(&self) -> bool {
        self.0.returns_deleted_object()
    }
}

/// Pods: a new Pod is Pending with its QoS class and nothing else in its status (Kubernetes'
/// pod strategy), what a cluster without nodes then keeps it as.
fn pending_pod(pod: &mut Value) {
    pod["status"] = json!({"phase": "Pending", "qosClass": crate::pod::qos_class(pod)});
}

/// PersistentVolumes: Pending from creation, since now (Kubernetes' strategy; its defaults
/// make the phase Pending on every read, which a status cleared at creation would lose here).
fn pending_volume(volume: &mut Value) {
    volume["status"] = json!({"phase": "Pending", "lastPhaseTransitionTime": meta::now()});
}

/// PersistentVolumeClaims: Pending from creation (what Kubernetes' defaults make of the
/// status its strategy clears).
fn pending_claim(claim: &mut Value) {
    claim["status"] = json!({"phase": "Pending"});
}

/// Jobs: unless `spec.manualSelector` is set, the selector is generated (the Job's uid) and the
/// pod template labelled to match, with the Job's name beside it (Kubernetes' job strategy,
/// `generateSelector`): a Job's pods are then its own even when another Job has the same labels.
fn job_selector(job: &mut Value) {
    if job["spec"]["manualSelector"] != true {
        generate_job_selector(job);
    }
}

/// StatefulSets: the generic strategy, with the pod template validated as the set's pods will
/// be (Kubernetes' `ValidateStatefulSetSpec` validates such a copy): a volume for each claim
/// template, which containers mount by the template's name, and no hostname or subdomain, which
/// the controller sets.
#[derive(Clone, Copy, Debug)]
pub struct StatefulSetStrategy(pub GenericStrategy);

impl Strategy for StatefulSetStrategy {
    fn prepare_for_create(&self, obj: &mut Value) {
        self.0.prepare_for_create(obj)
    }

    fn prepare_for_update(&self, new: &mut Value, old: &Value) {
        self.0.prepare_for_update(new, old)
    }

    fn prepare_for_status_update(&self, new: &mut Value, old: &Value) {
        self.0.prepare_for_status_update(new, old)
    }

    fn validate(&self, obj: &Value) -> Vec<Cause> {
        self.0.validate(obj)
    }

    fn validation_view<'a>(&self, set: &'a Value) -> Cow<'a, Value> {
        let claims: Vec<&str> = set["spec"]["volumeClaimTemplates"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|c| c["metadata"]["name"].as_str())
            .collect();
        let pod = &set["spec"]["template"]["spec"];
        if claims.is_empty() && pod.get("hostname").is_none() && pod.get("subdomain").is_none() {
            return Cow::Borrowed(set);
        }
        let mut view = set.clone();
        if let Some(pod) = view.pointer_mut("/spec/template/spec").and_then(Value::as_object_mut) {
            pod.remove("hostname");
            pod.remove("subdomain");
            let own = pod
                .get("volumes")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            let mut volumes: Vec<Value> = claims
                .iter()
                .map(|name| json!({"name": name, "persistentVolumeClaim": {"claimName": name}}))
                .collect();
            volumes.extend(own.into_iter().filter(|v| !claims.iter().any(|c| v["name"] == *c)));
            if !volumes.is_empty() {
                pod.insert("volumes".into(), Value::Array(volumes));
            }
        }
        Cow::Owned(view)
    }

    fn returns_deleted_object(&self) -> bool {
        self.0.returns_deleted_object()
    }
}
