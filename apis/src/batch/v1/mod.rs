//! The v1 version of the batch API group, imported from k8s.io/api batch/v1 with the hooks
//! Kubernetes' pkg/apis/batch/v1 adds by hand.
//!
//! +k8s:deepcopy-gen=package
//! +k8s:protobuf-gen=package
//! +k8s:openapi-gen=true
//! +k8s:prerelease-lifecycle-gen=true
//! +k8s:openapi-model-package=io.k8s.api.batch.v1
//! +groupName=batch
//! +k8s:defaulter-gen=TypeMeta
//! +k8s:validation-gen=TypeMeta

// The importer's types (`cargo xtask import-go`, docs/codegen.md); defaults and validation are
// written here, as Kubernetes keeps them in pkg/apis/batch.
mod defaults;
mod job_validation;
mod types;
mod validation;
pub use defaults::*;
pub use job_validation::*;
pub use types::*;
pub use validation::*;

#[rustfmt::skip]
#[path = "../../../../generated/apis/batch/v1/zz_generated_deepcopy.rs"]
mod zz_generated_deepcopy;
#[rustfmt::skip]
#[path = "../../../../generated/apis/batch/v1/zz_generated_register.rs"]
mod zz_generated_register;
pub use zz_generated_register::*;
#[rustfmt::skip]
#[path = "../../../../generated/apis/batch/v1/zz_generated_validations.rs"]
mod zz_generated_validations;
pub use zz_generated_validations::*;
#[rustfmt::skip]
#[path = "../../../../generated/apis/batch/v1/zz_generated_prerelease_lifecycle.rs"]
mod zz_generated_prerelease_lifecycle;
#[rustfmt::skip]
#[path = "../../../../generated/apis/batch/v1/zz_generated_protobuf.rs"]
mod zz_generated_protobuf;
#[rustfmt::skip]
#[path = "../../../../generated/apis/batch/v1/zz_generated_defaults.rs"]
mod zz_generated_defaults;
pub use zz_generated_defaults::*;
