//! Objects with every field set, built from Kubernetes' own published OpenAPI v3 documents
//! (`api/openapi-spec/v3` of the k8s.io/kubernetes module), not from this repository's types: a
//! field Kubernetes has and this server lacks is sent, and strict decoding or the read-back
//! catches it.
//!
//! Values are chosen to pass as much of Kubernetes' validation as a value can without knowing its
//! field: every string is a distinct DNS label (`s1`, `s2`, ...), so names are unique; every map is
//! `{"a": "b"}`-shaped, so a selector matches the labels of its template; numbers are 1 (a valid
//! port, count and percentage), booleans true, lists have one item, Quantities "1", times a fixed
//! instant. A schema met again inside itself (`JSONSchemaProps`) is left out there.

use std::cell::Cell;
use std::path::Path;

use serde_json::{Map, Value, json};

/// One group-version's OpenAPI document.
pub struct Document {
    schemas: Map<String, Value>,
}

/// The schemas whose JSON form is not what their declared type says.
const QUANTITY: &str = "io.k8s.apimachinery.pkg.api.resource.Quantity";
const INT_OR_STRING: &str = "io.k8s.apimachinery.pkg.util.intstr.IntOrString";
const MICRO_TIME: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime";
const RAW_EXTENSION: &str = "io.k8s.apimachinery.pkg.runtime.RawExtension";
const LABEL_SELECTOR: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector";

impl Document {
    /// The document of `group`/`version` in `root` (the module's `api/openapi-spec/v3`), if
    /// Kubernetes publishes one (this repository's example group is not Kubernetes').
    pub fn read(root: &Path, group: &str, version: &str) -> Option<Document> {
        let file = if group.is_empty() {
            format!("api__{version}_openapi.json")
        } else {
            format!("apis__{group}__{version}_openapi.json")
        };
        let text = std::fs::read_to_string(root.join(&file)).ok()?;
        let mut doc: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{file}: {e}"));
        let schemas = doc["components"]["schemas"].take();
        Some(Document {
            schemas: schemas.as_object().cloned().unwrap_or_default(),
        })
    }

    /// The name of the schema of `kind` in `group`/`version`, if the document has one.
    pub fn schema_of(&self, group: &str, version: &str, kind: &str) -> Option<&str> {
        self.schemas.iter().find_map(|(name, s)| {
            let gvks = s["x-kubernetes-group-version-kind"].as_array()?;
            gvks.iter()
                .any(|g| g["group"] == group && g["version"] == version && g["kind"] == kind)
                .then_some(name.as_str())
        })
    }

    /// The property `property` of schema `name`, filled; `None` when it has none.
    pub fn fill_property(&self, name: &str, property: &str) -> Option<Value> {
        let schema = self.schemas.get(name)?.get("properties")?.get(property)?;
        Filler::new(self).schema(schema, &mut vec![name.to_string()])
    }

    /// Schema `name` with every field filled, except `metadata`, `apiVersion` and `kind`, which
    /// the caller sets.
    pub fn fill(&self, name: &str) -> Value {
        let mut object = Filler::new(self)
            .reference(name, &mut Vec::new())
            .unwrap_or_else(|| panic!("{name} has no value"));
        if let Some(o) = object.as_object_mut() {
            for key in ["metadata", "apiVersion", "kind"] {
                o.remove(key);
            }
        }
        object
    }

    /// How many leaf values (scalars) `value` holds: a measure of how much of a fill survives.
    pub fn leaves(value: &Value) -> usize {
        match value {
            Value::Object(o) => o.values().map(Self::leaves).sum(),
            Value::Array(a) => a.iter().map(Self::leaves).sum(),
            Value::Null => 0,
            _ => 1,
        }
    }
}

/// One fill: the document and the counter that makes every string distinct.
struct Filler<'a> {
    doc: &'a Document,
    next: Cell<usize>,
}

impl<'a> Filler<'a> {
    fn new(doc: &'a Document) -> Self {
        Self {
            doc,
            next: Cell::new(0),
        }
    }

    fn text(&self) -> Value {
        self.next.set(self.next.get() + 1);
        Value::String(format!("s{}", self.next.get()))
    }

    /// The value of the schema named `name`; `None` when `name` is already being filled above
    /// (a recursive schema) or unknown.
    fn reference(&self, name: &str, stack: &mut Vec<String>) -> Option<Value> {
        match name {
            QUANTITY => return Some(json!("1")),
            INT_OR_STRING => return Some(json!(1)),
            MICRO_TIME => return Some(json!("2026-01-02T03:04:05.000006Z")),
            RAW_EXTENSION => return Some(json!({"apiVersion": "v1", "kind": "ConfigMap", "data": {"a": "b"}})),
            // apiextensions' unions of a schema with a bool or a list, whose documents say
            // nothing of their forms.
            // A selector that selects the `{"a": "b"}` labels of every fill, with both its forms.
            LABEL_SELECTOR => {
                return Some(json!({
                    "matchLabels": {"a": "b"},
                    "matchExpressions": [{"key": "a", "operator": "In", "values": ["b"]}],
                }));
            }
            _ if name.ends_with(".JSONSchemaPropsOrBool") => return Some(json!(true)),
            _ if name.ends_with(".JSONSchemaPropsOrArray") => return Some(json!({"type": "string"})),
            _ if name.ends_with(".JSONSchemaPropsOrStringArray") => return Some(json!(["s"])),
            _ => {}
        }
        if stack.iter().any(|n| n == name) {
            return None;
        }
        let schema = self.doc.schemas.get(name)?;
        stack.push(name.to_string());
        let value = self.schema(schema, stack);
        stack.pop();
        value
    }

    fn schema(&self, s: &Value, stack: &mut Vec<String>) -> Option<Value> {
        if let Some(r) = s["$ref"].as_str() {
            return self.reference(r.rsplit('/').next().unwrap(), stack);
        }
        if let Some(first) = s["allOf"].as_array().and_then(|a| a.first()) {
            return self.schema(first, stack);
        }
        if s["x-kubernetes-int-or-string"] == true || s["format"] == "int-or-string" {
            return Some(json!(1));
        }
        match s["type"].as_str() {
            Some("string") => Some(match s["format"].as_str() {
                Some("date-time") => json!("2026-01-02T03:04:05Z"),
                Some("byte") => json!("YWJj"),
                _ => self.text(),
            }),
            Some("integer") => Some(json!(1)),
            Some("number") => Some(json!(1.5)),
            Some("boolean") => Some(json!(true)),
            Some("array") => {
                let item = self.schema(&s["items"], stack)?;
                Some(json!([item]))
            }
            _ => self.object(s, stack),
        }
    }

    /// An object: every property, or one `"a"` entry of a map; arbitrary JSON where the schema
    /// preserves unknown fields or says nothing.
    fn object(&self, s: &Value, stack: &mut Vec<String>) -> Option<Value> {
        if let Some(properties) = s["properties"].as_object() {
            let filled = properties
                .iter()
                .filter_map(|(k, p)| Some((k.clone(), self.schema(p, stack)?)))
                .collect::<Map<_, _>>();
            return Some(Value::Object(filled));
        }
        match &s["additionalProperties"] {
            Value::Object(item)
                if item.get("type").and_then(Value::as_str) == Some("string") && item.get("format").is_none() =>
            {
                Some(json!({"a": "b"}))
            }
            Value::Object(_) => {
                let item = self.schema(&s["additionalProperties"], stack)?;
                Some(json!({ "a": item }))
            }
            // Free-form JSON (apiextensions' `JSON`) and fields that keep what they are given.
            _ if s["x-kubernetes-preserve-unknown-fields"] == true || s.get("type").is_none() => {
                Some(json!({"a": "b"}))
            }
            // A struct without fields (`CustomResourceSubresourceStatus`): Go's strict decoding
            // refuses any key in it.
            _ => Some(json!({})),
        }
    }
}
