//! The field selectors core/v1 kinds support beyond `metadata.name` and `metadata.namespace`,
//! hand-written as in Kubernetes' pkg/apis/core/v1/conversion.go (`AddFieldLabelConversionFunc`):
//! `kubectl get pods --field-selector status.phase=Running,spec.nodeName=n1`.

use kube_apimachinery::{ConversionError, Scheme, default_meta_v1_field_selector_conversion};

use super::SCHEME_GROUP_VERSION;

/// Registers the field-label conversions of Pods, Namespaces and Events.
pub fn add_field_label_conversions(scheme: &mut Scheme) {
    scheme.add_field_label_conversion_func(SCHEME_GROUP_VERSION.with_kind("Event"), event_field_labels);
    scheme.add_field_label_conversion_func(SCHEME_GROUP_VERSION.with_kind("Pod"), pod_field_labels);
    scheme.add_field_label_conversion_func(SCHEME_GROUP_VERSION.with_kind("Namespace"), namespace_field_labels);
}

/// The Pod fields Kubernetes indexes for field selectors.
fn pod_field_labels(label: &str, value: &str) -> Result<(String, String), ConversionError> {
    match label {
        "spec.nodeName"
        | "spec.restartPolicy"
        | "spec.schedulerName"
        | "spec.serviceAccountName"
        | "spec.hostNetwork"
        | "status.phase"
        | "status.podIP"
        | "status.nominatedNodeName" => Ok((label.to_string(), value.to_string())),
        _ => default_meta_v1_field_selector_conversion(label, value),
    }
}

/// Events select on their object (`kubectl describe` asks for its name, namespace, kind and uid),
/// reason, type and reporter. Kubernetes' `source` is the reporting component's name, which is at
/// `source.component` in the object.
fn event_field_labels(label: &str, value: &str) -> Result<(String, String), ConversionError> {
    match label {
        "involvedObject.kind"
        | "involvedObject.namespace"
        | "involvedObject.name"
        | "involvedObject.uid"
        | "involvedObject.apiVersion"
        | "involvedObject.resourceVersion"
        | "involvedObject.fieldPath"
        | "reason"
        | "reportingComponent"
        | "type" => Ok((label.to_string(), value.to_string())),
        "source" => Ok(("source.component".to_string(), value.to_string())),
        _ => default_meta_v1_field_selector_conversion(label, value),
    }
}

/// Namespaces select on their phase.
fn namespace_field_labels(label: &str, value: &str) -> Result<(String, String), ConversionError> {
    match label {
        "status.phase" => Ok((label.to_string(), value.to_string())),
        _ => default_meta_v1_field_selector_conversion(label, value),
    }
}
