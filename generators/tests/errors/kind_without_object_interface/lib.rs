//! Bad input: a kind without `+k8s:deepcopy-gen:interfaces=runtime::Object`, so it cannot be registered.

pub mod widgets;
