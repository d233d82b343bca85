//! Structural schemas for CRDs, derived from the same OpenAPI definitions the openapi generator
//! writes: every `$ref` inlined, the meta types in the forms the API server accepts (metadata as
//! a bare object, IntOrString and Quantity as int-or-string), and only the keys a
//! `JSONSchemaProps` can hold. The model is checked first, so problems carry source locations:
//! recursion (an inlined schema cannot recurse), fields left out of OpenAPI (the server would
//! prune them), types with no schema, and list-map keys that are neither required nor defaulted.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value, json};

use crate::diag::{Diagnostic, Diagnostics};
use crate::model::known::{self, external_model, meta_definitions};
use crate::model::schema::{Schemas, no_schema};
use crate::model::tags::name as tag;
use crate::model::{External, Field, Package, Type, TypeId, TypeRef, Universe, names};

/// The keys of a `JSONSchemaProps`; anything else cannot be stored in a CRD.
const SCHEMA_KEYS: &[&str] = &[
    "description",
    "type",
    "format",
    "title",
    "default",
    "maximum",
    "exclusiveMaximum",
    "minimum",
    "exclusiveMinimum",
    "maxLength",
    "minLength",
    "pattern",
    "maxItems",
    "minItems",
    "uniqueItems",
    "multipleOf",
    "enum",
    "maxProperties",
    "minProperties",
    "required",
    "items",
    "allOf",
    "oneOf",
    "anyOf",
    "not",
    "properties",
    "additionalProperties",
    "nullable",
    "x-kubernetes-preserve-unknown-fields",
    "x-kubernetes-embedded-resource",
    "x-kubernetes-int-or-string",
    "x-kubernetes-list-map-keys",
    "x-kubernetes-list-type",
    "x-kubernetes-map-type",
    "x-kubernetes-validations",
];

/// OpenAPI extensions CRDs have no use for: strategic merge patch does not apply to custom
/// resources, and the group-version-kind comes from the CRD itself.
const DROPPED_QUIETLY: &[&str] = &[
    "x-kubernetes-group-version-kind",
    "x-kubernetes-patch-strategy",
    "x-kubernetes-patch-merge-key",
];

/// Builds structural schemas over one universe.
pub struct Structural<'u> {
    schemas: Schemas<'u>,
    /// Model name -> our type.
    index: BTreeMap<String, TypeId>,
    meta: &'static BTreeMap<String, Value>,
}

impl<'u> Structural<'u> {
    /// Indexes every external type of the universe by model name.
    pub fn new(universe: &'u Universe) -> Self {
        let mut index = BTreeMap::new();
        for pkg in universe.packages.values().filter(|p| !p.is_internal()) {
            for ty in pkg.types.values() {
                let id = TypeId {
                    package: pkg.path.clone(),
                    name: ty.name.clone(),
                };
                index.insert(names::model_name(&pkg.model_package, &ty.name), id);
            }
        }
        Structural {
            schemas: Schemas {
                universe,
                defaults: crate::model::schema::Defaults::Tagged,
            },
            index,
            meta: meta_definitions(),
        }
    }

    /// The model the schemas are built over.
    pub fn universe(&self) -> &'u Universe {
        self.schemas.universe
    }

    /// Checks everything the kind's schema reaches; false when an error was reported.
    pub fn check(&self, kind: &Type, diags: &mut Diagnostics) -> bool {
        let mut local = Diagnostics::new();
        let mut walk = Walk {
            universe: self.schemas.universe,
            meta: self.meta,
            kind,
            stack: Vec::new(),
            done: BTreeSet::new(),
        };
        walk.fields(kind.fields(), &mut local);
        let ok = !local.has_errors();
        diags.extend(local);
        ok
    }

    /// The kind's structural schema. Extensions a CRD cannot hold are left out and named in
    /// `dropped`.
    pub fn schema(&self, pkg: &Package, kind: &Type, dropped: &mut BTreeSet<String>) -> Value {
        let def = self.schemas.definition(pkg, kind);
        let mut root = self.inline(&def, 0, dropped);
        if let Value::Object(map) = &mut root {
            map.insert("type".into(), json!("object"));
            // The API server accepts no schema for metadata beyond its type: it validates
            // ObjectMeta itself.
            if let Some(Value::Object(props)) = map.get_mut("properties")
                && props.contains_key("metadata")
            {
                props.insert("metadata".into(), json!({ "type": "object" }));
            }
        }
        root
    }

    fn inline(&self, v: &Value, depth: usize, dropped: &mut BTreeSet<String>) -> Value {
        let Value::Object(map) = v else { return v.clone() };
        // `check` has ruled recursion out; the bound only keeps a model bug from looping.
        if depth > 64 {
            return json!({ "x-kubernetes-preserve-unknown-fields": true });
        }
        if let Some(Value::String(r)) = map.get("$ref") {
            let name = r.trim_start_matches("#/definitions/");
            let (target, special) = match special(name) {
                Some(s) => (s, true),
                None => (self.target(name), false),
            };
            let mut out = match self.inline(&target, depth + 1, dropped) {
                Value::Object(m) => m,
                _ => Map::new(),
            };
            if special || map.contains_key("description") {
                out.remove("description");
            }
            // The field's keys refine the type's (as controller-gen lets field markers override
            // type markers), except CEL rules, which both hold: the type's first.
            for (k, x) in map.iter().filter(|(k, _)| *k != "$ref") {
                match (k.as_str(), out.get_mut(k), x) {
                    ("x-kubernetes-validations", Some(Value::Array(mine)), Value::Array(theirs)) => {
                        mine.extend(theirs.iter().cloned());
                    }
                    _ => {
                        out.insert(k.clone(), x.clone());
                    }
                }
            }
            return Value::Object(clean(out, dropped));
        }
        let mut out = Map::new();
        for (k, x) in map {
            let x = match k.as_str() {
                "properties" => Value::Object(
                    x.as_object()
                        .into_iter()
                        .flatten()
                        .map(|(name, s)| (name.clone(), self.inline(s, depth + 1, dropped)))
                        .collect(),
                ),
                "items" | "additionalProperties" | "not" => self.inline(x, depth + 1, dropped),
                "allOf" | "anyOf" | "oneOf" => Value::Array(
                    x.as_array()
                        .into_iter()
                        .flatten()
                        .map(|s| self.inline(s, depth + 1, dropped))
                        .collect(),
                ),
                _ => x.clone(),
            };
            out.insert(k.clone(), x);
        }
        Value::Object(clean(out, dropped))
    }

    /// The definition behind a model name: one of ours, or a vendored Kubernetes one.
    fn target(&self, name: &str) -> Value {
        if let Some(id) = self.index.get(name)
            && let (Some(pkg), Some(ty)) = (
                self.schemas.universe.packages.get(&id.package),
                self.schemas.universe.get(id),
            )
        {
            return self.schemas.definition(pkg, ty);
        }
        self.meta.get(name).cloned().unwrap_or_else(|| json!({}))
    }
}

/// The schema of a meta type whose CRD form differs from its OpenAPI definition. ObjectMeta is
/// not one: the root `metadata` becomes a bare object in `schema` (the server owns it), while an
/// embedded one (a template's) keeps its full schema, or pruning would empty it.
fn special(name: &str) -> Option<Value> {
    let int_or_string = |extra: Option<&str>| {
        let mut v = json!({
            "anyOf": [{ "type": "integer" }, { "type": "string" }],
            "x-kubernetes-int-or-string": true,
        });
        if let Some(p) = extra {
            v["pattern"] = json!(p);
        }
        v
    };
    Some(match name {
        known::INT_OR_STRING => int_or_string(None),
        known::QUANTITY => int_or_string(Some(known::QUANTITY_PATTERN)),
        known::RAW_EXTENSION => json!({ "type": "object", "x-kubernetes-preserve-unknown-fields": true }),
        n if n
            .strip_prefix(known::META_V1)
            .is_some_and(|t| t == "Time" || t == "MicroTime") =>
        {
            json!({ "type": "string", "format": "date-time" })
        }
        _ => return None,
    })
}

/// Keeps the keys a `JSONSchemaProps` holds; other extensions are recorded as dropped. The typed
/// extensions, which `+k8s:openapi-gen=x-kubernetes-<name>:<value>` writes as strings, take their
/// JSON type (`"true"` becomes `true`); a value that has none is dropped and recorded.
fn clean(map: Map<String, Value>, dropped: &mut BTreeSet<String>) -> Map<String, Value> {
    map.into_iter()
        .filter_map(|(k, v)| {
            if !SCHEMA_KEYS.contains(&k.as_str()) {
                if !DROPPED_QUIETLY.contains(&k.as_str()) {
                    dropped.insert(k);
                }
                return None;
            }
            let typed = matches!(
                k.as_str(),
                "x-kubernetes-preserve-unknown-fields"
                    | "x-kubernetes-embedded-resource"
                    | "x-kubernetes-int-or-string"
                    | "x-kubernetes-list-map-keys"
                    | "x-kubernetes-validations"
            );
            match (&v, typed) {
                (Value::String(text), true) => match serde_json::from_str::<Value>(text) {
                    Ok(parsed) if !parsed.is_string() => Some((k, parsed)),
                    _ => {
                        dropped.insert(format!("{k}: {text}"));
                        None
                    }
                },
                _ => Some((k, v)),
            }
        })
        .collect()
}

/// A depth-first walk over the types a kind's schema reaches.
struct Walk<'a> {
    universe: &'a Universe,
    meta: &'a BTreeMap<String, Value>,
    kind: &'a Type,
    /// Types being walked, outermost first.
    stack: Vec<TypeId>,
    /// Types walked to the end without finding a cycle back to the stack.
    done: BTreeSet<TypeId>,
}

impl Walk<'_> {
    fn fields(&mut self, fields: &[Field], diags: &mut Diagnostics) {
        for f in fields.iter().filter(|f| !f.skip) {
            if f.attrs.openapi_opt_out() {
                diags.push(
                    Diagnostic::error(
                        &f.tags.loc(tag::OPENAPI, &f.loc),
                        format!("field `{}` has no schema, so the API server would prune it from every `{}`", f.name, self.kind.name),
                    )
                    .label("opted out of OpenAPI")
                    .help("give the field a schema, or make it `serde_json::Value` to keep any JSON (x-kubernetes-preserve-unknown-fields)"),
                );
                continue;
            }
            if f.attrs.validations.get("uniqueItems") == Some(&Value::Bool(true)) {
                diags.push(
                    Diagnostic::error(
                        &f.tags.loc("k8s:validation:uniqueItems", &f.loc),
                        format!("`uniqueItems` on `{}` is not allowed in CRD schemas", f.name),
                    )
                    .label("the API server rejects uniqueItems: true")
                    .help("use `+listType=set` for a list of unique scalars"),
                );
            }
            self.list_map_keys(f, diags);
            self.type_ref(f, &f.ty, diags);
        }
    }

    fn type_ref(&mut self, f: &Field, t: &TypeRef, diags: &mut Diagnostics) {
        match t {
            TypeRef::Option(inner) | TypeRef::Box(inner) | TypeRef::Vec(inner) => self.type_ref(f, inner, diags),
            TypeRef::Map { value, .. } => self.type_ref(f, value, diags),
            TypeRef::Named(id) => self.named(f, id, diags),
            TypeRef::External(External::Json | External::ByteString | External::TypeMeta, _) => {}
            TypeRef::External(_, path) => {
                let model = external_model(path);
                if special(&model).is_none() && !self.meta.contains_key(&model) {
                    diags.push(
                        Diagnostic::error(&f.loc, format!("no schema is known for `{path}`, used by `{}`", self.kind.name))
                            .label("type without a CRD schema")
                            .help("the CRD generator knows the meta types (ObjectMeta, LabelSelector, Condition, Time, IntOrString, Quantity, RawExtension) and the types of this crate; use one of those, or `serde_json::Value`"),
                    );
                }
            }
            _ => {}
        }
    }

    fn named(&mut self, f: &Field, id: &TypeId, diags: &mut Diagnostics) {
        if self.done.contains(id) {
            return;
        }
        if self.stack.contains(id) {
            diags.push(
                Diagnostic::error(
                    &f.loc,
                    format!("field `{}` makes the schema of `{}` recursive, through `{}`", f.name, self.kind.name, id.name),
                )
                .label("recursive field")
                .help("CRD schemas are inlined and cannot recurse: break the cycle, or make the field `serde_json::Value` (x-kubernetes-preserve-unknown-fields)"),
            );
            return;
        }
        let Some(ty) = self.universe.get(id) else { return };
        if let Some(why) = no_schema(ty) {
            diags.push(
                Diagnostic::error(
                    &f.loc,
                    format!("field `{}` has type `{}`, which has no schema: {why}", f.name, ty.name),
                )
                .label("cannot be described in a CRD")
                .help("change the type's shape, or make the field `serde_json::Value`"),
            );
            return;
        }
        // A type whose JSON is written by hand has an opaque definition: nothing to check a
        // value against, so the API server would need it to keep unknown fields.
        if ty.hand_written_json() {
            diags.push(
                Diagnostic::error(&f.loc, format!("field `{}` has type `{}`, whose JSON form is written by hand", f.name, ty.name))
                    .label("no schema to inline")
                    .help("CRD schemas need every field's shape: derive serde for the type, or make the field `serde_json::Value`"),
            );
            return;
        }
        self.stack.push(id.clone());
        self.fields(ty.fields(), diags);
        self.stack.pop();
        self.done.insert(id.clone());
    }

    /// A `+listType=map` list needs keys, and each key must be a field that is always present
    /// (required) or defaulted, or the server cannot merge or validate the list.
    fn list_map_keys(&self, f: &Field, diags: &mut Diagnostics) {
        if f.attrs.list_type != Some(crate::model::attrs::ListType::Map) {
            return;
        }
        let keys: Vec<_> = f
            .tags
            .all(tag::LIST_MAP_KEY)
            .map(|t| &t.loc)
            .zip(&f.attrs.list_map_keys)
            .collect();
        if keys.is_empty() {
            diags.push(
                Diagnostic::error(
                    &f.tags.loc(tag::LIST_TYPE, &f.loc),
                    format!("list `{}` is a map list without keys", f.name),
                )
                .label("`+listType=map` needs `+listMapKey`")
                .help("name the item field that identifies an item: `+listMapKey=name`"),
            );
            return;
        }
        let TypeRef::Vec(item) = f.ty.strip_option() else {
            return;
        };
        let Some(item) = (match item.strip_option() {
            TypeRef::Named(id) => self.universe.get(id),
            _ => None,
        }) else {
            return;
        };
        for (key_loc, name) in keys {
            match item.fields().iter().find(|k| &k.json_name == name) {
                // A key that names no field is reported by the model.
                None => {}
                Some(k) if k.optional && k.attrs.default.is_none() => diags.push(
                    Diagnostic::error(
                        key_loc,
                        format!("list-map key `{name}` of `{}` is optional and has no default", item.name),
                    )
                    .label("key may be absent")
                    .related(&k.loc, "the key field")
                    .help("a structural schema needs every list-map key required or defaulted: make the field a plain (not `Option`) field without `+optional`, or give it a `+default=`"),
                ),
                Some(_) => {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn special_types_take_their_crd_forms() {
        let q = special("io.k8s.apimachinery.pkg.api.resource.Quantity").unwrap();
        assert_eq!(q["x-kubernetes-int-or-string"], json!(true));
        assert!(q.get("type").is_none());
        assert!(special(&format!("{}ObjectMeta", known::META_V1)).is_none());
        assert!(special(&format!("{}LabelSelector", known::META_V1)).is_none());
    }

    #[test]
    fn clean_keeps_schema_keys_and_records_foreign_extensions() {
        let mut dropped = BTreeSet::new();
        let map = json!({
            "type": "object",
            "x-kubernetes-list-type": "atomic",
            "x-kubernetes-patch-strategy": "merge",
            "x-kubernetes-print-columns": "x",
            "x-kubernetes-embedded-resource": "true",
        });
        let out = clean(map.as_object().unwrap().clone(), &mut dropped);
        assert_eq!(
            Value::Object(out),
            json!({ "type": "object", "x-kubernetes-list-type": "atomic", "x-kubernetes-embedded-resource": true })
        );
        assert_eq!(
            dropped.into_iter().collect::<Vec<_>>(),
            vec!["x-kubernetes-print-columns"]
        );
    }
}
