//! The v1 version of the core API group: how its objects are serialized to storage and network.
//! +k8s:deepcopy-gen=package
//! +k8s:protobuf-gen=package
//! +k8s:openapi-gen=true
//! +groupName=
//! +k8s:conversion-gen=crate::core
//! +k8s:conversion-gen-external-types=crate::core::v1
//! +k8s:defaulter-gen=TypeMeta
//! +k8s:validation-gen=TypeMeta
//! +k8s:prerelease-lifecycle-gen=true

mod conversion;
mod defaults;
mod event;
mod field_labels;
mod service_account;
mod types;
mod validation;
pub use conversion::*;
pub use defaults::*;
pub use event::*;
pub use field_labels::add_field_label_conversions;
pub use service_account::*;
pub use types::*;
pub use validation::*;

#[rustfmt::skip]
#[path = "../../../../generated/apis/core/v1/zz_generated_deepcopy.rs"]
mod zz_generated_deepcopy;
#[rustfmt::skip]
#[path = "../../../../generated/apis/core/v1/zz_generated_register.rs"]
mod zz_generated_register;
pub use zz_generated_register::*;
#[rustfmt::skip]
#[path = "../../../../generated/apis/core/v1/zz_generated_conversion.rs"]
mod zz_generated_conversion;
pub use zz_generated_conversion::*;
#[rustfmt::skip]
#[path = "../../../../generated/apis/core/v1/zz_generated_defaults.rs"]
mod zz_generated_defaults;
pub use zz_generated_defaults::*;
#[rustfmt::skip]
#[path = "../../../../generated/apis/core/v1/zz_generated_prerelease_lifecycle.rs"]
mod zz_generated_prerelease_lifecycle;
#[rustfmt::skip]
#[path = "../../../../generated/apis/core/v1/zz_generated_protobuf.rs"]
mod zz_generated_protobuf;
#[rustfmt::skip]
#[path = "../../../../generated/apis/core/v1/zz_generated_validations.rs"]
mod zz_generated_validations;
pub use zz_generated_validations::*;
