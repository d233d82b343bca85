//! The v1 version of the widgets API group.
//! +k8s:deepcopy-gen=package
//! +k8s:validation-gen=TypeMeta
//! +k8s:minimum=1
//! +groupName=widgets.example.dev

mod types;
pub use types::*;

#[rustfmt::skip]
#[path = "../../../../../../target/tmp/generators-errors/validation_tags_malformed/widgets/v1/zz_generated_deepcopy.rs"]
mod zz_generated_deepcopy;
#[rustfmt::skip]
#[path = "../../../../../../target/tmp/generators-errors/validation_tags_malformed/widgets/v1/zz_generated_register.rs"]
mod zz_generated_register;
pub use zz_generated_register::*;
#[rustfmt::skip]
#[path = "../../../../../../target/tmp/generators-errors/validation_tags_malformed/widgets/v1/zz_generated_validations.rs"]
mod zz_generated_validations;
pub use zz_generated_validations::*;
