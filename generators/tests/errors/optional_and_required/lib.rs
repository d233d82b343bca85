//! Bad input: a field tagged both `+optional` and `+required`.

pub mod widgets;
