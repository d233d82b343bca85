//! The v1 version of the widgets API group.
//! +k8s:deepcopy-gen=package
//! +groupName=widgets.example.dev

mod types;
pub use types::*;

#[rustfmt::skip]
#[path = "../../../../../../target/tmp/generators-errors/kind_with_optional_object_meta/widgets/v1/zz_generated_deepcopy.rs"]
mod zz_generated_deepcopy;
#[rustfmt::skip]
#[path = "../../../../../../target/tmp/generators-errors/kind_with_optional_object_meta/widgets/v1/zz_generated_register.rs"]
mod zz_generated_register;
pub use zz_generated_register::*;
