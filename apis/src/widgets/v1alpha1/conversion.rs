//! Hand-written conversions of widgets v1alpha1: the hub's `spec.paused` (from v1) has no field
//! here, so it travels in the annotation `widgets.example.dev/paused`, and a v1 -> v1alpha1 -> v1
//! round trip (what a conversion webhook does to a stored v1 object read as v1alpha1 and written
//! back) keeps it.

use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use kube_apimachinery::ConversionError;

use super::{Widget, WidgetSpec, auto_convert_widgets_widget_spec_to_v1alpha1_widget_spec};
use super::{auto_convert_v1alpha1_widget_to_widgets_widget, auto_convert_widgets_widget_to_v1alpha1_widget};
use crate::widgets;

/// The annotation that carries the hub's `spec.paused` in v1alpha1.
pub const PAUSED_ANNOTATION: &str = "widgets.example.dev/paused";

/// Converts an internal WidgetSpec; `paused` is carried by the Widget's annotation (see
/// `convert_widgets_widget_to_v1alpha1_widget`), so the spec drops it.
pub fn convert_widgets_widget_spec_to_v1alpha1_widget_spec(
    input: &widgets::WidgetSpec,
    out: &mut WidgetSpec,
) -> Result<(), ConversionError> {
    auto_convert_widgets_widget_spec_to_v1alpha1_widget_spec(input, out)
}

/// Converts an internal Widget; `spec.paused` becomes the annotation.
pub fn convert_widgets_widget_to_v1alpha1_widget(
    input: &widgets::Widget,
    out: &mut Widget,
) -> Result<(), ConversionError> {
    auto_convert_widgets_widget_to_v1alpha1_widget(input, out)?;
    if let Some(paused) = input.spec.as_ref().and_then(|s| s.paused) {
        out.metadata
            .annotations
            .get_or_insert_with(Default::default)
            .insert(PAUSED_ANNOTATION.into(), paused.to_string());
    }
    Ok(())
}

/// Converts a v1alpha1 Widget; the annotation, if any, becomes `spec.paused` and leaves the
/// internal annotations.
pub fn convert_v1alpha1_widget_to_widgets_widget(
    input: &Widget,
    out: &mut widgets::Widget,
) -> Result<(), ConversionError> {
    auto_convert_v1alpha1_widget_to_widgets_widget(input, out)?;
    if let Some(paused) = take_paused(&mut out.metadata)? {
        out.spec.get_or_insert_with(Default::default).paused = Some(paused);
    }
    Ok(())
}

/// Takes the paused annotation out of `meta` and parses it.
fn take_paused(meta: &mut ObjectMeta) -> Result<Option<bool>, ConversionError> {
    let Some(annotations) = meta.annotations.as_mut() else {
        return Ok(None);
    };
    let Some(value) = annotations.remove(PAUSED_ANNOTATION) else {
        return Ok(None);
    };
    // The annotation only carried the field: without it, no annotations is no annotations.
    if annotations.is_empty() {
        meta.annotations = None;
    }
    value.parse().map(Some).map_err(|_| {
        ConversionError::Custom(format!(
            "annotation[{PAUSED_ANNOTATION}]={value} is neither true nor false"
        ))
    })
}
