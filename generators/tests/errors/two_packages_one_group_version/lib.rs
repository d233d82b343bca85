//! Bad input: `widgets::v1` and `gadgets::v1` both serve widgets.example.dev/v1.

pub mod gadgets;
pub mod widgets;
