//! Hand-written defaults of apiextensions/v1beta1, as Kubernetes' apiextensions-apiserver
//! pkg/apis/apiextensions/v1beta1/defaults.go sets them: v1's, plus the top-level `version` and
//! `versions` filled from each other, and unknown fields preserved unless said otherwise.

use super::{CustomResourceConversion, CustomResourceDefinition, CustomResourceDefinitionVersion, ServiceReference};

/// CustomResourceDefinition defaults of v1beta1.
pub fn set_defaults_custom_resource_definition(obj: &mut CustomResourceDefinition) {
    let spec = &mut obj.spec;
    let names = &mut spec.names;
    if names.singular.as_deref().is_none_or(str::is_empty) {
        names.singular = Some(names.kind.to_lowercase());
    }
    if names.list_kind.as_deref().is_none_or(str::is_empty) && !names.kind.is_empty() {
        names.list_kind = Some(format!("{}List", names.kind));
    }
    let version = spec.version.clone().filter(|v| !v.is_empty());
    let versions = spec.versions.get_or_insert_with(Vec::new);
    match (version, versions.first()) {
        (None, Some(first)) => spec.version = Some(first.name.clone()),
        (Some(v), None) => versions.push(CustomResourceDefinitionVersion {
            name: v,
            served: true,
            storage: true,
            ..Default::default()
        }),
        _ => {}
    }
    if spec.versions.as_ref().is_some_and(Vec::is_empty) {
        spec.versions = None;
    }
    spec.conversion.get_or_insert_with(|| CustomResourceConversion {
        strategy: "None".into(),
        ..Default::default()
    });
    spec.preserve_unknown_fields.get_or_insert(true);
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
