//! Bad input: `WidgetList` holds `WidgetSpec` items, not `Widget`s.

pub mod widgets;
