//! The codec over protobuf bodies (`application/vnd.kubernetes.protobuf`): a body that starts
//! with `k8s\0` is read through its envelope's apiVersion and kind into the type the scheme
//! registered for them, then defaulted and converted like a JSON one; an object is written as the
//! envelope of its message in the target version. Strictness does not apply: protobuf has no
//! unknown field names to report, and Kubernetes ignores `fieldValidation` for it too.

use serde_json::Value;

use k8s_openapi::apimachinery::pkg::apis::meta::v1::ListMeta;

use super::{Codec, DecodeError, EncodeError};
use crate::protobuf::{Field, Unknown, encode_delimited_header};
use crate::{GroupVersion, GroupVersionKind, Object, Scheme};

impl Codec<'_> {
    /// The object of a protobuf body in its own version, defaulted.
    pub(super) fn decode_protobuf(&self, bytes: &[u8]) -> Result<Box<dyn Object>, DecodeError> {
        let envelope = Unknown::decode(bytes).map_err(|e| DecodeError::Protobuf(e.to_string()))?;
        if envelope.api_version.is_empty() {
            return Err(DecodeError::MissingApiVersion);
        }
        if envelope.kind.is_empty() {
            return Err(DecodeError::MissingKind);
        }
        let gv = GroupVersion::parse_api_version(&envelope.api_version)
            .map_err(|_| DecodeError::InvalidApiVersion(envelope.api_version.clone()))?;
        let gvk = gv.with_kind(envelope.kind.as_str());
        let Some(fns) = self.scheme.protobuf_fns_for_gvk(&gvk) else {
            return Err(self.unknown_kind(gvk, Scheme::has_protobuf));
        };
        let mut obj = (fns.decode)(&envelope.raw).map_err(|e| DecodeError::Protobuf(format!("{gvk}: {e}")))?;
        obj.set_group_version_kind(&gvk);
        self.scheme.default(obj.as_mut());
        Ok(obj)
    }

    /// Converts `obj` to `target` and writes it as a protobuf body.
    pub fn encode_protobuf(&self, obj: &dyn Object, target: &GroupVersion) -> Result<Vec<u8>, EncodeError> {
        let converted = self.scheme.convert_to_version(obj, target)?;
        let gvk = converted
            .group_version_kind()
            .unwrap_or_else(|| target.with_kind(String::new()));
        let fns = self
            .scheme
            .protobuf_fns_for_object(converted.as_ref())
            .ok_or_else(|| EncodeError::NoProtobuf { gvk: gvk.clone() })?;
        let raw = (fns.encode)(converted.as_ref()).map_err(|message| EncodeError::Protobuf {
            gvk: gvk.clone(),
            message,
        })?;
        Ok(Unknown {
            api_version: gvk.group_version().api_version(),
            kind: gvk.kind.to_string(),
            raw,
        }
        .encode())
    }

    /// An external object already in JSON form (what a server stores and answers with) as a
    /// protobuf body of the same version, or `None` when its kind has no protobuf form.
    pub fn protobuf_from_value(&self, value: &Value) -> Result<Option<Vec<u8>>, EncodeError> {
        let api_version = value.get("apiVersion").and_then(Value::as_str).unwrap_or("");
        let kind = value.get("kind").and_then(Value::as_str).unwrap_or("");
        let Ok(gv) = GroupVersion::parse_api_version(api_version) else {
            return Ok(None);
        };
        let gvk = gv.with_kind(kind);
        let (Some(serde), Some(protobuf)) = (
            self.scheme.serde_fns_for_gvk(&gvk),
            self.scheme.protobuf_fns_for_gvk(&gvk),
        ) else {
            return Ok(None);
        };
        let typed = (serde.decode)(value, false).map_err(|e| EncodeError::Protobuf {
            gvk: gvk.clone(),
            message: e.to_string(),
        })?;
        let raw = (protobuf.encode)(typed.object.as_ref()).map_err(|message| EncodeError::Protobuf {
            gvk: gvk.clone(),
            message,
        })?;
        Ok(Some(
            Unknown {
                api_version: api_version.to_owned(),
                kind: kind.to_owned(),
                raw,
            }
            .encode(),
        ))
    }

    /// An object's protobuf body written from its stored JSON (in `gvk`'s version, without its
    /// resourceVersion, which is given): decoded straight from the bytes into its type, where
    /// [`Codec::protobuf_from_value`] would go through a tree of values. `None` when the kind has
    /// no protobuf form or the bytes do not decode this way; the caller then takes the general
    /// path, which explains bad bytes.
    pub fn protobuf_from_json(
        &self,
        gvk: &GroupVersionKind,
        bytes: &[u8],
        resource_version: &str,
    ) -> Result<Option<Vec<u8>>, EncodeError> {
        let Some(raw) = self.message_from_json(gvk, bytes, resource_version)? else {
            return Ok(None);
        };
        Ok(Some(envelope(gvk, raw)))
    }

    /// A list's protobuf body written from its items' stored JSON, each in `item`'s kind and
    /// version with its resourceVersion beside it: every item is decoded as in
    /// [`Codec::protobuf_from_json`] and written as the list's field 2, after `meta` as field 1
    /// (the layout of every Kubernetes list message). `None` as there, or when the list kind has
    /// no protobuf form.
    pub fn protobuf_list_from_json<'a>(
        &self,
        list: &GroupVersionKind,
        item: &GroupVersionKind,
        meta: &ListMeta,
        items: impl IntoIterator<Item = (&'a [u8], &'a str)>,
    ) -> Result<Option<Vec<u8>>, EncodeError> {
        if !self.scheme.has_protobuf(list) {
            return Ok(None);
        }
        let mut raw = Vec::new();
        meta.encode_field(1, &mut raw);
        for (bytes, resource_version) in items {
            let Some(message) = self.message_from_json(item, bytes, resource_version)? else {
                return Ok(None);
            };
            encode_delimited_header(2, message.len(), &mut raw);
            raw.extend_from_slice(&message);
        }
        Ok(Some(envelope(list, raw)))
    }

    /// The message of one stored object, or `None` when its kind has no protobuf form or the
    /// bytes do not decode.
    fn message_from_json(
        &self,
        gvk: &GroupVersionKind,
        bytes: &[u8],
        resource_version: &str,
    ) -> Result<Option<Vec<u8>>, EncodeError> {
        let (Some(serde), Some(protobuf)) = (
            self.scheme.serde_fns_for_gvk(gvk),
            self.scheme.protobuf_fns_for_gvk(gvk),
        ) else {
            return Ok(None);
        };
        let Some(mut decoded) = (serde.decode_json)(bytes, false) else {
            return Ok(None);
        };
        if let Some(m) = decoded.object.object_meta_mut() {
            m.resource_version = Some(resource_version.to_owned());
        }
        (protobuf.encode)(decoded.object.as_ref())
            .map(Some)
            .map_err(|message| EncodeError::Protobuf {
                gvk: gvk.clone(),
                message,
            })
    }
}

/// The body of a message of kind `gvk`: the magic bytes and the envelope naming its type.
fn envelope(gvk: &GroupVersionKind, raw: Vec<u8>) -> Vec<u8> {
    Unknown {
        api_version: gvk.api_version(),
        kind: gvk.kind.to_string(),
        raw,
    }
    .encode()
}
