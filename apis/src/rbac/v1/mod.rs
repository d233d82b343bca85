//! The v1 version of the rbac.authorization.k8s.io API group: how roles and bindings are
//! serialized to storage and network.
//! +k8s:deepcopy-gen=package
//! +k8s:protobuf-gen=package
//! +k8s:openapi-gen=true
//! +groupName=rbac.authorization.k8s.io
//! +k8s:conversion-gen=crate::rbac
//! +k8s:conversion-gen-external-types=crate::rbac::v1
//! +k8s:defaulter-gen=TypeMeta
//! +k8s:prerelease-lifecycle-gen=true

mod defaults;
pub use defaults::*;
mod types;
pub use types::*;

#[rustfmt::skip]
#[path = "../../../../generated/apis/rbac/v1/zz_generated_deepcopy.rs"]
mod zz_generated_deepcopy;
#[rustfmt::skip]
#[path = "../../../../generated/apis/rbac/v1/zz_generated_register.rs"]
mod zz_generated_register;
pub use zz_generated_register::*;
#[rustfmt::skip]
#[path = "../../../../generated/apis/rbac/v1/zz_generated_conversion.rs"]
mod zz_generated_conversion;
pub use zz_generated_conversion::*;
#[rustfmt::skip]
#[path = "../../../../generated/apis/rbac/v1/zz_generated_defaults.rs"]
mod zz_generated_defaults;
pub use zz_generated_defaults::*;
#[rustfmt::skip]
#[path = "../../../../generated/apis/rbac/v1/zz_generated_prerelease_lifecycle.rs"]
mod zz_generated_prerelease_lifecycle;
#[rustfmt::skip]
#[path = "../../../../generated/apis/rbac/v1/zz_generated_protobuf.rs"]
mod zz_generated_protobuf;
