//! Bad input: a field type that is neither imported nor defined in the package.

pub mod widgets;
