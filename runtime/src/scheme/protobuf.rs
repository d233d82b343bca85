//! Protobuf in the scheme: [`Scheme::add_protobuf`] records how a registered type reads and
//! writes its protobuf message (protobuf-gen's impls), which the codec finds by GVK when a body
//! starts with `k8s\0` and by concrete type when a client asks for protobuf.

use super::{Scheme, type_id_of};
use crate::protobuf::{DecodeError, Message, decode_message, encode_message};
use crate::{GroupVersionKind, Object};
use std::any::TypeId;

/// Reads an object from its message's bytes.
type DecodeFn = fn(&[u8]) -> Result<Box<dyn Object>, DecodeError>;

/// The protobuf functions of one registered type.
#[derive(Clone, Copy)]
pub(crate) struct ProtobufFns {
    /// The object from its message's bytes (the envelope's `raw`).
    pub(crate) decode: DecodeFn,
    /// The object's message bytes.
    pub(crate) encode: fn(&dyn Object) -> Result<Vec<u8>, String>,
}

impl Scheme {
    /// Records that `T`, already registered with [`Scheme::add_known_type_serde`], has a protobuf
    /// form. Generated registration code calls this for the kinds protobuf-gen makes messages.
    pub fn add_protobuf<T>(&mut self)
    where
        T: Object + Default + Message,
    {
        self.protobuf_fns.insert(
            TypeId::of::<T>(),
            ProtobufFns {
                decode: decode_as::<T>,
                encode: encode_as::<T>,
            },
        );
    }

    /// Whether objects of `gvk` can be read from and written as protobuf.
    pub fn has_protobuf(&self, gvk: &GroupVersionKind) -> bool {
        self.protobuf_fns_for_gvk(gvk).is_some()
    }

    pub(crate) fn protobuf_fns_for_gvk(&self, gvk: &GroupVersionKind) -> Option<&ProtobufFns> {
        let known = self.gvk_to_type.get(gvk)?;
        self.protobuf_fns.get(&known.type_id)
    }

    pub(crate) fn protobuf_fns_for_object(&self, obj: &dyn Object) -> Option<&ProtobufFns> {
        self.protobuf_fns.get(&type_id_of(obj))
    }
}

fn decode_as<T: Object + Default + Message>(bytes: &[u8]) -> Result<Box<dyn Object>, DecodeError> {
    Ok(Box::new(decode_message::<T>(bytes)?))
}

fn encode_as<T: Object + Message>(obj: &dyn Object) -> Result<Vec<u8>, String> {
    Ok(encode_message(super::serde::typed::<T>(obj)?))
}
