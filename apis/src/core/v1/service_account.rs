//! The core/v1 ServiceAccount, field for field as k8s.io/api core/v1 serializes it: the identity
//! whose tokens the `serviceaccounts/token` subresource (TokenRequest) issues.

use k8s_openapi::apimachinery::pkg::apis::meta::v1::{ListMeta, ObjectMeta};
use kube_core::TypeMeta;

use super::LocalObjectReference;

/// ServiceAccount binds together:
/// * a name, understood by users, and perhaps by peripheral systems, for an identity
/// * a principal that can be authenticated and authorized
/// * a set of secrets
///
/// +genclient
/// +k8s:deepcopy-gen:interfaces=runtime::Object
/// +k8s:prerelease-lifecycle-gen:introduced=1.0
/// +k8s:crd-gen:shortNames=sa
#[derive(Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ServiceAccount {
    /// Standard type metadata (apiVersion and kind).
    #[serde(flatten, default)]
    pub type_meta: Option<TypeMeta>,
    /// Standard object's metadata.
    /// More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata
    /// +optional
    /// +protobuf=1
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// Secrets is a list of the secrets in the same namespace that pods running using this ServiceAccount are allowed to use.
    /// Pods are only limited to this list if this service account has a "kubernetes.io/enforce-mountable-secrets" annotation set to "true".
    /// This field should not be used to find auto-generated service account token secrets for use outside of pods.
    /// More info: https://kubernetes.io/docs/concepts/configuration/secret
    /// +optional
    /// +patchMergeKey=name
    /// +patchStrategy=merge
    /// +protobuf=2
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub secrets: Option<Vec<ObjectReference>>,
    /// ImagePullSecrets is a list of references to secrets in the same namespace to use for pulling any images
    /// in pods that reference this ServiceAccount. ImagePullSecrets are distinct from Secrets because Secrets
    /// can be mounted in the pod, but ImagePullSecrets are only accessed by the kubelet.
    /// More info: https://kubernetes.io/docs/concepts/containers/images/#specifying-imagepullsecrets-on-a-pod
    /// +optional
    /// +protobuf=3
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image_pull_secrets: Option<Vec<LocalObjectReference>>,
    /// AutomountServiceAccountToken indicates whether pods running as this service account should have an API token automatically mounted.
    /// Can be overridden at the pod level.
    /// +optional
    /// +protobuf=4
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub automount_service_account_token: Option<bool>,
}

/// ServiceAccountList is a list of ServiceAccount objects
/// +k8s:prerelease-lifecycle-gen:introduced=1.0
/// +k8s:deepcopy-gen:interfaces=runtime::Object
#[derive(Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ServiceAccountList {
    /// Standard type metadata (apiVersion and kind).
    #[serde(flatten, default)]
    pub type_meta: Option<TypeMeta>,
    /// Standard list metadata.
    /// More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds
    /// +optional
    /// +protobuf=1
    #[serde(default)]
    pub metadata: ListMeta,
    /// List of ServiceAccounts.
    /// More info: https://kubernetes.io/docs/tasks/configure-pod-container/configure-service-accounts/
    /// +protobuf=2
    pub items: Vec<ServiceAccount>,
}

/// ObjectReference contains enough information to let you inspect or modify the referred object.
/// +structType=atomic
#[derive(Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ObjectReference {
    /// Kind of the referent.
    /// More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds
    /// +optional
    /// +protobuf=1
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// Namespace of the referent.
    /// More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/namespaces/
    /// +optional
    /// +protobuf=2
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub namespace: String,
    /// Name of the referent.
    /// More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#names
    /// +optional
    /// +protobuf=3
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// UID of the referent.
    /// More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#uids
    /// +optional
    /// +protobuf=4
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub uid: String,
    /// API version of the referent.
    /// +optional
    /// +protobuf=5
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    /// Specific resourceVersion to which this reference is made, if any.
    /// More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#concurrency-control-and-consistency
    /// +optional
    /// +protobuf=6
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub resource_version: String,
    /// If referring to a piece of an object instead of an entire object, this string
    /// should contain a valid JSON/Go field access statement, such as desiredState.manifest.containers[2].
    /// For example, if the object reference is to a container within a pod, this would take on a value like:
    /// "spec.containers{name}" (where "name" refers to the name of the container that triggered
    /// the event) or if no container name is specified "spec.containers[2]" (container with
    /// index 2 in this pod). This syntax is chosen only to have some well-defined way of
    /// referencing a part of an object.
    /// +optional
    /// +protobuf=7
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub field_path: String,
}
