//! Bad input: the `//! +k8s:deepcopy-gen=package` line is in types.rs, not in the package's mod.rs.

pub mod widgets;
