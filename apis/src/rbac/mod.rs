//! The internal version of the rbac.authorization.k8s.io API group: roles, cluster roles and
//! their bindings as represented in memory, which the server's RBAC authorizer reads.
//! +k8s:deepcopy-gen=package
//! +groupName=rbac.authorization.k8s.io

mod types;
pub use types::*;

pub mod install;
pub mod v1;

#[rustfmt::skip]
#[path = "../../../generated/apis/rbac/zz_generated_deepcopy.rs"]
mod zz_generated_deepcopy;
#[rustfmt::skip]
#[path = "../../../generated/apis/rbac/zz_generated_register.rs"]
mod zz_generated_register;
pub use zz_generated_register::*;
