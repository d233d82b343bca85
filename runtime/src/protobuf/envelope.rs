//! The envelope of every protobuf body (apimachinery's protobuf serializer): the magic bytes
//! `k8s\0`, then a `runtime.Unknown{typeMeta = 1, raw = 2, contentEncoding = 3, contentType = 4}`
//! whose TypeMeta (`{apiVersion = 1, kind = 2}`) names the object and whose `raw` is its message.

use k8s_openapi::ByteString;

use super::meta::{field, k8s_message};
use super::{DecodeError, Message, WireType, decode_message, encode_message, skip};

/// The bytes every protobuf body starts with.
pub const MAGIC: [u8; 4] = *b"k8s\0";

/// The media type of protobuf bodies.
pub const CONTENT_TYPE: &str = "application/vnd.kubernetes.protobuf";

/// Whether `bytes` is a protobuf body: it starts with [`MAGIC`].
pub fn is_protobuf(bytes: &[u8]) -> bool {
    bytes.starts_with(&MAGIC)
}

/// An object on the wire: its apiVersion and kind, and its message's bytes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Unknown {
    /// The object's apiVersion (`apps/v1`, `v1`).
    pub api_version: String,
    /// Its kind.
    pub kind: String,
    /// Its message, without envelope.
    pub raw: Vec<u8>,
}

impl Unknown {
    /// The envelope of `msg`, an object of `api_version` and `kind`.
    pub fn wrap<M: Message>(api_version: &str, kind: &str, msg: &M) -> Unknown {
        Unknown {
            api_version: api_version.to_owned(),
            kind: kind.to_owned(),
            raw: encode_message(msg),
        }
    }

    /// Reads a body: the magic bytes, then the envelope.
    pub fn decode(bytes: &[u8]) -> Result<Unknown, DecodeError> {
        let Some(rest) = bytes.strip_prefix(&MAGIC) else {
            return Err(DecodeError::new(
                "the body does not start with the protobuf magic bytes k8s\\0",
            ));
        };
        let wire: WireUnknown = decode_message(rest)?;
        Ok(Unknown {
            api_version: wire.type_meta.api_version,
            kind: wire.type_meta.kind,
            raw: wire.raw.0,
        })
    }

    /// The body: the magic bytes, then the envelope, written as Go writes it (empty content
    /// encoding and type included).
    pub fn encode(self) -> Vec<u8> {
        let wire = WireUnknown {
            type_meta: WireTypeMeta {
                api_version: self.api_version,
                kind: self.kind,
            },
            raw: ByteString(self.raw),
            content_encoding: String::new(),
            content_type: String::new(),
        };
        let mut out = Vec::with_capacity(MAGIC.len() + wire.raw.0.len() + 64);
        out.extend_from_slice(&MAGIC);
        wire.encode_raw(&mut out);
        out
    }

    /// The object's message read as `M`.
    pub fn object<M: Message + Default>(&self) -> Result<M, DecodeError> {
        decode_message(&self.raw)
    }
}

#[derive(Default)]
struct WireTypeMeta {
    api_version: String,
    kind: String,
}

#[derive(Default)]
struct WireUnknown {
    type_meta: WireTypeMeta,
    raw: ByteString,
    content_encoding: String,
    content_type: String,
}

k8s_message!(WireTypeMeta {
    1 => api_version: field,
    2 => kind: field,
});

k8s_message!(WireUnknown {
    1 => type_meta: field,
    2 => raw: field,
    3 => content_encoding: field,
    4 => content_type: field,
});
