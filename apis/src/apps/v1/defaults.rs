//! Hand-written defaults of apps/v1, as Kubernetes' pkg/apis/apps/v1/defaults.go sets them; the
//! generated `set_object_defaults_*` call these and walk into the pod template.

use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;

use super::{Deployment, DeploymentStrategy, DeploymentStrategyType, ReplicaSet, RollingUpdateDeployment, StatefulSet};
use super::{
    PodManagementPolicyType, RollingUpdateStatefulSetStrategy, StatefulSetPersistentVolumeClaimRetentionPolicy,
    StatefulSetUpdateStrategy, StatefulSetUpdateStrategyType,
};

/// Deployment defaults: one replica, a RollingUpdate strategy with 25% unavailable and 25% surge,
/// ten old ReplicaSets kept, and a progress deadline of 600 seconds.
pub fn set_defaults_deployment(obj: &mut Deployment) {
    let spec = obj.spec.get_or_insert_with(Default::default);
    spec.replicas.get_or_insert(1);
    let strategy = spec.strategy.get_or_insert_with(DeploymentStrategy::default);
    let kind = strategy
        .type_
        .get_or_insert(DeploymentStrategyType::RollingUpdateDeploymentStrategyType);
    if *kind == DeploymentStrategyType::RollingUpdateDeploymentStrategyType {
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
    spec.revision_history_limit.get_or_insert(10);
    spec.progress_deadline_seconds.get_or_insert(600);
}

/// StatefulSet defaults: ordered pod management, RollingUpdate from partition 0, one replica,
/// ten revisions kept, and claims retained when the set is deleted or scaled down.
pub fn set_defaults_stateful_set(obj: &mut StatefulSet) {
    let spec = obj.spec.get_or_insert_with(Default::default);
    spec.pod_management_policy
        .get_or_insert(PodManagementPolicyType::OrderedReadyPodManagement);
    let strategy = spec
        .update_strategy
        .get_or_insert_with(StatefulSetUpdateStrategy::default);
    let kind = strategy
        .type_
        .get_or_insert(StatefulSetUpdateStrategyType::RollingUpdateStatefulSetStrategyType);
    if *kind == StatefulSetUpdateStrategyType::RollingUpdateStatefulSetStrategyType {
        let rolling = strategy
            .rolling_update
            .get_or_insert_with(RollingUpdateStatefulSetStrategy::default);
        rolling.partition.get_or_insert(0);
    }
    let retention = spec
        .persistent_volume_claim_retention_policy
        .get_or_insert_with(StatefulSetPersistentVolumeClaimRetentionPolicy::default);
    retention.when_deleted.get_or_insert_with(|| "Retain".into());
    retention.when_scaled.get_or_insert_with(|| "Retain".into());
    spec.replicas.get_or_insert(1);
    spec.revision_history_limit.get_or_insert(10);
}

/// ReplicaSet defaults: one replica.
pub fn set_defaults_replica_set(obj: &mut ReplicaSet) {
    obj.spec.get_or_insert_with(Default::default).replicas.get_or_insert(1);
}
