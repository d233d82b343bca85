//! Bad input: `+default=Always`: a default is JSON, so a string is quoted.

pub mod widgets;
