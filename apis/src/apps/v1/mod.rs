//! The v1 version of the apps API group: how its objects are serialized to storage and network.
//! +k8s:deepcopy-gen=package
//! +k8s:protobuf-gen=package
//! +k8s:openapi-gen=true
//! +groupName=apps
//! +k8s:conversion-gen=crate::apps
//! +k8s:conversion-gen-external-types=crate::apps::v1
//! +k8s:defaulter-gen=TypeMeta
//! +k8s:validation-gen=TypeMeta
//! +k8s:prerelease-lifecycle-gen=true

mod conversion;
mod defaults;
mod types;
mod validation;
pub use conversion::*;
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
#[path = "../../../../generated/apis/apps/v1/zz_generated_conversion.rs"]
mod zz_generated_conversion;
pub use zz_generated_conversion::*;
#[rustfmt::skip]
#[path = "../../../../generated/apis/apps/v1/zz_generated_defaults.rs"]
mod zz_generated_defaults;
pub use zz_generated_defaults::*;
#[rustfmt::skip]
#[path = "../../../../generated/apis/apps/v1/zz_generated_prerelease_lifecycle.rs"]
mod zz_generated_prerelease_lifecycle;
#[rustfmt::skip]
#[path = "../../../../generated/apis/apps/v1/zz_generated_protobuf.rs"]
mod zz_generated_protobuf;
#[rustfmt::skip]
#[path = "../../../../generated/apis/apps/v1/zz_generated_validations.rs"]
mod zz_generated_validations;
pub use zz_generated_validations::*;
