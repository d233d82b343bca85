//! Bad input: `#[serde(flatten)]` on a `String` field; serde flattens only structs and maps.

pub mod widgets;
