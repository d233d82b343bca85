//! The v1 version of the rbac.authorization.k8s.io API group, imported from k8s.io/api rbac/v1
//! with the defaults Kubernetes' pkg/apis/rbac/v1 adds by hand.
//!
//! +k8s:deepcopy-gen=package
//! +k8s:protobuf-gen=package
//! +k8s:openapi-gen=true
//! +k8s:prerelease-lifecycle-gen=true
//! +k8s:openapi-model-package=io.k8s.api.rbac.v1
//! +groupName=rbac.authorization.k8s.io
//! +k8s:validation-gen=TypeMeta
//! +k8s:defaulter-gen=TypeMeta

// The importer's types (`cargo xtask import-go`, docs/codegen.md); defaults are written here.
mod defaults;
mod types;
pub use defaults::*;
pub use types::*;

#[rustfmt::skip]
#[path = "../../../../generated/apis/rbac/v1/zz_generated_deepcopy.rs"]
mod zz_generated_deepcopy;
#[rustfmt::skip]
#[path = "../../../../generated/apis/rbac/v1/zz_generated_register.rs"]
mod zz_generated_register;
pub use zz_generated_register::*;
#[rustfmt::skip]
#[path = "../../../../generated/apis/rbac/v1/zz_generated_validations.rs"]
mod zz_generated_validations;
pub use zz_generated_validations::*;
#[rustfmt::skip]
#[path = "../../../../generated/apis/rbac/v1/zz_generated_prerelease_lifecycle.rs"]
mod zz_generated_prerelease_lifecycle;
#[rustfmt::skip]
#[path = "../../../../generated/apis/rbac/v1/zz_generated_protobuf.rs"]
mod zz_generated_protobuf;
#[rustfmt::skip]
#[path = "../../../../generated/apis/rbac/v1/zz_generated_defaults.rs"]
mod zz_generated_defaults;
pub use zz_generated_defaults::*;
