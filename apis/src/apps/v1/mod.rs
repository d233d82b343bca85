//! The v1 version of the apps API group, imported from k8s.io/api apps/v1 with the hooks
//! Kubernetes' pkg/apis/apps/v1 adds by hand.
//!
//! +k8s:deepcopy-gen=package
//! +k8s:protobuf-gen=package
//! +k8s:openapi-gen=true
//! +k8s:prerelease-lifecycle-gen=true
//! +k8s:openapi-model-package=io.k8s.api.apps.v1
//! +groupName=apps
//! +k8s:defaulter-gen=TypeMeta
//! +k8s:validation-gen=TypeMeta

// The importer's types (`cargo xtask import-go`, docs/codegen.md); defaults and validation are
// written here, as Kubernetes keeps them in pkg/apis/apps.
mod defaults;
mod types;
mod validation;
pub use defaults::*;
pub use types::*;
pub use validation::*;

#[rustfmt::skip]
#[path = "../../../../generated/apis/apps/v1/zz_generated_deepcopy.rs"]
mod zz_generated_deepcopy;
#[rustfmt::skip]
#[path = "../../../../generated/apis/apps/v1/zz_generated_register.rs"]
mod zz_generated_register;
pub use zz_generated_register::*;
#[rustfmt::skip]
#[path = "../../../../generated/apis/apps/v1/zz_generated_prerelease_lifecycle.rs"]
mod zz_generated_prerelease_lifecycle;
#[rustfmt::skip]
#[path = "../../../../generated/apis/apps/v1/zz_generated_protobuf.rs"]
mod zz_generated_protobuf;
#[rustfmt::skip]
#[path = "../../../../generated/apis/apps/v1/zz_generated_defaults.rs"]
mod zz_generated_defaults;
pub use zz_generated_defaults::*;
#[rustfmt::skip]
#[path = "../../../../generated/apis/apps/v1/zz_generated_validations.rs"]
mod zz_generated_validations;
pub use zz_generated_validations::*;
