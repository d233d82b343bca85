//! Bad input: a `+k8s:validation:` tag in the internal version, which is never published, so the
//! tag does nothing.

pub mod widgets;
