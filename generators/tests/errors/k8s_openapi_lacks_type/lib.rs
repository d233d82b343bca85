//! Bad input: a field names `k8s_openapi`'s `meta::v1::GroupVersionKind`, which k8s-openapi does not have.

pub mod widgets;
