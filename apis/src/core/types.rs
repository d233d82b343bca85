//! The internal core types, mirroring k8s.io/kubernetes pkg/apis/core: in-memory only, no serialization.
//!
//! Where Go has a non-pointer `metav1.Time`, the field is `Option<Time>`: `None` is Go's zero time,
//! which Rust's `Time` has no value for. Like Kubernetes' internal types, `PodSpec` keeps
//! `hostNetwork` in its `securityContext` and `PodStatus` has `podIPs` but no `podIP`; converting
//! those two types to and from v1 needs hand-written functions, as in Kubernetes.

use std::collections::BTreeMap;

use k8s_openapi::ByteString;
use k8s_openapi::apimachinery::pkg::api::resource::Quantity;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{ListMeta, ObjectMeta, Time};
use kube_core::TypeMeta;

/// Pod is a collection of containers, used as either input (create, update) or as output (list, get).
/// +k8s:deepcopy-gen:interfaces=runtime::Object
#[derive(Debug, Default, PartialEq)]
pub struct Pod {
    /// Standard type metadata (apiVersion and kind).
    pub type_meta: TypeMeta,
    /// Standard object's metadata.
    /// +optional
    pub metadata: ObjectMeta,
    /// Spec defines the behavior of a pod.
    /// +optional
    pub spec: PodSpec,
    /// Status represents the current information about a pod. This data may not be up
    /// to date.
    /// +optional
    pub status: PodStatus,
}

/// PodList is a list of Pods.
/// +k8s:deepcopy-gen:interfaces=runtime::Object
#[derive(Debug, Default, PartialEq)]
pub struct PodList {
    /// Standard type metadata (apiVersion and kind).
    pub type_meta: TypeMeta,
    /// Standard list metadata.
    /// +optional
    pub metadata: ListMeta,
    /// List of pods.
    pub items: Vec<Pod>,
}

/// PodSpec is a description of a pod
#[derive(Debug, Default, PartialEq)]
pub struct PodSpec {
    /// List of initialization containers belonging to the pod.
    pub init_containers: Vec<Container>,
    /// List of containers belonging to the pod.
    pub containers: Vec<Container>,
    /// Restart policy for all containers within the pod.
    /// +optional
    pub restart_policy: String,
    /// Optional duration in seconds the pod needs to terminate gracefully. May be decreased in delete request.
    /// Value must be non-negative integer. The value zero indicates delete immediately.
    /// If this value is nil, the default grace period will be used instead.
    /// The grace period is the duration in seconds after the processes running in the pod are sent
    /// a termination signal and the time when the processes are forcibly halted with a kill signal.
    /// Set this value longer than the expected cleanup time for your process.
    /// +optional
    pub termination_grace_period_seconds: Option<i64>,
    /// Optional duration in seconds relative to the StartTime that the pod may be active on a node
    /// before the system actively tries to terminate the pod; value must be positive integer
    /// +optional
    pub active_deadline_seconds: Option<i64>,
    /// Set DNS policy for the pod.
    /// Defaults to "ClusterFirst".
    /// Valid values are 'ClusterFirstWithHostNet', 'ClusterFirst', 'Default' or 'None'.
    /// DNS parameters given in DNSConfig will be merged with the policy selected with DNSPolicy.
    /// To have DNS options set along with hostNetwork, you have to specify DNS policy
    /// explicitly to 'ClusterFirstWithHostNet'.
    /// +optional
    pub dns_policy: String,
    /// NodeSelector is a selector which must be true for the pod to fit on a node
    /// +optional
    pub node_selector: BTreeMap<String, String>,
    /// ServiceAccountName is the name of the ServiceAccount to use to run this pod
    /// The pod will be allowed to use secrets referenced by the ServiceAccount
    pub service_account_name: String,
    /// AutomountServiceAccountToken indicates whether a service account token should be automatically mounted.
    /// +optional
    pub automount_service_account_token: Option<bool>,
    /// NodeName is a request to schedule this pod onto a specific node.  If it is non-empty,
    /// the scheduler simply schedules this pod onto that node, assuming that it fits resource
    /// requirements.
    /// +optional
    pub node_name: String,
    /// SecurityContext holds pod-level security attributes and common container settings.
    /// Optional: Defaults to empty.  See type description for default values of each field.
    /// +optional
    pub security_context: Option<PodSecurityContext>,
    /// ImagePullSecrets is an optional list of references to secrets in the same namespace to use for pulling any of the images used by this PodSpec.
    /// If specified, these secrets will be passed to individual puller implementations for them to use.  For example,
    /// in the case of docker, only DockerConfig type secrets are honored.
    /// +optional
    pub image_pull_secrets: Vec<LocalObjectReference>,
    /// If specified, the pod will be dispatched by specified scheduler.
    /// If not specified, the pod will be dispatched by default scheduler.
    /// +optional
    pub scheduler_name: String,
    /// If specified, indicates the pod's priority. "system-node-critical" and
    /// "system-cluster-critical" are two special keywords which indicate the
    /// highest priorities with the former being the highest priority. Any other
    /// name must be defined by creating a PriorityClass object with that name.
    /// If not specified, the pod priority will be default or zero if there is no
    /// default.
    /// +optional
    pub priority_class_name: String,
    /// The priority value. Various system components use this field to find the
    /// priority of the pod. When Priority Admission Controller is enabled, it
    /// prevents users from setting this field. The admission controller populates
    /// this field from PriorityClassName.
    /// The higher the value, the higher the priority.
    /// +optional
    pub priority: Option<i32>,
}

/// PodSecurityContext holds pod-level security attributes and common container settings.
/// Some fields are also present in container.securityContext.  Field values of
/// container.securityContext take precedence over field values of PodSecurityContext.
#[derive(Debug, Default, PartialEq)]
pub struct PodSecurityContext {
    /// Use the host's network namespace.  If this option is set, the ports that will be
    /// used must be specified.
    /// Optional: Default to false
    /// +optional
    pub host_network: bool,
}

/// PodStatus represents information about the status of a pod. Status may trail the actual
/// state of a system.
#[derive(Debug, Default, PartialEq)]
pub struct PodStatus {
    /// The phase of a Pod is a simple, high-level summary of where the Pod is in its lifecycle.
    /// +optional
    pub phase: String,
    /// Current service state of pod.
    /// +optional
    pub conditions: Vec<PodCondition>,
    /// A human readable message indicating details about why the pod is in this state.
    /// +optional
    pub message: String,
    /// A brief CamelCase message indicating details about why the pod is in this state. e.g. 'Evicted'
    /// +optional
    pub reason: String,
    /// IP address of the host to which the pod is assigned. Empty if not yet scheduled.
    /// +optional
    pub host_ip: String,
    /// PodIPs holds all of the known IP addresses allocated to the pod. Pods may be assigned AT MOST
    /// one value for each of IPv4 and IPv6.
    /// +optional
    pub pod_ips: Vec<PodIP>,
    /// Date and time at which the object was acknowledged by the Kubelet.
    /// This is before the Kubelet pulled the container image(s) for the pod.
    /// +optional
    pub start_time: Option<Time>,
}

/// PodCondition represents pod's condition
#[derive(Debug, Default, PartialEq)]
pub struct PodCondition {
    /// Type is the type of the condition.
    pub type_: String,
    /// If set, this represents the .metadata.generation that the pod condition was set based upon.
    /// +optional
    pub observed_generation: i64,
    /// Status is the status of the condition.
    /// Can be True, False, Unknown.
    pub status: String,
    /// Last time we probed the condition.
    /// +optional
    pub last_probe_time: Option<Time>,
    /// Last time the condition transitioned from one status to another.
    /// +optional
    pub last_transition_time: Option<Time>,
    /// Unique, one-word, CamelCase reason for the condition's last transition.
    /// +optional
    pub reason: String,
    /// Human-readable message indicating details about last transition.
    /// +optional
    pub message: String,
}

/// PodIP represents the IP address of a pod.
/// IP address information. Each entry includes:
///    IP: An IP address allocated to the pod. Routable at least within
///        the cluster.
#[derive(Debug, Default, PartialEq)]
pub struct PodIP {
    /// IP is the IP address assigned to the pod
    pub ip: String,
}

/// Container represents a single container that is expected to be run on the host.
#[derive(Debug, Default, PartialEq)]
pub struct Container {
    /// Required: This must be a DNS_LABEL.  Each container in a pod must
    /// have a unique name.
    pub name: String,
    /// Required.
    pub image: String,
    /// Optional: The docker image's entrypoint is used if this is not provided; cannot be updated.
    /// Variable references $(VAR_NAME) are expanded using the container's environment.  If a variable
    /// cannot be resolved, the reference in the input string will be unchanged.  The $(VAR_NAME) syntax
    /// can be escaped with a double $$, ie: $$(VAR_NAME).  Escaped references will never be expanded,
    /// regardless of whether the variable exists or not.
    /// +optional
    pub command: Vec<String>,
    /// Optional: The docker image's cmd is used if this is not provided; cannot be updated.
    /// Variable references $(VAR_NAME) are expanded using the container's environment.  If a variable
    /// cannot be resolved, the reference in the input string will be unchanged.  The $(VAR_NAME) syntax
    /// can be escaped with a double $$, ie: $$(VAR_NAME).  Escaped references will never be expanded,
    /// regardless of whether the variable exists or not.
    /// +optional
    pub args: Vec<String>,
    /// Optional: Defaults to Docker's default.
    /// +optional
    pub working_dir: String,
    /// List of ports to expose from the container.
    /// +optional
    pub ports: Vec<ContainerPort>,
    /// List of environment variables to set in the container.
    /// +optional
    pub env: Vec<EnvVar>,
    /// Compute resource requirements.
    /// +optional
    pub resources: ResourceRequirements,
    /// Required.
    /// +optional
    pub termination_message_path: String,
    /// Indicate how the termination message should be populated.
    /// +optional
    pub termination_message_policy: String,
    /// Required: Policy for pulling images for this container
    pub image_pull_policy: String,
}

/// ContainerPort represents a network port in a single container
#[derive(Debug, Default, PartialEq)]
pub struct ContainerPort {
    /// Optional: If specified, this must be an IANA_SVC_NAME  Each named port
    /// in a pod must have a unique name.
    /// +optional
    pub name: String,
    /// Optional: If specified, this must be a valid port number, 0 < x < 65536.
    /// If HostNetwork is specified, this must match ContainerPort.
    /// +optional
    pub host_port: i32,
    /// Required: This must be a valid port number, 0 < x < 65536.
    pub container_port: i32,
    /// Required: Supports "TCP", "UDP" and "SCTP"
    /// +optional
    pub protocol: String,
    /// Optional: What host IP to bind the external port to.
    /// +optional
    pub host_ip: String,
}

/// EnvVar represents an environment variable present in a Container.
#[derive(Debug, Default, PartialEq)]
pub struct EnvVar {
    /// Required: This must be a C_IDENTIFIER.
    pub name: String,
    /// Optional: no more than one of the following may be specified.
    /// Optional: Defaults to ""; variable references $(VAR_NAME) are expanded
    /// using the previous defined environment variables in the container and
    /// any service environment variables.  If a variable cannot be resolved,
    /// the reference in the input string will be unchanged.  The $(VAR_NAME)
    /// syntax can be escaped with a double $$, ie: $$(VAR_NAME).  Escaped
    /// references will never be expanded, regardless of whether the variable
    /// exists or not.
    /// +optional
    pub value: String,
}

/// ResourceRequirements describes the compute resource requirements.
#[derive(Debug, Default, PartialEq)]
pub struct ResourceRequirements {
    /// Limits describes the maximum amount of compute resources allowed.
    /// +optional
    pub limits: BTreeMap<String, Quantity>,
    /// Requests describes the minimum amount of compute resources required.
    /// If Request is omitted for a container, it defaults to Limits if that is explicitly specified,
    /// otherwise to an implementation-defined value
    /// +optional
    pub requests: BTreeMap<String, Quantity>,
}

/// LocalObjectReference contains enough information to let you locate the referenced object inside the same namespace.
#[derive(Debug, Default, PartialEq)]
pub struct LocalObjectReference {
    /// Name of the referent.
    pub name: String,
}

/// PodTemplateSpec describes the data a pod should have when created from a template
#[derive(Debug, Default, PartialEq)]
pub struct PodTemplateSpec {
    /// Metadata of the pods created from this template.
    /// +optional
    pub metadata: ObjectMeta,
    /// Spec defines the behavior of a pod.
    /// +optional
    pub spec: PodSpec,
}

/// PodTemplate describes a template for creating copies of a predefined pod.
/// +k8s:deepcopy-gen:interfaces=runtime::Object
#[derive(Debug, Default, PartialEq)]
pub struct PodTemplate {
    /// Standard type metadata (apiVersion and kind).
    pub type_meta: TypeMeta,
    /// Standard object's metadata.
    /// +optional
    pub metadata: ObjectMeta,
    /// Template defines the pods that will be created from this pod template
    /// +optional
    pub template: PodTemplateSpec,
}

/// PodTemplateList is a list of PodTemplates.
/// +k8s:deepcopy-gen:interfaces=runtime::Object
#[derive(Debug, Default, PartialEq)]
pub struct PodTemplateList {
    /// Standard type metadata (apiVersion and kind).
    pub type_meta: TypeMeta,
    /// Standard list metadata.
    /// +optional
    pub metadata: ListMeta,
    /// List of pod templates.
    pub items: Vec<PodTemplate>,
}

/// ConfigMap holds configuration data for components or applications to consume.
/// +k8s:deepcopy-gen:interfaces=runtime::Object
#[derive(Debug, Default, PartialEq)]
pub struct ConfigMap {
    /// Standard type metadata (apiVersion and kind).
    pub type_meta: TypeMeta,
    /// Standard object's metadata.
    /// +optional
    pub metadata: ObjectMeta,
    /// Immutable field, if set, ensures that data stored in the ConfigMap cannot
    /// be updated (only object metadata can be modified).
    /// +optional
    pub immutable: Option<bool>,
    /// Data contains the configuration data.
    /// Each key must consist of alphanumeric characters, '-', '_' or '.'.
    /// Values with non-UTF-8 byte sequences must use the BinaryData field.
    /// The keys stored in Data must not overlap with the keys in
    /// the BinaryData field, this is enforced during validation process.
    /// +optional
    pub data: BTreeMap<String, String>,
    /// BinaryData contains the binary data.
    /// Each key must consist of alphanumeric characters, '-', '_' or '.'.
    /// BinaryData can contain byte sequences that are not in the UTF-8 range.
    /// The keys stored in BinaryData must not overlap with the ones in
    /// the Data field, this is enforced during validation process.
    /// Using this field will require 1.10+ apiserver and
    /// kubelet.
    /// +optional
    pub binary_data: BTreeMap<String, ByteString>,
}

/// ConfigMapList is a resource containing a list of ConfigMap objects.
/// +k8s:deepcopy-gen:interfaces=runtime::Object
#[derive(Debug, Default, PartialEq)]
pub struct ConfigMapList {
    /// Standard type metadata (apiVersion and kind).
    pub type_meta: TypeMeta,
    /// Standard list metadata.
    /// +optional
    pub metadata: ListMeta,
    /// Items is the list of ConfigMaps.
    pub items: Vec<ConfigMap>,
}

/// Namespace provides a scope for Names.
/// Use of multiple namespaces is optional
/// +k8s:deepcopy-gen:interfaces=runtime::Object
#[derive(Debug, Default, PartialEq)]
pub struct Namespace {
    /// Standard type metadata (apiVersion and kind).
    pub type_meta: TypeMeta,
    /// Standard object's metadata.
    /// +optional
    pub metadata: ObjectMeta,
    /// Spec defines the behavior of the Namespace.
    /// +optional
    pub spec: NamespaceSpec,
    /// Status describes the current status of a Namespace
    /// +optional
    pub status: NamespaceStatus,
}

/// NamespaceList is a list of Namespaces.
/// +k8s:deepcopy-gen:interfaces=runtime::Object
#[derive(Debug, Default, PartialEq)]
pub struct NamespaceList {
    /// Standard type metadata (apiVersion and kind).
    pub type_meta: TypeMeta,
    /// Standard list metadata.
    /// +optional
    pub metadata: ListMeta,
    /// Items is the list of Namespace objects in the list.
    pub items: Vec<Namespace>,
}

/// NamespaceSpec describes the attributes on a Namespace
#[derive(Debug, Default, PartialEq)]
pub struct NamespaceSpec {
    /// Finalizers is an opaque list of values that must be empty to permanently remove object from storage
    pub finalizers: Vec<String>,
}

/// NamespaceStatus is information about the current status of a Namespace.
#[derive(Debug, Default, PartialEq)]
pub struct NamespaceStatus {
    /// Phase is the current lifecycle phase of the namespace.
    /// +optional
    pub phase: String,
}
