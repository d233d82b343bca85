//! Bad input: `WidgetSpec` defined in two files of the same package.

pub mod widgets;
