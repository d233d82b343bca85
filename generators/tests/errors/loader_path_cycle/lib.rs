//! Bad input: `extra.rs` declares `#[path = "extra.rs"] mod again;`, itself.

pub mod widgets;
