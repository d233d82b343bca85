//! Bad input: two malformed printer-column tags: one has no `jsonPath=`, the other an unclosed quote in `description="oops`.

pub mod gadgets;
