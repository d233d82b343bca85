//! Kubernetes' protobuf wire format (apimachinery's protobuf serializer and the messages
//! go-to-protobuf generates): what protobuf-gen's `zz_generated_protobuf.rs` implements and the
//! codec reads and writes.
//!
//! A type that is a message implements [`Message`] (its fields by number) and [`Field`] (how it
//! sits inside another message: length-delimited). Every field type implements [`Field`], with
//! Go's semantics, because Rust's types mirror Go's: a value field (`String`, `i32`, a struct) is
//! always written, as gogo-protobuf writes Go's non-pointer fields; an `Option` (Go's pointer) only
//! when set; a `Vec` as one field per element (a packed run of numbers is read as well); a map as
//! one `{1: key, 2: value}` entry per key, in key order. k8s-openapi's types (ObjectMeta, Time,
//! Quantity, ...) have hand-written impls in `meta.rs` and `core.rs`.
//!
//! On the wire an object is the four bytes `k8s\0` and a `runtime.Unknown` whose `raw` holds the
//! object's message and whose TypeMeta names its kind (`envelope.rs`).

mod core;
mod envelope;
mod go_value;
mod list_map;
mod meta;
mod scalar;
#[cfg(test)]
mod tests;

pub use envelope::{CONTENT_TYPE, MAGIC, Unknown, is_protobuf};
pub use go_value::GoValue;
pub use list_map::ListMap;
pub use prost::encoding::WireType;

use prost::encoding::{decode_key, decode_varint, encode_key, encode_varint, encoded_len_varint, key_len};

/// How deep messages may nest before decoding gives up: a hostile body cannot exhaust the stack.
const RECURSION_LIMIT: u32 = 100;

/// Why bytes are not the message they should be.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct DecodeError(String);

impl DecodeError {
    /// An error saying `message`.
    pub fn new(message: impl Into<String>) -> Self {
        DecodeError(message.into())
    }
}

impl From<prost::DecodeError> for DecodeError {
    fn from(e: prost::DecodeError) -> Self {
        DecodeError(e.to_string())
    }
}

/// A protobuf message: a struct whose fields have numbers.
pub trait Message {
    /// Writes the fields, in number order, without a length prefix.
    fn encode_raw(&self, buf: &mut Vec<u8>);

    /// The length of [`Message::encode_raw`]'s output.
    fn encoded_len(&self) -> usize;

    /// Reads one field whose key has been read; unknown numbers are skipped (with [`skip`]).
    fn merge_field(&mut self, number: u32, wire_type: WireType, buf: &mut &[u8], depth: u32)
    -> Result<(), DecodeError>;
}

/// How a value is written as, and read from, one field of a message.
pub trait Field {
    /// The wire type the value is written with (a `Vec` of numbers also reads a packed run).
    const WIRE_TYPE: WireType;

    /// Writes the value as field `number`; nothing for an absent value.
    fn encode_field(&self, number: u32, buf: &mut Vec<u8>);

    /// The length of [`Field::encode_field`]'s output.
    fn field_len(&self, number: u32) -> usize;

    /// Reads one occurrence of the field into the value (a repeated field appends, a message
    /// merges, anything else is replaced).
    fn merge(&mut self, wire_type: WireType, buf: &mut &[u8], depth: u32) -> Result<(), DecodeError>;

    /// The value a field starts from before it is read: `Default::default()`, or what stands in
    /// for it in a k8s-openapi type without `Default`.
    fn empty() -> Self
    where
        Self: Sized;

    /// Whether the value read is Go's zero time, which an `Option` holds as unset.
    fn is_unset(&self) -> bool {
        false
    }

    /// Reads one occurrence of the field into an `Option` of the value: into the value it holds,
    /// or a new one, which stays unset where [`Field::is_unset`] says so.
    fn merge_option(
        slot: &mut Option<Self>,
        wire_type: WireType,
        buf: &mut &[u8],
        depth: u32,
    ) -> Result<(), DecodeError>
    where
        Self: Sized,
    {
        let value = slot.get_or_insert_with(Self::empty);
        value.merge(wire_type, buf, depth)?;
        if value.is_unset() {
            *slot = None;
        }
        Ok(())
    }
}

/// [`Field::merge_option`] for a string enum without an empty value: Go writes an unset string
/// field as `""`, which an `Option` of the enum reads as unset, not as the enum's first value
/// (a Deployment's `strategy: {}` from kubectl must still be defaulted to `RollingUpdate`).
pub fn merge_string_enum_option<T: Field>(
    slot: &mut Option<T>,
    wire_type: WireType,
    buf: &mut &[u8],
    depth: u32,
) -> Result<(), DecodeError> {
    let mut peek = *buf;
    if take_str(wire_type, &mut peek)?.is_empty() {
        *buf = peek;
        *slot = None;
        return Ok(());
    }
    slot.get_or_insert_with(T::empty).merge(wire_type, buf, depth)
}

/// The message's bytes, without envelope.
pub fn encode_message<M: Message>(msg: &M) -> Vec<u8> {
    let mut buf = Vec::new();
    msg.encode_raw(&mut buf);
    buf
}

/// A message read from its bytes (without envelope).
pub fn decode_message<M: Message + Default>(mut bytes: &[u8]) -> Result<M, DecodeError> {
    let mut msg = M::default();
    merge_fields(&mut msg, &mut bytes, 0)?;
    Ok(msg)
}

/// Reads fields until `buf` is empty.
fn merge_fields<M: Message>(msg: &mut M, buf: &mut &[u8], depth: u32) -> Result<(), DecodeError> {
    if depth > RECURSION_LIMIT {
        return Err(DecodeError::new("messages nest too deeply"));
    }
    while !buf.is_empty() {
        let (number, wire_type) = decode_key(buf)?;
        msg.merge_field(number, wire_type, buf, depth)?;
    }
    Ok(())
}

/// Skips a field this message does not know, as Go's generated code skips it.
pub fn skip(wire_type: WireType, number: u32, buf: &mut &[u8]) -> Result<(), DecodeError> {
    Ok(prost::encoding::skip_field(wire_type, number, buf, Default::default())?)
}

/// Fails unless the field came with the wire type its value needs.
pub fn check_wire_type(expected: WireType, actual: WireType) -> Result<(), DecodeError> {
    Ok(prost::encoding::check_wire_type(expected, actual)?)
}

/// The bytes of one length-delimited field, taken off the front of `buf`.
pub fn take_delimited<'a>(wire_type: WireType, buf: &mut &'a [u8]) -> Result<&'a [u8], DecodeError> {
    check_wire_type(WireType::LengthDelimited, wire_type)?;
    let len = decode_varint(buf)?;
    let len = usize::try_from(len).map_err(|_| DecodeError::new("length out of range"))?;
    if len > buf.len() {
        return Err(DecodeError::new("buffer underflow"));
    }
    let (field, rest) = buf.split_at(len);
    *buf = rest;
    Ok(field)
}

/// Writes a length-delimited field holding `len` bytes, which the caller writes next.
pub fn encode_delimited_header(number: u32, len: usize, buf: &mut Vec<u8>) {
    encode_key(number, WireType::LengthDelimited, buf);
    encode_varint(len as u64, buf);
}

/// Writes a length-delimited field whose contents `write` appends, with the length written after
/// them: one byte is reserved, and the contents move right in the rare case the length needs
/// more. Nested messages are so never measured before they are written; measuring first costs
/// every level of the tree its whole subtree again (a list of Deployments was measured six
/// levels deep, managedFields' JSON included, which made encoding 10x slower than JSON).
pub fn encode_nested(number: u32, buf: &mut Vec<u8>, write: impl FnOnce(&mut Vec<u8>)) {
    encode_key(number, WireType::LengthDelimited, buf);
    let at = buf.len();
    buf.push(0);
    write(buf);
    let len = buf.len() - at - 1;
    if len < 0x80 {
        buf[at] = len as u8;
        return;
    }
    let mut varint = [0u8; 10];
    let mut slot = &mut varint[..];
    encode_varint(len as u64, &mut slot);
    let width = 10 - slot.len();
    buf.splice(at..at + 1, varint[..width].iter().copied());
}

/// The length of a length-delimited field holding `len` bytes.
pub fn delimited_len(number: u32, len: usize) -> usize {
    key_len(number) + encoded_len_varint(len as u64) + len
}

/// Writes a string field (a string enum's value).
pub fn encode_str(value: &str, number: u32, buf: &mut Vec<u8>) {
    encode_delimited_header(number, value.len(), buf);
    buf.extend_from_slice(value.as_bytes());
}

/// The length of [`encode_str`]'s output.
pub fn str_len(value: &str, number: u32) -> usize {
    delimited_len(number, value.len())
}

/// Reads a string field.
pub fn take_str<'a>(wire_type: WireType, buf: &mut &'a [u8]) -> Result<&'a str, DecodeError> {
    std::str::from_utf8(take_delimited(wire_type, buf)?).map_err(|_| DecodeError::new("a string field is not UTF-8"))
}

/// [`Field::encode_field`] for a message type: length-delimited.
pub fn encode_message_field<M: Message>(msg: &M, number: u32, buf: &mut Vec<u8>) {
    encode_nested(number, buf, |buf| msg.encode_raw(buf));
}

/// [`Field::field_len`] for a message type.
pub fn message_field_len<M: Message>(msg: &M, number: u32) -> usize {
    delimited_len(number, msg.encoded_len())
}

/// [`Field::merge`] for a message type: its fields merge into the value.
pub fn merge_message_field<M: Message>(
    msg: &mut M,
    wire_type: WireType,
    buf: &mut &[u8],
    depth: u32,
) -> Result<(), DecodeError> {
    let mut inner = take_delimited(wire_type, buf)?;
    merge_fields(msg, &mut inner, depth + 1)
}

/// Implements [`Message`] and [`Field`] for a struct, the whole of protobuf-gen's output per
/// struct: each entry is a field number and the Rust field (a name, or an index for a tuple
/// struct), written through [`Field`], or through [`ListMap`] when marked `as ListMap` (Go's maps
/// of named slices), or [`GoValue`] when marked `as GoValue` (Go's value fields, zero is unset).
///
/// ```ignore
/// kube_apimachinery::protobuf_message!(crate::apps::v1::types::DaemonSet { 1 => metadata, 2 => spec, 3 => status });
/// ```
#[macro_export]
macro_rules! protobuf_message {
    // One field's statement or term, through the trait its entry names.
    (@encode [] $v:expr, $n:literal, $buf:ident) => {
        $crate::protobuf::Field::encode_field(&$v, $n, $buf)
    };
    (@encode [ListMap] $v:expr, $n:literal, $buf:ident) => {
        $crate::protobuf::ListMap::encode_field(&$v, $n, $buf)
    };
    (@encode [GoValue] $v:expr, $n:literal, $buf:ident) => {
        $crate::protobuf::GoValue::encode_field(&$v, $n, $buf)
    };
    (@len [] $v:expr, $n:literal) => {
        $crate::protobuf::Field::field_len(&$v, $n)
    };
    (@len [ListMap] $v:expr, $n:literal) => {
        $crate::protobuf::ListMap::field_len(&$v, $n)
    };
    (@len [GoValue] $v:expr, $n:literal) => {
        $crate::protobuf::GoValue::field_len(&$v, $n)
    };
    (@merge [] $v:expr, $wire:ident, $buf:ident, $depth:ident) => {
        $crate::protobuf::Field::merge(&mut $v, $wire, $buf, $depth)
    };
    (@merge [ListMap] $v:expr, $wire:ident, $buf:ident, $depth:ident) => {
        $crate::protobuf::ListMap::merge(&mut $v, $wire, $buf, $depth)
    };
    (@merge [GoValue] $v:expr, $wire:ident, $buf:ident, $depth:ident) => {
        $crate::protobuf::GoValue::merge(&mut $v, $wire, $buf, $depth)
    };
    ($ty:ty {}) => {
        impl $crate::protobuf::Message for $ty {
            fn encode_raw(&self, _buf: &mut ::std::vec::Vec<u8>) {}

            fn encoded_len(&self) -> usize {
                0
            }

            fn merge_field(
                &mut self,
                number: u32,
                wire_type: $crate::protobuf::WireType,
                buf: &mut &[u8],
                _depth: u32,
            ) -> ::core::result::Result<(), $crate::protobuf::DecodeError> {
                $crate::protobuf::skip(wire_type, number, buf)
            }
        }

        $crate::protobuf_message_field!($ty);
    };
    ($ty:ty { $($number:literal => $field:tt $(as $how:ident)?),+ $(,)? }) => {
        impl $crate::protobuf::Message for $ty {
            fn encode_raw(&self, buf: &mut ::std::vec::Vec<u8>) {
                $( $crate::protobuf_message!(@encode [$($how)?] self.$field, $number, buf); )+
            }

            fn encoded_len(&self) -> usize {
                0 $( + $crate::protobuf_message!(@len [$($how)?] self.$field, $number) )+
            }

            fn merge_field(
                &mut self,
                number: u32,
                wire_type: $crate::protobuf::WireType,
                buf: &mut &[u8],
                depth: u32,
            ) -> ::core::result::Result<(), $crate::protobuf::DecodeError> {
                match number {
                    $( $number => $crate::protobuf_message!(@merge [$($how)?] self.$field, wire_type, buf, depth), )+
                    _ => $crate::protobuf::skip(wire_type, number, buf),
                }
            }
        }

        $crate::protobuf_message_field!($ty);
    };
}

/// Implements [`Field`] for message types: each is written length-delimited and starts from
/// `Default::default()` (or `empty = <expr>`). protobuf-gen's output and the hand-written impls of
/// k8s-openapi's types use it.
#[macro_export]
macro_rules! protobuf_message_field {
    ($ty:ty, empty = $empty:expr) => {
        $crate::protobuf_message_field!(@impl $ty, $empty);
    };
    ($($ty:ty),+ $(,)?) => {$(
        $crate::protobuf_message_field!(@impl $ty, ::core::default::Default::default());
    )+};
    (@impl $ty:ty, $empty:expr) => {
        impl $crate::protobuf::Field for $ty {
            const WIRE_TYPE: $crate::protobuf::WireType = $crate::protobuf::WireType::LengthDelimited;

            fn encode_field(&self, number: u32, buf: &mut ::std::vec::Vec<u8>) {
                $crate::protobuf::encode_message_field(self, number, buf)
            }

            fn field_len(&self, number: u32) -> usize {
                $crate::protobuf::message_field_len(self, number)
            }

            fn merge(
                &mut self,
                wire_type: $crate::protobuf::WireType,
                buf: &mut &[u8],
                depth: u32,
            ) -> ::core::result::Result<(), $crate::protobuf::DecodeError> {
                $crate::protobuf::merge_message_field(self, wire_type, buf, depth)
            }

            fn empty() -> Self {
                $empty
            }
        }
    };
}
