//! The internal version of the core API group: the objects as represented in memory.
//! +k8s:deepcopy-gen=package
//! +groupName=

mod event;
mod service_account;
mod types;
pub use event::*;
pub use service_account::*;
pub use types::*;

pub mod install;
pub mod v1;

#[rustfmt::skip]
#[path = "../../../generated/apis/core/zz_generated_deepcopy.rs"]
mod zz_generated_deepcopy;
#[rustfmt::skip]
#[path = "../../../generated/apis/core/zz_generated_register.rs"]
mod zz_generated_register;
pub use zz_generated_register::*;
