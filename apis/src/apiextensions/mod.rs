//! The internal version of the apiextensions.k8s.io API group: the objects as represented in memory.
//! +k8s:deepcopy-gen=package
//! +groupName=apiextensions.k8s.io

mod types;
pub use types::*;
mod types_jsonschema;
pub use types_jsonschema::*;

pub mod install;
pub mod v1;
pub mod v1beta1;

#[rustfmt::skip]
#[path = "../../../generated/apis/apiextensions/zz_generated_deepcopy.rs"]
mod zz_generated_deepcopy;
#[rustfmt::skip]
#[path = "../../../generated/apis/apiextensions/zz_generated_register.rs"]
mod zz_generated_register;
pub use zz_generated_register::*;
