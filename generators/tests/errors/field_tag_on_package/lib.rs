//! Bad input: `+optional` written as a package tag.

pub mod widgets;
