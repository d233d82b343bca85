//! Version v1 of the gadgets group.
//! +k8s:deepcopy-gen=package
//! +k8s:protobuf-gen=package
//! +groupName=gadgets.example.dev

mod types;
pub use types::*;

#[rustfmt::skip]
#[path = "../../../../../../target/tmp/generators-errors/protobuf_mistakes/gadgets/v1/zz_generated_deepcopy.rs"]
mod zz_generated_deepcopy;
#[rustfmt::skip]
#[path = "../../../../../../target/tmp/generators-errors/protobuf_mistakes/gadgets/v1/zz_generated_register.rs"]
mod zz_generated_register;
pub use zz_generated_register::*;
#[rustfmt::skip]
#[path = "../../../../../../target/tmp/generators-errors/protobuf_mistakes/gadgets/v1/zz_generated_protobuf.rs"]
mod zz_generated_protobuf;
