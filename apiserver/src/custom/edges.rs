//! The version edges of a custom resource (apiextensions-apiserver's unstructured codec): bodies
//! are JSON or YAML, never protobuf; a body must be in the version its path names and is pruned
//! to its version's schema (`fieldValidation` deciding whether unknown fields are an error, a
//! warning or silence) and defaulted; between versions `None` conversion rewrites `apiVersion`
//! (a `Webhook` CRD's conversion is refused until the webhook is called). Reads are pruned and
//! defaulted too, so a default added to a schema shows on objects stored before it.

use std::collections::BTreeMap;
use std::sync::Arc;

use runtime::{GroupVersion, GroupVersionKind, Release};
use serde_json::{Value, json};

use super::definition::Definition;
use super::schema::{self, Structural};
use crate::convert::{Decoded, Edges, FieldValidation, parse_body};
use crate::status::ApiError;

/// The edges of one CRD's kind.
pub struct CustomEdges {
    /// `spec.group`.
    group: String,
    /// Per served version: the field labels its `selectableFields` add to `metadata.name` and
    /// `metadata.namespace`.
    selectable: BTreeMap<String, Vec<String>>,
    /// Per deprecated version: the warning its requests get.
    deprecated: BTreeMap<String, String>,
    /// Per served version: its structural schema.
    schemas: BTreeMap<String, Arc<Structural>>,
    /// Whether a schema has defaults, which reads must apply.
    defaults: bool,
}

impl CustomEdges {
    /// The edges `definition` describes, under the accepted `kind`.
    pub fn new(definition: &Definition, kind: &str) -> Self {
        let served = definition.versions.iter().filter(|v| v.served);
        let selectable = served
            .clone()
            .map(|v| {
                let labels = v
                    .selectable_fields
                    .iter()
                    .map(|f| f.json_path.trim_start_matches('.').to_string())
                    .collect();
                (v.name.clone(), labels)
            })
            .collect();
        let deprecated = served
            .filter(|v| v.deprecated)
            .map(|v| {
                let warning = v
                    .deprecation_warning
                    .clone()
                    .unwrap_or_else(|| format!("{}/{} {kind} is deprecated", definition.group, v.name));
                (v.name.clone(), warning)
            })
            .collect();
        let schemas: BTreeMap<String, Arc<Structural>> = definition
            .versions
            .iter()
            .filter(|v| v.served)
            .map(|v| (v.name.clone(), Arc::new(definition.structural(&v.name))))
            .collect();
        let defaults = definition
            .versions
            .iter()
            .filter_map(|v| v.schema.as_ref()?.open_api_v3_schema.as_ref())
            .any(|s| s.to_string().contains("\"default\""));
        CustomEdges {
            group: definition.group.clone(),
            selectable,
            deprecated,
            schemas,
            defaults,
        }
    }

    /// `value` (an object of `version`) pruned and defaulted by its schema; the paths pruned.
    fn shape(&self, value: &mut Value, version: &str) -> Vec<String> {
        let Some(schema) = self.schemas.get(version) else {
            return Vec::new();
        };
        let unknown = schema::prune(schema, value);
        schema::default(schema, value);
        unknown
    }

    /// `value` with its apiVersion set to `target`'s.
    fn converted(mut value: Value, target: &GroupVersion) -> Value {
        if let Some(obj) = value.as_object_mut() {
            obj.insert("apiVersion".into(), json!(target.api_version()));
        }
        value
    }
}

impl Edges for CustomEdges {
    fn decode_body(
        &self,
        body: &[u8],
        expected: &GroupVersionKind,
        storage: &GroupVersion,
        validation: FieldValidation,
    ) -> Result<Decoded, ApiError> {
        if runtime::protobuf::is_protobuf(body) {
            return Err(ApiError::unsupported_media_type("application/vnd.kubernetes.protobuf"));
        }
        let value = parse_body(body, expected)?;
        self.to_storage(&value, expected, storage, validation)
    }

    fn to_storage(
        &self,
        value: &Value,
        expected: &GroupVersionKind,
        storage: &GroupVersion,
        validation: FieldValidation,
    ) -> Result<Decoded, ApiError> {
        let api_version = value.get("apiVersion").and_then(Value::as_str).unwrap_or("");
        let kind = value.get("kind").and_then(Value::as_str).unwrap_or("");
        let gv = GroupVersion::parse_api_version(api_version)
            .map_err(|_| ApiError::bad_request(format!("invalid apiVersion \"{api_version}\"")))?;
        // A custom resource's body is in its path's version: there is no internal version to
        // accept the others through (Kubernetes' AcceptsGroupVersion for CRDs).
        if gv != expected.group_version() {
            return Err(ApiError::bad_request(format!(
                "the API version in the data ({api_version}) does not match the expected API version ({})",
                expected.group_version()
            )));
        }
        if kind != expected.kind {
            return Err(ApiError::bad_request(format!(
                "the kind in the data ({kind}) does not match the expected kind ({})",
                expected.kind
            )));
        }
        if !value.get("metadata").is_none_or(Value::is_object) {
            return Err(ApiError::bad_request(
                "Object 'metadata' is missing or not an object: send metadata as a JSON object",
            ));
        }
        let mut object = value.clone();
        let mut unknown = self.shape(&mut object, &expected.version);
        unknown.sort();
        let unknown: Vec<String> = unknown.iter().map(|f| format!("unknown field \"{f}\"")).collect();
        let mut warnings = Vec::new();
        match validation {
            FieldValidation::Strict if !unknown.is_empty() => {
                return Err(ApiError::bad_request(format!(
                    "{kind} in version \"{}\" cannot be handled as a {kind}: strict decoding error: {}",
                    expected.version,
                    unknown.join(", ")
                )));
            }
            FieldValidation::Warn => warnings = unknown,
            _ => {}
        }
        Ok(Decoded {
            object: Self::converted(object, storage),
            warnings,
        })
    }

    fn to_version(&self, stored: Value, storage: &GroupVersion, target: &GroupVersion) -> Result<Value, ApiError> {
        let mut value = if storage == target {
            stored
        } else {
            Self::converted(stored, target)
        };
        if self.defaults {
            self.shape(&mut value, &target.version);
        }
        Ok(value)
    }

    fn reads_stored_bytes(&self) -> bool {
        !self.defaults
    }

    fn protobuf(&self, _value: &Value) -> Result<Option<Vec<u8>>, ApiError> {
        Ok(None)
    }

    fn field_label(&self, gvk: &GroupVersionKind, label: &str, value: &str) -> Result<(String, String), String> {
        let selectable = self.selectable.get(gvk.version.as_ref());
        if matches!(label, "metadata.name" | "metadata.namespace")
            || selectable.is_some_and(|labels| labels.iter().any(|l| l == label))
        {
            return Ok((label.to_string(), value.to_string()));
        }
        Err("not metadata.name, metadata.namespace or one of the version's selectableFields".to_string())
    }

    fn deprecation_warning(&self, gvk: &GroupVersionKind, _current: Release) -> Option<String> {
        (gvk.group == self.group.as_str())
            .then(|| self.deprecated.get(gvk.version.as_ref()).cloned())
            .flatten()
    }
}
