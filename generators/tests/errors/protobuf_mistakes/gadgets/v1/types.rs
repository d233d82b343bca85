//! v1 gadgets types.

use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use kube_core::TypeMeta;
use serde::{Deserialize, Serialize};

/// Gadget is a namespaced object.
/// +k8s:deepcopy-gen:interfaces=runtime::Object
#[derive(Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Gadget {
    /// Type metadata.
    #[serde(flatten, default)]
    pub type_meta: Option<TypeMeta>,
    /// Standard object metadata.
    /// +protobuf=1
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// Desired state.
    /// +protobuf=1
    pub spec: GadgetSpec,
    /// A level that fits a byte.
    /// +protobuf=19500
    pub level: i32,
}

/// GadgetSpec is the desired state of a gadget.
#[derive(Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GadgetSpec {
    /// A byte.
    pub small: u8,
    /// Kept in memory only.
    /// +protobuf=2
    #[serde(skip)]
    pub cache: String,
    /// Where it sits.
    pub place: Place,
}

/// Place is not a protobuf message.
/// +protobuf=false
#[derive(Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Place {
    /// The shelf.
    pub shelf: String,
}
