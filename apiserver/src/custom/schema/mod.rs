//! A CRD version's structural schema (apiextensions-apiserver's `structuralschema.Structural`):
//! the `openAPIV3Schema` read once into a tree the request path walks to prune unknown fields,
//! apply defaults, validate values and run the `x-kubernetes-validations` CEL rules.

mod cel;
mod shape;
mod validate;

use std::collections::BTreeMap;

use serde_json::Value;

pub use cel::{Rule, RuleError};
pub use shape::{default, prune};
pub use validate::validate;

/// One node of a structural schema.
#[derive(Debug, Default)]
pub struct Structural {
    /// `type`: `object`, `array`, `string`, `integer`, `number`, `boolean`, or empty.
    pub type_: String,
    /// `nullable`.
    pub nullable: bool,
    /// `format`.
    pub format: String,
    /// `default`.
    pub default: Option<Value>,
    /// `properties`.
    pub properties: BTreeMap<String, Structural>,
    /// `items`.
    pub items: Option<Box<Structural>>,
    /// `additionalProperties` as a schema (`true` reads as one that keeps anything).
    pub additional: Option<Box<Structural>>,
    /// `x-kubernetes-preserve-unknown-fields`.
    pub preserve_unknown: bool,
    /// `x-kubernetes-embedded-resource`.
    pub embedded: bool,
    /// `x-kubernetes-int-or-string`.
    pub int_or_string: bool,
    /// `x-kubernetes-list-type`.
    pub list_type: String,
    /// `x-kubernetes-list-map-keys`.
    pub list_map_keys: Vec<String>,
    /// `x-kubernetes-validations`, compiled.
    pub rules: Vec<Rule>,
    /// The value validations (`minimum`, `enum`, `required`, `allOf`, ...).
    pub checks: Checks,
}

/// The value validations of a node, which constrain values but not the shape.
#[derive(Debug, Default)]
pub struct Checks {
    /// `enum`.
    pub enum_: Vec<Value>,
    /// `required`.
    pub required: Vec<String>,
    /// `minimum`.
    pub minimum: Option<f64>,
    /// `exclusiveMinimum`.
    pub exclusive_minimum: bool,
    /// `maximum`.
    pub maximum: Option<f64>,
    /// `exclusiveMaximum`.
    pub exclusive_maximum: bool,
    /// `multipleOf`.
    pub multiple_of: Option<f64>,
    /// `minLength`.
    pub min_length: Option<u64>,
    /// `maxLength`.
    pub max_length: Option<u64>,
    /// `pattern`.
    pub pattern: Option<String>,
    /// `minItems`.
    pub min_items: Option<u64>,
    /// `maxItems`.
    pub max_items: Option<u64>,
    /// `uniqueItems`.
    pub unique_items: bool,
    /// `minProperties`.
    pub min_properties: Option<u64>,
    /// `maxProperties`.
    pub max_properties: Option<u64>,
    /// `allOf`.
    pub all_of: Vec<Structural>,
    /// `anyOf`.
    pub any_of: Vec<Structural>,
    /// `oneOf`.
    pub one_of: Vec<Structural>,
    /// `not`.
    pub not: Option<Box<Structural>>,
}

/// A schema that does not compile: its CEL rules or patterns.
#[derive(Clone, Debug, PartialEq)]
pub struct SchemaError {
    /// Where in the schema, as `openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule`.
    pub path: String,
    /// The value at fault, as the error shows it.
    pub value: runtime::validation::BadValue,
    /// What is wrong.
    pub message: String,
}

impl Structural {
    /// Reads `schema` (an `openAPIV3Schema`), compiling its rules; the errors name their place
    /// under `path`.
    pub fn read(schema: &Value, path: &str, errors: &mut Vec<SchemaError>) -> Structural {
        let Some(map) = schema.as_object() else {
            return Structural::default();
        };
        let text = |k: &str| map.get(k).and_then(Value::as_str).unwrap_or_default().to_string();
        let flag = |k: &str| map.get(k).and_then(Value::as_bool).unwrap_or(false);
        let num = |k: &str| map.get(k).and_then(Value::as_f64);
        let count = |k: &str| map.get(k).and_then(Value::as_u64);
        let nested = |k: &str, errors: &mut Vec<SchemaError>| -> Vec<Structural> {
            let list = map
                .get(k)
                .and_then(Value::as_array)
                .map(Vec::as_slice)
                .unwrap_or_default();
            list.iter()
                .enumerate()
                .map(|(i, s)| Structural::read(s, &format!("{path}.{k}[{i}]"), errors))
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
                            Structural::read(s, &format!("{path}.properties[{k}]"), errors),
                        )
                    })
                    .collect()
            })
            .unwrap_or_default();
        let items = map
            .get("items")
            .map(|s| Box::new(Structural::read(s, &format!("{path}.items"), errors)));
        let additional = match map.get("additionalProperties") {
            Some(Value::Bool(true)) => Some(Box::new(Structural {
                preserve_unknown: true,
                ..Structural::default()
            })),
            Some(s @ Value::Object(_)) => Some(Box::new(Structural::read(
                s,
                &format!("{path}.additionalProperties"),
                errors,
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
                value: runtime::validation::BadValue::String(p.clone()),
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
            all_of: nested("allOf", errors),
            any_of: nested("anyOf", errors),
            one_of: nested("oneOf", errors),
            not: map
                .get("not")
                .map(|s| Box::new(Structural::read(s, &format!("{path}.not"), errors))),
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

    /// The schema of field `name` of an object here: a property, else the additional
    /// properties' schema.
    pub fn field(&self, name: &str) -> Option<&Structural> {
        self.properties.get(name).or(self.additional.as_deref())
    }

    /// The type name CEL errors and type errors show for a value of this node.
    pub fn shown_type(&self) -> &str {
        if self.type_.is_empty() {
            if self.int_or_string { "integer-or-string" } else { "any" }
        } else {
            &self.type_
        }
    }
}

#[cfg(test)]
mod tests;
