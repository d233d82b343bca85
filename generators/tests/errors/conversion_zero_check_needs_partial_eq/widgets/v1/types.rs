//! v1 widget types.

use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use kube_core::TypeMeta;
use serde::{Deserialize, Serialize};

/// Widget is a kind.
/// +k8s:deepcopy-gen:interfaces=runtime::Object
#[derive(Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Widget {
    /// Type metadata.
    #[serde(flatten, default)]
    pub type_meta: Option<TypeMeta>,
    /// Object metadata.
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// Desired state.
    pub spec: WidgetSpec,
}

/// WidgetSpec is the desired state.
#[derive(Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct WidgetSpec {
    /// Size, written with its unit ("12mm").
    pub size: String,
    /// Extra settings, omitted when unset.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extra: Option<Extra>,
}

/// Extra settings.
#[derive(Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Extra {
    /// A note.
    pub note: String,
}
