//! The v1 version of the gadgets API group.
//! +k8s:deepcopy-gen=package
//! +groupName=gadgets.example.dev

mod types;
pub use types::*;

#[rustfmt::skip]
#[path = "../../../../../../target/tmp/generators-errors/bad_file_among_good_packages/gadgets/v1/zz_generated_deepcopy.rs"]
mod zz_generated_deepcopy;
#[rustfmt::skip]
#[path = "../../../../../../target/tmp/generators-errors/bad_file_among_good_packages/gadgets/v1/zz_generated_register.rs"]
mod zz_generated_register;
pub use zz_generated_register::*;
