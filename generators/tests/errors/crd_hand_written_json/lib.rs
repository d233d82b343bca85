//! Bad input: a field of a CRD kind has a type whose JSON form is written by hand (Serialize implemented without serde derive), so there is no schema to inline.

pub mod gadgets;
