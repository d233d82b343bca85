//! Bad input: `+listMapKey=nmae` on a CRD list names no field of the item type (a typo of `name`).

pub mod gadgets;
