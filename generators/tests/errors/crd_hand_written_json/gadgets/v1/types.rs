//! v1 gadgets types.

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
    /// Where the gadget points, written by hand as a string.
    /// +optional
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub heading: Option<Heading>,
}

/// Heading is an angle, written as `"<degrees>deg"`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Heading {
    /// Degrees from north.
    pub degrees: u16,
}

impl Serialize for Heading {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&format!("{}deg", self.degrees))
    }
}

impl<'de> Deserialize<'de> for Heading {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        let degrees = s.trim_end_matches("deg").parse().map_err(serde::de::Error::custom)?;
        Ok(Heading { degrees })
    }
}
