//! Bad input: `+k8s:deepcopy-gen:interfaces` naming an interface the generator does not implement.

pub mod widgets;
