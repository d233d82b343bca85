//! The checks of a structural schema's value keywords (kube-openapi's `+k8s:validation:minimum`,
//! `maxLength`, `pattern`, `enum`, ...), worded as the API server words a custom resource's
//! schema errors, so a compiled kind and its CRD reject a value alike.

use std::sync::{Mutex, OnceLock};

use super::field::{BadValue, FieldError, Path};

/// `minimum` (with `exclusiveMinimum`).
pub fn minimum(
    path: &Path<'_>,
    value: f64,
    shown: impl Into<BadValue>,
    min: f64,
    exclusive: bool,
) -> Option<FieldError> {
    let fails = if exclusive { value <= min } else { value < min };
    let relation = if exclusive {
        "greater than"
    } else {
        "greater than or equal to"
    };
    fails.then(|| FieldError::invalid(path, shown, format!("{path} in body should be {relation} {min}")))
}

/// `maximum` (with `exclusiveMaximum`).
pub fn maximum(
    path: &Path<'_>,
    value: f64,
    shown: impl Into<BadValue>,
    max: f64,
    exclusive: bool,
) -> Option<FieldError> {
    let fails = if exclusive { value >= max } else { value > max };
    let relation = if exclusive {
        "less than"
    } else {
        "less than or equal to"
    };
    fails.then(|| FieldError::invalid(path, shown, format!("{path} in body should be {relation} {max}")))
}

/// `multipleOf`.
pub fn multiple_of(path: &Path<'_>, value: f64, shown: impl Into<BadValue>, factor: f64) -> Option<FieldError> {
    let q = value / factor;
    (q.fract() != 0.0)
        .then(|| FieldError::invalid(path, shown, format!("{path} in body should be a multiple of {factor}")))
}

/// `minLength`, in characters.
pub fn min_length(path: &Path<'_>, value: &str, min: u64) -> Option<FieldError> {
    ((value.chars().count() as u64) < min).then(|| {
        FieldError::invalid(
            path,
            value,
            format!("{path} in body should be at least {min} chars long"),
        )
    })
}

/// `maxLength`, in characters.
pub fn max_length(path: &Path<'_>, value: &str, max: u64) -> Option<FieldError> {
    (value.chars().count() as u64 > max).then(|| FieldError::too_long(path, max))
}

/// `pattern`: an ECMA-262 regex as the API server compiles it (Go's RE2 syntax is the subset
/// schemas may use); compiled once per pattern.
pub fn pattern(path: &Path<'_>, value: &str, pattern: &str) -> Option<FieldError> {
    static CACHE: OnceLock<Mutex<std::collections::HashMap<String, Option<regex::Regex>>>> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    let matches = {
        let mut map = cache.lock().unwrap_or_else(|e| e.into_inner());
        let re = map
            .entry(pattern.to_string())
            .or_insert_with(|| regex::Regex::new(pattern).ok());
        // A pattern that does not compile was refused when the code was generated.
        re.as_ref().is_none_or(|re| re.is_match(value))
    };
    (!matches).then(|| FieldError::invalid(path, value, format!("{path} in body should match '{pattern}'")))
}

/// `minItems`.
pub fn min_items(path: &Path<'_>, len: usize, min: u64) -> Option<FieldError> {
    ((len as u64) < min).then(|| {
        FieldError::invalid(
            path,
            BadValue::Int(len as i64),
            format!("{path} in body should have at least {min} items"),
        )
    })
}

/// `maxItems`.
pub fn max_items(path: &Path<'_>, len: usize, max: u64) -> Option<FieldError> {
    (len as u64 > max).then(|| FieldError::too_many(path, len, max))
}

/// `minProperties`.
pub fn min_properties(path: &Path<'_>, len: usize, min: u64) -> Option<FieldError> {
    ((len as u64) < min).then(|| {
        FieldError::invalid(
            path,
            BadValue::Int(len as i64),
            format!("{path} in body should have at least {min} properties"),
        )
    })
}

/// `maxProperties`.
pub fn max_properties(path: &Path<'_>, len: usize, max: u64) -> Option<FieldError> {
    (len as u64 > max).then(|| {
        FieldError::invalid(
            path,
            BadValue::Int(len as i64),
            format!("{path} in body should have at most {max} properties"),
        )
    })
}

/// `uniqueItems`: the first item equal to an earlier one.
pub fn unique_items<T: PartialEq>(path: &Path<'_>, items: &[T]) -> Option<FieldError> {
    let dup = (1..items.len()).any(|j| items[..j].contains(&items[j]));
    dup.then(|| {
        FieldError::invalid(
            path,
            BadValue::Omitted,
            format!("{path} in body shouldn't contain duplicates"),
        )
    })
}

/// `enum`: `Unsupported value` with the allowed values, as written in the schema.
pub fn one_of(path: &Path<'_>, value: &str, allowed: &[&str]) -> Option<FieldError> {
    (!allowed.contains(&value)).then(|| FieldError::not_supported(path, value, allowed))
}

/// `x-kubernetes-list-type: map`: `Duplicate value` at each item whose keys an earlier item has,
/// showing the keys, as the API server checks a custom resource's list maps.
pub fn list_map_keys<T: serde::Serialize>(path: &Path<'_>, items: &[T], keys: &[&str]) -> super::ErrorList {
    let key_values: Vec<serde_json::Value> = items
        .iter()
        .map(|item| {
            let value = serde_json::to_value(item).unwrap_or_default();
            let picked: serde_json::Map<String, serde_json::Value> = keys
                .iter()
                .filter_map(|k| value.get(*k).map(|v| (k.to_string(), v.clone())))
                .collect();
            serde_json::Value::Object(picked)
        })
        .collect();
    let mut out = Vec::new();
    for (j, kv) in key_values.iter().enumerate() {
        if key_values[..j].contains(kv) {
            out.push(FieldError::duplicate(&path.index(j), BadValue::Other(kv.to_string())));
        }
    }
    out
}

/// `x-kubernetes-list-type: set`: `Duplicate value` at each item equal to an earlier one.
pub fn list_set<T: serde::Serialize + PartialEq>(path: &Path<'_>, items: &[T]) -> super::ErrorList {
    super::unique(path, items, |a, b| a == b)
}
