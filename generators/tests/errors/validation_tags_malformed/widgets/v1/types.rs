//! The widgets/v1 types.

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
/// +k8s:validation-gen=TypeMeta
/// +k8s:alpha(since: "1.36")=+k8s:required
#[derive(Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WidgetSpec {
    /// How many widgets to run.
    /// +optional
    /// +k8s:minimum=abc
    /// +k8s:maxLength=5
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i32>,
    /// The image.
    /// +k8s:alpha(since: "1.36"=+k8s:required
    /// +k8s:format=k8s-bogus
    pub image: String,
    /// Ports.
    /// +k8s:enumExclude
    /// +k8s:eachVal
    /// +optional
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ports: Vec<i32>,
}
