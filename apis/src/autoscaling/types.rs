//! The internal autoscaling types, mirroring k8s.io/kubernetes pkg/apis/autoscaling: in-memory only, no serialization.
//! Only the Scale subresource so far; HorizontalPodAutoscaler and its metrics are not modelled yet.

use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use kube_core::TypeMeta;

/// Scale represents a scaling request for a resource.
/// +k8s:deepcopy-gen:interfaces=runtime::Object
#[derive(Debug, Default, PartialEq)]
pub struct Scale {
    /// Standard type metadata (apiVersion and kind).
    pub type_meta: TypeMeta,
    /// Standard object metadata; More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata.
    /// +optional
    pub metadata: ObjectMeta,
    /// spec defines the behavior of the scale. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status.
    /// +optional
    pub spec: ScaleSpec,
    /// status represents the current status of the scale. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status. Read-only.
    /// +optional
    pub status: ScaleStatus,
}

/// ScaleSpec describes the attributes of a scale subresource.
#[derive(Debug, Default, PartialEq)]
pub struct ScaleSpec {
    /// replicas is the desired number of instances for the scaled object.
    /// +optional
    pub replicas: i32,
}

/// ScaleStatus represents the current status of a scale subresource.
#[derive(Debug, Default, PartialEq)]
pub struct ScaleStatus {
    /// replicas is the actual number of observed instances of the scaled object.
    pub replicas: i32,
    /// label query over pods that should match the replicas count. This is same
    /// as the label selector but in the string format to avoid introspection
    /// by clients. The string will be in the same format as the query-param syntax.
    /// More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors
    /// +optional
    pub selector: String,
}
