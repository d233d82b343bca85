//! A custom object checked against its structural schema, as apiextensions-apiserver's schema
//! validator (kube-openapi's) words its errors: types, formats, enums, bounds, lengths, items,
//! required properties, `allOf`/`anyOf`/`oneOf`/`not`, list types and embedded resources; then the
//! `x-kubernetes-validations` rules of every node whose subtree passed. On update a value equal
//! to the stored one is not checked again (Kubernetes' validation ratcheting), so a tightened
//! schema does not lock existing objects out of unrelated changes.

use kube_apimachinery::validation::schema as checks;
use kube_apimachinery::validation::{BadValue, ErrorList, ErrorType, FieldError, Path};
use serde_json::Value;

use super::Structural;
use kube_generic_apiserver::registry::strategy::blocks_rules;

/// The errors of `new` (a whole object) under `schema`; `old` is the stored object on update.
/// The CEL rules run only on an object whose types, enums, required fields and bounds passed;
/// otherwise a notice says they did not run, as Kubernetes says it.
pub fn validate(schema: &Structural, new: &Value, old: Option<&Value>) -> ErrorList {
    let mut out = Vec::new();
    node(schema, new, old, &Path::ROOT, true, &mut out);
    let blocking = out.iter().any(|e| blocks_rules(e.kind.reason()));
    if !blocking {
        super::cel::run(schema, new, old, &Path::ROOT, &mut out);
    } else if super::cel::has_rules(schema) {
        out.push(rules_not_checked());
    }
    out
}

/// Kubernetes' notice that a schema's rules were not run because the value had errors that
/// block them.
pub fn rules_not_checked() -> FieldError {
    FieldError::invalid(
        &Path::ROOT,
        BadValue::Null,
        "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation",
    )
}

/// Only the CEL rules of `schema` on `new`: a compiled kind's generated validation checks the
/// rest of its schema.
pub fn rules(schema: &Structural, new: &Value, old: Option<&Value>) -> ErrorList {
    let mut out = Vec::new();
    super::cel::run(schema, new, old, &Path::ROOT, &mut out);
    out
}

fn node(s: &Structural, v: &Value, old: Option<&Value>, path: &Path<'_>, resource: bool, out: &mut ErrorList) {
    if old == Some(v) {
        return;
    }
    if v.is_null() {
        if !s.nullable && !s.type_.is_empty() {
            out.push(type_error(path, &s.type_, v));
        }
        return;
    }
    if !type_fits(s, v) {
        let wanted = if s.int_or_string { "integer,string" } else { &s.type_ };
        out.push(type_error(path, wanted, v));
        return;
    }
    values(s, v, path, out);
    match v {
        Value::Object(map) => {
            if resource && s.embedded {
                for key in ["apiVersion", "kind"] {
                    if map.get(key).and_then(Value::as_str).is_none_or(str::is_empty) {
                        out.push(FieldError::required(&path.child(key), ""));
                    }
                }
            }
            for (key, child) in map {
                if resource && matches!(key.as_str(), "apiVersion" | "kind" | "metadata") {
                    continue;
                }
                if let Some(field) = s.field(key) {
                    let was = old.and_then(|o| o.get(key));
                    node(field, child, was, &path.child(key), field.embedded, out);
                }
            }
        }
        Value::Array(items) => {
            if let Some(item) = &s.items {
                for (i, child) in items.iter().enumerate() {
                    let was = old.and_then(|o| super::cel::correlate(s, o, child));
                    node(item, child, was, &path.index(i), item.embedded, out);
                }
            }
            match s.list_type.as_str() {
                "set" => out.extend(kube_apimachinery::validation::unique(path, items, |a, b| a == b)),
                "map" => {
                    let keys: Vec<&str> = s.list_map_keys.iter().map(String::as_str).collect();
                    out.extend(checks::list_map_keys(path, items, &keys));
                }
                _ => {}
            }
        }
        _ => {}
    }
}

/// Whether `v` has the node's type (`integer` takes a float without a fraction, as Go's JSON
/// numbers do).
fn type_fits(s: &Structural, v: &Value) -> bool {
    if s.int_or_string {
        return v.is_string() || is_integer(v);
    }
    match s.type_.as_str() {
        "object" => v.is_object(),
        "array" => v.is_array(),
        "string" => v.is_string(),
        "integer" => is_integer(v),
        "number" => v.is_number(),
        "boolean" => v.is_boolean(),
        _ => true,
    }
}

fn is_integer(v: &Value) -> bool {
    v.is_i64() || v.is_u64() || v.as_f64().is_some_and(|f| f.fract() == 0.0)
}

/// The JSON type of a value, as kube-openapi names it in a type error.
fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) if is_integer(v) => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// `spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"`.
fn type_error(path: &Path<'_>, wanted: &str, v: &Value) -> FieldError {
    let found = type_name(v);
    FieldError {
        kind: ErrorType::TypeInvalid,
        field: path.to_string(),
        bad_value: BadValue::String(found.to_string()),
        detail: format!("{path} in body must be of type {wanted}: \"{found}\""),
        origin: None,
        stability: None,
    }
}

/// The value validations of one node.
fn values(s: &Structural, v: &Value, path: &Path<'_>, out: &mut ErrorList) {
    let c = &s.checks;
    if !c.enum_.is_empty() && !c.enum_.contains(v) {
        let allowed: Vec<String> = c
            .enum_
            .iter()
            .map(|e| e.as_str().map(str::to_string).unwrap_or_else(|| e.to_string()))
            .collect();
        out.push(FieldError::not_supported(path, super::shown(v), &allowed));
    }
    if let Some(x) = v.as_f64() {
        out.extend(
            c.minimum
                .and_then(|m| checks::minimum(path, x, super::shown(v), m, c.exclusive_minimum)),
        );
        out.extend(
            c.maximum
                .and_then(|m| checks::maximum(path, x, super::shown(v), m, c.exclusive_maximum)),
        );
        out.extend(
            c.multiple_of
                .and_then(|m| checks::multiple_of(path, x, super::shown(v), m)),
        );
    }
    if let Some(text) = v.as_str() {
        out.extend(c.min_length.and_then(|m| checks::min_length(path, text, m)));
        out.extend(c.max_length.and_then(|m| checks::max_length(path, text, m)));
        out.extend(c.pattern.as_deref().and_then(|p| checks::pattern(path, text, p)));
        if !kube_generic_apiserver::cel::format::fits(&s.format, text) {
            out.push(FieldError {
                kind: ErrorType::TypeInvalid,
                field: path.to_string(),
                bad_value: BadValue::String(text.to_string()),
                detail: format!("{path} in body must be of type {}: \"{text}\"", s.format),
                origin: None,
                stability: None,
            });
        }
    }
    if let Some(items) = v.as_array() {
        out.extend(c.min_items.and_then(|m| checks::min_items(path, items.len(), m)));
        out.extend(c.max_items.and_then(|m| checks::max_items(path, items.len(), m)));
        if c.unique_items {
            out.extend(checks::unique_items(path, items));
        }
    }
    if let Some(map) = v.as_object() {
        for key in &c.required {
            if !map.contains_key(key) {
                out.push(FieldError::required(&path.child(key), ""));
            }
        }
        out.extend(
            c.min_properties
                .and_then(|m| checks::min_properties(path, map.len(), m)),
        );
        if let Some(max) = c.max_properties
            && map.len() as u64 > max
        {
            out.push(FieldError::too_many(path, map.len(), max));
        }
    }
    for sub in &c.all_of {
        node(sub, v, None, path, false, out);
    }
    let passes = |sub: &Structural| {
        let mut errors = Vec::new();
        node(sub, v, None, path, false, &mut errors);
        errors
    };
    if !c.any_of.is_empty() {
        let results: Vec<ErrorList> = c.any_of.iter().map(passes).collect();
        if results.iter().all(|e| !e.is_empty()) {
            out.push(FieldError::invalid(
                path,
                BadValue::Omitted,
                format!("{path} in body must validate at least one schema (anyOf)"),
            ));
            out.extend(results.into_iter().next().unwrap_or_default());
        }
    }
    if !c.one_of.is_empty() && c.one_of.iter().filter(|s| passes(s).is_empty()).count() != 1 {
        out.push(FieldError::invalid(
            path,
            BadValue::Omitted,
            format!("{path} in body must validate one and only one schema (oneOf)"),
        ));
    }
    if let Some(not) = &c.not
        && passes(not).is_empty()
    {
        out.push(FieldError::invalid(
            path,
            BadValue::Omitted,
            format!("{path} in body must not validate the schema (not)"),
        ));
    }
}
