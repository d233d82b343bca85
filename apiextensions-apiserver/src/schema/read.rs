//! Reading a structural schema: a CRD version's `openAPIV3Schema` as written, or a compiled
//! kind's schema in the server's OpenAPI v3 document with its references followed.

use serde_json::{Map, Value};

use super::{Checks, Rule, SchemaError, Structural};

/// Finds a schema of the document by name.
pub type Resolve<'a> = dyn Fn(&str) -> Option<&'a Value> + 'a;

/// How references are followed while reading: by `resolve`, never into a schema being read.
#[derive(Default)]
struct Refs<'a> {
    resolve: Option<&'a Resolve<'a>>,
    reading: Vec<String>,
}

/// The schema name a node refers to (`$ref`, or an `allOf` of one `$ref`).
fn reference(map: &Map<String, Value>) -> Option<&str> {
    let target = map
        .get("$ref")
        .or_else(|| match map.get("allOf")?.as_array()?.as_slice() {
            [only] => only.get("$ref"),
            _ => None,
        })?;
    target.as_str()?.rsplit('/').next()
}

impl Structural {
    /// Reads `schema` (an `openAPIV3Schema`), compiling its rules; the errors name their place
    /// under `path`.
    pub fn read(schema: &Value, path: &str, errors: &mut Vec<SchemaError>) -> Structural {
        Self::read_with(schema, path, errors, &mut Refs::default())
    }

    /// Reads a schema of an OpenAPI document, whose `$ref`s (bare or as the one member of an
    /// `allOf`, as Kubernetes' v3 documents write them) `resolve` finds by name; a reference
    /// back into a schema being read keeps anything there (recursive types end).
    pub fn read_resolving<'a>(
        schema: &'a Value,
        errors: &mut Vec<SchemaError>,
        resolve: &'a Resolve<'a>,
    ) -> Structural {
        let mut refs = Refs {
            resolve: Some(resolve),
            reading: Vec::new(),
        };
        Self::read_with(schema, "openAPIV3Schema", errors, &mut refs)
    }

    fn read_with<'a>(schema: &'a Value, path: &str, errors: &mut Vec<SchemaError>, refs: &mut Refs<'a>) -> Structural {
        let Some(map) = schema.as_object() else {
            return Structural::default();
        };
        if let Some(resolve) = refs.resolve
            && let Some(name) = reference(map)
        {
            if refs.reading.iter().any(|r| r == name) {
                return Structural {
                    preserve_unknown: true,
                    ..Structural::default()
                };
            }
            let Some(target) = resolve(name) else {
                return Structural {
                    preserve_unknown: true,
                    ..Structural::default()
                };
            };
            refs.reading.push(name.to_string());
            let mut read = Self::read_with(target, path, errors, refs);
            refs.reading.pop();
            // What the referring node says beside the reference applies too.
            if let Some(d) = map.get("default") {
                read.default = Some(d.clone());
            }
            read.nullable |= map.get("nullable").and_then(Value::as_bool).unwrap_or(false);
            return read;
        }
        let text = |k: &str| map.get(k).and_then(Value::as_str).unwrap_or_default().to_string();
        let flag = |k: &str| map.get(k).and_then(Value::as_bool).unwrap_or(false);
        let num = |k: &str| map.get(k).and_then(Value::as_f64);
        let count = |k: &str| map.get(k).and_then(Value::as_u64);
        let nested = |k: &str, errors: &mut Vec<SchemaError>, refs: &mut Refs<'a>| -> Vec<Structural> {
            let list = map
                .get(k)
                .and_then(Value::as_array)
                .map(Vec::as_slice)
                .unwrap_or_default();
            list.iter()
                .enumerate()
                .map(|(i, s)| Structural::read_with(s, &format!("{path}.{k}[{i}]"), errors, refs))
                .collect()
        };
        let properties = map
            .get("properties")
            .and_then(Value::as_object)
            .map(|props| {
                props
                    .iter()
                    .map(|(k, s)| {
                        (
                            k.clone(),
                            Structural::read_with(s, &format!("{path}.properties[{k}]"), errors, refs),
                        )
                    })
                    .collect()
            })
            .unwrap_or_default();
        let items = map
            .get("items")
            .map(|s| Box::new(Structural::read_with(s, &format!("{path}.items"), errors, refs)));
        let additional = match map.get("additionalProperties") {
            Some(Value::Bool(true)) => Some(Box::new(Structural {
                preserve_unknown: true,
                ..Structural::default()
            })),
            Some(s @ Value::Object(_)) => Some(Box::new(Structural::read_with(
                s,
                &format!("{path}.additionalProperties"),
                errors,
                refs,
            ))),
            _ => None,
        };
        let rules = map
            .get("x-kubernetes-validations")
            .and_then(Value::as_array)
            .map(|list| {
                list.iter()
                    .enumerate()
                    .filter_map(|(i, r)| {
                        Rule::compile(r, &format!("{path}.x-kubernetes-validations[{i}]"))
                            .map_err(|e| errors.push(e))
                            .ok()
                    })
                    .collect()
            })
            .unwrap_or_default();
        let pattern = map.get("pattern").and_then(Value::as_str).map(str::to_string);
        if let Some(p) = &pattern
            && let Err(e) = regex::Regex::new(p)
        {
            errors.push(SchemaError {
                path: format!("{path}.pattern"),
                value: kube_apimachinery::validation::BadValue::String(p.clone()),
                message: format!("must be a valid regular expression, but isn't: {e}"),
            });
        }
        let checks = Checks {
            enum_: map.get("enum").and_then(Value::as_array).cloned().unwrap_or_default(),
            required: map
                .get("required")
                .and_then(Value::as_array)
                .map(|r| r.iter().filter_map(Value::as_str).map(str::to_string).collect())
                .unwrap_or_default(),
            minimum: num("minimum"),
            exclusive_minimum: flag("exclusiveMinimum"),
            maximum: num("maximum"),
            exclusive_maximum: flag("exclusiveMaximum"),
            multiple_of: num("multipleOf"),
            min_length: count("minLength"),
            max_length: count("maxLength"),
            pattern,
            min_items: count("minItems"),
            max_items: count("maxItems"),
            unique_items: flag("uniqueItems"),
            min_properties: count("minProperties"),
            max_properties: count("maxProperties"),
            all_of: nested("allOf", errors, refs),
            any_of: nested("anyOf", errors, refs),
            one_of: nested("oneOf", errors, refs),
            not: map
                .get("not")
                .map(|s| Box::new(Structural::read_with(s, &format!("{path}.not"), errors, refs))),
        };
        Structural {
            type_: text("type"),
            nullable: flag("nullable"),
            format: text("format"),
            default: map.get("default").cloned(),
            properties,
            items,
            additional,
            preserve_unknown: flag("x-kubernetes-preserve-unknown-fields"),
            embedded: flag("x-kubernetes-embedded-resource"),
            int_or_string: flag("x-kubernetes-int-or-string"),
            list_type: text("x-kubernetes-list-type"),
            list_map_keys: map
                .get("x-kubernetes-list-map-keys")
                .and_then(Value::as_array)
                .map(|r| r.iter().filter_map(Value::as_str).map(str::to_string).collect())
                .unwrap_or_default(),
            rules,
            checks,
        }
    }
}
