//! The widgets/v1 types.

use std::collections::BTreeMap;

use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use kube_core::TypeMeta;

/// Widget is a kind of this package.
/// +genclient
/// +k8s:deepcopy-gen:interfaces=runtime::Object
#[derive(Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Widget {
    /// Standard type metadata (apiVersion and kind).
    #[serde(flatten, default)]
    pub type_meta: Option<TypeMeta>,
    /// Standard object metadata.
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// The desired state.
    pub spec: WidgetSpec,
}

/// WidgetSpec is the desired state of a Widget.
#[derive(Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WidgetSpec {
    /// How many widgets to run.
    /// +optional
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i32>,
    /// Labels.
    /// +listMapKey=name
    #[serde(default)]
    pub labels: BTreeMap<String, String>,
    /// Names.
    /// +listType=map
    /// +listMapKey=name
    #[serde(default)]
    pub names: Vec<String>,
    /// Ports.
    /// +listType=map
    /// +listMapKey=spec
    #[serde(default)]
    pub ports: Vec<Port>,
}

/// A port.
#[derive(Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Port {
    /// Its name.
    pub name: String,
    /// Not a scalar.
    pub spec: Inner,
}

/// Not a scalar.
#[derive(Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Inner {
    /// A value.
    pub value: i32,
}
