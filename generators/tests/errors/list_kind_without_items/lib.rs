//! Bad input: a list kind (ListMeta) whose objects are not in an `items: Vec<...>` field.

pub mod widgets;
