//! Bad input: `+optional=true`: a flag tag takes no value.

pub mod widgets;
