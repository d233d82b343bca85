//! The widgets API group; its only package is `v1`.

pub mod v1;
