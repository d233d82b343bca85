//! Bad input: the hand-written `convert_v1_widget_spec_to_widgets_widget_spec` takes the spec by value.

pub mod widgets;
