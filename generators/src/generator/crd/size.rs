//! The size a CRD may have: the API server keeps each object in one etcd value, and etcd refuses
//! a request past `--max-request-bytes` (1.5 MiB by default), so a bigger CRD is never stored.

use serde_json::Value;

use crate::diag::{Diagnostic, Diagnostics};
use crate::model::{Package, Type};

/// etcd's default request limit, which a stored CRD must stay under.
pub const MAX_CRD_BYTES: usize = 1536 * 1024;

/// Reports a CRD whose JSON is past `MAX_CRD_BYTES`, at the kind of the version contributing most,
/// naming the part of its schema that makes up most of it. Returns whether it fits.
pub fn check(crd: &Value, versions: &[(&Package, &Type)], diags: &mut Diagnostics) -> bool {
    let total = json_len(crd);
    if total <= MAX_CRD_BYTES {
        return true;
    }
    let name = crd["metadata"]["name"].as_str().unwrap_or_default();
    let empty = Vec::new();
    let biggest = crd["spec"]["versions"]
        .as_array()
        .unwrap_or(&empty)
        .iter()
        .max_by_key(|v| json_len(&v["schema"]));
    let (version, schema) = match biggest {
        Some(v) => (v["name"].as_str().unwrap_or_default(), &v["schema"]["openAPIV3Schema"]),
        None => ("", &Value::Null),
    };
    let (path, part) = largest_part(schema);
    let at = versions
        .iter()
        .find(|(p, _)| p.version.as_str() == version)
        .or(versions.first())
        .map(|(_, k)| &k.loc);
    let Some(at) = at else { return false };
    let most = if path.is_empty() {
        String::new()
    } else {
        format!(", most of it `{path}` ({})", mib(part))
    };
    diags.push(
        Diagnostic::error(
            at,
            format!(
                "CRD `{name}` is {} as JSON, more than the {} the API server can store (etcd's request limit); the biggest part is version {version}'s schema ({}){most}",
                mib(total),
                mib(MAX_CRD_BYTES),
                mib(json_len(schema)),
            ),
        )
        .label("this kind's CRD is too big")
        .help("serve fewer versions in the CRD, shorten the docs of the big part, or type it `serde_json::Value` (kept without a schema)"),
    );
    false
}

/// The path of the sub-schema that holds more than half of `schema`, followed down while each
/// step still does (`spec.template.spec`), and its size.
fn largest_part(schema: &Value) -> (String, usize) {
    let mut path = String::new();
    let mut here = schema;
    let mut size = json_len(schema);
    loop {
        let children = children(here);
        let Some((step, child, len)) = children
            .into_iter()
            .map(|(s, c)| (s, c, json_len(c)))
            .max_by_key(|(_, _, len)| *len)
        else {
            break;
        };
        if len * 2 < size {
            break;
        }
        match step {
            Step::Field(f) => {
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(f);
            }
            Step::Items => path.push_str("[*]"),
            Step::Values => path.push_str("{*}"),
        }
        here = child;
        size = len;
    }
    (path, size)
}

enum Step<'a> {
    Field(&'a str),
    Items,
    Values,
}

/// The sub-schemas of a schema: its properties, its items and its map values.
fn children(schema: &Value) -> Vec<(Step<'_>, &Value)> {
    let mut out: Vec<(Step<'_>, &Value)> = Vec::new();
    if let Some(props) = schema["properties"].as_object() {
        out.extend(props.iter().map(|(k, v)| (Step::Field(k.as_str()), v)));
    }
    if schema["items"].is_object() {
        out.push((Step::Items, &schema["items"]));
    }
    if schema["additionalProperties"].is_object() {
        out.push((Step::Values, &schema["additionalProperties"]));
    }
    out
}

/// The length of `v` as compact JSON, as the API server stores it.
fn json_len(v: &Value) -> usize {
    struct Count(usize);
    impl std::io::Write for Count {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0 += buf.len();
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut count = Count(0);
    // Writing a Value into a counter cannot fail.
    let _ = serde_json::to_writer(&mut count, v);
    count.0
}

fn mib(bytes: usize) -> String {
    format!("{:.2} MiB", bytes as f64 / (1024.0 * 1024.0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_largest_part_is_followed_while_it_holds_most() {
        let big = "x".repeat(1000);
        let schema = json!({
            "properties": {
                "spec": { "properties": {
                    "template": { "type": "array", "items": { "description": big } },
                    "small": { "type": "string" },
                }},
                "status": { "type": "string" },
            }
        });
        let (path, size) = largest_part(&schema);
        assert_eq!(path, "spec.template[*]");
        assert!(size > 1000 && size < 1100, "{size}");
        assert_eq!(largest_part(&json!({"type": "string"})).0, "");
    }

    #[test]
    fn json_len_is_the_compact_length() {
        let v = json!({"a": [1, 2], "b": "c"});
        assert_eq!(json_len(&v), serde_json::to_string(&v).unwrap().len());
    }
}
