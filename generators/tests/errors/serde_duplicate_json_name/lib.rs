//! Bad input: two fields of `WidgetSpec` serialize under the JSON name `replicas`.

pub mod widgets;
