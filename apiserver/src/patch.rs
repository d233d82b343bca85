//! Patches (`PATCH` bodies by content type): JSON patch (RFC 6902) and merge patch (RFC 7386)
//! through the json-patch crate, and strategic merge patch (`strategic.rs`) driven by the kind's
//! generated OpenAPI schema. Server-side apply is `server_side_apply.rs`.

use json_patch::{Patch as JsonPatch, PatchOperation, merge};
use serde_json::Value;

use crate::status::ApiError;

/// The most operations a JSON patch may have (kube-apiserver's `maxJSONPatchOperations`).
pub const MAX_JSON_PATCH_OPERATIONS: usize = 10_000;

/// A parsed patch.
pub enum Patch {
    /// `application/json-patch+json`, and how many bytes its `copy` operations may add in all
    /// (kube-apiserver allows three times the body limit), so that a few copies of copies cannot
    /// grow an object without bound.
    Json(JsonPatch, usize),
    /// `application/merge-patch+json`.
    Merge(Value),
    /// `application/strategic-merge-patch+json`.
    Strategic(Value),
}

impl Patch {
    /// Reads a body of the given content type; `max_body_bytes` is the server's body limit.
    pub fn parse(content_type: &str, body: &[u8], max_body_bytes: usize) -> Result<Patch, ApiError> {
        let media = content_type.split(';').next().unwrap_or("").trim();
        let parse = |what: &str| -> Result<Value, ApiError> {
            serde_json::from_slice(body)
                .map_err(|e| ApiError::bad_request(format!("the {what} is not valid JSON: {e}")))
        };
        match media {
            "application/json-patch+json" => {
                let value = parse("JSON patch")?;
                let patch: JsonPatch = serde_json::from_value(value)
                    .map_err(|e| ApiError::bad_request(format!("the JSON patch is not a list of operations: {e}")))?;
                if patch.0.len() > MAX_JSON_PATCH_OPERATIONS {
                    return Err(ApiError::entity_too_large(format!(
                        "The allowed maximum operations in a JSON patch is {MAX_JSON_PATCH_OPERATIONS}, got {}",
                        patch.0.len()
                    )));
                }
                Ok(Patch::Json(patch, max_body_bytes.saturating_mul(3)))
            }
            "application/merge-patch+json" => Ok(Patch::Merge(parse("merge patch")?)),
            "application/strategic-merge-patch+json" => Ok(Patch::Strategic(parse("strategic merge patch")?)),
            other => Err(ApiError::unsupported_media_type(&format!(
                "{other}; this server accepts application/json-patch+json, application/merge-patch+json and application/strategic-merge-patch+json patches"
            ))),
        }
    }

    /// The object after the patch; a strategic merge walks `schema` (the kind's OpenAPI document
    /// and schema name), and without one merges as a merge patch does.
    pub fn apply(&self, before: &Value, schema: Option<(&Value, &str)>) -> Result<Value, ApiError> {
        let mut after = before.clone();
        match self {
            Patch::Json(p, copy_limit) => json(&mut after, p, *copy_limit)?,
            Patch::Merge(p) => merge(&mut after, p),
            Patch::Strategic(p) => {
                let doc = schema.map(|(d, _)| d).unwrap_or(&Value::Null);
                let schemas = crate::strategic::Schemas::new(doc);
                let root = schema.and_then(|(_, name)| schemas.named(name));
                after = crate::strategic::apply(before, p, &schemas, root)
                    .map_err(|e| ApiError::invalid_patch(format!("the strategic merge patch does not apply: {e}")))?;
            }
        }
        Ok(after)
    }
}

/// Applies a JSON patch as kube-apiserver's JSON patch library does: a `test` of `null` passes on
/// a missing path (kube-runtime's finalizer helper tests `/metadata/finalizers` so), and the
/// bytes `copy` operations add are counted against `copy_limit`.
fn json(doc: &mut Value, patch: &JsonPatch, copy_limit: usize) -> Result<(), ApiError> {
    let failed = |e: &dyn std::fmt::Display| ApiError::invalid_patch(format!("the JSON patch does not apply: {e}"));
    let mut copied = 0usize;
    for op in &patch.0 {
        match op {
            PatchOperation::Test(t) if t.value.is_null() && doc.pointer(t.path.as_str()).is_none() => continue,
            PatchOperation::Copy(c) => {
                let size = doc
                    .pointer(c.from.as_str())
                    .map(|v| serde_json::to_vec(v).map(|b| b.len()).unwrap_or(0))
                    .unwrap_or(0);
                copied = copied.saturating_add(size);
                if copied > copy_limit {
                    return Err(ApiError::invalid_patch(format!(
                        "the JSON patch does not apply: Unable to complete the copy, the accumulated size increase of copy is {copied}, exceeding the limit {copy_limit}"
                    )));
                }
            }
            _ => {}
        }
        json_patch::patch(doc, std::slice::from_ref(op)).map_err(|e| failed(&e))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn json_and_merge_patches_apply() {
        let before = json!({"metadata": {"name": "a", "labels": {"x": "1"}}, "spec": {"r": 1}});
        let merge = Patch::parse(
            "application/merge-patch+json",
            br#"{"metadata":{"labels":{"x":null,"y":"2"}}}"#,
            LIMIT,
        )
        .unwrap();
        assert_eq!(
            merge.apply(&before, None).unwrap()["metadata"]["labels"],
            json!({"y": "2"})
        );
        let json = Patch::parse(
            "application/json-patch+json",
            br#"[{"op":"replace","path":"/spec/r","value":3}]"#,
            LIMIT,
        )
        .unwrap();
        assert_eq!(json.apply(&before, None).unwrap()["spec"]["r"], 3);
        let bad = Patch::parse(
            "application/json-patch+json",
            br#"[{"op":"remove","path":"/spec/none"}]"#,
            LIMIT,
        )
        .unwrap();
        assert_eq!(bad.apply(&before, None).unwrap_err().code, 422);
        assert_eq!(
            Patch::parse("text/plain", b"{}", LIMIT).err().map(|e| e.code),
            Some(415)
        );
    }

    const LIMIT: usize = 3 * 1024 * 1024;

    #[test]
    fn a_test_of_null_passes_on_a_missing_path() {
        let before = json!({"metadata": {"name": "a"}});
        let p = Patch::parse(
            "application/json-patch+json",
            br#"[{"op":"test","path":"/metadata/finalizers","value":null},{"op":"add","path":"/metadata/finalizers","value":["f"]}]"#,
            LIMIT,
        )
        .unwrap();
        assert_eq!(p.apply(&before, None).unwrap()["metadata"]["finalizers"], json!(["f"]));
        let present = json!({"metadata": {"name": "a", "finalizers": ["g"]}});
        assert_eq!(
            p.apply(&present, None).unwrap_err().code,
            422,
            "a present value is not null"
        );
    }

    #[test]
    fn copies_of_copies_and_huge_patches_are_refused() {
        let before = json!({"a": "x".repeat(1024)});
        let mut ops = vec![json!({"op": "add", "path": "/b", "value": []})];
        ops.push(json!({"op": "copy", "from": "/a", "path": "/b/-"}));
        // Each copy doubles the list: 24 of them would be 16 GiB.
        for i in 0..24 {
            ops.push(json!({"op": "copy", "from": "/b", "path": format!("/c{i}")}));
            ops.push(json!({"op": "copy", "from": format!("/c{i}"), "path": "/b/-"}));
        }
        let p = Patch::parse(
            "application/json-patch+json",
            json!(ops).to_string().as_bytes(),
            1024 * 1024,
        )
        .unwrap();
        let e = p.apply(&before, None).unwrap_err();
        assert_eq!(e.code, 422);
        assert!(e.message.contains("exceeding the limit 3145728"), "{}", e.message);
        let many = vec![json!({"op": "test", "path": "/a", "value": "x"}); MAX_JSON_PATCH_OPERATIONS + 1];
        let e = Patch::parse("application/json-patch+json", json!(many).to_string().as_bytes(), LIMIT)
            .err()
            .unwrap();
        assert_eq!((e.code, e.reason), (413, "RequestEntityTooLarge"));
        assert_eq!(
            e.message,
            "Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001"
        );
    }
}
