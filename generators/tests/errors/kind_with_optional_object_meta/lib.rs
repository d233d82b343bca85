//! Bad input: a kind whose ObjectMeta is an `Option`, which the generated code cannot compile against.

pub mod widgets;
