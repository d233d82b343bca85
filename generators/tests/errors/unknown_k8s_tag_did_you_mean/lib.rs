//! Bad input: an unknown `k8s:` tag, one letter off a known one.

pub mod widgets;
