//! A CustomResourceDefinition checked as apiextensions-apiserver's `ValidateCustomResourceDefinition`
//! checks it before it is stored: its name, group, scope and names, exactly one storage version,
//! unique version names, a structural schema for every version (types everywhere, nothing but
//! `name`/`generateName` under `metadata`), rules that compile within their cost budget,
//! subresource paths under `.spec`/`.status`, the conversion strategy, and on update the stored
//! versions still listed.

use kube_apimachinery::validation::content;
use kube_apimachinery::validation::{BadValue, ErrorList, FieldError, Path};
use serde_json::Value;

use super::schema::Structural;

/// The errors of a CRD on create (`old` is `None`) or update, in Kubernetes' order: metadata,
/// group, scope, versions, names, schemas, subresources, conversion, stored versions.
pub fn validate(crd: &Value, old: Option<&Value>) -> ErrorList {
    let mut out = Vec::new();
    let spec = crd.get("spec").cloned().unwrap_or_default();
    let text = |v: &Value, k: &str| v.get(k).and_then(Value::as_str).unwrap_or_default().to_string();
    let group = text(&spec, "group");
    let names = spec.get("names").cloned().unwrap_or_default();
    let plural = text(&names, "plural");
    let name = crd
        .pointer("/metadata/name")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let meta = Path::new("metadata");
    if name != format!("{plural}.{group}") {
        out.push(FieldError::invalid(
            &meta.child("name"),
            name,
            "must be spec.names.plural+\".\"+spec.group",
        ));
    }
    let spec_path = Path::new("spec");
    let group_path = spec_path.child("group");
    if group.is_empty() {
        out.push(FieldError::required(&group_path, ""));
    } else {
        let problems = content::dns1123_subdomain(&group);
        if !problems.is_empty() {
            out.push(FieldError::invalid(&group_path, group.as_str(), problems.join(",")));
        }
        if group.split('.').count() < 2 {
            out.push(FieldError::invalid(
                &group_path,
                group.as_str(),
                "should be a domain with at least one dot",
            ));
        }
    }
    let scope = text(&spec, "scope");
    let scope_path = spec_path.child("scope");
    if scope.is_empty() {
        out.push(FieldError::required(&scope_path, ""));
    } else if scope != "Cluster" && scope != "Namespaced" {
        out.push(FieldError::not_supported(
            &scope_path,
            scope.as_str(),
            &["Cluster", "Namespaced"],
        ));
    }
    let versions = spec
        .get("versions")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let hoisted = Hoisted::of(&versions);
    // A CRD written through v1beta1 (which defaults `preserveUnknownFields` to true) may go
    // without schemas; through v1 every version needs one.
    let schemas_required = spec.get("preserveUnknownFields").and_then(Value::as_bool) != Some(true);
    versions_errors(
        &versions,
        &hoisted,
        schemas_required,
        &spec_path.child("versions"),
        &mut out,
    );
    names_errors(&names, &spec_path.child("names"), &mut out);
    for (i, version) in versions.iter().enumerate() {
        if let Some(schema) = version.pointer("/schema/openAPIV3Schema")
            && (!hoisted.schema || i == 0)
        {
            let at = if hoisted.schema {
                "spec.validation.openAPIV3Schema".to_string()
            } else {
                format!("spec.versions[{i}].schema.openAPIV3Schema")
            };
            schema_errors(schema, &at, &mut out);
        }
    }
    for (i, version) in versions.iter().enumerate() {
        if !hoisted.subresources || i == 0 {
            let index_path = spec_path.child("versions");
            let index_path = index_path.index(i);
            let at = if hoisted.subresources {
                spec_path.child("subresources")
            } else {
                index_path.child("subresources")
            };
            subresource_errors(version.get("subresources"), &at, &mut out);
        }
    }
    conversion_errors(spec.get("conversion"), &spec_path.child("conversion"), &mut out);
    let storage = versions
        .iter()
        .any(|v| v.get("storage").and_then(Value::as_bool) == Some(true));
    match old {
        None if !storage => out.push(FieldError::invalid(
            &Path::new("status").child("storedVersions"),
            BadValue::Null,
            "must have at least one stored version",
        )),
        None => {}
        Some(old) => {
            out.extend(stored_versions_errors(crd, &versions));
            let old_spec = old.get("spec").cloned().unwrap_or_default();
            let immutable = |out: &mut ErrorList, path: &Path<'_>, new: &str, was: &str| {
                if new != was {
                    out.push(FieldError::invalid(path, new, "field is immutable"));
                }
            };
            immutable(&mut out, &group_path, &group, &text(&old_spec, "group"));
            let old_names = old_spec.get("names").cloned().unwrap_or_default();
            let names_path = spec_path.child("names");
            immutable(
                &mut out,
                &names_path.child("plural"),
                &plural,
                &text(&old_names, "plural"),
            );
            let established = old
                .pointer("/status/conditions")
                .and_then(Value::as_array)
                .is_some_and(|c| c.iter().any(|c| c["type"] == "Established" && c["status"] == "True"));
            if established {
                immutable(&mut out, &scope_path, &scope, &text(&old_spec, "scope"));
                immutable(
                    &mut out,
                    &names_path.child("kind"),
                    &text(&names, "kind"),
                    &text(&old_names, "kind"),
                );
            }
        }
    }
    out
}

/// Which per-version fields the internal CRD holds once for all versions (v1's conversion
/// hoists a field to the spec when every version has the same value, as with one version):
/// their errors are reported at the hoisted path.
struct Hoisted {
    schema: bool,
    subresources: bool,
    columns: bool,
    selectable: bool,
}

impl Hoisted {
    fn of(versions: &[Value]) -> Hoisted {
        let same = |key: &str| versions.windows(2).all(|w| w[0].get(key) == w[1].get(key)) && !versions.is_empty();
        Hoisted {
            schema: same("schema"),
            subresources: same("subresources"),
            columns: same("additionalPrinterColumns"),
            selectable: same("selectableFields"),
        }
    }
}

/// `spec.names`: DNS-1035 plural, singular, short names and categories; a kind and list kind
/// that lower-cased are DNS-1035 labels, and not the same.
fn names_errors(names: &Value, path: &Path<'_>, out: &mut ErrorList) {
    let text = |k: &str| names.get(k).and_then(Value::as_str).unwrap_or_default().to_string();
    let kind = text("kind");
    // v1 defaults the singular and the list kind before validation.
    let singular = match text("singular") {
        s if s.is_empty() => kind.to_lowercase(),
        s => s,
    };
    let list_kind = match text("listKind") {
        s if s.is_empty() && !kind.is_empty() => format!("{kind}List"),
        s => s,
    };
    for (key, value) in [("plural", text("plural")), ("singular", singular)] {
        let at = path.child(key);
        if value.is_empty() {
            out.push(FieldError::required(&at, ""));
            continue;
        }
        let problems = content::dns1035_label(&value);
        if !problems.is_empty() {
            out.push(FieldError::invalid(&at, value.as_str(), problems.join(",")));
        }
    }
    for list in ["shortNames", "categories"] {
        let items = names.get(list).and_then(Value::as_array).cloned().unwrap_or_default();
        let list_path = path.child(list);
        for (i, s) in items.iter().enumerate() {
            let value = s.as_str().unwrap_or_default();
            let problems = content::dns1035_label(value);
            if !problems.is_empty() {
                out.push(FieldError::invalid(&list_path.index(i), value, problems.join(",")));
            }
        }
    }
    for (key, value) in [("kind", kind.clone()), ("listKind", list_kind.clone())] {
        let at = path.child(key);
        if value.is_empty() {
            out.push(FieldError::required(&at, ""));
            continue;
        }
        let problems = content::dns1035_label(&value.to_lowercase());
        if !problems.is_empty() {
            out.push(FieldError::invalid(
                &at,
                value.as_str(),
                format!(
                    "may have mixed case, but should otherwise match: {}",
                    problems.join(",")
                ),
            ));
        }
    }
    if !kind.is_empty() && kind == list_kind {
        out.push(FieldError::invalid(
            &path.child("listKind"),
            list_kind.as_str(),
            "kind and listKind may not be the same",
        ));
    }
}

/// `spec.versions`: DNS-1035 names with a schema each, unique, exactly one stored.
fn versions_errors(
    versions: &[Value],
    hoisted: &Hoisted,
    schemas_required: bool,
    path: &Path<'_>,
    out: &mut ErrorList,
) {
    for (i, version) in versions.iter().enumerate() {
        let at = path.index(i);
        let name = version.get("name").and_then(Value::as_str).unwrap_or_default();
        let problems = content::dns1035_label(name);
        if !problems.is_empty() {
            out.push(FieldError::invalid(&at.child("name"), name, problems.join(",")));
        }
        if schemas_required && version.pointer("/schema/openAPIV3Schema").is_none() {
            let schema = at.child("schema");
            out.push(FieldError::required(&schema.child("openAPIV3Schema"), ""));
        }
    }
    let names: Vec<&str> = versions.iter().filter_map(|v| v.get("name")?.as_str()).collect();
    if (1..names.len()).any(|j| names[..j].contains(&names[j])) {
        out.push(FieldError::invalid(
            path,
            BadValue::Other(shown_versions(versions, hoisted)),
            "must contain unique version names",
        ));
    }
    let storage = versions
        .iter()
        .filter(|v| v.get("storage").and_then(Value::as_bool) == Some(true))
        .count();
    if storage != 1 {
        out.push(FieldError::invalid(
            path,
            BadValue::Other(shown_versions(versions, hoisted)),
            "must have exactly one version marked as storage version",
        ));
    }
}

/// The versions as an error shows them: the internal type's JSON, whose fields carry Go's
/// names; the fields hoisted to the spec are `null` in it.
fn shown_versions(versions: &[Value], hoisted: &Hoisted) -> String {
    let items: Vec<Value> = versions
        .iter()
        .map(|v| {
            let field = |key: &str, gone: bool| {
                if gone {
                    Value::Null
                } else {
                    v.get(key).cloned().unwrap_or(Value::Null)
                }
            };
            serde_json::json!({
                "Name": v.get("name").cloned().unwrap_or(Value::String(String::new())),
                "Served": v.get("served").and_then(Value::as_bool).unwrap_or(false),
                "Storage": v.get("storage").and_then(Value::as_bool).unwrap_or(false),
                "Deprecated": v.get("deprecated").and_then(Value::as_bool).unwrap_or(false),
                "DeprecationWarning": v.get("deprecationWarning").cloned().unwrap_or(Value::Null),
                "Schema": field("schema", hoisted.schema),
                "Subresources": field("subresources", hoisted.subresources),
                "AdditionalPrinterColumns": field("additionalPrinterColumns", hoisted.columns),
                "SelectableFields": field("selectableFields", hoisted.selectable),
            })
        })
        .collect();
    // Go's encoder keeps the struct's field order, which `json!` (a sorted map) would not.
    let ordered: Vec<String> = items
        .iter()
        .map(|i| {
            let keys = [
                "Name",
                "Served",
                "Storage",
                "Deprecated",
                "DeprecationWarning",
                "Schema",
                "Subresources",
                "AdditionalPrinterColumns",
                "SelectableFields",
            ];
            let fields: Vec<String> = keys.iter().map(|k| format!("\"{k}\":{}", i[k])).collect();
            format!("{{{}}}", fields.join(","))
        })
        .collect();
    format!("[{}]", ordered.join(","))
}

/// A version's schema: structural (`structuralschema.ValidateStructural`), with rules that
/// compile and fit the cost budget.
fn schema_errors(schema: &Value, path: &str, all: &mut ErrorList) {
    // Kubernetes reports a schema's errors sorted by their text.
    let mut found = Vec::new();
    let out = &mut found;
    let mut problems = Vec::new();
    let structural = Structural::read(schema, path, &mut problems);
    for p in problems {
        out.push(located(&p.path, |at| {
            if p.message == "rule is not specified" {
                FieldError::required(at, p.message.clone())
            } else if p.path.ends_with(".reason") {
                FieldError::not_supported(
                    at,
                    p.value.clone(),
                    &[
                        "FieldValueDuplicate",
                        "FieldValueForbidden",
                        "FieldValueInvalid",
                        "FieldValueRequired",
                    ],
                )
            } else {
                FieldError::invalid(at, p.value.clone(), p.message.clone())
            }
        }));
    }
    if schema.get("type").and_then(Value::as_str) != Some("object") {
        let at = format!("{path}.type");
        let error = if schema.get("type").is_none() {
            located(&at, |p| FieldError::required(p, "must not be empty at the root"))
        } else {
            located(&at, |p| {
                FieldError::invalid(
                    p,
                    schema.get("type").and_then(Value::as_str).unwrap_or_default(),
                    "must be object at the root",
                )
            })
        };
        out.push(error);
    }
    if let Some(meta) = schema.pointer("/properties/metadata") {
        let only_names = meta
            .get("properties")
            .and_then(Value::as_object)
            .is_none_or(|p| p.keys().all(|k| k == "name" || k == "generateName"));
        let extra = meta
            .as_object()
            .is_some_and(|m| m.keys().any(|k| k != "type" && k != "properties"));
        if !only_names || extra {
            out.push(located(&format!("{path}.properties[metadata]"), |p| {
                FieldError::forbidden(
                    p,
                    "must not specify anything other than name and generateName, but metadata is implicitly specified",
                )
            }));
        }
    }
    structural_errors(schema, path, true, out);
    // Rules are costed only on a schema that is otherwise sound.
    if out.is_empty() {
        budget_errors(&structural, &structural, path, out);
    }
    found.sort_by_key(|e| e.to_string());
    all.extend(found);
}

/// Types on every node that has properties or items, and the extensions' combinations.
fn structural_errors(schema: &Value, path: &str, root: bool, out: &mut ErrorList) {
    let Some(map) = schema.as_object() else { return };
    let ty = map.get("type").and_then(Value::as_str).unwrap_or_default();
    let int_or_string = map.get("x-kubernetes-int-or-string").and_then(Value::as_bool) == Some(true);
    let preserve = map.get("x-kubernetes-preserve-unknown-fields");
    if preserve == Some(&Value::Bool(false)) {
        out.push(located(&format!("{path}.x-kubernetes-preserve-unknown-fields"), |p| {
            FieldError::invalid(p, false, "must be true or undefined")
        }));
    }
    if int_or_string && !ty.is_empty() {
        out.push(located(&format!("{path}.type"), |p| {
            FieldError::invalid(p, ty, "must be empty if x-kubernetes-int-or-string is true")
        }));
    }
    if !root && ty.is_empty() && !int_or_string && preserve != Some(&Value::Bool(true)) {
        let what = if path.ends_with(".items") {
            "array items"
        } else {
            "object fields"
        };
        out.push(located(&format!("{path}.type"), |p| {
            FieldError::required(p, format!("must not be empty for specified {what}"))
        }));
    }
    if map.contains_key("properties") && map.contains_key("additionalProperties") {
        out.push(located(&format!("{path}.additionalProperties"), |p| {
            FieldError::forbidden(p, "additionalProperties and properties are mutual exclusive")
        }));
    }
    if map.get("type").and_then(Value::as_str) == Some("array") && !map.contains_key("items") {
        out.push(located(&format!("{path}.items"), |p| {
            FieldError::required(p, "must be specified")
        }));
    }
    if let Some(props) = map.get("properties").and_then(Value::as_object) {
        for (k, s) in props {
            if root && k == "metadata" {
                continue;
            }
            structural_errors(s, &format!("{path}.properties[{k}]"), false, out);
        }
    }
    if let Some(items) = map.get("items") {
        structural_errors(items, &format!("{path}.items"), false, out);
    }
    if let Some(additional @ Value::Object(_)) = map.get("additionalProperties") {
        structural_errors(additional, &format!("{path}.additionalProperties"), false, out);
    }
    // `x-kubernetes-int-or-string` may spell its two types out as `anyOf`, as kube-openapi's
    // IntOrString schema does; those types are allowed.
    let int_or_string_types = serde_json::json!([{"type": "integer"}, {"type": "string"}]);
    for junctor in ["allOf", "anyOf", "oneOf"] {
        let list = map.get(junctor).cloned().unwrap_or_default();
        if int_or_string && junctor == "anyOf" && list == int_or_string_types {
            continue;
        }
        for (i, s) in list.as_array().into_iter().flatten().enumerate() {
            if s.get("type").is_some() {
                out.push(located(&format!("{path}.{junctor}[{i}].type"), |p| {
                    FieldError::forbidden(p, "must be empty to be structural")
                }));
            }
        }
    }
}

/// Every rule of the schema selecting only fields its node has, within Kubernetes' estimated
/// cost budget.
fn budget_errors(s: &Structural, root: &Structural, path: &str, out: &mut ErrorList) {
    for (i, rule) in s.rules.iter().enumerate() {
        if let Some(problem) = rule.undefined_field(s, root) {
            out.push(located(&format!("{path}.x-kubernetes-validations[{i}].rule"), |p| {
                FieldError::invalid(p, rule.shown.clone(), format!("compilation failed: {problem}"))
            }));
            continue;
        }
        if let Some(factor) = rule.over_budget(s) {
            // Go's wording of the factor: `more than 100x`, `%fx` under 1.5, else `%.1fx`.
            let factor = if factor > 100.0 {
                "more than 100x".to_string()
            } else if factor < 1.5 {
                format!("{factor:.6}x")
            } else {
                format!("{factor:.1}x")
            };
            out.push(located(&format!("{path}.x-kubernetes-validations[{i}].rule"), |p| {
                FieldError::forbidden(
                    p,
                    format!(
                        "estimated rule cost exceeds budget by factor of {factor} (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)"
                    ),
                )
            }));
        }
    }
    for (k, p) in &s.properties {
        budget_errors(p, root, &format!("{path}.properties[{k}]"), out);
    }
    if let Some(items) = &s.items {
        budget_errors(items, root, &format!("{path}.items"), out);
    }
    if let Some(additional) = &s.additional {
        budget_errors(additional, root, &format!("{path}.additionalProperties"), out);
    }
}

/// Scale paths under `.spec` and `.status`, as JSON paths.
fn subresource_errors(subresources: Option<&Value>, path: &Path<'_>, out: &mut ErrorList) {
    let Some(scale) = subresources.and_then(|s| s.get("scale")) else {
        return;
    };
    let at = path.child("scale");
    for (key, prefix) in [
        ("specReplicasPath", ".spec."),
        ("statusReplicasPath", ".status."),
        ("labelSelectorPath", ""),
    ] {
        let Some(value) = scale.get(key).and_then(Value::as_str) else {
            if key != "labelSelectorPath" {
                out.push(FieldError::required(&at.child(key), ""));
            }
            continue;
        };
        let fits = if prefix.is_empty() {
            value.starts_with(".spec.") || value.starts_with(".status.")
        } else {
            value.starts_with(prefix)
        };
        if !fits {
            let under = if prefix.is_empty() {
                ".spec or .status"
            } else {
                prefix.trim_end_matches('.')
            };
            out.push(FieldError::invalid(
                &at.child(key),
                value,
                format!("should be a json path under {under}"),
            ));
        }
    }
}

/// `spec.conversion`: `None` or `Webhook`, a webhook's config and review versions only with
/// it (at the internal type's paths, `webhookClientConfig` and `conversionReviewVersions`).
fn conversion_errors(conversion: Option<&Value>, path: &Path<'_>, out: &mut ErrorList) {
    let Some(conversion) = conversion else { return };
    let strategy = conversion.get("strategy").and_then(Value::as_str).unwrap_or("None");
    let webhook = conversion.get("webhook").filter(|w| !w.is_null());
    let config_path = path.child("webhookClientConfig");
    match strategy {
        "None" => {
            if webhook.is_some_and(|w| w.get("clientConfig").is_some()) {
                out.push(FieldError::forbidden(
                    &config_path,
                    "should not be set when strategy is not set to Webhook",
                ));
            }
        }
        "Webhook" => {
            let config = webhook.and_then(|w| w.get("clientConfig")).filter(|c| !c.is_null());
            match config {
                None => out.push(FieldError::required(
                    &config_path,
                    "required when strategy is set to Webhook",
                )),
                Some(c) if c.get("url").is_some() == c.get("service").is_some() => out.push(FieldError::required(
                    &config_path,
                    "exactly one of url or service is required",
                )),
                Some(_) => {}
            }
            let review: Vec<&str> = webhook
                .and_then(|w| w.get("conversionReviewVersions"))
                .and_then(Value::as_array)
                .map(|r| r.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            let review_path = path.child("conversionReviewVersions");
            if review.is_empty() {
                out.push(FieldError::required(&review_path, ""));
            } else if !review.iter().any(|v| *v == "v1" || *v == "v1beta1") {
                out.push(FieldError::invalid(
                    &review_path,
                    BadValue::Other(serde_json::to_string(&review).unwrap_or_default()),
                    "must include at least one of v1, v1beta1",
                ));
            }
        }
        other => out.push(FieldError::not_supported(
            &path.child("strategy"),
            other,
            &["None", "Webhook"],
        )),
    }
}

/// `status.storedVersions` on a spec update: a version once stored stays in `spec.versions`.
fn stored_versions_errors(crd: &Value, versions: &[Value]) -> ErrorList {
    let stored = crd
        .pointer("/status/storedVersions")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let status = Path::new("status");
    let at = status.child("storedVersions");
    let mut out = Vec::new();
    for (i, s) in stored.iter().enumerate() {
        let name = s.as_str().unwrap_or_default();
        if !versions
            .iter()
            .any(|v| v.get("name").and_then(Value::as_str) == Some(name))
        {
            out.push(FieldError::invalid(
                &at.index(i),
                name,
                format!(
                    "missing from spec.versions; {name} was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in {name} and removes {name} from status.storedVersions"
                ),
            ));
        }
    }
    out
}

/// An error at a schema path written out as text (`...properties[spec].type`), made by `make`
/// on a placeholder path and then re-pointed: no message here names its own path.
fn located(path: &str, make: impl FnOnce(&Path<'_>) -> FieldError) -> FieldError {
    let mut error = make(&Path::ROOT);
    error.field = path.to_string();
    error
}

#[cfg(test)]
mod tests;
