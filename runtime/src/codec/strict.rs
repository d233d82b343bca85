//! Strict decoding: the fields of the input that the decoded type does not know, found in the pass
//! that decodes it, never by encoding the object again.
//!
//! Below the top level the deserializer reports them: `serde_ignored` wraps it and names every
//! value a type skips, at any depth, whatever the value is. The top level needs a second look:
//! kinds inline their TypeMeta with `#[serde(flatten)]`, and serde buffers the keys of a
//! flattening struct and drops the ones nobody claims without skipping them, so a misspelt `specc`
//! goes unseen. There the input's keys are compared with the keys the decoded object writes
//! (`wire::top_level_keys`).
//!
//! Generated registrations list every key a kind reads at its top level
//! (`Scheme::add_known_type_serde_keys`), and then any other key is reported. Without that list the
//! one gap is a top-level key whose value is empty (`null`, `false`, `0`, `""`): a known optional
//! field that is absent, or an omitempty value field that is zero, writes no key either, so such a
//! key cannot be told from a known one and is not reported.

use std::collections::BTreeSet;

/// Every unknown field, sorted and without repeats: the `skipped` paths the deserializer reported,
/// and the top-level `input` keys (each with whether its value is empty) that are neither in
/// `written`, the keys the decoded object writes, nor the TypeMeta, nor empty.
pub(crate) fn unknown_fields<'k>(
    input: impl IntoIterator<Item = (&'k str, bool)>,
    written: &[String],
    skipped: Vec<String>,
) -> Vec<String> {
    collect(input, skipped, |key, empty| {
        empty || key == "apiVersion" || key == "kind" || written.iter().any(|w| w == key)
    })
}

/// The skipped paths and the `input` keys that are not `known` (given the key and whether its
/// value is empty), sorted and without repeats.
fn collect<'k>(
    input: impl IntoIterator<Item = (&'k str, bool)>,
    skipped: Vec<String>,
    known: impl Fn(&str, bool) -> bool,
) -> Vec<String> {
    let mut unknown: BTreeSet<String> = skipped.into_iter().collect();
    unknown.extend(
        input
            .into_iter()
            .filter(|(k, e)| !known(k, *e))
            .map(|(k, _)| k.to_owned()),
    );
    unknown.into_iter().collect()
}

/// The unknown fields of a decoded object: with the type's registered keys every other input
/// key, else [`unknown_fields`] against the keys the object writes.
pub(crate) fn unknown<'k>(
    fns: &crate::scheme::SerdeFns,
    obj: &dyn crate::Object,
    input: impl IntoIterator<Item = (&'k str, bool)>,
    skipped: Vec<String>,
) -> Vec<String> {
    match fns.wire_keys {
        Some(keys) => collect(input, skipped, |key, _| keys.contains(&key)),
        None => unknown_fields(input, &(fns.top_level_keys)(obj), skipped),
    }
}

/// Whether a JSON value is empty in the sense of [`unknown_fields`].
pub(crate) fn is_empty(value: &serde_json::Value) -> bool {
    use serde_json::Value;
    match value {
        Value::Null => true,
        Value::Bool(b) => !b,
        Value::Number(n) => n.as_f64() == Some(0.0),
        Value::String(s) => s.is_empty(),
        Value::Array(_) | Value::Object(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;
    use serde_json::json;

    #[derive(Deserialize)]
    #[allow(dead_code)]
    struct Port {
        port: u16,
    }

    #[derive(Deserialize)]
    #[allow(dead_code)]
    struct Spec {
        ports: Vec<Port>,
        matrix: Option<Vec<Vec<Port>>>,
    }

    #[test]
    fn skipped_values_are_named_by_their_field_paths() {
        let input = json!({"ports": [{"port": 80}, {"port": 81, "bogus": "x"}], "extra": null, "matrix": [[{"port": 1, "y": 0}]]});
        let mut skipped = Vec::new();
        let _: Spec = serde_ignored::deserialize(&input, |p| skipped.push(crate::wire::skipped_path(&p))).unwrap();
        assert_eq!(skipped, ["extra", "matrix[0][0].y", "ports[1].bogus"]);
    }

    #[test]
    fn top_level_keys_the_object_does_not_write_are_unknown_unless_empty() {
        let written = ["apiVersion".to_owned(), "kind".to_owned(), "spec".to_owned()];
        let input = [
            ("apiVersion", false),
            ("specc", false),
            ("spec", false),
            ("status", true),
            ("kind", false),
        ];
        assert_eq!(
            unknown_fields(input, &written, vec!["spec.x".into(), "spec.a".into()]),
            ["spec.a", "spec.x", "specc"]
        );
        assert!(is_empty(&json!(0)) && is_empty(&json!("")) && is_empty(&json!(null)));
        assert!(!is_empty(&json!({})) && !is_empty(&json!(true)));
    }
}
