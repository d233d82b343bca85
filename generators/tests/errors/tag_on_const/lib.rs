//! Bad input: a field tag written on a constant.

pub mod widgets;
