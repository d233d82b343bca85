//! The per-version parts of a CRD that name fields by JSON path: printer columns
//! (`+k8s:crd-gen:printcolumn`) and the scale subresource (`+k8s:crd-gen:subresource:scale`).
//! Every simple path is resolved against the version's schema, so a typo is an error at the tag
//! instead of an empty column in `kubectl get`.

use serde_json::{Map, Value, json};

use crate::diag::{Diagnostic, Diagnostics, SourceLoc};
use crate::model::Type;
use crate::model::attrs::Located;

/// Column types and formats the API server accepts.
const COLUMN_TYPES: &[&str] = &["integer", "number", "string", "boolean", "date"];
const COLUMN_FORMATS: &[&str] = &[
    "int32",
    "int64",
    "float",
    "double",
    "byte",
    "date",
    "date-time",
    "password",
];

/// The `additionalPrinterColumns` of one version, in tag order: the model's printer columns, once
/// every tag's values are checked (type, format, priority, and the path against the schema).
pub fn printer_columns(kind: &Type, schema: &Value, diags: &mut Diagnostics) -> Vec<Value> {
    for t in &kind.attrs.crd.print_columns {
        // The tag table has checked the keys; values are checked here.
        let (pairs, t) = (&t.value, &t.loc);
        for (key, value) in pairs {
            match key.as_str() {
                "type" if !COLUMN_TYPES.contains(&value.as_str()) => diags.push(bad_value(t, key, value, COLUMN_TYPES)),
                "format" if !COLUMN_FORMATS.contains(&value.as_str()) => {
                    diags.push(bad_value(t, key, value, COLUMN_FORMATS))
                }
                "priority" if value.parse::<u32>().is_err() => diags.push(
                    Diagnostic::error(t, format!("printer column priority `{value}` is not a number"))
                        .label("expected 0, 1, ...")
                        .help("0 shows the column in `kubectl get`; higher priorities only with `-o wide`"),
                ),
                "jsonPath" => {
                    check_path(t, kind, schema, value, None, diags);
                }
                _ => {}
            }
        }
    }
    let Some(resource) = kind.resource() else {
        return Vec::new();
    };
    resource
        .printer_columns
        .iter()
        .map(|c| {
            let mut column = Map::new();
            column.insert("name".into(), json!(c.name));
            column.insert("type".into(), json!(c.type_));
            column.insert("jsonPath".into(), json!(c.json_path));
            if let Some(f) = &c.format {
                column.insert("format".into(), json!(f));
            }
            if let Some(d) = &c.description {
                column.insert("description".into(), json!(d));
            }
            // 0 is the API server's default, which it leaves out.
            if c.priority != 0 {
                column.insert("priority".into(), json!(c.priority));
            }
            Value::Object(column)
        })
        .collect()
}

/// The `scale` subresource: `specReplicasPath` must be an integer under `.spec`,
/// `statusReplicasPath` an integer under `.status`, `labelSelectorPath` a string under either.
pub fn scale(
    t: &Located<Vec<(String, String)>>,
    kind: &Type,
    schema: &Value,
    diags: &mut Diagnostics,
) -> Option<Value> {
    let (pairs, t) = (t.value.clone(), &t.loc);
    let mut out = Map::new();
    let mut ok = true;
    for (key, path) in pairs {
        let (name, prefixes, ty): (&str, &[&str], &str) = match key.as_str() {
            "specpath" => ("specReplicasPath", &[".spec."], "integer"),
            "statuspath" => ("statusReplicasPath", &[".status."], "integer"),
            _ => ("labelSelectorPath", &[".spec.", ".status."], "string"),
        };
        if !prefixes.iter().any(|p| path.starts_with(p)) {
            ok = false;
            diags.push(
                Diagnostic::error(
                    t,
                    format!(
                        "scale `{key}` `{path}` is not under {}",
                        prefixes
                            .iter()
                            .map(|p| format!("`{}`", p.trim_end_matches('.')))
                            .collect::<Vec<_>>()
                            .join(" or ")
                    ),
                )
                .label("wrong place for this path")
                .help("the API server reads replicas from `.spec` and writes observed values to `.status`"),
            );
            continue;
        }
        ok &= check_path(t, kind, schema, &path, Some(ty), diags);
        out.insert(name.into(), json!(path));
    }
    ok.then_some(Value::Object(out))
}

/// Resolves a simple `.a.b.c` path in the schema (paths with `[`, `*` or `@` are taken as
/// written); with `want`, the field's type must match. False when an error was reported.
fn check_path(
    t: &SourceLoc,
    kind: &Type,
    schema: &Value,
    path: &str,
    want: Option<&str>,
    diags: &mut Diagnostics,
) -> bool {
    if !path.starts_with('.') {
        diags.push(
            Diagnostic::error(t, format!("JSON path `{path}` does not start with `.`"))
                .label("not a JSON path")
                .help("write the path from the object's root, such as `.spec.replicas`"),
        );
        return false;
    }
    if path.contains(['[', '*', '@', '(']) {
        return true;
    }
    let mut at = schema;
    let mut walked = String::new();
    for segment in path[1..].split('.') {
        let parent = if walked.is_empty() {
            "the object's root".to_string()
        } else {
            format!("`{walked}`")
        };
        walked.push('.');
        walked.push_str(segment);
        // metadata is a bare object in CRD schemas; the server knows its fields.
        if walked == ".metadata" {
            return true;
        }
        // Below a map, free-form JSON or an int-or-string value any key may exist.
        let open = at.get("additionalProperties").is_some()
            || at.get("x-kubernetes-preserve-unknown-fields") == Some(&Value::Bool(true));
        match at.get("properties").and_then(|p| p.get(segment)) {
            Some(next) => at = next,
            None if open => return true,
            None => {
                diags.push(
                    Diagnostic::error(t, format!("JSON path `{path}` names no field of `{}`", kind.name))
                        .label(format!("no field `{segment}` in {parent}"))
                        .help("paths use JSON names, as in `kubectl get -o json`"),
                );
                return false;
            }
        }
    }
    let found = at.get("type").and_then(Value::as_str).unwrap_or("int-or-string");
    match want {
        Some(w) if w != found => {
            diags.push(
                Diagnostic::error(
                    t,
                    format!("JSON path `{path}` is of type `{found}`, but must be of type `{w}`"),
                )
                .label("wrong field type")
                .help("point the path at a field of that type"),
            );
            false
        }
        _ => true,
    }
}

fn bad_value(t: &SourceLoc, key: &str, value: &str, allowed: &[&str]) -> Diagnostic {
    Diagnostic::error(
        t,
        format!("printer column {key} `{value}` is not one the API server accepts"),
    )
    .label(format!("expected one of: {}", allowed.join("|")))
    .help("see `additionalPrinterColumns` in the CustomResourceDefinition reference")
}
