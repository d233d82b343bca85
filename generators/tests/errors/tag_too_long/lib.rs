//! Bad input: a `+resourceName` of 5,000 characters, longer than a tag may be.

pub mod widgets;
