//! Hand-written conversions of the spec, one of them with the wrong signature.

use runtime::ConversionError;

/// Takes the spec by value and returns nothing: generated code cannot call it.
pub fn convert_v1_widget_spec_to_widgets_widget_spec(input: super::WidgetSpec, out: &mut crate::widgets::WidgetSpec) {
    out.size = input.size.trim_end_matches("mm").parse().unwrap_or_default();
}

/// The other direction, as generated code calls it.
pub fn convert_widgets_widget_spec_to_v1_widget_spec(
    input: &crate::widgets::WidgetSpec,
    out: &mut super::WidgetSpec,
) -> Result<(), ConversionError> {
    out.size = format!("{}mm", input.size);
    Ok(())
}
