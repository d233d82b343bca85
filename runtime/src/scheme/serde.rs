//! Wire formats in the scheme: [`Scheme::add_known_type_serde`] registers a kind together with
//! type-erased functions that read it from a JSON value and write it as JSON or YAML, which the
//! codec (`crate::codec`) finds by GVK when decoding and by concrete type when encoding.
//!
//! The functions are plain `fn` pointers instantiated per registered type, as the defaulting and
//! conversion tables in `scheme/funcs.rs` are, so the scheme stays `Send + Sync` and cheap to query.

use super::{Scheme, type_id_of};
use crate::wire::Format;
use crate::{GroupVersionKind, Object, SchemeError};
use std::any::TypeId;

/// A typed decode that failed: serde's message and the JSON path of the field it failed at.
pub(crate) type DecodeFailure = serde_path_to_error::Error<serde_json::Error>;

/// A typed decode that succeeded: the object and, when strict, the paths of the values its type
/// skipped below the top level.
pub(crate) struct Decoded {
    pub(crate) object: Box<dyn Object>,
    pub(crate) skipped: Vec<String>,
}

/// The wire-format functions of one registered type.
#[derive(Clone, Copy)]
pub(crate) struct SerdeFns {
    /// Builds the object from a JSON value, tracking the path of the field that fails and, when
    /// strict (the flag), the values the type skips.
    pub(crate) decode: fn(&serde_json::Value, bool) -> Result<Decoded, DecodeFailure>,
    /// Builds the object straight from the bytes of one JSON object, as `decode` does; `None` on
    /// any error, which the general path then explains.
    pub(crate) decode_json: fn(&[u8], bool) -> Option<Decoded>,
    /// The keys the object writes at its top level, which strict decoding compares with its input.
    pub(crate) top_level_keys: fn(&dyn Object) -> Vec<String>,
    /// Every key the type reads at its top level, when its registration listed them: strict
    /// decoding then reports any other key, empty or not.
    pub(crate) wire_keys: Option<&'static [&'static str]>,
    /// The object as a JSON value.
    pub(crate) to_value: fn(&dyn Object) -> Result<serde_json::Value, String>,
    /// The object's bytes in `format`, fields in the order serde emits them, ending in a newline.
    pub(crate) encode: fn(&dyn Object, Format) -> Result<Vec<u8>, String>,
}

impl Scheme {
    /// Registers `T` under `gvk` as [`Scheme::add_known_type`] does, and records how to decode it from
    /// and encode it to JSON and YAML, which makes `gvk` readable and writable by the codec.
    ///
    /// Generated registration code calls this for external kinds (the ones with serde derives);
    /// internal kinds never go on the wire and are registered with `add_known_type` alone.
    pub fn add_known_type_serde<T>(&mut self, gvk: GroupVersionKind) -> Result<(), SchemeError>
    where
        T: Object + Default + ::serde::Serialize + ::serde::de::DeserializeOwned,
    {
        self.add_serde::<T>(gvk, None)
    }

    /// Registers `T` as [`Scheme::add_known_type_serde`] does, with every JSON key it reads at its
    /// top level (`apiVersion`, `kind` and its fields' names), so strict decoding reports any
    /// other key, even one whose value is empty, which the object's own keys cannot tell from an
    /// absent optional field. Generated registration code calls this when the model can list them.
    pub fn add_known_type_serde_keys<T>(
        &mut self,
        gvk: GroupVersionKind,
        keys: &'static [&'static str],
    ) -> Result<(), SchemeError>
    where
        T: Object + Default + ::serde::Serialize + ::serde::de::DeserializeOwned,
    {
        self.add_serde::<T>(gvk, Some(keys))
    }

    fn add_serde<T>(
        &mut self,
        gvk: GroupVersionKind,
        wire_keys: Option<&'static [&'static str]>,
    ) -> Result<(), SchemeError>
    where
        T: Object + Default + ::serde::Serialize + ::serde::de::DeserializeOwned,
    {
        self.add_known_type::<T>(gvk)?;
        self.serde_fns.insert(
            TypeId::of::<T>(),
            SerdeFns {
                decode: decode_as::<T>,
                decode_json: decode_json_as::<T>,
                top_level_keys: top_level_keys_as::<T>,
                wire_keys,
                to_value: to_value_as::<T>,
                encode: encode_as::<T>,
            },
        );
        Ok(())
    }

    /// Whether objects of `gvk` can be decoded and encoded, that is whether it was registered with
    /// [`Scheme::add_known_type_serde`].
    pub fn has_wire_format(&self, gvk: &GroupVersionKind) -> bool {
        self.serde_fns_for_gvk(gvk).is_some()
    }

    /// The wire-format functions of the type registered for `gvk`, if it has them.
    pub(crate) fn serde_fns_for_gvk(&self, gvk: &GroupVersionKind) -> Option<&SerdeFns> {
        let known = self.gvk_to_type.get(gvk)?;
        self.serde_fns.get(&known.type_id)
    }

    /// The wire-format functions of the concrete type of `obj`, if it has them.
    pub(crate) fn serde_fns_for_object(&self, obj: &dyn Object) -> Option<&SerdeFns> {
        self.serde_fns.get(&type_id_of(obj))
    }
}

/// Deserializes a `T` from `value`; instantiated per registered type to fill [`SerdeFns::decode`].
fn decode_as<T>(value: &serde_json::Value, strict: bool) -> Result<Decoded, DecodeFailure>
where
    T: Object + ::serde::de::DeserializeOwned,
{
    // Tracking the field path costs as much as half the decode, so it runs only to explain a
    // failure.
    match decode_untracked::<T, _>(value, strict) {
        Ok(decoded) => Ok(decoded),
        Err(_) => decode_from::<T, _>(value, strict),
    }
}

/// Deserializes a `T` from the bytes of one JSON value with nothing after it.
fn decode_json_as<T>(bytes: &[u8], strict: bool) -> Option<Decoded>
where
    T: Object + ::serde::de::DeserializeOwned,
{
    // No field path is tracked here: a failure is decoded again on the general path, which names
    // the field, so the pass that succeeds does not pay for the tracking.
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let decoded = decode_untracked::<T, _>(&mut de, strict).ok()?;
    de.end().ok()?;
    Some(decoded)
}

/// Deserializes a `T` without tracking the path of a failure; in strict mode with the paths of
/// the skipped values.
fn decode_untracked<'de, T, D>(de: D, strict: bool) -> Result<Decoded, D::Error>
where
    T: Object + ::serde::Deserialize<'de>,
    D: ::serde::Deserializer<'de>,
{
    let mut skipped = Vec::new();
    let typed: T = if strict {
        let mut record = |path: serde_ignored::Path<'_>| skipped.push(crate::wire::skipped_path(&path));
        ::serde::Deserialize::deserialize(serde_ignored::Deserializer::new(de, &mut record))?
    } else {
        ::serde::Deserialize::deserialize(de)?
    };
    Ok(Decoded {
        object: Box::new(typed),
        skipped,
    })
}

/// Deserializes a `T`, with the failing field's path, and in strict mode the skipped values' paths.
fn decode_from<'de, T, D>(de: D, strict: bool) -> Result<Decoded, DecodeFailure>
where
    T: Object + ::serde::Deserialize<'de>,
    D: ::serde::Deserializer<'de, Error = serde_json::Error>,
{
    let mut skipped = Vec::new();
    let typed: T = if strict {
        let mut record = |path: serde_ignored::Path<'_>| skipped.push(crate::wire::skipped_path(&path));
        serde_path_to_error::deserialize(serde_ignored::Deserializer::new(de, &mut record))?
    } else {
        serde_path_to_error::deserialize(de)?
    };
    Ok(Decoded {
        object: Box::new(typed),
        skipped,
    })
}

/// The top-level keys `obj`, a `T`, writes.
fn top_level_keys_as<T: Object + ::serde::Serialize>(obj: &dyn Object) -> Vec<String> {
    typed::<T>(obj).map(crate::wire::top_level_keys).unwrap_or_default()
}

/// Serializes `obj`, which must be a `T`, to a JSON value.
fn to_value_as<T: Object + ::serde::Serialize>(obj: &dyn Object) -> Result<serde_json::Value, String> {
    serde_json::to_value(typed::<T>(obj)?).map_err(|e| e.to_string())
}

/// Serializes `obj`, which must be a `T`, as `format`.
///
/// JSON is indented by four spaces, as `kubectl -o json` prints it; both formats end in one newline
/// so that several outputs concatenate into a readable stream.
fn encode_as<T: Object + ::serde::Serialize>(obj: &dyn Object, format: Format) -> Result<Vec<u8>, String> {
    let typed = typed::<T>(obj)?;
    let mut out = match format {
        Format::Json => {
            let mut buf = Vec::new();
            let formatter = serde_json::ser::PrettyFormatter::with_indent(b"    ");
            let mut ser = serde_json::Serializer::with_formatter(&mut buf, formatter);
            ::serde::Serialize::serialize(typed, &mut ser).map_err(|e| e.to_string())?;
            buf
        }
        Format::Yaml => serde_saphyr::to_string(typed).map_err(|e| e.to_string())?.into_bytes(),
    };
    while out.last() == Some(&b'\n') {
        out.pop();
    }
    out.push(b'\n');
    Ok(out)
}

/// `obj` as a `T`. The table is keyed by `TypeId`, so a mismatch means the table itself is broken;
/// it is still reported as an error rather than a panic.
pub(super) fn typed<T: Object>(obj: &dyn Object) -> Result<&T, String> {
    obj.downcast_ref::<T>().ok_or_else(|| {
        format!(
            "the wire format of {} was asked to encode a {}",
            std::any::type_name::<T>(),
            obj.type_name()
        )
    })
}
