//! The admission plugins k8s.io/apiserver ships.

pub mod namespace_lifecycle;

pub use namespace_lifecycle::NamespaceLifecycle;
