//! The widgets API group; its only package is `v1`.

#[allow(non_snake_case)]
pub mod v1Beta1;
