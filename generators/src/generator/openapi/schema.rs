//! One OpenAPI (swagger 2.0) definition per struct, the way kube-openapi's openapi-gen writes
//! them: descriptions from doc comments (openapi-gen's paragraph rules), JSON property names,
//! `required`, types and formats, `$ref` to named types, flattened fields merged into the parent,
//! and the `x-kubernetes-*` extensions of the list, map, struct and patch tags.

use serde_json::{Map, Value, json};

use crate::model::tags::name as tag;
use crate::model::{External, Field, Package, Shape, Type, TypeRef, Universe, validation};

/// The model-name prefix of a package: `+k8s:openapi-model-package`, else `io.k8s.api.<group>`
/// for Kubernetes' own groups (the core group is `core`), else the group's DNS name reversed
/// (`widgets.example.dev` -> `dev.example.widgets`); then the version.
pub fn model_package(pkg: &Package) -> String {
    if let Some(p) = pkg.tags.value(tag::OPENAPI_MODEL_PACKAGE) {
        return p.to_string();
    }
    let group = match pkg.group.as_str() {
        "" => "io.k8s.api.core".to_string(),
        g if !g.contains('.') => format!("io.k8s.api.{g}"),
        g => g.split('.').rev().collect::<Vec<_>>().join("."),
    };
    format!("{group}.{}", pkg.version)
}

/// The model name of a k8s-openapi type: its module path under `io.k8s`
/// (`k8s_openapi::api::core::v1::PersistentVolumeClaim` -> `io.k8s.api.core.v1.PersistentVolumeClaim`).
pub fn external_model(path: &str) -> String {
    let rest = path.strip_prefix("k8s_openapi::").unwrap_or(path);
    format!(
        "io.k8s.{}",
        rest.replace("::", ".")
            .replace("apiextensions_apiserver", "apiextensions-apiserver")
    )
}

/// Formats doc lines as openapi-gen's `fmtRawDoc` does: text after a `---` line is private, TODO
/// lines are dropped, blank lines separate paragraphs, an indented line stands on a line of its
/// own, and other lines are joined with spaces.
pub fn description(lines: &[String]) -> String {
    let mut out = String::new();
    for line in lines.iter().take_while(|l| l.trim() != "---") {
        let line = line.trim_end();
        let leading = line.trim_start();
        if line.is_empty() {
            out.pop();
            out.push_str("\n\n");
        } else if leading.starts_with("TODO") || leading.starts_with('+') {
        } else if line.starts_with([' ', '\t']) {
            out.pop();
            out.push('\n');
            out.push_str(line);
            out.push('\n');
        } else {
            out.push_str(line);
            out.push(' ');
        }
    }
    out.trim_end().to_string()
}

/// Builds definitions over one universe.
pub struct Schemas<'u> {
    /// The model, for named types in any package.
    pub universe: &'u Universe,
}

impl Schemas<'_> {
    /// The model name of a named type.
    pub fn model_name(&self, id: &crate::model::TypeId) -> Option<String> {
        let pkg = self.universe.packages.get(&id.package)?;
        Some(format!("{}.{}", model_package(pkg), id.name))
    }

    /// The definition of one type of `pkg`.
    pub fn definition(&self, pkg: &Package, ty: &Type) -> Value {
        let mut def = Map::new();
        let desc = description(&ty.docs);
        if !desc.is_empty() {
            def.insert("description".into(), json!(desc));
        }
        // A type whose JSON form is written by hand (JSONSchemaPropsOrBool, ...) is opaque: its
        // fields say nothing about the wire, as openapi-gen's OpenAPISchemaType escape hatch.
        if ty.impls.contains("Serialize") && !ty.serde {
            return Value::Object(def);
        }
        match &ty.shape {
            // A newtype serializes as its single field.
            Shape::Struct { fields, tuple: true } if fields.len() == 1 => {
                if let Value::Object(inner) = self.schema(&fields[0].ty) {
                    def.extend(inner);
                }
                def.extend(validation::schema(&ty.tags));
            }
            Shape::Struct { fields, .. } => {
                def.insert("type".into(), json!("object"));
                let (mut properties, mut required) = (Map::new(), Vec::new());
                self.properties(fields, &mut properties, &mut required);
                if !properties.is_empty() {
                    def.insert("properties".into(), Value::Object(properties));
                }
                if !required.is_empty() {
                    def.insert("required".into(), json!(required));
                }
                self.type_extensions(ty, &mut def);
                if ty.is_kind() && !pkg.is_internal() {
                    let gvk = json!([{ "group": pkg.group, "kind": ty.name, "version": pkg.version }]);
                    def.insert("x-kubernetes-group-version-kind".into(), gvk);
                }
            }
            Shape::Enum { variants } => {
                // Unit-only enums are strings with a fixed set of values.
                def.insert("type".into(), json!("string"));
                def.insert("enum".into(), json!(enum_values(variants)));
            }
        }
        Value::Object(def)
    }

    fn properties(&self, fields: &[Field], properties: &mut Map<String, Value>, required: &mut Vec<String>) {
        for f in fields
            .iter()
            .filter(|f| !f.skip && f.tags.value(tag::OPENAPI) != Some("false"))
        {
            if f.flatten {
                self.flattened(f, properties, required);
                continue;
            }
            properties.insert(f.json_name.clone(), self.property(f));
            if !f.optional {
                required.push(f.json_name.clone());
            }
        }
    }

    /// A flattened field's properties join the parent's: TypeMeta gives `apiVersion` and `kind`.
    fn flattened(&self, f: &Field, properties: &mut Map<String, Value>, required: &mut Vec<String>) {
        match f.ty.strip_option() {
            TypeRef::External(External::TypeMeta, _) => {
                properties.insert(
                    "apiVersion".into(),
                    json!({ "description": API_VERSION_DOC, "type": "string" }),
                );
                properties.insert("kind".into(), json!({ "description": KIND_DOC, "type": "string" }));
            }
            TypeRef::Named(id) => {
                if let Some(t) = self.universe.get(id) {
                    self.properties(t.fields(), properties, required);
                }
            }
            _ => {}
        }
    }

    fn property(&self, f: &Field) -> Value {
        let mut schema = self.schema(&f.ty);
        let Value::Object(map) = &mut schema else { return schema };
        let mut desc = description(&f.docs);
        if let TypeRef::Named(id) = f.ty.strip_option()
            && let Some(variants) = self.string_enum(id)
        {
            append_enum_values(&mut desc, variants);
        }
        if !desc.is_empty() {
            // openapi-gen puts the description first; serde_json's map keeps keys sorted anyway.
            map.insert("description".into(), json!(desc));
        }
        if let Some(d) = f
            .tags
            .value(tag::DEFAULT)
            .and_then(|v| serde_json::from_str::<Value>(v).ok())
        {
            map.insert("default".into(), d);
        }
        let ext = |name: &str, key: &str, map: &mut Map<String, Value>| {
            if let Some(v) = f.tags.value(name) {
                map.insert(key.into(), json!(v));
            }
        };
        ext(tag::LIST_TYPE, "x-kubernetes-list-type", map);
        ext(tag::MAP_TYPE, "x-kubernetes-map-type", map);
        ext(tag::STRUCT_TYPE, "x-kubernetes-map-type", map);
        ext(tag::PATCH_STRATEGY, "x-kubernetes-patch-strategy", map);
        ext(tag::PATCH_MERGE_KEY, "x-kubernetes-patch-merge-key", map);
        passthrough(&f.tags, map);
        map.extend(validation::schema(&f.tags));
        let keys: Vec<&str> = f
            .tags
            .all(tag::LIST_MAP_KEY)
            .filter_map(|t| t.value.as_deref())
            .collect();
        if !keys.is_empty() {
            map.insert("x-kubernetes-list-map-keys".into(), json!(keys));
        }
        schema
    }

    /// The variants of a named type that is an enum of unit variants, which is a string on the wire.
    pub fn string_enum(&self, id: &crate::model::TypeId) -> Option<&[crate::model::Variant]> {
        self.universe.get(id).filter(|t| t.serde).and_then(Type::unit_variants)
    }

    /// `+structType` and `+listType` written on a type apply to every use of it.
    fn type_extensions(&self, ty: &Type, def: &mut Map<String, Value>) {
        if let Some(v) = ty.tags.value(tag::STRUCT_TYPE) {
            def.insert("x-kubernetes-map-type".into(), json!(v));
        }
        passthrough(&ty.tags, def);
        def.extend(validation::schema(&ty.tags));
    }

    /// The schema of a type reference.
    pub fn schema(&self, t: &TypeRef) -> Value {
        match t {
            TypeRef::Primitive(p) => match p.as_str() {
                "bool" => json!({ "type": "boolean" }),
                "i64" | "u64" | "isize" | "usize" | "i128" | "u128" => json!({ "type": "integer", "format": "int64" }),
                "f32" => json!({ "type": "number", "format": "float" }),
                "f64" => json!({ "type": "number", "format": "double" }),
                "char" => json!({ "type": "string" }),
                _ => json!({ "type": "integer", "format": "int32" }),
            },
            TypeRef::String => json!({ "type": "string" }),
            TypeRef::Option(inner) | TypeRef::Box(inner) => self.schema(inner),
            TypeRef::Vec(inner) => json!({ "type": "array", "items": self.schema(inner) }),
            TypeRef::Map { value, .. } => json!({ "type": "object", "additionalProperties": self.schema(value) }),
            TypeRef::Named(id) => match (self.string_enum(id), self.model_name(id)) {
                // As openapi-gen writes string types: inline, never a definition of their own.
                (Some(variants), _) => {
                    let mut s = json!({ "type": "string", "enum": enum_values(variants) });
                    if let (Value::Object(m), Some(ty)) = (&mut s, self.universe.get(id)) {
                        m.extend(validation::schema(&ty.tags));
                    }
                    s
                }
                (None, Some(name)) => reference(&name),
                (None, None) => json!({}),
            },
            TypeRef::External(External::ByteString, _) => json!({ "type": "string", "format": "byte" }),
            TypeRef::External(External::Json, _) => json!({ "x-kubernetes-preserve-unknown-fields": true }),
            TypeRef::External(External::TypeMeta, _) => json!({ "type": "object" }),
            TypeRef::External(_, path) => reference(&external_model(path)),
            TypeRef::Unsupported(..) | TypeRef::Unresolved(_) => json!({}),
        }
    }
}

/// The JSON values of an enum's unit variants, sorted as openapi-gen sorts enum values.
fn enum_values(variants: &[crate::model::Variant]) -> Vec<&str> {
    let mut values: Vec<&str> = variants
        .iter()
        .filter(|v| v.fields.is_empty())
        .map(|v| v.json_name.as_str())
        .collect();
    values.sort_unstable();
    values
}

/// openapi-gen's enum description: `Possible enum values:` and one line per value in value
/// order, `` - `"Value"` `` followed by the value's doc comment.
fn append_enum_values(desc: &mut String, variants: &[crate::model::Variant]) {
    let mut lines: Vec<(&str, String)> = variants
        .iter()
        .map(|v| (v.json_name.as_str(), description(&v.docs).replace('\n', " ")))
        .collect();
    lines.sort();
    if !desc.is_empty() {
        desc.push_str("\n\n");
    }
    desc.push_str("Possible enum values:");
    for (value, doc) in lines {
        let quoted = serde_json::to_string(value).unwrap_or_default();
        desc.push_str(&format!("\n - `{quoted}`"));
        if !doc.is_empty() {
            desc.push(' ');
            desc.push_str(&doc);
        }
    }
}

/// Other extensions written as `+k8s:openapi-gen=x-kubernetes-<name>:<value>` pass through as
/// string values, as openapi-gen passes them.
fn passthrough(tags: &crate::model::Tags, map: &mut Map<String, Value>) {
    for t in tags.all(tag::OPENAPI) {
        if let Some((name, value)) = t
            .value
            .as_deref()
            .and_then(|v| v.strip_prefix("x-kubernetes-"))
            .and_then(|v| v.split_once(':'))
        {
            map.insert(format!("x-kubernetes-{name}"), json!(value));
        }
    }
}

/// A reference to a definition.
fn reference(model: &str) -> Value {
    json!({ "$ref": format!("#/definitions/{model}") })
}

const API_VERSION_DOC: &str = "APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources";
const KIND_DOC: &str = "Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds";

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(s: &[&str]) -> Vec<String> {
        s.iter().map(|l| l.to_string()).collect()
    }

    #[test]
    fn descriptions_follow_openapi_gen() {
        assert_eq!(
            description(&lines(&["Spec defines the", "desired behavior."])),
            "Spec defines the desired behavior."
        );
        assert_eq!(description(&lines(&["First.", "", "Second"])), "First.\n\nSecond");
        assert_eq!(
            description(&lines(&["Example:", "  a: b", "End."])),
            "Example:\n  a: b\nEnd."
        );
        assert_eq!(
            description(&lines(&["Kept.", "TODO: drop me", "---", "private"])),
            "Kept."
        );
        assert_eq!(description(&lines(&["Ends.", "Next line."])), "Ends. Next line.");
    }

    #[test]
    fn model_names() {
        assert_eq!(
            external_model("k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta"),
            "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"
        );
        assert_eq!(
            external_model("k8s_openapi::api::core::v1::PersistentVolumeClaim"),
            "io.k8s.api.core.v1.PersistentVolumeClaim"
        );
    }
}
