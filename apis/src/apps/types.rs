//! The internal apps types, mirroring k8s.io/kubernetes pkg/apis/apps: in-memory only, no serialization.
//!
//! Where Go has a non-pointer `metav1.Time`, the field is `Option<Time>`: `None` is Go's zero time,
//! which Rust's `Time` has no value for.

use k8s_openapi::api::core::v1::PersistentVolumeClaim;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{LabelSelector, ListMeta, ObjectMeta, Time};
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
use kube_core::TypeMeta;

use crate::core::PodTemplateSpec;

/// StatefulSet represents a set of pods with consistent identities.
/// Identities are defined as:
///   - Network: A single stable DNS and hostname.
///   - Storage: As many VolumeClaims as requested.
///
/// The StatefulSet guarantees that a given network identity will always
/// map to the same storage identity.
/// +k8s:deepcopy-gen:interfaces=runtime::Object
#[derive(Debug, Default, PartialEq)]
pub struct StatefulSet {
    /// Standard type metadata (apiVersion and kind).
    pub type_meta: TypeMeta,
    /// Standard object's metadata.
    /// +optional
    pub metadata: ObjectMeta,
    /// Spec defines the desired identities of pods in this set.
    /// +optional
    pub spec: StatefulSetSpec,
    /// Status is the current status of Pods in this StatefulSet. This data
    /// may be out of date by some window of time.
    /// +optional
    pub status: StatefulSetStatus,
}

/// StatefulSetUpdateStrategy indicates the strategy that the StatefulSet
/// controller will use to perform updates. It includes any additional parameters
/// necessary to perform the update for the indicated strategy.
#[derive(Debug, Default, PartialEq)]
pub struct StatefulSetUpdateStrategy {
    /// Type indicates the type of the StatefulSetUpdateStrategy.
    pub type_: String,
    /// RollingUpdate is used to communicate parameters when Type is RollingUpdateStatefulSetStrategyType.
    pub rolling_update: Option<RollingUpdateStatefulSetStrategy>,
}

/// RollingUpdateStatefulSetStrategy is used to communicate parameter for RollingUpdateStatefulSetStrategyType.
#[derive(Debug, Default, PartialEq)]
pub struct RollingUpdateStatefulSetStrategy {
    /// Partition indicates the ordinal at which the StatefulSet should be partitioned
    /// for updates. During a rolling update, all pods from ordinal Replicas-1 to
    /// Partition are updated. All pods from ordinal Partition-1 to 0 remain untouched.
    /// This is helpful in being able to do a canary based deployment. The default value is 0.
    pub partition: i32,
    /// The maximum number of pods that can be unavailable during the update.
    /// Value can be an absolute number (ex: 5) or a percentage of desired pods (ex: 10%).
    /// Absolute number is calculated from percentage by rounding up. This can not be 0.
    /// Defaults to 1. This field is alpha-level and is only honored by servers that enable the
    /// MaxUnavailableStatefulSet feature. The field applies to all pods in the range 0 to
    /// Replicas-1. That means if there is any unavailable pod in the range 0 to Replicas-1, it
    /// will be counted towards MaxUnavailable.
    /// +optional
    pub max_unavailable: Option<IntOrString>,
}

/// StatefulSetPersistentVolumeClaimRetentionPolicy describes the policy used for PVCs
/// created from the StatefulSet VolumeClaimTemplates.
#[derive(Debug, Default, PartialEq)]
pub struct StatefulSetPersistentVolumeClaimRetentionPolicy {
    /// WhenDeleted specifies what happens to PVCs created from StatefulSet
    /// VolumeClaimTemplates when the StatefulSet is deleted. The default policy
    /// of `Retain` causes PVCs to not be affected by StatefulSet deletion. The
    /// `Delete` policy causes those PVCs to be deleted.
    pub when_deleted: String,
    /// WhenScaled specifies what happens to PVCs created from StatefulSet
    /// VolumeClaimTemplates when the StatefulSet is scaled down. The default
    /// policy of `Retain` causes PVCs to not be affected by a scaledown. The
    /// `Delete` policy causes the associated PVCs for any excess pods above
    /// the replica count to be deleted.
    pub when_scaled: String,
}

/// StatefulSetOrdinals describes the policy used for replica ordinal assignment
/// in this StatefulSet.
#[derive(Debug, Default, PartialEq)]
pub struct StatefulSetOrdinals {
    /// start is the number representing the first replica's index. It may be used
    /// to number replicas from an alternate index (eg: 1-indexed) over the default
    /// 0-indexed names, or to orchestrate progressive movement of replicas from
    /// one StatefulSet to another.
    /// If set, replica indices will be in the range:
    ///   [.spec.ordinals.start, .spec.ordinals.start + .spec.replicas).
    /// If unset, defaults to 0. Replica indices will be in the range:
    ///   [0, .spec.replicas).
    /// +optional
    pub start: i32,
}

/// A StatefulSetSpec is the specification of a StatefulSet.
#[derive(Debug, Default, PartialEq)]
pub struct StatefulSetSpec {
    /// Replicas is the desired number of replicas of the given Template.
    /// These are replicas in the sense that they are instantiations of the
    /// same Template, but individual replicas also have a consistent identity.
    /// If unspecified, defaults to 1.
    /// TODO: Consider a rename of this field.
    /// +optional
    pub replicas: i32,
    /// Selector is a label query over pods that should match the replica count.
    /// If empty, defaulted to labels on the pod template.
    /// More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors
    /// +optional
    pub selector: Option<LabelSelector>,
    /// Template is the object that describes the pod that will be created if
    /// insufficient replicas are detected. Each pod stamped out by the StatefulSet
    /// will fulfill this Template, but have a unique identity from the rest
    /// of the StatefulSet. Each pod will be named with the format
    /// <statefulsetname>-<podindex>. For example, a pod in a StatefulSet named
    /// "web" with index number "3" would be named "web-3".
    /// The only allowed template.spec.restartPolicy value is "Always".
    pub template: PodTemplateSpec,
    /// VolumeClaimTemplates is a list of claims that pods are allowed to reference.
    /// The StatefulSet controller is responsible for mapping network identities to
    /// claims in a way that maintains the identity of a pod. Every claim in
    /// this list must have at least one matching (by name) volumeMount in one
    /// container in the template. A claim in this list takes precedence over
    /// any volumes in the template, with the same name.
    /// TODO: Define the behavior if a claim already exists with the same name.
    /// +optional
    pub volume_claim_templates: Vec<PersistentVolumeClaim>,
    /// ServiceName is the name of the service that governs this StatefulSet.
    /// This service must exist before the StatefulSet, and is responsible for
    /// the network identity of the set. Pods get DNS/hostnames that follow the
    /// pattern: pod-specific-string.serviceName.default.svc.cluster.local
    /// where "pod-specific-string" is managed by the StatefulSet controller.
    /// +optional
    pub service_name: String,
    /// PodManagementPolicy controls how pods are created during initial scale up,
    /// when replacing pods on nodes, or when scaling down. The default policy is
    /// `OrderedReady`, where pods are created in increasing order (pod-0, then
    /// pod-1, etc) and the controller will wait until each pod is ready before
    /// continuing. When scaling down, the pods are removed in the opposite order.
    /// The alternative policy is `Parallel` which will create pods in parallel
    /// to match the desired scale without waiting, and on scale down will delete
    /// all pods at once.
    /// +optional
    pub pod_management_policy: String,
    /// updateStrategy indicates the StatefulSetUpdateStrategy that will be
    /// employed to update Pods in the StatefulSet when a revision is made to
    /// Template.
    pub update_strategy: StatefulSetUpdateStrategy,
    /// revisionHistoryLimit is the maximum number of revisions that will
    /// be maintained in the StatefulSet's revision history. The revision history
    /// consists of all revisions not represented by a currently applied
    /// StatefulSetSpec version. The default value is 10.
    pub revision_history_limit: Option<i32>,
    /// Minimum number of seconds for which a newly created pod should be ready
    /// without any of its container crashing for it to be considered available.
    /// Defaults to 0 (pod will be considered available as soon as it is ready)
    /// +optional
    pub min_ready_seconds: i32,
    /// PersistentVolumeClaimRetentionPolicy describes the policy used for PVCs created from
    /// the StatefulSet VolumeClaimTemplates.
    /// +optional
    pub persistent_volume_claim_retention_policy: Option<StatefulSetPersistentVolumeClaimRetentionPolicy>,
    /// ordinals controls the numbering of replica indices in a StatefulSet. The
    /// default ordinals behavior assigns a "0" index to the first replica and
    /// increments the index by one for each additional replica requested.
    /// +optional
    pub ordinals: Option<StatefulSetOrdinals>,
}

/// StatefulSetStatus represents the current state of a StatefulSet.
#[derive(Debug, Default, PartialEq)]
pub struct StatefulSetStatus {
    /// observedGeneration is the most recent generation observed for this StatefulSet. It corresponds to the
    /// StatefulSet's generation, which is updated on mutation by the API Server.
    /// +optional
    pub observed_generation: Option<i64>,
    /// replicas is the number of Pods created by the StatefulSet controller.
    pub replicas: i32,
    /// readyReplicas is the number of Pods created by the StatefulSet controller that have a Ready Condition.
    pub ready_replicas: i32,
    /// currentReplicas is the number of Pods created by the StatefulSet controller from the StatefulSet version
    /// indicated by currentRevision.
    pub current_replicas: i32,
    /// updatedReplicas is the number of Pods created by the StatefulSet controller from the StatefulSet version
    /// indicated by updateRevision.
    pub updated_replicas: i32,
    /// currentRevision, if not empty, indicates the version of the StatefulSet used to generate Pods in the
    /// sequence [0,currentReplicas).
    pub current_revision: String,
    /// updateRevision, if not empty, indicates the version of the StatefulSet used to generate Pods in the sequence
    /// [replicas-updatedReplicas,replicas)
    pub update_revision: String,
    /// collisionCount is the count of hash collisions for the StatefulSet. The StatefulSet controller
    /// uses this field as a collision avoidance mechanism when it needs to create the name for the
    /// newest ControllerRevision.
    /// +optional
    pub collision_count: Option<i32>,
    /// Represents the latest available observations of a statefulset's current state.
    pub conditions: Vec<StatefulSetCondition>,
    /// Total number of available pods (ready for at least minReadySeconds) targeted by this statefulset.
    /// +optional
    pub available_replicas: i32,
}

/// StatefulSetCondition describes the state of a statefulset at a certain point.
#[derive(Debug, Default, PartialEq)]
pub struct StatefulSetCondition {
    /// Type of statefulset condition.
    pub type_: String,
    /// Status of the condition, one of True, False, Unknown.
    pub status: String,
    /// The last time this condition was updated.
    pub last_transition_time: Option<Time>,
    /// The reason for the condition's last transition.
    pub reason: String,
    /// A human readable message indicating details about the transition.
    pub message: String,
}

/// StatefulSetList is a collection of StatefulSets.
/// +k8s:deepcopy-gen:interfaces=runtime::Object
#[derive(Debug, Default, PartialEq)]
pub struct StatefulSetList {
    /// Standard type metadata (apiVersion and kind).
    pub type_meta: TypeMeta,
    /// Standard list metadata.
    /// +optional
    pub metadata: ListMeta,
    /// Items is the list of stateful sets.
    pub items: Vec<StatefulSet>,
}

/// Deployment provides declarative updates for Pods and ReplicaSets.
/// +k8s:deepcopy-gen:interfaces=runtime::Object
#[derive(Debug, Default, PartialEq)]
pub struct Deployment {
    /// Standard type metadata (apiVersion and kind).
    pub type_meta: TypeMeta,
    /// Standard object's metadata.
    /// +optional
    pub metadata: ObjectMeta,
    /// Specification of the desired behavior of the Deployment.
    /// +optional
    pub spec: DeploymentSpec,
    /// Most recently observed status of the Deployment.
    /// +optional
    pub status: DeploymentStatus,
}

/// DeploymentSpec specifies the state of a Deployment.
#[derive(Debug, Default, PartialEq)]
pub struct DeploymentSpec {
    /// Number of desired pods.
    pub replicas: i32,
    /// Label selector for pods. Existing ReplicaSets whose pods are
    /// selected by this will be the ones affected by this deployment.
    /// +optional
    pub selector: Option<LabelSelector>,
    /// Template describes the pods that will be created.
    /// The only allowed template.spec.restartPolicy value is "Always".
    pub template: PodTemplateSpec,
    /// The deployment strategy to use to replace existing pods with new ones.
    /// +optional
    pub strategy: DeploymentStrategy,
    /// Minimum number of seconds for which a newly created pod should be ready
    /// without any of its container crashing, for it to be considered available.
    /// Defaults to 0 (pod will be considered available as soon as it is ready)
    /// +optional
    pub min_ready_seconds: i32,
    /// The number of old ReplicaSets to retain to allow rollback.
    /// This is a pointer to distinguish between explicit zero and not specified.
    /// This is set to the max value of int32 (i.e. 2147483647) by default, which means
    /// "retaining all old ReplicaSets".
    /// +optional
    pub revision_history_limit: Option<i32>,
    /// Indicates that the deployment is paused and will not be processed by the
    /// deployment controller.
    /// +optional
    pub paused: bool,
    /// DEPRECATED.
    /// The config this deployment is rolling back to. Will be cleared after rollback is done.
    /// +optional
    pub rollback_to: Option<RollbackConfig>,
    /// The maximum time in seconds for a deployment to make progress before it
    /// is considered to be failed. The deployment controller will continue to
    /// process failed deployments and a condition with a ProgressDeadlineExceeded
    /// reason will be surfaced in the deployment status. Note that progress will
    /// not be estimated during the time a deployment is paused. This is set to
    /// the max value of int32 (i.e. 2147483647) by default, which means "no deadline".
    /// +optional
    pub progress_deadline_seconds: Option<i32>,
}

/// RollbackConfig specifies the state of a revision to roll back to.
/// DEPRECATED.
#[derive(Debug, Default, PartialEq)]
pub struct RollbackConfig {
    /// The revision to rollback to. If set to 0, rollback to the last revision.
    /// +optional
    pub revision: i64,
}

/// DeploymentStrategy stores information about the strategy and rolling-update
/// behavior of a deployment.
#[derive(Debug, Default, PartialEq)]
pub struct DeploymentStrategy {
    /// Type of deployment. Can be "Recreate" or "RollingUpdate". Default is RollingUpdate.
    /// +optional
    pub type_: String,
    /// Rolling update config params. Present only if DeploymentStrategyType =
    /// RollingUpdate.
    /// +optional
    pub rolling_update: Option<RollingUpdateDeployment>,
}

/// RollingUpdateDeployment is the spec to control the desired behavior of rolling update.
#[derive(Debug, Default, PartialEq)]
pub struct RollingUpdateDeployment {
    /// The maximum number of pods that can be unavailable during the update.
    /// Value can be an absolute number (ex: 5) or a percentage of total pods at the start of update (ex: 10%).
    /// Absolute number is calculated from percentage by rounding down.
    /// This can not be 0 if MaxSurge is 0.
    /// By default, a fixed value of 1 is used.
    /// Example: when this is set to 30%, the old RC can be scaled down by 30%
    /// immediately when the rolling update starts. Once new pods are ready, old RC
    /// can be scaled down further, followed by scaling up the new RC, ensuring
    /// that at least 70% of original number of pods are available at all times
    /// during the update.
    /// +optional
    pub max_unavailable: IntOrString,
    /// The maximum number of pods that can be scheduled above the original number of
    /// pods.
    /// Value can be an absolute number (ex: 5) or a percentage of total pods at
    /// the start of the update (ex: 10%). This can not be 0 if MaxUnavailable is 0.
    /// Absolute number is calculated from percentage by rounding up.
    /// By default, a value of 1 is used.
    /// Example: when this is set to 30%, the new RC can be scaled up by 30%
    /// immediately when the rolling update starts. Once old pods have been killed,
    /// new RC can be scaled up further, ensuring that total number of pods running
    /// at any time during the update is at most 130% of original pods.
    /// +optional
    pub max_surge: IntOrString,
}

/// DeploymentStatus holds information about the observed status of a deployment.
#[derive(Debug, Default, PartialEq)]
pub struct DeploymentStatus {
    /// The generation observed by the deployment controller.
    /// +optional
    pub observed_generation: i64,
    /// Total number of non-terminating pods targeted by this deployment (their labels match the selector).
    /// +optional
    pub replicas: i32,
    /// Total number of non-terminating pods targeted by this deployment that have the desired template spec.
    /// +optional
    pub updated_replicas: i32,
    /// Total number of non-terminating pods targeted by this Deployment with a Ready Condition.
    /// +optional
    pub ready_replicas: i32,
    /// Total number of available non-terminating pods (ready for at least minReadySeconds) targeted by this deployment.
    /// +optional
    pub available_replicas: i32,
    /// Total number of unavailable pods targeted by this deployment. This is the total number of
    /// pods that are still required for the deployment to have 100% available capacity. They may
    /// either be pods that are running but not yet available or pods that still have not been created.
    /// +optional
    pub unavailable_replicas: i32,
    /// Total number of terminating pods targeted by this deployment. Terminating pods have a non-null
    /// .metadata.deletionTimestamp and have not yet reached the Failed or Succeeded .status.phase.
    ///
    /// This is an alpha field. Enable DeploymentReplicaSetTerminatingReplicas to be able to use this field.
    /// +optional
    pub terminating_replicas: Option<i32>,
    /// Represents the latest available observations of a deployment's current state.
    pub conditions: Vec<DeploymentCondition>,
    /// Count of hash collisions for the Deployment. The Deployment controller uses this
    /// field as a collision avoidance mechanism when it needs to create the name for the
    /// newest ReplicaSet.
    /// +optional
    pub collision_count: Option<i32>,
}

/// DeploymentCondition describes the state of a deployment at a certain point.
#[derive(Debug, Default, PartialEq)]
pub struct DeploymentCondition {
    /// Type of deployment condition.
    pub type_: String,
    /// Status of the condition, one of True, False, Unknown.
    pub status: String,
    /// The last time this condition was updated.
    pub last_update_time: Option<Time>,
    /// Last time the condition transitioned from one status to another.
    pub last_transition_time: Option<Time>,
    /// The reason for the condition's last transition.
    pub reason: String,
    /// A human readable message indicating details about the transition.
    pub message: String,
}

/// DeploymentList defines multiple deployments.
/// +k8s:deepcopy-gen:interfaces=runtime::Object
#[derive(Debug, Default, PartialEq)]
pub struct DeploymentList {
    /// Standard type metadata (apiVersion and kind).
    pub type_meta: TypeMeta,
    /// Standard list metadata.
    /// +optional
    pub metadata: ListMeta,
    /// Items is the list of deployments.
    pub items: Vec<Deployment>,
}

/// ReplicaSet ensures that a specified number of pod replicas are running at any given time.
/// +k8s:deepcopy-gen:interfaces=runtime::Object
#[derive(Debug, Default, PartialEq)]
pub struct ReplicaSet {
    /// Standard type metadata (apiVersion and kind).
    pub type_meta: TypeMeta,
    /// Standard object's metadata.
    /// +optional
    pub metadata: ObjectMeta,
    /// Spec defines the desired behavior of this ReplicaSet.
    /// +optional
    pub spec: ReplicaSetSpec,
    /// Status is the current status of this ReplicaSet. This data may be
    /// out of date by some window of time.
    /// +optional
    pub status: ReplicaSetStatus,
}

/// ReplicaSetList is a collection of ReplicaSets.
/// +k8s:deepcopy-gen:interfaces=runtime::Object
#[derive(Debug, Default, PartialEq)]
pub struct ReplicaSetList {
    /// Standard type metadata (apiVersion and kind).
    pub type_meta: TypeMeta,
    /// Standard list metadata.
    /// +optional
    pub metadata: ListMeta,
    /// Items is the list of ReplicaSets.
    pub items: Vec<ReplicaSet>,
}

/// ReplicaSetSpec is the specification of a ReplicaSet.
/// As the internal representation of a ReplicaSet, it must have
/// a Template set.
#[derive(Debug, Default, PartialEq)]
pub struct ReplicaSetSpec {
    /// Replicas is the number of desired replicas.
    pub replicas: i32,
    /// Minimum number of seconds for which a newly created pod should be ready
    /// without any of its container crashing, for it to be considered available.
    /// Defaults to 0 (pod will be considered available as soon as it is ready)
    /// +optional
    pub min_ready_seconds: i32,
    /// Selector is a label query over pods that should match the replica count.
    /// Must match in order to be controlled.
    /// If empty, defaulted to labels on pod template.
    /// More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors
    /// +optional
    pub selector: Option<LabelSelector>,
    /// Template is the object that describes the pod that will be created if
    /// insufficient replicas are detected.
    /// The only allowed template.spec.restartPolicy value is "Always".
    /// +optional
    pub template: PodTemplateSpec,
}

/// ReplicaSetStatus represents the current status of a ReplicaSet.
#[derive(Debug, Default, PartialEq)]
pub struct ReplicaSetStatus {
    /// Replicas is the most recently observed number of non-terminating pods.
    /// More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicaset
    pub replicas: i32,
    /// The number of non-terminating pods that have labels matching the labels of the pod template of the replicaset.
    /// +optional
    pub fully_labeled_replicas: i32,
    /// The number of non-terminating pods targeted by this ReplicaSet with a Ready Condition.
    /// +optional
    pub ready_replicas: i32,
    /// The number of available non-terminating pods (ready for at least minReadySeconds) for this replica set.
    /// +optional
    pub available_replicas: i32,
    /// The number of terminating pods for this replica set. Terminating pods have a non-null .metadata.deletionTimestamp
    /// and have not yet reached the Failed or Succeeded .status.phase.
    ///
    /// This is an alpha field. Enable DeploymentReplicaSetTerminatingReplicas to be able to use this field.
    /// +optional
    pub terminating_replicas: Option<i32>,
    /// ObservedGeneration reflects the generation of the most recently observed ReplicaSet.
    /// +optional
    pub observed_generation: i64,
    /// Represents the latest available observations of a replica set's current state.
    /// +optional
    pub conditions: Vec<ReplicaSetCondition>,
}

/// ReplicaSetCondition describes the state of a replica set at a certain point.
#[derive(Debug, Default, PartialEq)]
pub struct ReplicaSetCondition {
    /// Type of replica set condition.
    pub type_: String,
    /// Status of the condition, one of True, False, Unknown.
    pub status: String,
    /// The last time the condition transitioned from one status to another.
    /// +optional
    pub last_transition_time: Option<Time>,
    /// The reason for the condition's last transition.
    /// +optional
    pub reason: String,
    /// A human readable message indicating details about the transition.
    /// +optional
    pub message: String,
}
