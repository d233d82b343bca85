//! Hand-written defaults of apiextensions/v1, as Kubernetes' apiextensions-apiserver
//! pkg/apis/apiextensions/v1/defaults.go sets them.

use super::{CustomResourceConversion, CustomResourceDefinition, ServiceReference};

/// CustomResourceDefinition defaults: the singular name is the lower-cased kind, the list kind is
/// `<Kind>List`, and conversion is `None` unless given.
pub fn set_defaults_custom_resource_definition(obj: &mut CustomResourceDefinition) {
    let names = &mut obj.spec.names;
    if names.singular.as_deref().is_none_or(str::is_empty) {
        names.singular = Some(names.kind.to_lowercase());
    }
    if names.list_kind.as_deref().is_none_or(str::is_empty) && !names.kind.is_empty() {
        names.list_kind = Some(format!("{}List", names.kind));
    }
    obj.spec.conversion.get_or_insert_with(|| CustomResourceConversion {
        strategy: "None".into(),
        ..Default::default()
    });
}

/// A conversion without a strategy converts nothing: `None`.
pub fn set_defaults_custom_resource_conversion(obj: &mut CustomResourceConversion) {
    if obj.strategy.is_empty() {
        obj.strategy = "None".into();
    }
}

/// A webhook service is called on port 443 unless it says otherwise.
pub fn set_defaults_service_reference(obj: &mut ServiceReference) {
    obj.port.get_or_insert(443);
}
