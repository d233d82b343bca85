//! Bad input: `+default=300` on a `u8`, `-1` on a `u32`, `1.5` on an `i32`: literals that would not compile.

pub mod widgets;
