//! Bad input: a type tag written on a free function.

pub mod widgets;
