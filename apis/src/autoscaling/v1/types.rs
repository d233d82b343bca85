//! The autoscaling/v1 Scale types, field for field as k8s.io/api autoscaling/v1 serializes them
//! (HorizontalPodAutoscaler is not modelled yet).

use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use kube_core::TypeMeta;

/// Scale represents a scaling request for a resource.
/// +k8s:deepcopy-gen:interfaces=runtime::Object
/// +k8s:prerelease-lifecycle-gen:introduced=1.2
/// +k8s:isSubresource=/scale
#[derive(Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Scale {
    /// Standard type metadata (apiVersion and kind).
    #[serde(flatten, default)]
    pub type_meta: Option<TypeMeta>,
    /// metadata is the standard object metadata; More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata.
    /// +optional
    /// +protobuf=1
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// spec defines the behavior of the scale. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status.
    /// +optional
    /// +protobuf=2
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spec: Option<ScaleSpec>,
    /// status is the current status of the scale. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status. Read-only.
    /// +optional
    /// +protobuf=3
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<ScaleStatus>,
}

/// ScaleSpec describes the attributes of a scale subresource.
#[derive(Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ScaleSpec {
    /// replicas is the desired number of instances for the scaled object.
    /// +optional
    /// +default=0
    /// +protobuf=1
    #[serde(default, skip_serializing_if = "kube_apimachinery::is_zero")]
    pub replicas: i32,
}

/// ScaleStatus represents the current status of a scale subresource.
#[derive(Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ScaleStatus {
    /// replicas is the actual number of observed instances of the scaled object.
    /// +protobuf=1
    pub replicas: i32,
    /// selector is the label query over pods that should match the replicas count. This is same
    /// as the label selector but in the string format to avoid introspection
    /// by clients. The string will be in the same format as the query-param syntax.
    /// More info about label selectors: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/
    /// +optional
    /// +protobuf=2
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub selector: String,
}
