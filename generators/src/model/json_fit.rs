//! Whether a JSON value decodes as a model type, decided from the model as serde would decide it:
//! integers within the Rust type's range, strings for strings and string enums, objects whose keys
//! are the struct's JSON names with every required field present, arrays and maps element by
//! element, and the external types by their wire forms (Quantity a string or number, IntOrString
//! an integer or string, Time an RFC 3339 string). The defaults generator checks `+default`
//! objects and arrays this way, so a value that would not decode is an error at generation time
//! instead of a panic when the default is applied.

use std::collections::BTreeMap;

use serde_json::Value;

use super::{External, Field, Primitive, Shape, TypeRef, Universe, known};

/// `Ok` when `value` decodes as `t`; otherwise where and why not (`.ports[0].port: expected an
/// integer`).
pub fn check(universe: &Universe, t: &TypeRef, value: &Value) -> Result<(), String> {
    fit(universe, t, value, "")
}

fn fail(path: &str, what: &str, value: &Value) -> Result<(), String> {
    let at = if path.is_empty() {
        "the value".to_string()
    } else {
        format!("`{path}`")
    };
    Err(format!("{at} is {value}, expected {what}"))
}

fn fit(universe: &Universe, t: &TypeRef, v: &Value, path: &str) -> Result<(), String> {
    match t {
        TypeRef::Option(inner) => match v {
            Value::Null => Ok(()),
            _ => fit(universe, inner, v, path),
        },
        TypeRef::Box(inner) => fit(universe, inner, v, path),
        TypeRef::String => v
            .is_string()
            .then_some(())
            .map_or_else(|| fail(path, "a string", v), Ok),
        TypeRef::Primitive(p) => primitive(*p, v, path),
        TypeRef::Vec(inner) => match v {
            Value::Array(items) => items
                .iter()
                .enumerate()
                .try_for_each(|(i, x)| fit(universe, inner, x, &format!("{path}[{i}]"))),
            _ => fail(path, "an array", v),
        },
        TypeRef::Map { value, .. } => match v {
            Value::Object(m) => m
                .iter()
                .try_for_each(|(k, x)| fit(universe, value, x, &format!("{path}.{k}"))),
            _ => fail(path, "an object", v),
        },
        TypeRef::External(kind, rust_path) => external(*kind, rust_path, v, path),
        TypeRef::Named(id) => {
            let Some(ty) = universe.get(id) else {
                return Err(format!("`{}` is not a type of this crate", id.name));
            };
            if let Some(inner) = ty.newtype() {
                return fit(universe, &inner.ty, v, path);
            }
            match &ty.shape {
                Shape::Enum { variants } if variants.iter().all(|x| x.fields.is_empty()) => {
                    let names: Vec<&str> = variants.iter().map(|x| x.json_name.as_str()).collect();
                    match v.as_str() {
                        Some(s) if names.contains(&s) => Ok(()),
                        _ => fail(path, &format!("one of {}", names.join(", ")), v),
                    }
                }
                Shape::Enum { .. } => Err(format!(
                    "`{}` is an enum with data; defaults cannot name a variant",
                    ty.name
                )),

                Shape::Struct { fields, .. } => object(universe, fields, v, path),
            }
        }
        TypeRef::Unsupported(..) | TypeRef::Unresolved(_) => Err("the field's type is not understood".into()),
    }
}

fn primitive(p: Primitive, v: &Value, path: &str) -> Result<(), String> {
    let ok = match p {
        Primitive::Bool => v.is_boolean(),
        Primitive::F32 | Primitive::F64 => v.is_number(),
        Primitive::Char => v.as_str().is_some_and(|s| s.chars().count() == 1),
        _ => {
            let i = v.as_i64().map(i128::from).or_else(|| v.as_u64().map(i128::from));
            matches!((i, p.int_range()), (Some(i), Some((lo, hi))) if (lo..=hi).contains(&i))
        }
    };
    if ok {
        Ok(())
    } else {
        fail(path, &format!("a value of type `{p}`"), v)
    }
}

fn external(kind: External, rust_path: &str, v: &Value, path: &str) -> Result<(), String> {
    let ok = match kind {
        External::Quantity => v.is_number() || v.as_str().is_some_and(known::is_quantity),
        // k8s-openapi's IntOrString holds an i32.
        External::IntOrString => v.is_string() || v.as_i64().is_some_and(|i| i32::try_from(i).is_ok()),
        External::Time | External::MicroTime => v.as_str().is_some_and(is_rfc3339),
        External::ByteString => v.as_str().is_some_and(is_base64),
        External::Json => true,
        External::TypeMeta => v.is_object(),
        // The other k8s-openapi types by Kubernetes' own definitions of them.
        External::ObjectMeta | External::ListMeta | External::Other => {
            let meta = known::meta_definitions();
            let model = known::external_model(rust_path);
            return match meta.get(&model) {
                Some(def) => definition(meta, def, v, path),
                None => Err(format!("`{rust_path}` has no known schema to check a default against")),
            };
        }
    };
    let what = match kind {
        External::Quantity => "a quantity (a string such as \"500m\", or a number)",
        External::IntOrString => "an integer or a string",
        External::Time | External::MicroTime => "an RFC 3339 time such as \"2024-01-02T03:04:05Z\"",
        External::ByteString => "a base64 string",
        _ => "an object",
    };
    if ok { Ok(()) } else { fail(path, what, v) }
}

/// Checks a value against one of Kubernetes' vendored definitions: types, property names,
/// required properties, and references to other definitions.
fn definition(meta: &BTreeMap<String, Value>, def: &Value, v: &Value, path: &str) -> Result<(), String> {
    if let Some(r) = def.get("$ref").and_then(Value::as_str) {
        let name = r.trim_start_matches("#/definitions/");
        let kind = match name.rsplit('.').next() {
            Some("Time" | "MicroTime") => External::Time,
            Some("Quantity") => External::Quantity,
            Some("IntOrString") => External::IntOrString,
            _ => External::Other,
        };
        return match (kind, meta.get(name)) {
            (External::Other, Some(target)) => definition(meta, target, v, path),
            (External::Other, None) => Ok(()),
            (k, _) => external(k, "", v, path),
        };
    }
    match (def.get("type").and_then(Value::as_str), v) {
        (Some("object"), Value::Object(m)) => {
            let props = def.get("properties").and_then(Value::as_object);
            for (key, x) in m {
                let sub = format!("{path}.{key}");
                match (props.and_then(|p| p.get(key)), def.get("additionalProperties")) {
                    (Some(s), _) | (None, Some(s)) => definition(meta, s, x, &sub)?,
                    (None, None) if props.is_some() => return Err(format!("`{sub}` is not a field")),
                    (None, None) => {}
                }
            }
            for r in def.get("required").and_then(Value::as_array).into_iter().flatten() {
                if let Some(r) = r.as_str().filter(|r| !m.contains_key(*r)) {
                    return Err(format!("`{path}.{r}` is required"));
                }
            }
            Ok(())
        }
        (Some("array"), Value::Array(items)) => items.iter().enumerate().try_for_each(|(i, x)| {
            definition(
                meta,
                def.get("items").unwrap_or(&Value::Null),
                x,
                &format!("{path}[{i}]"),
            )
        }),
        (Some("string"), Value::String(_)) | (Some("boolean"), Value::Bool(_)) | (None, _) => Ok(()),
        (Some("integer"), x) if x.is_i64() || x.is_u64() => Ok(()),
        (Some("number"), x) if x.is_number() => Ok(()),
        (Some(t), x) => fail(path, &format!("a value of type {t}"), x),
    }
}

/// Standard base64, as a `ByteString` is written.
fn is_base64(s: &str) -> bool {
    s.len().is_multiple_of(4)
        && s.trim_end_matches('=')
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '+' || c == '/')
        && s.len() - s.trim_end_matches('=').len() <= 2
}

/// A cheap shape check of RFC 3339 date-times: `YYYY-MM-DDTHH:MM:SS`, then a zone.
fn is_rfc3339(s: &str) -> bool {
    let b = s.as_bytes();
    let digits = |r: std::ops::Range<usize>| b.get(r).is_some_and(|x| x.iter().all(u8::is_ascii_digit));
    b.len() >= 20
        && digits(0..4)
        && b[4] == b'-'
        && digits(5..7)
        && b[7] == b'-'
        && digits(8..10)
        && matches!(b[10], b'T' | b't')
        && digits(11..13)
        && b[13] == b':'
        && digits(14..16)
        && b[16] == b':'
        && digits(17..19)
        && (s.ends_with(['Z', 'z']) || s[19..].contains(['+', '-']))
}

fn object(universe: &Universe, fields: &[Field], v: &Value, path: &str) -> Result<(), String> {
    let Value::Object(m) = v else {
        return fail(path, "an object", v);
    };
    let mut known: Vec<&Field> = Vec::new();
    collect_fields(universe, fields, &mut known);
    for (key, x) in m {
        match known.iter().find(|f| f.json_name == *key || f.aliases.contains(key)) {
            Some(f) => {
                let sub = format!("{path}.{key}");
                fit(universe, &f.ty, x, &sub)?;
                // The field's own validations hold for the value inside the default too.
                super::validation::value_passes(&f.tags, x)
                    .map_err(|why| format!("`{sub}` is {x}, which fails {why}"))?;
            }
            None => {
                let names: Vec<&str> = known.iter().map(|f| f.json_name.as_str()).collect();
                return Err(format!(
                    "`{path}.{key}` is not a field; the fields are: {}",
                    names.join(", ")
                ));
            }
        }
    }
    let present = |f: &&Field| m.contains_key(&f.json_name) || f.aliases.iter().any(|a| m.contains_key(a));
    match known.iter().find(|f| !f.optional && !present(f)) {
        Some(f) => Err(format!("`{path}.{}` is required", f.json_name)),
        None => Ok(()),
    }
}

/// The wire fields of a struct: its own, and those of flattened structs (TypeMeta's are optional).
fn collect_fields<'u>(universe: &'u Universe, fields: &'u [Field], out: &mut Vec<&'u Field>) {
    for f in fields.iter().filter(|f| !f.skip) {
        if !f.flatten {
            out.push(f);
        } else if let TypeRef::Named(id) = f.ty.strip_option()
            && let Some(t) = universe.get(id)
        {
            collect_fields(universe, t.fields(), out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scalars_and_containers() {
        let u = Universe::default();
        let prim = |p: &str| TypeRef::Primitive(Primitive::parse(p).unwrap());
        assert!(check(&u, &prim("i32"), &serde_json::json!(5)).is_ok());
        assert!(check(&u, &prim("u8"), &serde_json::json!(300)).is_err());
        assert!(check(&u, &TypeRef::Vec(Box::new(TypeRef::String)), &serde_json::json!(["a"])).is_ok());
        assert_eq!(
            check(&u, &TypeRef::Vec(Box::new(prim("i32"))), &serde_json::json!([1, "x"])),
            Err("`[1]` is \"x\", expected a value of type `i32`".into())
        );
        let quantity = TypeRef::External(
            External::Quantity,
            "k8s_openapi::apimachinery::pkg::api::resource::Quantity".into(),
        );
        assert!(check(&u, &quantity, &serde_json::json!("500m")).is_ok());
        assert!(check(&u, &quantity, &serde_json::json!("lots")).is_err());
        let ios = TypeRef::External(External::IntOrString, String::new());
        assert!(check(&u, &ios, &serde_json::json!(3_000_000_000_i64)).is_err());
        let selector = TypeRef::External(
            External::Other,
            "k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelector".into(),
        );
        assert!(check(&u, &selector, &serde_json::json!({ "matchLabels": { "a": "b" } })).is_ok());
        assert_eq!(
            check(&u, &selector, &serde_json::json!({ "matchLabel": {} })),
            Err("`.matchLabel` is not a field".into())
        );
        assert!(
            check(
                &u,
                &selector,
                &serde_json::json!({ "matchExpressions": [{ "key": "a" }] })
            )
            .is_err()
        );
        let time = TypeRef::External(External::Time, String::new());
        assert!(check(&u, &time, &serde_json::json!("2024-01-02T03:04:05Z")).is_ok());
        assert!(check(&u, &time, &serde_json::json!("yesterday")).is_err());
    }
}
