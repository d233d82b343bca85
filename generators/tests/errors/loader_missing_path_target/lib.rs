//! Bad input: `#[path = "gone.rs"] mod extra;` names a file that does not exist.

pub mod widgets;
