//! Bad input: a field whose named type opts out of deep copy with `+k8s:deepcopy-gen=false` and has no Clone.

pub mod widgets;
