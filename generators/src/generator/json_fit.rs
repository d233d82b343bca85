//! Whether a JSON value decodes as a model type, decided from the model as serde would decide it:
//! integers within the Rust type's range, strings for strings and string enums, objects whose keys
//! are the struct's JSON names with every required field present, arrays and maps element by
//! element, and the external types by their wire forms (Quantity a string or number, IntOrString
//! an integer or string, Time an RFC 3339 string). The defaults generator checks `+default`
//! objects and arrays this way, so a value that would not decode is an error at generation time
//! instead of a panic when the default is applied.

use serde_json::Value;

use crate::model::{External, Field, Shape, TypeRef, Universe};

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
        TypeRef::Primitive(p) => primitive(p, v, path),
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
        TypeRef::External(kind, _) => external(*kind, v, path),
        TypeRef::Named(id) => {
            let Some(ty) = universe.get(id) else {
                return Err(format!("`{}` is not a type of this crate", id.name));
            };
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
                Shape::Struct { fields, tuple: true } if fields.len() == 1 => fit(universe, &fields[0].ty, v, path),
                Shape::Struct { fields, .. } => object(universe, fields, v, path),
            }
        }
        TypeRef::Unsupported(..) | TypeRef::Unresolved(_) => Err("the field's type is not understood".into()),
    }
}

fn primitive(p: &str, v: &Value, path: &str) -> Result<(), String> {
    let ok = match p {
        "bool" => v.is_boolean(),
        "f32" | "f64" => v.is_number(),
        "char" => v.as_str().is_some_and(|s| s.chars().count() == 1),
        _ => match (v.as_i64(), v.as_u64()) {
            (Some(i), _) => int_fits(p, i128::from(i)),
            (None, Some(u)) => int_fits(p, i128::from(u)),
            _ => false,
        },
    };
    if ok {
        Ok(())
    } else {
        fail(path, &format!("a value of type `{p}`"), v)
    }
}

fn int_fits(p: &str, i: i128) -> bool {
    let (lo, hi): (i128, i128) = match p {
        "i8" => (i8::MIN.into(), i8::MAX.into()),
        "i16" => (i16::MIN.into(), i16::MAX.into()),
        "i32" => (i32::MIN.into(), i32::MAX.into()),
        "u8" => (0, u8::MAX.into()),
        "u16" => (0, u16::MAX.into()),
        "u32" => (0, u32::MAX.into()),
        "u64" | "usize" | "u128" => (0, i128::MAX),
        _ => (i64::MIN.into(), i64::MAX.into()),
    };
    (lo..=hi).contains(&i)
}

fn external(kind: External, v: &Value, path: &str) -> Result<(), String> {
    let ok = match kind {
        External::Quantity => v.is_string() || v.is_number(),
        External::IntOrString => v.is_string() || v.is_i64(),
        External::Time | External::MicroTime => v.as_str().is_some_and(is_rfc3339),
        External::ByteString => v.is_string(),
        External::Json => true,
        // The meta types are objects; k8s-openapi decodes their fields itself.
        External::ObjectMeta | External::ListMeta | External::TypeMeta | External::Other => v.is_object(),
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
        match known.iter().find(|f| f.json_name == *key) {
            Some(f) => fit(universe, &f.ty, x, &format!("{path}.{key}"))?,
            None => {
                let names: Vec<&str> = known.iter().map(|f| f.json_name.as_str()).collect();
                return Err(format!(
                    "`{path}.{key}` is not a field; the fields are: {}",
                    names.join(", ")
                ));
            }
        }
    }
    match known.iter().find(|f| !f.optional && !m.contains_key(&f.json_name)) {
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
        let prim = |p: &str| TypeRef::Primitive(p.into());
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
        let time = TypeRef::External(External::Time, String::new());
        assert!(check(&u, &time, &serde_json::json!("2024-01-02T03:04:05Z")).is_ok());
        assert!(check(&u, &time, &serde_json::json!("yesterday")).is_err());
    }
}
