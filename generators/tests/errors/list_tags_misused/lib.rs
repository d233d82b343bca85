//! Bad input: `+listMapKey` on a map, `+listType=map` on `Vec<String>`, and a key that is a struct.

pub mod widgets;
