//! The internal ServiceAccount: an identity for processes that run in pods, whose tokens the
//! TokenRequest subresource issues.

use k8s_openapi::apimachinery::pkg::apis::meta::v1::{ListMeta, ObjectMeta};
use kube_core::TypeMeta;

use super::LocalObjectReference;

/// ServiceAccount binds together:
/// * a name, understood by users, and perhaps by peripheral systems, for an identity
/// * a principal that can be authenticated and authorized
/// * a set of secrets
///
/// +k8s:deepcopy-gen:interfaces=runtime::Object
#[derive(Debug, Default, PartialEq)]
pub struct ServiceAccount {
    /// Standard type metadata (apiVersion and kind).
    pub type_meta: TypeMeta,
    /// Standard object's metadata.
    /// +optional
    pub metadata: ObjectMeta,
    /// Secrets is a list of the secrets in the same namespace that pods running using this
    /// ServiceAccount are allowed to use.
    pub secrets: Vec<ObjectReference>,
    /// ImagePullSecrets is a list of references to secrets in the same namespace to use for
    /// pulling any images in pods that reference this ServiceAccount.
    pub image_pull_secrets: Vec<LocalObjectReference>,
    /// AutomountServiceAccountToken indicates whether pods running as this service account should
    /// have an API token automatically mounted.
    /// +optional
    pub automount_service_account_token: Option<bool>,
}

/// ServiceAccountList is a list of ServiceAccount objects.
/// +k8s:deepcopy-gen:interfaces=runtime::Object
#[derive(Debug, Default, PartialEq)]
pub struct ServiceAccountList {
    /// Standard type metadata (apiVersion and kind).
    pub type_meta: TypeMeta,
    /// Standard list metadata.
    /// +optional
    pub metadata: ListMeta,
    /// List of ServiceAccounts.
    pub items: Vec<ServiceAccount>,
}

/// ObjectReference contains enough information to let you inspect or modify the referred object.
#[derive(Debug, Default, PartialEq)]
pub struct ObjectReference {
    /// Kind of the referent.
    /// +optional
    pub kind: String,
    /// Namespace of the referent.
    /// +optional
    pub namespace: String,
    /// Name of the referent.
    /// +optional
    pub name: String,
    /// UID of the referent.
    /// +optional
    pub uid: String,
    /// API version of the referent.
    /// +optional
    pub api_version: String,
    /// Specific resourceVersion to which this reference is made, if any.
    /// +optional
    pub resource_version: String,
    /// If referring to a piece of an object instead of an entire object, this string
    /// should contain a valid JSON/Go field access statement, such as desiredState.manifest.containers[2].
    /// +optional
    pub field_path: String,
}
