//! The v1beta1 version of the apps API group, imported from k8s.io/api apps/v1beta1. Kubernetes 1.16
//! stopped serving it; it stays decodable and converts through apps/v1, the group's hub.
//!
//! +k8s:deepcopy-gen=package
//! +k8s:protobuf-gen=package
//! +k8s:openapi-gen=true
//! +k8s:prerelease-lifecycle-gen=true
//! +k8s:openapi-model-package=io.k8s.api.apps.v1beta1
//! +groupName=apps
//! +k8s:validation-gen=TypeMeta
//! +k8s:conversion-gen=crate::apps::v1

// The importer's types (`cargo xtask import-go`, docs/codegen.md); the conversion of what apps/v1
// no longer has (`spec.rollbackTo`) is written here, as Kubernetes writes it.
mod conversion;
mod types;
pub use conversion::*;
pub use types::*;

#[rustfmt::skip]
#[path = "../../../../generated/apis/apps/v1beta1/zz_generated_deepcopy.rs"]
mod zz_generated_deepcopy;
#[rustfmt::skip]
#[path = "../../../../generated/apis/apps/v1beta1/zz_generated_register.rs"]
mod zz_generated_register;
pub use zz_generated_register::*;
#[rustfmt::skip]
#[path = "../../../../generated/apis/apps/v1beta1/zz_generated_validations.rs"]
mod zz_generated_validations;
pub use zz_generated_validations::*;
#[rustfmt::skip]
#[path = "../../../../generated/apis/apps/v1beta1/zz_generated_prerelease_lifecycle.rs"]
mod zz_generated_prerelease_lifecycle;
#[rustfmt::skip]
#[path = "../../../../generated/apis/apps/v1beta1/zz_generated_protobuf.rs"]
mod zz_generated_protobuf;
#[rustfmt::skip]
#[path = "../../../../generated/apis/apps/v1beta1/zz_generated_conversion.rs"]
mod zz_generated_conversion;
pub use zz_generated_conversion::*;
