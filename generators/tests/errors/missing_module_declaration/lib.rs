//! Bad input: the package's mod.rs does not declare the generated deepcopy module.

pub mod widgets;
