//! The internal version of the widgets API group.
//! +k8s:deepcopy-gen=package
//! +groupName=widgets.example.dev

mod types;
pub mod v1;
pub use types::*;

#[rustfmt::skip]
#[path = "../../../../../target/tmp/generators-errors/conversion_zero_check_needs_partial_eq/widgets/zz_generated_deepcopy.rs"]
mod zz_generated_deepcopy;
#[rustfmt::skip]
#[path = "../../../../../target/tmp/generators-errors/conversion_zero_check_needs_partial_eq/widgets/zz_generated_register.rs"]
mod zz_generated_register;
pub use zz_generated_register::*;
