//! Patches (`PATCH` bodies by content type): JSON patch (RFC 6902) and merge patch (RFC 7386)
//! through the json-patch crate, and strategic merge patch (`strategic.rs`) driven by the kind's
//! generated OpenAPI schema. Server-side apply is `server_side_apply.rs`.

use json_patch::{Patch as JsonPatch, merge};
use serde_json::Value;

use crate::status::ApiError;

/// A parsed patch.
pub enum Patch {
    /// `application/json-patch+json`.
    Json(JsonPatch),
    /// `application/merge-patch+json`.
    Merge(Value),
    /// `application/strategic-merge-patch+json`.
    Strategic(Value),
}

impl Patch {
    /// Reads a body of the given content type.
    pub fn parse(content_type: &str, body: &[u8]) -> Result<Patch, ApiError> {
        let media = content_type.split(';').next().unwrap_or("").trim();
        let parse = |what: &str| -> Result<Value, ApiError> {
            serde_json::from_slice(body)
                .map_err(|e| ApiError::bad_request(format!("the {what} is not valid JSON: {e}")))
        };
        match media {
            "application/json-patch+json" => {
                let value = parse("JSON patch")?;
                serde_json::from_value(value)
                    .map(Patch::Json)
                    .map_err(|e| ApiError::bad_request(format!("the JSON patch is not a list of operations: {e}")))
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
            Patch::Json(p) => json_patch::patch(&mut after, p)
                .map_err(|e| ApiError::invalid_patch(format!("the JSON patch does not apply: {e}")))?,
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
        )
        .unwrap();
        assert_eq!(
            merge.apply(&before, None).unwrap()["metadata"]["labels"],
            json!({"y": "2"})
        );
        let json = Patch::parse(
            "application/json-patch+json",
            br#"[{"op":"replace","path":"/spec/r","value":3}]"#,
        )
        .unwrap();
        assert_eq!(json.apply(&before, None).unwrap()["spec"]["r"], 3);
        let bad = Patch::parse(
            "application/json-patch+json",
            br#"[{"op":"remove","path":"/spec/none"}]"#,
        )
        .unwrap();
        assert_eq!(bad.apply(&before, None).unwrap_err().code, 422);
        assert_eq!(Patch::parse("text/plain", b"{}").err().map(|e| e.code), Some(415));
    }
}
