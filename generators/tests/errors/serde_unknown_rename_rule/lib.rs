//! Bad input: `#[serde(rename_all = "camel")]` is not a rule serde knows.

pub mod widgets;
