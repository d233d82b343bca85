//! Bad input: a `k8s:` tag of the Go tool that this tool does not have, far from every known name.

pub mod widgets;
