//! Bad input: converting the internal `extra` (always there) to v1's `Option` compares it with its
//! default, but the internal `Extra` does not implement PartialEq.

pub mod widgets;
