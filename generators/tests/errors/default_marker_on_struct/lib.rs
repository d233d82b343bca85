//! Bad input: a `+default=` JSON object on a struct field; only scalar defaults are generated, so
//! the rest must be hand-written.

pub mod widgets;
