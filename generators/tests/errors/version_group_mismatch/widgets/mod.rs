//! The widgets API group; its only package is `v1`.
//! +groupName=widgets.example.dev
//! +k8s:register-gen=false

pub mod v1;
