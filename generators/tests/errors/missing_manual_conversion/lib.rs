//! Bad input: v1's `size` is a string while the internal one is a number, and no hand-written
//! `convert_v1_widget_spec_to_widgets_widget_spec` exists; v1 also lacks the internal `colour`.

pub mod widgets;
