//! Bad input: `widgets/v1/extra.rs` carries tags, but no `mod` declares it, so rustc never compiles it.

pub mod widgets;
