//! The v1 version of the core API group, imported from k8s.io/api core/v1 with the hooks
//! Kubernetes' pkg/apis/core/v1 adds by hand.
//!
//! +k8s:openapi-gen=true
//! +k8s:deepcopy-gen=package
//! +k8s:protobuf-gen=package
//! +k8s:prerelease-lifecycle-gen=true
//! +k8s:openapi-model-package=io.k8s.api.core.v1
//! +groupName=
//! +k8s:defaulter-gen=TypeMeta
//! +k8s:validation-gen=TypeMeta

// The importer's types (`cargo xtask import-go`, docs/codegen.md); the rest is written here, as
// Kubernetes keeps it in pkg/apis/core/v1: defaults, field selectors, validation.
mod defaults;
mod field_labels;
mod probe_validation;
mod service_validation;
mod types;
mod validation;
mod volume_defaults;
pub use defaults::*;
pub use field_labels::add_field_label_conversions;
pub use service_validation::*;
pub use types::*;
pub use validation::*;
pub use volume_defaults::*;

#[rustfmt::skip]
#[path = "../../../../generated/apis/core/v1/zz_generated_deepcopy.rs"]
mod zz_generated_deepcopy;
#[rustfmt::skip]
#[path = "../../../../generated/apis/core/v1/zz_generated_register.rs"]
mod zz_generated_register;
pub use zz_generated_register::*;
#[rustfmt::skip]
#[path = "../../../../generated/apis/core/v1/zz_generated_validations.rs"]
mod zz_generated_validations;
pub use zz_generated_validations::*;
#[rustfmt::skip]
#[path = "../../../../generated/apis/core/v1/zz_generated_prerelease_lifecycle.rs"]
mod zz_generated_prerelease_lifecycle;
#[rustfmt::skip]
#[path = "../../../../generated/apis/core/v1/zz_generated_protobuf.rs"]
mod zz_generated_protobuf;
#[rustfmt::skip]
#[path = "../../../../generated/apis/core/v1/zz_generated_defaults.rs"]
mod zz_generated_defaults;
pub use zz_generated_defaults::*;
