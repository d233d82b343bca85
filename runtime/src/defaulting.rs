//! Decoding of the `+default=<json>` values that are not plain literals: objects, arrays, and
//! strings or numbers for types such as `Quantity` or `IntOrString`. Go's defaulter-gen
//! unmarshals such a value from its JSON text each time it applies it; the generated Rust does the
//! same through [`from_json`]. The generator has already checked that the JSON decodes as the
//! field's type, so a failure here means the type changed after the code was generated.

use serde::de::DeserializeOwned;

/// Decodes a generated default value.
///
/// # Panics
///
/// When `json` does not decode as `T`: the generated code is stale (the field's type changed
/// since `cargo xtask codegen` checked the value), which `cargo xtask verify-codegen` reports.
pub fn from_json<T: DeserializeOwned>(json: &str) -> T {
    serde_json::from_str(json).unwrap_or_else(|e| {
        panic!("generated default `{json}` does not decode as its field's type ({e}); regenerate with `cargo xtask codegen`")
    })
}

/// Sets a string field that Go declares as a value (`RestartPolicy string`, omitted when empty) to
/// `value` when it is empty, as Go's defaulters test `== ""`; returns the field.
pub fn set_if_empty<'a>(field: &'a mut String, value: &str) -> &'a mut String {
    if field.is_empty() {
        value.clone_into(field);
    }
    field
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;

    #[test]
    fn decodes_objects_arrays_and_scalars() {
        let m: BTreeMap<String, i32> = from_json(r#"{"a":1}"#);
        assert_eq!(m["a"], 1);
        let v: Vec<String> = from_json(r#"["x"]"#);
        assert_eq!(v, ["x"]);
    }

    #[test]
    #[should_panic(expected = "regenerate")]
    fn a_stale_default_names_the_fix() {
        let _: Vec<i32> = from_json(r#"{"a":1}"#);
    }
}
