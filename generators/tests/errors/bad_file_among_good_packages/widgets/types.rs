//! The internal widgets types: in memory only, no serialization.

use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use kube_core::TypeMeta;

/// Widget is the internal form of a widget.
/// +k8s:deepcopy-gen:interfaces=runtime::Object
#[derive(Debug, Default, PartialEq)]
pub struct Widget {
    /// Standard type metadata (apiVersion and kind).
    pub type_meta: TypeMeta,
    /// Standard object metadata.
    pub metadata: ObjectMeta,
    /// The desired state.
    pub spec: WidgetSpec,
}

/// WidgetSpec is the desired state of a Widget.
#[derive(Debug, Default, PartialEq)]
pub struct WidgetSpec {
    /// How many widgets to run.
    pub replicas: i32,
}
