//! Bad input: an options kind decoded from query parameters has a field of a struct type, which no query parameter holds.

pub mod widgets;
