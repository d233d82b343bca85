//! Bad input: the list-map key `name` of a CRD list (`+listType=map`, `+listMapKey=name`) is an optional field with no `+default`.

pub mod gadgets;
