//! The internal version of the apps API group: the objects as represented in memory.
//! +k8s:deepcopy-gen=package
//! +groupName=apps

mod types;
pub use types::*;

pub mod install;
pub mod v1;
pub mod v1beta1;
pub mod v1beta2;

#[rustfmt::skip]
#[path = "../../../generated/apis/apps/zz_generated_deepcopy.rs"]
mod zz_generated_deepcopy;
#[rustfmt::skip]
#[path = "../../../generated/apis/apps/zz_generated_register.rs"]
mod zz_generated_register;
pub use zz_generated_register::*;
