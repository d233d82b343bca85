//! Bad input: `+genclient` on a struct that has no TypeMeta, so is not a kind.

pub mod widgets;
