//! v1 gadgets types: every level of `Layer1` to `Layer4` repeats the next eight times.

use k8s_openapi::apimachinery::pkg::apis::meta::v1::{ListMeta, ObjectMeta};
use kube_core::TypeMeta;
use serde::{Deserialize, Serialize};

/// Gadget is a namespaced custom resource.
/// +genclient
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
#[derive(Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GadgetSpec {
    /// Desired number of replicas.
    /// +optional
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i32>,
    /// The template every replica is made from.
    /// +optional
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub template: Option<Layer1>,
}

/// Layer1 holds eight of the next layer.
#[derive(Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Layer1 {
    /// Part 0 of this layer.
    /// +optional
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub part0: Option<Layer2>,
    /// Part 1 of this layer.
    /// +optional
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub part1: Option<Layer2>,
    /// Part 2 of this layer.
    /// +optional
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub part2: Option<Layer2>,
    /// Part 3 of this layer.
    /// +optional
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub part3: Option<Layer2>,
    /// Part 4 of this layer.
    /// +optional
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub part4: Option<Layer2>,
    /// Part 5 of this layer.
    /// +optional
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub part5: Option<Layer2>,
    /// Part 6 of this layer.
    /// +optional
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub part6: Option<Layer2>,
    /// Part 7 of this layer.
    /// +optional
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub part7: Option<Layer2>,
}

/// Layer2 holds eight of the next layer.
#[derive(Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Layer2 {
    /// Part 0 of this layer.
    /// +optional
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub part0: Option<Layer3>,
    /// Part 1 of this layer.
    /// +optional
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub part1: Option<Layer3>,
    /// Part 2 of this layer.
    /// +optional
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub part2: Option<Layer3>,
    /// Part 3 of this layer.
    /// +optional
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub part3: Option<Layer3>,
    /// Part 4 of this layer.
    /// +optional
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub part4: Option<Layer3>,
    /// Part 5 of this layer.
    /// +optional
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub part5: Option<Layer3>,
    /// Part 6 of this layer.
    /// +optional
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub part6: Option<Layer3>,
    /// Part 7 of this layer.
    /// +optional
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub part7: Option<Layer3>,
}

/// Layer3 holds eight of the next layer.
#[derive(Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Layer3 {
    /// Part 0 of this layer.
    /// +optional
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub part0: Option<Layer4>,
    /// Part 1 of this layer.
    /// +optional
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub part1: Option<Layer4>,
    /// Part 2 of this layer.
    /// +optional
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub part2: Option<Layer4>,
    /// Part 3 of this layer.
    /// +optional
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub part3: Option<Layer4>,
    /// Part 4 of this layer.
    /// +optional
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub part4: Option<Layer4>,
    /// Part 5 of this layer.
    /// +optional
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub part5: Option<Layer4>,
    /// Part 6 of this layer.
    /// +optional
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub part6: Option<Layer4>,
    /// Part 7 of this layer.
    /// +optional
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub part7: Option<Layer4>,
}

/// Layer4 is the leaf, whose fields carry long descriptions.
#[derive(Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Layer4 {
    /// This sentence is here to make the description long, as a type pasted from a large API would be. This sentence is here to make the description long, as a type pasted from a large API would be. This sentence is here to make the description long, as a type pasted from a large API would be. This sentence is here to make the description long, as a type pasted from a large API would be. This sentence is here to make the description long, as a type pasted from a large API would be. This sentence is here to make the description long, as a type pasted from a large API would be. This sentence is here to make the description long, as a type pasted from a large API would be. This sentence is here to make the description long, as a type pasted from a large API would be. This sentence is here to make the description long, as a type pasted from a large API would be. 
    /// +optional
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text0: Option<String>,
    /// This sentence is here to make the description long, as a type pasted from a large API would be. This sentence is here to make the description long, as a type pasted from a large API would be. This sentence is here to make the description long, as a type pasted from a large API would be. This sentence is here to make the description long, as a type pasted from a large API would be. This sentence is here to make the description long, as a type pasted from a large API would be. This sentence is here to make the description long, as a type pasted from a large API would be. This sentence is here to make the description long, as a type pasted from a large API would be. This sentence is here to make the description long, as a type pasted from a large API would be. This sentence is here to make the description long, as a type pasted from a large API would be. 
    /// +optional
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text1: Option<String>,
    /// This sentence is here to make the description long, as a type pasted from a large API would be. This sentence is here to make the description long, as a type pasted from a large API would be. This sentence is here to make the description long, as a type pasted from a large API would be. This sentence is here to make the description long, as a type pasted from a large API would be. This sentence is here to make the description long, as a type pasted from a large API would be. This sentence is here to make the description long, as a type pasted from a large API would be. This sentence is here to make the description long, as a type pasted from a large API would be. This sentence is here to make the description long, as a type pasted from a large API would be. This sentence is here to make the description long, as a type pasted from a large API would be. 
    /// +optional
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text2: Option<String>,
    /// This sentence is here to make the description long, as a type pasted from a large API would be. This sentence is here to make the description long, as a type pasted from a large API would be. This sentence is here to make the description long, as a type pasted from a large API would be. This sentence is here to make the description long, as a type pasted from a large API would be. This sentence is here to make the description long, as a type pasted from a large API would be. This sentence is here to make the description long, as a type pasted from a large API would be. This sentence is here to make the description long, as a type pasted from a large API would be. This sentence is here to make the description long, as a type pasted from a large API would be. This sentence is here to make the description long, as a type pasted from a large API would be. 
    /// +optional
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text3: Option<String>,
}
