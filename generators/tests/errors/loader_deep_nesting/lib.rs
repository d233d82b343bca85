//! Bad input: a field type nests 70 `Option`s, deeper than the loader's limit of 64.

pub mod widgets;
