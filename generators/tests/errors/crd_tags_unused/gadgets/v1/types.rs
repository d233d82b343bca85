//! v1 gadgets types.

use k8s_openapi::apimachinery::pkg::apis::meta::v1::{ListMeta, ObjectMeta};
use kube_core::TypeMeta;
use serde::{Deserialize, Serialize};

/// Gadget is a namespaced custom resource.
/// +genclient
/// +k8s:crd-gen:storageversion
/// +k8s:deepcopy-gen:interfaces=runtime::Object
#[derive(Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Gadget {
    /// Type metadata.
    #[serde(flatten, default)]
    pub type_meta: Option<TypeMeta>,
    /// Standard object metadata.
    /// +optional
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// Desired state.
    pub spec: GadgetSpec,
}

/// GadgetList is a list of gadgets.
/// +k8s:deepcopy-gen:interfaces=runtime::Object
#[derive(Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GadgetList {
    /// Type metadata.
    #[serde(flatten, default)]
    pub type_meta: Option<TypeMeta>,
    /// Standard list metadata.
    /// +optional
    #[serde(default)]
    pub metadata: ListMeta,
    /// The gadgets.
    pub items: Vec<Gadget>,
}

/// GadgetSpec is the desired state of a gadget.
/// +k8s:crd-gen:subresource:status
#[derive(Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GadgetSpec {
    /// Desired number of replicas.
    /// +optional
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i32>,
}
