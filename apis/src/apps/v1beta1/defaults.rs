//! Hand-written defaults of apps/v1beta1, as Kubernetes' pkg/apis/apps/v1beta1/defaults.go sets
//! them. They differ from v1: two old ReplicaSets kept instead of ten, StatefulSets update OnDelete,
//! and selectors and labels come from the pod template when absent.

use std::collections::BTreeMap;

use k8s_openapi::apimachinery::pkg::apis::meta::v1::{LabelSelector, ObjectMeta};
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;

use super::StatefulSetUpdateStrategy;
use super::{
    Deployment, DeploymentStrategy, RollingUpdateDeployment, StatefulSet,
    StatefulSetPersistentVolumeClaimRetentionPolicy,
};

/// Deployment defaults of v1beta1: selector and labels from the template, one replica, a
/// RollingUpdate strategy with 25% / 25%, two old ReplicaSets kept, a 600 second deadline.
pub fn set_defaults_deployment(obj: &mut Deployment) {
    let template_labels = obj.spec.template.metadata.as_ref().and_then(|m| m.labels.clone());
    if let Some(labels) = &template_labels {
        obj.spec.selector.get_or_insert_with(|| LabelSelector {
            match_labels: Some(labels.clone()),
            ..Default::default()
        });
        labels_from_template(&mut obj.metadata, labels);
    }
    let spec = &mut obj.spec;
    spec.replicas.get_or_insert(1);
    let strategy = spec.strategy.get_or_insert_with(DeploymentStrategy::default);
    let kind = kube_apimachinery::defaulting::set_if_empty(&mut strategy.type_, "RollingUpdate");
    if *kind == "RollingUpdate" {
        let rolling = strategy
            .rolling_update
            .get_or_insert_with(RollingUpdateDeployment::default);
        rolling
            .max_unavailable
            .get_or_insert_with(|| IntOrString::String("25%".into()));
        rolling
            .max_surge
            .get_or_insert_with(|| IntOrString::String("25%".into()));
    }
    spec.revision_history_limit.get_or_insert(2);
    spec.progress_deadline_seconds.get_or_insert(600);
}

/// StatefulSet defaults of v1beta1: ordered pod management, OnDelete updates, selector and labels
/// from the template, one replica, ten revisions, claims retained.
pub fn set_defaults_stateful_set(obj: &mut StatefulSet) {
    let template_labels = obj.spec.template.metadata.as_ref().and_then(|m| m.labels.clone());
    if let Some(labels) = &template_labels {
        obj.spec.selector.get_or_insert_with(|| LabelSelector {
            match_labels: Some(labels.clone()),
            ..Default::default()
        });
        labels_from_template(&mut obj.metadata, labels);
    }
    let spec = &mut obj.spec;
    kube_apimachinery::defaulting::set_if_empty(&mut spec.pod_management_policy, "OrderedReady");
    let strategy = spec
        .update_strategy
        .get_or_insert_with(StatefulSetUpdateStrategy::default);
    let kind = kube_apimachinery::defaulting::set_if_empty(&mut strategy.type_, "OnDelete");
    if *kind == "RollingUpdate"
        && let Some(rolling) = strategy.rolling_update.as_mut()
    {
        rolling.partition.get_or_insert(0);
    }
    let retention = spec
        .persistent_volume_claim_retention_policy
        .get_or_insert_with(StatefulSetPersistentVolumeClaimRetentionPolicy::default);
    kube_apimachinery::defaulting::set_if_empty(&mut retention.when_deleted, "Retain");
    kube_apimachinery::defaulting::set_if_empty(&mut retention.when_scaled, "Retain");
    spec.replicas.get_or_insert(1);
    spec.revision_history_limit.get_or_insert(10);
}

/// An object without labels takes its template's.
fn labels_from_template(meta: &mut ObjectMeta, labels: &BTreeMap<String, String>) {
    if meta.labels.as_ref().is_none_or(BTreeMap::is_empty) {
        meta.labels = Some(labels.clone());
    }
}
