//! Bad input: a kind (it has TypeMeta) without a `metadata: ObjectMeta` field.

pub mod widgets;
