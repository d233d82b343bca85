//! The codec (Go's `runtime.Codec` for JSON and YAML): bytes of any registered external version
//! become an internal object, and an object becomes the bytes of any served version.
//!
//! Decoding goes: sniff JSON or YAML -> parse each document -> read `apiVersion` and `kind` ->
//! deserialize into the external type registered for them (with [`Scheme::add_known_type_serde`]) ->
//! in strict mode, reject unknown fields -> apply the scheme's defaults -> convert to the internal
//! version through [`Scheme::convert_to_version`]. One JSON object, the body of an API request,
//! takes a single pass: a scan that reads only its TypeMeta, then a decode from the bytes straight
//! into the type, unknown fields found on the way; anything that fails there is decoded again on
//! the general path, whose errors carry lines, columns and field paths. Encoding converts to the target version through
//! the internal hub, sets `apiVersion` and `kind`, and serializes.
//!
//! ```
//! # use kube_apimachinery::{codec::{Codec, Format}, GroupVersion, Scheme};
//! # fn demo(scheme: &Scheme, manifest: &[u8]) -> Result<(), Box<dyn std::error::Error>> {
//! let codec = Codec::new(scheme).with_strict(true);
//! let internal = codec.decode(manifest)?;
//! let yaml = codec.encode(internal.as_ref(), &GroupVersion::new("apps", "v1"), Format::Yaml)?;
//! # Ok(()) }
//! ```

mod document;
mod error;
mod peek;
mod protobuf;
mod review;
mod strict;
#[cfg(test)]
mod test_types;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_stream;

pub use crate::wire::Format;
pub use error::{DecodeError, EncodeError};
pub use review::REVIEW_API_VERSION;

use crate::{API_VERSION_INTERNAL, GroupVersion, GroupVersionKind, Object, Scheme};
use document::Document;
use serde_json::Value;

/// Decodes and encodes the kinds of a scheme.
#[derive(Clone, Copy, Debug)]
pub struct Codec<'a> {
    /// The scheme whose kinds, defaults and conversions are used.
    pub scheme: &'a Scheme,
    /// Whether decoding rejects fields the type does not know, and repeated keys in YAML.
    pub strict: bool,
}

impl<'a> Codec<'a> {
    /// A lenient codec over `scheme`: unknown fields are dropped, as Kubernetes does by default.
    pub fn new(scheme: &'a Scheme) -> Self {
        Self { scheme, strict: false }
    }

    /// The same codec with strict decoding turned on or off.
    pub fn with_strict(self, strict: bool) -> Self {
        Self { strict, ..self }
    }

    /// Decodes one object from JSON, YAML or protobuf, defaults it, and converts it to its group's
    /// hub: the internal version, or the preferred version of a group without one
    /// ([`Scheme::hub_kind`]). The input must hold exactly one document that is not a `List`.
    pub fn decode(&self, bytes: &[u8]) -> Result<Box<dyn Object>, DecodeError> {
        let external = self.decode_one(bytes)?;
        self.convert(external.as_ref(), &self.hub_version(external.as_ref()))
    }

    /// Decodes one object as [`Codec::decode`] does, but converts it to `target` instead (through
    /// the internal version unless `target` is the object's own version).
    pub fn decode_to_version(&self, bytes: &[u8], target: &GroupVersion) -> Result<Box<dyn Object>, DecodeError> {
        let external = self.decode_one(bytes)?;
        // A body already in the target version is the answer; converting would copy it.
        if external
            .group_version_kind()
            .is_some_and(|gvk| gvk.group_version() == *target)
        {
            return Ok(external);
        }
        self.convert(external.as_ref(), target)
    }

    /// The one object of `bytes` in its own version, defaulted: in a single pass when it is a JSON
    /// object of a registered kind that decodes cleanly, on the general path otherwise.
    fn decode_one(&self, bytes: &[u8]) -> Result<Box<dyn Object>, DecodeError> {
        if crate::protobuf::is_protobuf(bytes) {
            return self.decode_protobuf(bytes);
        }
        if let Some(obj) = self.decode_single_pass(bytes)? {
            return Ok(obj);
        }
        let value = self.single_document(bytes)?;
        self.decode_external(&value, true)
    }

    /// The single pass over one JSON object; `None` hands the input to the general path.
    fn decode_single_pass(&self, bytes: &[u8]) -> Result<Option<Box<dyn Object>>, DecodeError> {
        if Format::sniff(bytes) != Format::Json {
            return Ok(None);
        }
        let Some(peek) = peek::read(bytes, self.strict) else {
            return Ok(None);
        };
        let (Some(api_version), Some(kind)) = (peek.api_version.as_deref(), peek.kind.as_deref()) else {
            return Ok(None);
        };
        let Ok(gv) = GroupVersion::parse_api_version(api_version) else {
            return Ok(None);
        };
        if kind == "List" {
            return Ok(None);
        }
        let Some(fns) = self.scheme.serde_fns_for_gvk(&gv.with_kind(kind)) else {
            return Ok(None);
        };
        let Some(decoded) = (fns.decode_json)(bytes, self.strict) else {
            return Ok(None);
        };
        let mut obj = decoded.object;
        if self.strict {
            let input = peek.keys.iter().map(|(k, empty)| (k.as_ref(), *empty));
            let unknown = strict::unknown(fns, obj.as_ref(), input, decoded.skipped);
            if !unknown.is_empty() {
                return Err(DecodeError::UnknownFields(unknown));
            }
        }
        self.scheme.default(obj.as_mut());
        Ok(Some(obj))
    }

    /// Decodes every object of a YAML stream or of JSON values one after another, expanding each
    /// `kind: List` into its items, and returns them internal, in input order. An error names the
    /// document (its number and first line) and, inside a `List`, the item.
    pub fn decode_stream(&self, bytes: &[u8]) -> Result<Vec<Box<dyn Object>>, DecodeError> {
        if crate::protobuf::is_protobuf(bytes) {
            return Ok(vec![self.decode(bytes)?]);
        }
        let mut objects = Vec::new();
        for doc in document::read(bytes, self.strict)? {
            let in_document = |source| DecodeError::Document {
                number: doc.number,
                line: doc.line,
                source: Box::new(source),
            };
            match list_items(&doc.value).map_err(in_document)? {
                Some(items) => {
                    for (index, item) in items.iter().enumerate() {
                        let obj = self.decode_value(item).map_err(|source| {
                            in_document(DecodeError::Item {
                                index,
                                source: Box::new(source),
                            })
                        })?;
                        objects.push(obj);
                    }
                }
                None => objects.push(self.decode_value(&doc.value).map_err(in_document)?),
            }
        }
        Ok(objects)
    }

    /// Decodes an already parsed object: defaults it and converts it to its group's hub.
    pub fn decode_value(&self, value: &Value) -> Result<Box<dyn Object>, DecodeError> {
        let external = self.decode_external(value, true)?;
        self.convert(external.as_ref(), &self.hub_version(external.as_ref()))
    }

    /// Converts `obj` to `target` (through the internal version), sets its `apiVersion` and `kind`,
    /// and serializes it as `format`, ending in a newline.
    pub fn encode(&self, obj: &dyn Object, target: &GroupVersion, format: Format) -> Result<Vec<u8>, EncodeError> {
        let (converted, gvk, fns) = self.converted_for_encoding(obj, target)?;
        (fns.encode)(converted.as_ref(), format).map_err(|message| EncodeError::Serialize { gvk, format, message })
    }

    /// Converts `obj` to `target` as [`Codec::encode`] does, and returns it as a JSON value (what a
    /// server stores and patches, without a round trip through bytes).
    pub fn encode_value(&self, obj: &dyn Object, target: &GroupVersion) -> Result<Value, EncodeError> {
        let (converted, gvk, fns) = self.converted_for_encoding(obj, target)?;
        (fns.to_value)(converted.as_ref()).map_err(|message| EncodeError::Serialize {
            gvk,
            format: Format::Json,
            message,
        })
    }

    /// `obj` converted to `target`, its kind, and the wire format that serializes it.
    fn converted_for_encoding(
        &self,
        obj: &dyn Object,
        target: &GroupVersion,
    ) -> Result<(Box<dyn Object>, crate::GroupVersionKind, &crate::scheme::SerdeFns), EncodeError> {
        let converted = self.scheme.convert_to_version(obj, target)?;
        let gvk = converted
            .group_version_kind()
            .unwrap_or_else(|| target.with_kind(String::new()));
        let fns = self
            .scheme
            .serde_fns_for_object(converted.as_ref())
            .ok_or_else(|| EncodeError::NoWireFormat { gvk: gvk.clone() })?;
        Ok((converted, gvk, fns))
    }

    /// Encodes several objects to `target`: one object is encoded alone; several become YAML
    /// documents separated by `---`, or a JSON `v1` `List`. An error names the object's position.
    pub fn encode_stream(
        &self,
        objects: &[Box<dyn Object>],
        target: &GroupVersion,
        format: Format,
    ) -> Result<Vec<u8>, EncodeError> {
        let mut encoded = Vec::with_capacity(objects.len());
        for (index, obj) in objects.iter().enumerate() {
            let bytes = self
                .encode(obj.as_ref(), target, format)
                .map_err(|source| EncodeError::Object {
                    number: index + 1,
                    source: Box::new(source),
                })?;
            encoded.push(bytes);
        }
        Ok(match (encoded.len(), format) {
            (1, _) => encoded.remove(0),
            (_, Format::Yaml) => encoded.join(&b"---\n"[..]),
            (_, Format::Json) => json_list(&encoded),
        })
    }

    /// The one non-`List` document of `bytes`.
    fn single_document(&self, bytes: &[u8]) -> Result<Value, DecodeError> {
        let mut docs = document::read(bytes, self.strict)?;
        let Document { value, .. } = match docs.len() {
            0 => return Err(DecodeError::Empty),
            1 => docs.remove(0),
            count => return Err(DecodeError::MultipleDocuments { count }),
        };
        if list_items(&value)?.is_some() {
            return Err(DecodeError::UnexpectedList);
        }
        Ok(value)
    }

    /// Reads `apiVersion` and `kind`, deserializes the external type registered for them, checks
    /// for unknown fields in strict mode, and (with `default`) applies the scheme's defaults.
    fn decode_external(&self, value: &Value, default: bool) -> Result<Box<dyn Object>, DecodeError> {
        let gvk = type_meta(value)?;
        let Some(fns) = self.scheme.serde_fns_for_gvk(&gvk) else {
            return Err(self.unknown_kind(gvk, Scheme::has_wire_format));
        };
        let decoded = (fns.decode)(value, self.strict).map_err(|e| DecodeError::Field {
            path: field_path(e.path()),
            message: e.inner().to_string(),
        })?;
        let mut obj = decoded.object;
        if self.strict {
            let input = value
                .as_object()
                .into_iter()
                .flatten()
                .map(|(k, v)| (k.as_str(), strict::is_empty(v)));
            let unknown = strict::unknown(fns, obj.as_ref(), input, decoded.skipped);
            if !unknown.is_empty() {
                return Err(DecodeError::UnknownFields(unknown));
            }
        }
        if default {
            self.scheme.default(obj.as_mut());
        }
        Ok(obj)
    }

    /// The error for a kind `gvk` that `has` no decoder for, naming the group's versions that do.
    fn unknown_kind(&self, gvk: GroupVersionKind, has: fn(&Scheme, &GroupVersionKind) -> bool) -> DecodeError {
        let versions = self
            .scheme
            .versions_for_group_kind(&gvk.group_kind())
            .into_iter()
            .filter(|gv| has(self.scheme, &gv.with_kind(gvk.kind.as_ref())))
            .collect();
        DecodeError::UnknownKind { gvk, versions }
    }

    /// Converts a decoded object, naming both versions when that fails.
    /// The version `obj`'s group converts through ([`Scheme::hub_kind`]); the internal version for
    /// an object without a kind, whose conversion then reports it.
    fn hub_version(&self, obj: &dyn Object) -> GroupVersion {
        match obj.group_version_kind() {
            Some(gvk) => self.scheme.hub_kind(&gvk).group_version(),
            None => GroupVersion {
                group: String::new().into(),
                version: API_VERSION_INTERNAL.into(),
            },
        }
    }

    fn convert(&self, obj: &dyn Object, target: &GroupVersion) -> Result<Box<dyn Object>, DecodeError> {
        self.scheme
            .convert_to_version(obj, target)
            .map_err(|source| DecodeError::Convert {
                from: Box::new(obj.group_version_kind().unwrap_or_default()),
                target: target.clone(),
                source: Box::new(source),
            })
    }
}

/// The `apiVersion` and `kind` of a parsed document.
fn type_meta(value: &Value) -> Result<GroupVersionKind, DecodeError> {
    let Value::Object(fields) = value else {
        return Err(DecodeError::NotAnObject { found: describe(value) });
    };
    let api_version = string_field(fields, "apiVersion")?.ok_or(DecodeError::MissingApiVersion)?;
    let kind = string_field(fields, "kind")?.ok_or(DecodeError::MissingKind)?;
    let gv = GroupVersion::parse_api_version(api_version)
        .map_err(|_| DecodeError::InvalidApiVersion(api_version.to_owned()))?;
    Ok(gv.with_kind(kind))
}

/// A string field of the TypeMeta; absent, `null` and empty all count as missing.
fn string_field<'v>(
    fields: &'v serde_json::Map<String, Value>,
    field: &'static str,
) -> Result<Option<&'v str>, DecodeError> {
    match fields.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) if s.is_empty() => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(other) => Err(DecodeError::TypeMetaNotString {
            field,
            found: describe(other),
        }),
    }
}

/// The items of a `kind: List` document, or `None` when it is not a List.
fn list_items(value: &Value) -> Result<Option<&[Value]>, DecodeError> {
    if value.get("kind").and_then(Value::as_str) != Some("List") {
        return Ok(None);
    }
    match value.get("items") {
        None | Some(Value::Null) => Ok(Some(&[])),
        Some(Value::Array(items)) => Ok(Some(items)),
        Some(other) => Err(DecodeError::ListItemsNotArray { found: describe(other) }),
    }
}

/// serde_path_to_error's path without its root marker: `.` alone means the object itself.
fn field_path(path: &serde_path_to_error::Path) -> String {
    let path = path.to_string();
    if path == "." { String::new() } else { path }
}

/// A JSON value's kind, worded for error messages.
fn describe(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// A `v1` `List` of already encoded JSON objects. Each item is indented as a whole: pretty JSON
/// never has a line break inside a string, so re-indenting line by line keeps it valid.
fn json_list(items: &[Vec<u8>]) -> Vec<u8> {
    let mut out =
        b"{\n    \"apiVersion\": \"v1\",\n    \"kind\": \"List\",\n    \"metadata\": {},\n    \"items\": [".to_vec();
    for (index, item) in items.iter().enumerate() {
        out.extend_from_slice(if index == 0 { b"\n" } else { b",\n" });
        let text = String::from_utf8_lossy(item);
        let lines: Vec<String> = text.trim_end().lines().map(|line| format!("        {line}")).collect();
        out.extend_from_slice(lines.join("\n").as_bytes());
    }
    out.extend_from_slice(if items.is_empty() { b"]\n}\n" } else { b"\n    ]\n}\n" });
    out
}
