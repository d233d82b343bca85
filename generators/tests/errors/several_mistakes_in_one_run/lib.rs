//! Bad input: three mistakes in three files, all reported in one run, sorted by location.

pub mod gadgets;
pub mod widgets;
