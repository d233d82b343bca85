//! Bad input: a missing comma between two fields.

pub mod widgets;
