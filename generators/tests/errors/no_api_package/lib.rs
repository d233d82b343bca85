//! Bad input: `--apis` points at a crate without a single API package; nothing would be generated,
//! so every generated file would be stale.

pub mod util;
