//! A CRD version's structural schema (apiextensions-apiserver's `structuralschema.Structural`):
//! the `openAPIV3Schema` read once into a tree the request path walks to prune unknown fields,
//! apply defaults, validate values and run the `x-kubernetes-validations` CEL rules.

mod cel;
mod read;
mod shape;
mod validate;

use std::collections::BTreeMap;

use serde_json::Value;

pub use cel::has_rules;
pub use cel::{Rule, RuleError};
pub use shape::{default, has_defaults, prune};
pub use validate::{rules, rules_not_checked, validate};

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
    pub value: kube_apimachinery::validation::BadValue,
    /// What is wrong.
    pub message: String,
}

impl Structural {
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

/// A value as an error shows it.
fn shown(v: &Value) -> kube_apimachinery::validation::BadValue {
    use kube_apimachinery::validation::BadValue;
    match v {
        Value::Null => BadValue::Null,
        Value::Bool(b) => BadValue::Bool(*b),
        Value::Number(n) => match n.as_i64() {
            Some(i) => BadValue::Int(i),
            None => BadValue::Float(n.as_f64().unwrap_or_default()),
        },
        Value::String(s) => BadValue::String(s.clone()),
        other => BadValue::Other(other.to_string()),
    }
}

#[cfg(test)]
mod tests;
