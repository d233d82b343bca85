//! Bad input: `+enum` on a struct; it marks a string enum, an enum of unit variants.

pub mod gadgets;
