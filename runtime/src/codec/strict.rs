//! Strict decoding: finds the fields of the input that the decoded type does not know, by encoding
//! the decoded object again and listing every key of the input that the encoding lacks.
//!
//! Why compare encodings rather than watch the deserializer (as `serde_ignored` does): kinds inline
//! their TypeMeta with `#[serde(flatten)]`, and serde buffers the keys of a flattening struct and
//! drops the ones nobody claims without ever reporting them, so a misspelt top-level field such as
//! `specc` would pass. A decoded object re-encodes every field it has, so a key missing from the
//! encoding is one the type threw away.
//!
//! The exceptions are keys whose input value is `null` or a scalar zero (`false`, `0`, `""`): an
//! absent optional field encodes to nothing and `null` decodes to absent, and a field Go declares
//! as a value with `omitempty` (`paused: false`, `hostPort: 0`) is skipped on output when zero, so
//! such keys cannot be told apart from known ones and are never reported. An unknown field whose
//! value is a zero passes; one with any other value is caught.

use serde_json::Value;

/// The JSON paths of the keys in `input` that `encoded` lacks, depth first in key order, such as
/// `spec.template.spec.containers[0].imagee`.
pub(crate) fn unknown_fields(input: &Value, encoded: &Value) -> Vec<String> {
    let mut found = Vec::new();
    walk(input, encoded, &mut String::new(), &mut found);
    found
}

fn walk(input: &Value, encoded: &Value, path: &mut String, found: &mut Vec<String>) {
    match (input, encoded) {
        (Value::Object(fields), Value::Object(known)) => {
            for (key, value) in fields {
                let len = path.len();
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(key);
                match known.get(key) {
                    Some(encoded) => walk(value, encoded, path, found),
                    None if value.is_null() || is_zero_scalar(value) => {}
                    None => found.push(path.clone()),
                }
                path.truncate(len);
            }
        }
        (Value::Array(items), Value::Array(known)) => {
            for (index, (item, encoded)) in items.iter().zip(known).enumerate() {
                let len = path.len();
                path.push_str(&format!("[{index}]"));
                walk(item, encoded, path, found);
                path.truncate(len);
            }
        }
        // A value whose shape changed on the way (an int-or-string, a schema-or-bool) has no
        // fields of its own to compare.
        _ => {}
    }
}

/// `false`, `0` or `""`: what an omitempty value field leaves out of its encoding.
fn is_zero_scalar(value: &Value) -> bool {
    match value {
        Value::Bool(b) => !b,
        Value::Number(n) => n.as_f64() == Some(0.0),
        Value::String(s) => s.is_empty(),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn lists_keys_missing_from_the_encoding_with_their_paths() {
        let input = json!({
            "apiVersion": "v1",
            "specc": 1,
            "spec": {"replicas": 1, "extra": true, "ports": [{"port": 80}, {"port": 81, "bogus": "x"}]},
        });
        let encoded = json!({
            "apiVersion": "v1",
            "spec": {"replicas": 1, "ports": [{"port": 80}, {"port": 81}]},
        });
        assert_eq!(
            unknown_fields(&input, &encoded),
            vec!["spec.extra", "spec.ports[1].bogus", "specc"]
        );
    }

    #[test]
    fn null_values_zeros_and_changed_shapes_are_not_reported() {
        let input = json!({"status": null, "port": {"x": 1}, "meta": {"creationTimestamp": null}, "paused": false, "hostPort": 0, "ip": ""});
        let encoded = json!({"port": "80", "meta": {}});
        assert!(unknown_fields(&input, &encoded).is_empty());
    }

    #[test]
    fn nested_lists_are_indexed_at_every_level() {
        let input = json!({"matrix": [[{"x": 1}, {"x": 2, "y": 3}]], "a.b": {"c": 1}});
        let encoded = json!({"matrix": [[{"x": 1}, {"x": 2}]], "a.b": {}});
        assert_eq!(unknown_fields(&input, &encoded), vec!["a.b.c", "matrix[0][1].y"]);
    }
}
