//! Patches (`PATCH` bodies by content type): JSON patch (RFC 6902) and merge patch (RFC 7386)
//! through the json-patch crate. Strategic merge and server-side apply are driven by the schema's
//! patch metadata and are not served yet: they answer 415 with what is accepted.

use json_patch::{Patch as JsonPatch, merge};
use serde_json::Value;

use crate::status::ApiError;

/// A parsed patch.
pub enum Patch {
    /// `application/json-patch+json`.
    Json(JsonPatch),
    /// `application/merge-patch+json`.
    Merge(Value),
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
            other => Err(ApiError::unsupported_media_type(&format!(
                "{other}; this server accepts application/json-patch+json and application/merge-patch+json patches"
            ))),
        }
    }

    /// The object after the patch.
    pub fn apply(&self, before: &Value) -> Result<Value, ApiError> {
        let mut after = before.clone();
        match self {
            Patch::Json(p) => json_patch::patch(&mut after, p)
                .map_err(|e| ApiError::invalid_patch(format!("the JSON patch does not apply: {e}")))?,
            Patch::Merge(p) => merge(&mut after, p),
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
        assert_eq!(merge.apply(&before).unwrap()["metadata"]["labels"], json!({"y": "2"}));
        let json = Patch::parse(
            "application/json-patch+json",
            br#"[{"op":"replace","path":"/spec/r","value":3}]"#,
        )
        .unwrap();
        assert_eq!(json.apply(&before).unwrap()["spec"]["r"], 3);
        let bad = Patch::parse(
            "application/json-patch+json",
            br#"[{"op":"remove","path":"/spec/none"}]"#,
        )
        .unwrap();
        assert_eq!(bad.apply(&before).unwrap_err().code, 422);
        assert_eq!(Patch::parse("text/plain", b"{}").err().map(|e| e.code), Some(415));
    }
}
