//! The v1beta1 version of the apiextensions.k8s.io API group: how its objects are serialized to storage and network.
//! +k8s:deepcopy-gen=package
//! +k8s:protobuf-gen=package
//! +k8s:openapi-gen=true
//! +groupName=apiextensions.k8s.io
//! +k8s:openapi-model-package=io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1beta1
//! +k8s:conversion-gen=crate::apiextensions
//! +k8s:defaulter-gen=TypeMeta
//! +k8s:prerelease-lifecycle-gen=true

mod defaults;
// The JSON forms are the same in both versions, for types of the same names and shapes.
#[path = "../v1/marshal.rs"]
mod marshal;
mod types;
pub use defaults::*;
pub use types::*;
mod types_jsonschema;
pub use types_jsonschema::*;

#[rustfmt::skip]
#[path = "../../../../generated/apis/apiextensions/v1beta1/zz_generated_deepcopy.rs"]
mod zz_generated_deepcopy;
#[rustfmt::skip]
#[path = "../../../../generated/apis/apiextensions/v1beta1/zz_generated_register.rs"]
mod zz_generated_register;
pub use zz_generated_register::*;
#[rustfmt::skip]
#[path = "../../../../generated/apis/apiextensions/v1beta1/zz_generated_conversion.rs"]
mod zz_generated_conversion;
pub use zz_generated_conversion::*;
#[rustfmt::skip]
#[path = "../../../../generated/apis/apiextensions/v1beta1/zz_generated_defaults.rs"]
mod zz_generated_defaults;
pub use zz_generated_defaults::*;
#[rustfmt::skip]
#[path = "../../../../generated/apis/apiextensions/v1beta1/zz_generated_prerelease_lifecycle.rs"]
mod zz_generated_prerelease_lifecycle;
#[rustfmt::skip]
#[path = "../../../../generated/apis/apiextensions/v1beta1/zz_generated_protobuf.rs"]
mod zz_generated_protobuf;
