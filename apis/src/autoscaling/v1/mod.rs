//! The v1 version of the autoscaling API group, imported from k8s.io/api autoscaling/v1. Both v1
//! and v2 are served; a v1 HorizontalPodAutoscaler converts to and from v2, the group's hub, by
//! the conversions written here (as Kubernetes writes them by hand).
//!
//! +k8s:deepcopy-gen=package
//! +k8s:protobuf-gen=package
//! +k8s:openapi-gen=true
//! +k8s:prerelease-lifecycle-gen=true
//! +k8s:openapi-model-package=io.k8s.api.autoscaling.v1
//! +groupName=autoscaling
//! +k8s:validation-gen=TypeMeta

// The importer's types (`cargo xtask import-go`, docs/codegen.md); the conversion of the
// HorizontalPodAutoscaler to and from autoscaling/v2 is written here.
mod conversion;
mod types;
pub use conversion::*;
pub use types::*;

#[rustfmt::skip]
#[path = "../../../../generated/apis/autoscaling/v1/zz_generated_deepcopy.rs"]
mod zz_generated_deepcopy;
#[rustfmt::skip]
#[path = "../../../../generated/apis/autoscaling/v1/zz_generated_register.rs"]
mod zz_generated_register;
pub use zz_generated_register::*;
#[rustfmt::skip]
#[path = "../../../../generated/apis/autoscaling/v1/zz_generated_validations.rs"]
mod zz_generated_validations;
pub use zz_generated_validations::*;
#[rustfmt::skip]
#[path = "../../../../generated/apis/autoscaling/v1/zz_generated_prerelease_lifecycle.rs"]
mod zz_generated_prerelease_lifecycle;
#[rustfmt::skip]
#[path = "../../../../generated/apis/autoscaling/v1/zz_generated_protobuf.rs"]
mod zz_generated_protobuf;
