//! Bad input: an editor's copy `types copy.rs` sits beside `types.rs`; no module can name it.

pub mod widgets;
