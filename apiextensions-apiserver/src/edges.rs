//! The version edges of a custom resource (apiextensions-apiserver's unstructured codec): bodies
//! are JSON or YAML, never protobuf; a body must be in the version its path names and is pruned
//! to its version's schema (`fieldValidation` deciding whether unknown fields are an error, a
//! warning or silence) and defaulted; between versions `None` conversion rewrites `apiVersion`
//! and `Webhook` conversion calls the CRD's webhook (`webhook.rs`). Reads are pruned and
//! defaulted too, so a default added to a schema shows on objects stored before it.

use std::collections::BTreeMap;
use std::sync::Arc;

use kube_apimachinery::{GroupVersion, GroupVersionKind, Release};
use serde_json::{Value, json};

use super::definition::Definition;
use super::schema::{self, Structural};
use super::webhook::Webhook;
use kube_apiserver_storage::Revision;
use kube_generic_apiserver::convert::{Decoded, Edges, FieldValidation, parse_body};
use kube_generic_apiserver::status::ApiError;

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
    /// The storage revision when these edges were installed: what is written later was pruned
    /// and defaulted by them already.
    shaped_since: Revision,
    /// How objects change versions.
    conversion: Conversion,
}

/// A CRD's `spec.conversion`.
enum Conversion {
    /// `None`: the apiVersion is rewritten.
    Rewrite,
    /// `Webhook`: the CRD's webhook converts.
    Webhook(Webhook),
    /// A webhook this server cannot call, and why.
    Unreachable(String),
}

impl CustomEdges {
    /// The edges `definition` describes, under the accepted `kind`, installed when the storage
    /// was at revision `installed_at`.
    pub fn new(definition: &Definition, kind: &str, installed_at: Revision) -> Self {
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
        let defaults = schemas.values().any(|s| schema::has_defaults(s));
        let conversion = match definition.webhook() {
            None => Conversion::Rewrite,
            Some(webhook) => match Webhook::new(webhook) {
                Ok(w) => Conversion::Webhook(w),
                Err(why) => Conversion::Unreachable(why),
            },
        };
        CustomEdges {
            group: definition.group.clone(),
            selectable,
            deprecated,
            schemas,
            defaults,
            shaped_since: installed_at,
            conversion,
        }
    }

    /// The structural schema of served version `version`.
    pub fn schema(&self, version: &str) -> Option<Arc<Structural>> {
        self.schemas.get(version).cloned()
    }

    /// `value` (an object of `version`) as a read returns it: pruned and defaulted, where the
    /// schemas have defaults (else it was shaped when written).
    fn read_shape(&self, mut value: Value, version: &str) -> Value {
        if self.defaults {
            self.shape(&mut value, version);
        }
        value
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

    /// `value` in `target`'s version: itself when it is already, else converted as the CRD says.
    fn converted(&self, mut value: Value, target: &GroupVersion) -> Result<Value, ApiError> {
        let desired = target.api_version();
        let current = value.get("apiVersion").and_then(Value::as_str).unwrap_or_default();
        if current == desired {
            return Ok(value);
        }
        let source = format!(
            "{current}, Kind={}",
            value.get("kind").and_then(Value::as_str).unwrap_or_default()
        );
        match &self.conversion {
            Conversion::Rewrite => {
                if let Some(obj) = value.as_object_mut() {
                    obj.insert("apiVersion".into(), json!(desired));
                }
                Ok(value)
            }
            Conversion::Webhook(webhook) => webhook
                .convert(vec![value], &desired, &source)?
                .pop()
                .ok_or_else(|| ApiError::unknown(format!("conversion webhook for {source} returned no object"))),
            Conversion::Unreachable(why) => Err(ApiError::unknown(format!(
                "conversion webhook for {source} failed: {why}"
            ))),
        }
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
        if kube_apimachinery::protobuf::is_protobuf(body) {
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
            object: self.converted(object, storage)?,
            warnings,
        })
    }

    fn to_version(&self, stored: Value, storage: &GroupVersion, target: &GroupVersion) -> Result<Value, ApiError> {
        let value = if storage == target {
            stored
        } else {
            self.converted(stored, target)?
        };
        Ok(self.read_shape(value, &target.version))
    }

    /// A webhook converts a list's objects in one review, as kube-apiserver batches them.
    fn to_version_all(
        &self,
        stored: Vec<Value>,
        storage: &GroupVersion,
        target: &GroupVersion,
    ) -> Result<Vec<Value>, ApiError> {
        let webhook = match &self.conversion {
            Conversion::Webhook(webhook) if storage != target && !stored.is_empty() => webhook,
            _ => {
                return stored
                    .into_iter()
                    .map(|v| self.to_version(v, storage, target))
                    .collect();
            }
        };
        let kind = stored[0].get("kind").and_then(Value::as_str).unwrap_or_default();
        let source = format!("{}, Kind={kind}", storage.api_version());
        let converted = webhook.convert(stored, &target.api_version(), &source)?;
        Ok(converted
            .into_iter()
            .map(|value| self.read_shape(value, &target.version))
            .collect())
    }

    fn reads_stored_bytes(&self, revision: Revision) -> bool {
        !self.defaults || revision > self.shaped_since
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
