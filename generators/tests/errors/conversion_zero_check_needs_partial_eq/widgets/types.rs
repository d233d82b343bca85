//! Internal widget types.

use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use kube_core::TypeMeta;

/// Widget is a kind.
/// +k8s:deepcopy-gen:interfaces=runtime::Object
#[derive(Debug, Default, PartialEq)]
pub struct Widget {
    /// Type metadata.
    pub type_meta: TypeMeta,
    /// Object metadata.
    pub metadata: ObjectMeta,
    /// Desired state.
    pub spec: WidgetSpec,
}

/// WidgetSpec is the desired state.
#[derive(Debug, Default, PartialEq)]
pub struct WidgetSpec {
    /// Size, written with its unit.
    pub size: String,
    /// Extra settings, always there internally.
    pub extra: Extra,
}

/// Extra settings, without PartialEq.
#[derive(Debug, Default)]
pub struct Extra {
    /// A note.
    pub note: String,
}
