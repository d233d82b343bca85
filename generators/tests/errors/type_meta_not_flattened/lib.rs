//! Bad input: the TypeMeta of an external kind without `#[serde(flatten, default)]`.

pub mod widgets;
