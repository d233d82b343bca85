//! Bad input: the `#[path]` of the generated register module points at another directory.

pub mod widgets;
