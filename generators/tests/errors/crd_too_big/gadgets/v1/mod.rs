//! Version v1 of the gadgets group.
//! +k8s:deepcopy-gen=package
//! +groupName=gadgets.example.dev
//! +k8s:crd-gen=true

mod types;
pub use types::*;

#[rustfmt::skip]
#[path = "../../../../../../target/tmp/generators-errors/crd_too_big/gadgets/v1/zz_generated_deepcopy.rs"]
mod zz_generated_deepcopy;
#[rustfmt::skip]
#[path = "../../../../../../target/tmp/generators-errors/crd_too_big/gadgets/v1/zz_generated_register.rs"]
mod zz_generated_register;
pub use zz_generated_register::*;
