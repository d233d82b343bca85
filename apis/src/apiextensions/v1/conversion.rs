//! Hand-written conversions of apiextensions/v1, following Kubernetes'
//! apiextensions-apiserver/pkg/apis/apiextensions/v1/conversion.go: the internal version keeps
//! v1beta1's top-level `version`, `validation`, `subresources`, `additionalPrinterColumns` and
//! `selectableFields`, which v1 has per version; and v1 nests the webhook client configuration
//! under `conversion.webhook`, which the internal version has flat.

use kube_apimachinery::ConversionError;
use kube_apimachinery::conversion::convert_with;

use super::{
    CustomResourceConversion, CustomResourceDefinitionSpec, CustomResourceDefinitionVersion, WebhookConversion,
};
use super::{
    auto_convert_apiextensions_custom_resource_conversion_to_v1_custom_resource_conversion,
    auto_convert_apiextensions_custom_resource_definition_spec_to_v1_custom_resource_definition_spec,
    auto_convert_v1_custom_resource_conversion_to_apiextensions_custom_resource_conversion,
    auto_convert_v1_custom_resource_definition_spec_to_apiextensions_custom_resource_definition_spec,
    convert_apiextensions_custom_resource_column_definition_to_v1_custom_resource_column_definition,
    convert_apiextensions_custom_resource_subresources_to_v1_custom_resource_subresources,
    convert_apiextensions_custom_resource_validation_to_v1_custom_resource_validation,
    convert_apiextensions_selectable_field_to_v1_selectable_field,
    convert_apiextensions_webhook_client_config_to_v1_webhook_client_config,
    convert_v1_webhook_client_config_to_apiextensions_webhook_client_config,
};
use crate::apiextensions as internal;

/// Converts a v1 spec. The first version's name becomes the top-level `version`, and each
/// per-version field that is the same in every version moves to the top level.
pub fn convert_v1_custom_resource_definition_spec_to_apiextensions_custom_resource_definition_spec(
    input: &CustomResourceDefinitionSpec,
    out: &mut internal::CustomResourceDefinitionSpec,
) -> Result<(), ConversionError> {
    auto_convert_v1_custom_resource_definition_spec_to_apiextensions_custom_resource_definition_spec(input, out)?;
    // v1's preserveUnknownFields is a plain bool in Go: absent means false, which the internal
    // pointer must say explicitly (v1beta1 would otherwise default it to true).
    out.preserve_unknown_fields = Some(input.preserve_unknown_fields.unwrap_or(false));
    let Some(first) = out.versions.first() else {
        return Ok(());
    };
    out.version = first.name.clone();
    let versions = &out.versions;
    let same = |differs: fn(
        &internal::CustomResourceDefinitionVersion,
        &internal::CustomResourceDefinitionVersion,
    ) -> bool| { versions.iter().all(|v| !differs(v, &versions[0])) };
    let promote_subresources = first.subresources.is_some() && same(|a, b| a.subresources != b.subresources);
    let promote_validation = first.schema.is_some() && same(|a, b| a.schema != b.schema);
    let promote_columns = !first.additional_printer_columns.is_empty()
        && same(|a, b| a.additional_printer_columns != b.additional_printer_columns);
    let promote_fields = !first.selectable_fields.is_empty() && same(|a, b| a.selectable_fields != b.selectable_fields);
    if promote_subresources {
        out.subresources = out.versions[0].subresources.clone();
        out.versions.iter_mut().for_each(|v| v.subresources = None);
    }
    if promote_validation {
        out.validation = out.versions[0].schema.clone();
        out.versions.iter_mut().for_each(|v| v.schema = None);
    }
    if promote_columns {
        out.additional_printer_columns = out.versions[0].additional_printer_columns.clone();
        out.versions
            .iter_mut()
            .for_each(|v| v.additional_printer_columns.clear());
    }
    if promote_fields {
        out.selectable_fields = out.versions[0].selectable_fields.clone();
        out.versions.iter_mut().for_each(|v| v.selectable_fields.clear());
    }
    Ok(())
}

/// Converts an internal spec. A lone top-level `version` becomes the only served and stored
/// version, and the top-level fields move into every version.
pub fn convert_apiextensions_custom_resource_definition_spec_to_v1_custom_resource_definition_spec(
    input: &internal::CustomResourceDefinitionSpec,
    out: &mut CustomResourceDefinitionSpec,
) -> Result<(), ConversionError> {
    auto_convert_apiextensions_custom_resource_definition_spec_to_v1_custom_resource_definition_spec(input, out)?;
    // Back to a plain bool with omitempty: only `true` is written.
    out.preserve_unknown_fields = input.preserve_unknown_fields.filter(|preserve| *preserve);
    if out.versions.is_empty() && !input.version.is_empty() {
        out.versions = vec![CustomResourceDefinitionVersion {
            name: input.version.clone(),
            served: true,
            storage: true,
            ..Default::default()
        }];
    }
    if let Some(s) = &input.subresources {
        let s = convert_with(
            s,
            convert_apiextensions_custom_resource_subresources_to_v1_custom_resource_subresources,
        )?;
        out.versions.iter_mut().for_each(|v| v.subresources = Some(s.clone()));
    }
    if let Some(s) = &input.validation {
        let s = convert_with(
            s,
            convert_apiextensions_custom_resource_validation_to_v1_custom_resource_validation,
        )?;
        out.versions.iter_mut().for_each(|v| v.schema = Some(s.clone()));
    }
    if !input.additional_printer_columns.is_empty() {
        let columns = input
            .additional_printer_columns
            .iter()
            .map(|c| {
                convert_with(
                    c,
                    convert_apiextensions_custom_resource_column_definition_to_v1_custom_resource_column_definition,
                )
            })
            .collect::<Result<Vec<_>, _>>()?;
        out.versions
            .iter_mut()
            .for_each(|v| v.additional_printer_columns = Some(columns.clone()));
    }
    if !input.selectable_fields.is_empty() {
        let fields = input
            .selectable_fields
            .iter()
            .map(|f| convert_with(f, convert_apiextensions_selectable_field_to_v1_selectable_field))
            .collect::<Result<Vec<_>, _>>()?;
        out.versions
            .iter_mut()
            .for_each(|v| v.selectable_fields = Some(fields.clone()));
    }
    Ok(())
}

/// Converts an internal conversion strategy; the flat client configuration and review versions
/// move under `webhook`.
pub fn convert_apiextensions_custom_resource_conversion_to_v1_custom_resource_conversion(
    input: &internal::CustomResourceConversion,
    out: &mut CustomResourceConversion,
) -> Result<(), ConversionError> {
    auto_convert_apiextensions_custom_resource_conversion_to_v1_custom_resource_conversion(input, out)?;
    out.webhook = None;
    if input.webhook_client_config.is_some() || !input.conversion_review_versions.is_empty() {
        let client_config = input
            .webhook_client_config
            .as_ref()
            .map(|c| {
                convert_with(
                    c,
                    convert_apiextensions_webhook_client_config_to_v1_webhook_client_config,
                )
            })
            .transpose()?;
        out.webhook = Some(WebhookConversion {
            client_config,
            conversion_review_versions: input.conversion_review_versions.clone(),
        });
    }
    Ok(())
}

/// Converts a v1 conversion strategy; `webhook` flattens into the internal fields.
pub fn convert_v1_custom_resource_conversion_to_apiextensions_custom_resource_conversion(
    input: &CustomResourceConversion,
    out: &mut internal::CustomResourceConversion,
) -> Result<(), ConversionError> {
    auto_convert_v1_custom_resource_conversion_to_apiextensions_custom_resource_conversion(input, out)?;
    out.webhook_client_config = None;
    out.conversion_review_versions.clear();
    if let Some(w) = &input.webhook {
        out.conversion_review_versions = w.conversion_review_versions.clone();
        out.webhook_client_config = w
            .client_config
            .as_ref()
            .map(|c| {
                convert_with(
                    c,
                    convert_v1_webhook_client_config_to_apiextensions_webhook_client_config,
                )
            })
            .transpose()?;
    }
    Ok(())
}
