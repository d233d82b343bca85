//! Bad input: the package turns register-gen off but still declares the generated register module.

pub mod widgets;
