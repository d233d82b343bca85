//! Bad input: one typo (`+optinal`) in gadgets/v1 while widgets and widgets/v1 are correct; nothing is written.

pub mod gadgets;
pub mod widgets;
