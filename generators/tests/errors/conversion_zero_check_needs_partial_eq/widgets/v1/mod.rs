//! The v1 version of the widgets API group.
//! +k8s:deepcopy-gen=package
//! +groupName=widgets.example.dev
//! +k8s:conversion-gen=crate::widgets

mod types;
pub use types::*;

#[rustfmt::skip]
#[path = "../../../../../../target/tmp/generators-errors/conversion_zero_check_needs_partial_eq/widgets/v1/zz_generated_deepcopy.rs"]
mod zz_generated_deepcopy;
#[rustfmt::skip]
#[path = "../../../../../../target/tmp/generators-errors/conversion_zero_check_needs_partial_eq/widgets/v1/zz_generated_register.rs"]
mod zz_generated_register;
pub use zz_generated_register::*;
#[rustfmt::skip]
#[path = "../../../../../../target/tmp/generators-errors/conversion_zero_check_needs_partial_eq/widgets/v1/zz_generated_conversion.rs"]
mod zz_generated_conversion;
pub use zz_generated_conversion::*;
