//! Bad input: `+k8s:deepcopy-gen=maybe`: the package value is `package` or `false`.

pub mod widgets;
