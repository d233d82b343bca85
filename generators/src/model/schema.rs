//! The OpenAPI (swagger 2.0) schema of model types, the way kube-openapi's openapi-gen writes
//! definitions: descriptions from doc comments (openapi-gen's paragraph rules), JSON property
//! names, `required`, types and formats, `$ref` to named types, flattened fields merged into the
//! parent, and the `x-kubernetes-*` extensions of the list, map, struct and patch tags. The
//! openapi generator writes these as documents and the CRD generator inlines them; the `+default`
//! checks read them for k8s-openapi types.

use serde_json::{Map, Value, json};

use super::known::{self, external_model};
use super::{External, Field, Package, Primitive, Shape, Type, TypeRef, Universe, names};

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
    out.trim().to_string()
}

/// Why a type cannot be described, if it cannot: enums with data (Kubernetes has no such JSON
/// form) and tuple structs of several fields.
pub fn no_schema(ty: &Type) -> Option<&'static str> {
    match &ty.shape {
        Shape::Enum { variants } if variants.iter().any(|v| !v.fields.is_empty()) => Some("an enum with data variants"),
        Shape::Struct { fields, tuple: true } if fields.len() != 1 => Some("a tuple struct of several fields"),
        _ => None,
    }
}

/// Builds definitions over one universe.
pub struct Schemas<'u> {
    /// The model, for named types in any package.
    pub universe: &'u Universe,
    /// Which defaults the schemas carry.
    pub defaults: Defaults,
}

/// Which `default`s a schema carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Defaults {
    /// None: Kubernetes prunes every default from its swagger 2.0 document.
    None,
    /// The `+default` markers: CRD schemas, where the API server applies them.
    Tagged,
    /// The markers, and for a field that is neither an `Option` nor omitted when empty its zero
    /// value, as openapi-gen writes it (and Kubernetes' v3 documents carry it): `""`, `0`,
    /// `false`, `{}` for structs, on list items and map values too.
    TaggedAndZero,
}

impl Schemas<'_> {
    /// The model name of a named type.
    pub fn model_name(&self, id: &super::TypeId) -> Option<String> {
        let pkg = self.universe.packages.get(&id.package)?;
        Some(names::model_name(&pkg.model_package, &id.name))
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
        if ty.hand_written_json() {
            return Value::Object(def);
        }
        if let Some(inner) = ty.newtype() {
            // A newtype serializes as its single field.
            if let Value::Object(inner) = self.schema(&inner.ty) {
                def.extend(inner);
            }
            def.extend(ty.attrs.validations.clone());
            return Value::Object(def);
        }
        match &ty.shape {
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
                    let gvk = json!([{ "group": pkg.group, "kind": ty.name, "version": pkg.version.as_str() }]);
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
        for f in fields.iter().filter(|f| !f.skip && !f.attrs.openapi_opt_out()) {
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
                    json!({ "description": known::API_VERSION_DOC, "type": "string" }),
                );
                properties.insert(
                    "kind".into(),
                    json!({ "description": known::KIND_DOC, "type": "string" }),
                );
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
        let a = &f.attrs;
        let tagged = a.default.clone().filter(|_| self.defaults != Defaults::None);
        if let Some(d) = tagged.or_else(|| self.zero(&f.ty, f.omitempty)) {
            map.insert("default".into(), d);
        }
        let mut ext = |key: &str, v: &Option<String>| {
            if let Some(v) = v {
                map.insert(key.into(), json!(v));
            }
        };
        ext("x-kubernetes-list-type", &a.list_type.map(|t| t.as_str().to_string()));
        ext("x-kubernetes-map-type", &a.map_type.map(|t| t.as_str().to_string()));
        ext("x-kubernetes-map-type", &a.struct_type.map(|t| t.as_str().to_string()));
        ext("x-kubernetes-patch-strategy", &a.patch_strategy);
        ext("x-kubernetes-patch-merge-key", &a.patch_merge_key);
        passthrough(&a.openapi, map);
        // A Go named type's validations hold wherever it is used; the field's own refine them.
        if let Some(alias) = f.alias.as_ref().and_then(|id| self.universe.alias(id)) {
            map.extend(alias.attrs.validations.clone());
        }
        map.extend(a.validations.clone());
        if !a.list_map_keys.is_empty() {
            map.insert("x-kubernetes-list-map-keys".into(), json!(a.list_map_keys));
        }
        schema
    }

    /// The variants of a named type that is an enum of unit variants, which is a string on the wire.
    pub fn string_enum(&self, id: &super::TypeId) -> Option<&[super::Variant]> {
        self.universe.get(id).and_then(Type::string_enum)
    }

    /// `+structType` and `+listType` written on a type apply to every use of it.
    fn type_extensions(&self, ty: &Type, def: &mut Map<String, Value>) {
        if let Some(v) = ty.attrs.struct_type {
            def.insert("x-kubernetes-map-type".into(), json!(v.as_str()));
        }
        passthrough(&ty.attrs.openapi, def);
        def.extend(ty.attrs.validations.clone());
        let unions = super::unions::unions(self.universe, ty, None);
        if !unions.is_empty() {
            def.insert(
                "x-kubernetes-unions".into(),
                Value::Array(unions.iter().map(super::unions::Union::to_json).collect()),
            );
        }
    }

    /// The schema of a type reference.
    pub fn schema(&self, t: &TypeRef) -> Value {
        match t {
            TypeRef::Primitive(p) => match p {
                Primitive::Bool => json!({ "type": "boolean" }),
                Primitive::F32 => json!({ "type": "number", "format": "float" }),
                Primitive::F64 => json!({ "type": "number", "format": "double" }),
                Primitive::Char => json!({ "type": "string" }),
                // openapi-gen's formats: 8-bit integers are `byte`, and an unsigned 32-bit one
                // needs `int64` to hold its range.
                Primitive::I8 | Primitive::U8 => json!({ "type": "integer", "format": "byte" }),
                p if p.is_wide() || *p == Primitive::U32 => json!({ "type": "integer", "format": "int64" }),
                _ => json!({ "type": "integer", "format": "int32" }),
            },
            TypeRef::String => json!({ "type": "string" }),
            TypeRef::Option(inner) | TypeRef::Box(inner) => self.schema(inner),
            TypeRef::Vec(inner) => json!({ "type": "array", "items": self.element(inner) }),
            TypeRef::Map { value, .. } => json!({ "type": "object", "additionalProperties": self.element(value) }),
            TypeRef::Named(id) => match (self.string_enum(id), self.model_name(id)) {
                // As openapi-gen writes string types: inline, never a definition of their own.
                (Some(variants), _) => {
                    let mut s = json!({ "type": "string", "enum": enum_values(variants) });
                    if let (Value::Object(m), Some(ty)) = (&mut s, self.universe.get(id)) {
                        m.extend(ty.attrs.validations.clone());
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

impl Schemas<'_> {
    /// The schema of a list item or map value, with its zero default.
    fn element(&self, t: &TypeRef) -> Value {
        let mut s = self.schema(t);
        if let (Value::Object(m), Some(zero)) = (&mut s, self.zero(t, false)) {
            m.insert("default".into(), zero);
        }
        s
    }

    /// The zero value openapi-gen enforces as the default of a value of this type (its
    /// `mustEnforceDefault`): none for `Option`s, lists, maps, boxes and types with a hand-written
    /// JSON form; `{}` for structs; the zero scalar unless omitted when empty.
    pub fn zero(&self, t: &TypeRef, omitempty: bool) -> Option<Value> {
        if self.defaults != Defaults::TaggedAndZero {
            return None;
        }
        let scalar = |v: Value| (!omitempty).then_some(v);
        match t {
            TypeRef::String | TypeRef::Primitive(Primitive::Char) => scalar(json!("")),
            TypeRef::Primitive(Primitive::Bool) => scalar(json!(false)),
            TypeRef::Primitive(_) => scalar(json!(0)),
            TypeRef::Named(id) => {
                let ty = self.universe.get(id)?;
                if ty.hand_written_json() {
                    None
                } else if ty.string_enum().is_some() {
                    scalar(json!(""))
                } else if let Some(inner) = ty.newtype() {
                    self.zero(&inner.ty, omitempty)
                } else if matches!(ty.shape, Shape::Struct { .. }) {
                    Some(json!({}))
                } else {
                    None
                }
            }
            TypeRef::External(External::ObjectMeta | External::ListMeta, _) => Some(json!({})),
            // k8s-openapi's other types are structs, but for those Go unmarshals by hand.
            TypeRef::External(External::Other, path) => {
                let model = external_model(path);
                (model != known::RAW_EXTENSION && model != format!("{}FieldsV1", known::META_V1)).then(|| json!({}))
            }
            _ => None,
        }
    }
}

/// The JSON values of an enum's unit variants, sorted as openapi-gen sorts enum values.
pub fn enum_values(variants: &[super::Variant]) -> Vec<&str> {
    let mut values: Vec<&str> = variants
        .iter()
        .filter(|v| v.fields.is_empty())
        .map(|v| v.json_name.as_str())
        .collect();
    values.sort_unstable();
    values
}

/// openapi-gen's enum description: `Possible enum values:` and one line per value, sorted,
/// `` - `"Value"` `` followed by the constant's comment without the constant's name that starts
/// it (`RestartPolicyAlways means ...` -> `means ...`), whitespace collapsed.
fn append_enum_values(desc: &mut String, variants: &[super::Variant]) {
    let mut lines: Vec<String> = variants
        .iter()
        .map(|v| {
            let comment = v.docs.join(" ");
            let comment = comment.trim();
            let comment = comment.strip_prefix(v.name.as_str()).unwrap_or(comment);
            let comment = comment.split_whitespace().collect::<Vec<_>>().join(" ");
            let quoted = serde_json::to_string(&v.json_name).unwrap_or_default();
            format!(" - `{quoted}` {comment}")
        })
        .collect();
    lines.sort();
    if !desc.is_empty() {
        desc.push_str("\n\n");
    }
    desc.push_str("Possible enum values:");
    for line in lines {
        desc.push('\n');
        desc.push_str(line.trim_end());
    }
}

/// Other extensions written as `+k8s:openapi-gen=x-kubernetes-<name>:<value>` pass through as
/// string values, as openapi-gen passes them.
fn passthrough(openapi: &super::attrs::OpenApiAttrs, map: &mut Map<String, Value>) {
    for (name, value) in &openapi.extensions {
        map.insert(name.clone(), json!(value));
    }
}

/// A reference to a definition.
fn reference(model: &str) -> Value {
    json!({ "$ref": format!("#/definitions/{model}") })
}

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
}
