//! The version edges of a request, where the server's Scheme does its work: a body of any served
//! version of the path's group is decoded, defaulted and converted through the internal version to
//! the storage version; a stored object is converted to the version the request asked for.

use std::sync::Arc;

use k8s_openapi::apimachinery::pkg::apis::meta::v1::ListMeta;
use kube_apimachinery::codec::{Codec, DecodeError, Format};
use kube_apimachinery::{GroupVersion, GroupVersionKind, Scheme};
use serde_json::Value;

pub use crate::query::FieldValidation;
use crate::status::{ApiError, Cause};
use crate::stored::Stored;

/// The scheme's codec over the request edges.
#[derive(Clone)]
pub struct Versions {
    scheme: Arc<Scheme>,
}

/// A decoded body: the object in the storage version and warnings to send back.
pub struct Decoded {
    /// The object, defaulted, in the storage version.
    pub object: Value,
    /// `Warning` headers (unknown fields under `fieldValidation=Warn`).
    pub warnings: Vec<String>,
}

impl Versions {
    /// Edges over `scheme`.
    pub fn new(scheme: Arc<Scheme>) -> Self {
        Versions { scheme }
    }

    /// The scheme.
    pub fn scheme(&self) -> &Scheme {
        &self.scheme
    }

    /// The scheme, shared: what registry stores hold to validate objects.
    pub fn shared(&self) -> &Arc<Scheme> {
        &self.scheme
    }

    /// Parses a JSON or YAML body ([`parse_body`]).
    pub fn parse_body(&self, body: &[u8], expected: &GroupVersionKind) -> Result<Value, ApiError> {
        parse_body(body, expected)
    }

    /// Decodes a request body (a kind of `expected`'s group and kind, in any served version),
    /// defaults it and converts it to `storage`. A JSON body that decodes cleanly takes the codec's
    /// single pass; anything else (YAML, a body without TypeMeta, unknown fields under `Warn`, any
    /// error) is parsed into a value and decoded by [`Versions::to_storage`], whose errors say what
    /// is wrong.
    pub fn decode_body(
        &self,
        body: &[u8],
        expected: &GroupVersionKind,
        storage: &GroupVersion,
        validation: FieldValidation,
    ) -> Result<Decoded, ApiError> {
        if kube_apimachinery::protobuf::is_protobuf(body) {
            return self.decode_protobuf(body, expected, storage);
        }
        let mut decoded = self.decode_text(body, expected, storage, validation)?;
        // A repeated key is one the map kept only the last of: an error under Strict, a warning
        // under Warn, as Kubernetes' strict decoder reports it.
        if validation != FieldValidation::Ignore && Format::sniff(body) == Format::Json {
            let duplicates = crate::duplicates::duplicate_fields(body);
            if validation == FieldValidation::Strict && !duplicates.is_empty() {
                let list: Vec<String> = duplicates.iter().map(|f| format!("duplicate field \"{f}\"")).collect();
                return Err(ApiError::bad_request(format!(
                    "strict decoding error: {}",
                    list.join(", ")
                )));
            }
            decoded
                .warnings
                .extend(duplicates.iter().map(|f| format!("duplicate field \"{f}\"")));
        }
        Ok(decoded)
    }

    /// A JSON or YAML body decoded as [`Versions::decode_body`] says.
    fn decode_text(
        &self,
        body: &[u8],
        expected: &GroupVersionKind,
        storage: &GroupVersion,
        validation: FieldValidation,
    ) -> Result<Decoded, ApiError> {
        if Format::sniff(body) == Format::Json {
            let codec = Codec::new(&self.scheme).with_strict(validation != FieldValidation::Ignore);
            if let Ok(obj) = codec.decode_to_version(body, storage)
                && obj
                    .group_version_kind()
                    .is_some_and(|gvk| gvk.group == expected.group && gvk.kind == expected.kind)
            {
                let object = codec
                    .encode_value(obj.as_ref(), storage)
                    .map_err(|e| ApiError::internal(e.to_string()))?;
                return Ok(Decoded {
                    object,
                    warnings: Vec::new(),
                });
            }
        }
        let value = self.parse_body(body, expected)?;
        self.to_storage(&value, expected, storage, validation)
    }

    /// Decodes a protobuf body as [`Versions::decode_body`] decodes JSON. `fieldValidation` does
    /// not apply: protobuf has no unknown field names, and Kubernetes ignores it there too.
    fn decode_protobuf(
        &self,
        body: &[u8],
        expected: &GroupVersionKind,
        storage: &GroupVersion,
    ) -> Result<Decoded, ApiError> {
        let envelope = kube_apimachinery::protobuf::Unknown::decode(body)
            .map_err(|e| ApiError::bad_request(format!("couldn't get version/kind; protobuf parse error: {e}")))?;
        check_kind(&envelope.api_version, &envelope.kind, expected)?;
        let codec = Codec::new(&self.scheme);
        let obj = codec.decode_to_version(body, storage).map_err(decode_error)?;
        let object = codec
            .encode_value(obj.as_ref(), storage)
            .map_err(|e| ApiError::internal(e.to_string()))?;
        Ok(Decoded {
            object,
            warnings: Vec::new(),
        })
    }

    /// Decodes `value` (a kind of `expected`'s group and kind, in any served version), defaults it
    /// and converts it to `storage`.
    pub fn to_storage(
        &self,
        value: &Value,
        expected: &GroupVersionKind,
        storage: &GroupVersion,
        validation: FieldValidation,
    ) -> Result<Decoded, ApiError> {
        let api_version = value.get("apiVersion").and_then(Value::as_str).unwrap_or("");
        let kind = value.get("kind").and_then(Value::as_str).unwrap_or("");
        check_kind(api_version, kind, expected)?;
        let strict = Codec::new(&self.scheme).with_strict(true);
        let mut warnings = Vec::new();
        let internal = match strict.decode_value(value) {
            Ok(obj) => obj,
            Err(DecodeError::UnknownFields(fields)) if validation != FieldValidation::Strict => {
                if validation == FieldValidation::Warn {
                    warnings.extend(fields.iter().map(|f| format!("unknown field \"{f}\"")));
                }
                Codec::new(&self.scheme)
                    .decode_value(value)
                    .map_err(|e| field_error(e, expected, value))?
            }
            Err(e) => return Err(field_error(e, expected, value)),
        };
        let object = Codec::new(&self.scheme)
            .encode_value(internal.as_ref(), storage)
            .map_err(|e| ApiError::internal(e.to_string()))?;
        Ok(Decoded { object, warnings })
    }

    /// A stored object (in `storage`) in the version `target`; the same value when they agree.
    pub fn to_version(&self, stored: Value, storage: &GroupVersion, target: &GroupVersion) -> Result<Value, ApiError> {
        if storage == target {
            return Ok(stored);
        }
        let codec = Codec::new(&self.scheme);
        let internal = codec
            .decode_value(&stored)
            .map_err(|e| ApiError::internal(format!("stored object: {e}")))?;
        codec
            .encode_value(internal.as_ref(), target)
            .map_err(|e| ApiError::internal(e.to_string()))
    }
}

/// The version edges of one served kind, as the handlers use them: the Scheme's ([`Versions`])
/// for compiled kinds, a CRD's (`custom::CustomEdges`) for custom resources defined at run time.
pub trait Edges: Send + Sync {
    /// Decodes a request body into the storage version ([`Versions::decode_body`]).
    fn decode_body(
        &self,
        body: &[u8],
        expected: &GroupVersionKind,
        storage: &GroupVersion,
        validation: FieldValidation,
    ) -> Result<Decoded, ApiError>;

    /// Decodes a parsed body into the storage version ([`Versions::to_storage`]).
    fn to_storage(
        &self,
        value: &Value,
        expected: &GroupVersionKind,
        storage: &GroupVersion,
        validation: FieldValidation,
    ) -> Result<Decoded, ApiError>;

    /// A stored object in the version `target` ([`Versions::to_version`]).
    fn to_version(&self, stored: Value, storage: &GroupVersion, target: &GroupVersion) -> Result<Value, ApiError>;

    /// Stored objects (a list's) in the version `target`, in order: each as
    /// [`Edges::to_version`] converts it, unless the edges convert many at once.
    fn to_version_all(
        &self,
        stored: Vec<Value>,
        storage: &GroupVersion,
        target: &GroupVersion,
    ) -> Result<Vec<Value>, ApiError> {
        stored
            .into_iter()
            .map(|v| self.to_version(v, storage, target))
            .collect()
    }

    /// The protobuf form of `value`, when its kind has one.
    fn protobuf(&self, value: &Value) -> Result<Option<Vec<u8>>, ApiError>;

    /// An object's protobuf body written from its stored bytes (in the storage version, which is
    /// `gvk`'s); `None` when the edges cannot, and the caller parses the object instead.
    fn protobuf_stored(&self, _gvk: &GroupVersionKind, _stored: &Stored) -> Result<Option<Vec<u8>>, ApiError> {
        Ok(None)
    }

    /// A list's protobuf body written from its items' stored bytes (in the storage version, which
    /// is the list's), with `metadata` (the list's JSON metadata) as its ListMeta; `None` when the
    /// edges cannot, and the caller parses the items instead.
    fn protobuf_list(
        &self,
        _list: &GroupVersionKind,
        _item: &GroupVersionKind,
        _metadata: &Value,
        _items: &[Stored],
    ) -> Result<Option<Vec<u8>>, ApiError> {
        Ok(None)
    }

    /// A field selector's label and value as the kind selects on them, or why it cannot.
    fn field_label(&self, gvk: &GroupVersionKind, label: &str, value: &str) -> Result<(String, String), String>;

    /// The warning a request of a deprecated version gets.
    fn deprecation_warning(&self, gvk: &GroupVersionKind, current: kube_apimachinery::Release) -> Option<String>;

    /// Whether an object stored at `revision`, read in its stored version, may be answered as
    /// its stored bytes (false where reads change it, as a custom resource's defaults do for
    /// objects written before its schema).
    fn reads_stored_bytes(&self, _revision: kube_apiserver_storage::Revision) -> bool {
        true
    }

    /// Whether strategic merge patches apply (the kind has Go's patch strategies); a custom
    /// resource has none, and Kubernetes refuses the media type for it.
    fn strategic_merge(&self) -> bool {
        false
    }
}

impl Edges for Versions {
    fn decode_body(
        &self,
        body: &[u8],
        expected: &GroupVersionKind,
        storage: &GroupVersion,
        validation: FieldValidation,
    ) -> Result<Decoded, ApiError> {
        Versions::decode_body(self, body, expected, storage, validation)
    }

    fn to_storage(
        &self,
        value: &Value,
        expected: &GroupVersionKind,
        storage: &GroupVersion,
        validation: FieldValidation,
    ) -> Result<Decoded, ApiError> {
        Versions::to_storage(self, value, expected, storage, validation)
    }

    fn to_version(&self, stored: Value, storage: &GroupVersion, target: &GroupVersion) -> Result<Value, ApiError> {
        Versions::to_version(self, stored, storage, target)
    }

    fn strategic_merge(&self) -> bool {
        true
    }

    fn protobuf(&self, value: &Value) -> Result<Option<Vec<u8>>, ApiError> {
        Codec::new(&self.scheme)
            .protobuf_from_value(value)
            .map_err(|e| ApiError::internal(e.to_string()))
    }

    fn protobuf_stored(&self, gvk: &GroupVersionKind, stored: &Stored) -> Result<Option<Vec<u8>>, ApiError> {
        Codec::new(&self.scheme)
            .protobuf_from_json(gvk, &stored.bytes, &stored.revision.to_string())
            .map_err(|e| ApiError::internal(e.to_string()))
    }

    fn protobuf_list(
        &self,
        list: &GroupVersionKind,
        item: &GroupVersionKind,
        metadata: &Value,
        items: &[Stored],
    ) -> Result<Option<Vec<u8>>, ApiError> {
        let meta: ListMeta = serde_json::from_value(metadata.clone()).map_err(|e| ApiError::internal(e.to_string()))?;
        let versions: Vec<String> = items.iter().map(|i| i.revision.to_string()).collect();
        let items = items.iter().zip(&versions).map(|(i, v)| (&i.bytes[..], v.as_str()));
        Codec::new(&self.scheme)
            .protobuf_list_from_json(list, item, &meta, items)
            .map_err(|e| ApiError::internal(e.to_string()))
    }

    fn field_label(&self, gvk: &GroupVersionKind, label: &str, value: &str) -> Result<(String, String), String> {
        self.scheme
            .convert_field_label(gvk, label, value)
            .map_err(|e| e.to_string())
    }

    fn deprecation_warning(&self, gvk: &GroupVersionKind, current: kube_apimachinery::Release) -> Option<String> {
        self.scheme.deprecation_warning(gvk, current)
    }
}

/// Parses a JSON or YAML body into a value, filling apiVersion and kind from the path when the
/// body has neither (as Kubernetes defaults them from the request).
pub fn parse_body(body: &[u8], expected: &GroupVersionKind) -> Result<Value, ApiError> {
    let mut value: Value = match Format::sniff(body) {
        Format::Json => serde_json::from_slice(body)
            .map_err(|e| ApiError::bad_request(format!("couldn't get version/kind; json parse error: {e}")))?,
        Format::Yaml => {
            let text =
                std::str::from_utf8(body).map_err(|e| ApiError::bad_request(format!("the body is not UTF-8: {e}")))?;
            serde_saphyr::from_str(text)
                .map_err(|e| ApiError::bad_request(format!("error converting YAML to JSON: {e}")))?
        }
    };
    let Some(obj) = value.as_object_mut() else {
        return Err(ApiError::bad_request("the body must be a JSON object"));
    };
    if !obj.contains_key("apiVersion") && !obj.contains_key("kind") {
        obj.insert(
            "apiVersion".into(),
            Value::String(expected.group_version().api_version()),
        );
        obj.insert("kind".into(), Value::String(expected.kind.to_string()));
    }
    Ok(value)
}

/// The body's apiVersion and kind must name the path's group and kind (in any version).
fn check_kind(api_version: &str, kind: &str, expected: &GroupVersionKind) -> Result<(), ApiError> {
    let gv = GroupVersion::parse_api_version(api_version)
        .map_err(|_| ApiError::bad_request(format!("invalid apiVersion \"{api_version}\"")))?;
    if gv.group != expected.group || kind != expected.kind {
        return Err(ApiError::bad_request(format!(
            "the API version in the data ({api_version}) and kind ({kind}) do not match the resource's {}, Kind={}: send a {} of group \"{}\"",
            expected.group_version(),
            expected.kind,
            expected.kind,
            expected.group
        )));
    }
    Ok(())
}

/// A decode error as the API server reports it: unknown fields and type errors are BadRequest.
fn decode_error(e: DecodeError) -> ApiError {
    ApiError::bad_request(e.to_string())
}

/// A decode error of a body, where Kubernetes would have decoded a zero value and let validation
/// speak: a missing required field is 422 `Required value` at its path, a string outside a Rust
/// enum's values 422 `Unsupported value` with the values (Go's string types hold any string, so
/// there it is validation that refuses it). Anything else is [`decode_error`]'s BadRequest.
fn field_error(e: DecodeError, expected: &GroupVersionKind, value: &Value) -> ApiError {
    let DecodeError::Field { path, message } = &e else {
        return decode_error(e);
    };
    let at = |name: &str| {
        if path.is_empty() {
            name.to_string()
        } else {
            format!("{path}.{name}")
        }
    };
    let cause = if let Some(missing) = message
        .strip_prefix("missing field `")
        .and_then(|m| m.split('`').next())
    {
        Cause {
            reason: "FieldValueRequired",
            message: "Required value".into(),
            field: at(missing),
        }
    } else if let Some(rest) = message.strip_prefix("unknown variant `") {
        let (found, expected_values) = rest.split_once('`').unwrap_or((rest, ""));
        let mut values: Vec<&str> = expected_values.split('`').skip(1).step_by(2).collect();
        values.sort_unstable();
        let field = kube_apimachinery::validation::Path::new("");
        let error = kube_apimachinery::validation::FieldError::not_supported(&field, found, &values);
        Cause {
            reason: "FieldValueNotSupported",
            message: error.body(),
            field: value_path(value, path, found),
        }
    } else {
        return decode_error(e);
    };
    let name = value
        .get("metadata")
        .and_then(|m| m.get("name"))
        .and_then(Value::as_str)
        .unwrap_or_default();
    ApiError::invalid(&expected.group, &expected.kind, name, vec![cause])
}

/// The path of the one string `found` at or below `path` in `value`: serde names the field
/// where a flattened struct begins (a probe's handler, an ephemeral container's common part),
/// where Kubernetes names the field itself (`livenessProbe.httpGet.scheme`). `path` when the
/// string is not found once.
fn value_path(value: &Value, path: &str, found: &str) -> String {
    fn walk(v: &Value, at: String, found: &str, out: &mut Vec<String>) {
        match v {
            Value::String(s) if s == found => out.push(at),
            Value::Object(o) => o.iter().for_each(|(k, v)| walk(v, format!("{at}.{k}"), found, out)),
            Value::Array(a) => a
                .iter()
                .enumerate()
                .for_each(|(i, v)| walk(v, format!("{at}[{i}]"), found, out)),
            _ => {}
        }
    }
    let Some(start) = at_path(value, path) else {
        return path.to_string();
    };
    let mut out = Vec::new();
    walk(start, path.to_string(), found, &mut out);
    match out.as_slice() {
        [one] => one.trim_start_matches('.').to_string(),
        _ => path.to_string(),
    }
}

/// The value at a serde path (`spec.containers[0].ports`).
fn at_path<'v>(value: &'v Value, path: &str) -> Option<&'v Value> {
    path.split('.').filter(|p| !p.is_empty()).try_fold(value, |v, part| {
        let (key, indices) = part.split_once('[').map_or((part, ""), |(k, rest)| (k, rest));
        let v = if key.is_empty() { v } else { v.get(key)? };
        indices
            .split('[')
            .filter(|i| !i.is_empty())
            .try_fold(v, |v, i| v.get(i.trim_end_matches(']').parse::<usize>().ok()?))
    })
}

#[cfg(test)]
mod tests {
    use super::value_path;
    use serde_json::json;

    #[test]
    fn a_value_inside_a_flattened_struct_is_named_by_its_own_field() {
        let pod = json!({"spec": {"containers": [{"name": "a", "livenessProbe": {"httpGet": {"scheme": "FTP"}}}]}});
        let at = "spec.containers[0].livenessProbe";
        assert_eq!(
            value_path(&pod, at, "FTP"),
            "spec.containers[0].livenessProbe.httpGet.scheme"
        );
        // Not there, or there twice: serde's path stays.
        assert_eq!(value_path(&pod, at, "SMTP"), at);
        let twice = json!({"p": {"a": "x", "b": ["x"]}});
        assert_eq!(value_path(&twice, "p", "x"), "p");
        assert_eq!(value_path(&twice, "p.b[0]", "x"), "p.b[0]");
    }
}
