//! [`Field`] for numbers, strings, bytes and the containers: what every generated message's
//! fields are built from. Numbers are varints (`int32` sign-extended to ten bytes, as Go writes
//! them), floats fixed-width; a repeated field is one field per element; maps are entries.

use std::collections::{BTreeMap, HashMap};

use k8s_openapi::ByteString;
use prost::encoding::{decode_varint, encode_key, encode_varint, encoded_len_varint, key_len};

use super::{
    DecodeError, Field, WireType, check_wire_type, delimited_len, encode_delimited_header, encode_nested,
    take_delimited,
};

/// Varint fields: how each integer type widens to and narrows from the 64 bits on the wire.
macro_rules! varint {
    ($($ty:ty: |$v:ident| $to:expr, |$w:ident| $from:expr;)+) => {$(
        impl Field for $ty {
            const WIRE_TYPE: WireType = WireType::Varint;

            fn encode_field(&self, number: u32, buf: &mut Vec<u8>) {
                let $v = *self;
                encode_key(number, WireType::Varint, buf);
                encode_varint($to, buf);
            }

            fn field_len(&self, number: u32) -> usize {
                let $v = *self;
                key_len(number) + encoded_len_varint($to)
            }

            fn merge(&mut self, wire_type: WireType, buf: &mut &[u8], _depth: u32) -> Result<(), DecodeError> {
                check_wire_type(WireType::Varint, wire_type)?;
                let $w = decode_varint(buf)?;
                *self = $from;
                Ok(())
            }

            fn empty() -> Self {
                Self::default()
            }
        }
    )+};
}

varint! {
    bool: |v| u64::from(v), |w| w != 0;
    i32: |v| i64::from(v) as u64, |w| w as i32;
    i64: |v| v as u64, |w| w as i64;
    u32: |v| u64::from(v), |w| w as u32;
    u64: |v| v, |w| w;
}

impl Field for f64 {
    const WIRE_TYPE: WireType = WireType::SixtyFourBit;

    fn encode_field(&self, number: u32, buf: &mut Vec<u8>) {
        encode_key(number, WireType::SixtyFourBit, buf);
        buf.extend_from_slice(&self.to_le_bytes());
    }

    fn field_len(&self, number: u32) -> usize {
        key_len(number) + 8
    }

    fn merge(&mut self, wire_type: WireType, buf: &mut &[u8], _depth: u32) -> Result<(), DecodeError> {
        check_wire_type(WireType::SixtyFourBit, wire_type)?;
        let Some((bytes, rest)) = buf.split_first_chunk::<8>() else {
            return Err(DecodeError::new("buffer underflow"));
        };
        *self = f64::from_le_bytes(*bytes);
        *buf = rest;
        Ok(())
    }

    fn empty() -> Self {
        0.0
    }
}

/// Length-delimited fields whose value is a run of bytes.
macro_rules! bytes_field {
    ($($ty:ty: |$v:ident| $as_bytes:expr, |$b:ident| $from:expr;)+) => {$(
        impl Field for $ty {
            const WIRE_TYPE: WireType = WireType::LengthDelimited;

            fn encode_field(&self, number: u32, buf: &mut Vec<u8>) {
                let $v = self;
                let bytes: &[u8] = $as_bytes;
                encode_delimited_header(number, bytes.len(), buf);
                buf.extend_from_slice(bytes);
            }

            fn field_len(&self, number: u32) -> usize {
                let $v = self;
                let bytes: &[u8] = $as_bytes;
                delimited_len(number, bytes.len())
            }

            fn merge(&mut self, wire_type: WireType, buf: &mut &[u8], _depth: u32) -> Result<(), DecodeError> {
                let $b = take_delimited(wire_type, buf)?;
                *self = $from;
                Ok(())
            }

            fn empty() -> Self {
                Self::default()
            }
        }
    )+};
}

bytes_field! {
    String: |v| v.as_bytes(), |b| std::str::from_utf8(b)
        .map_err(|_| DecodeError::new("a string field is not UTF-8"))?
        .to_owned();
    ByteString: |v| &v.0, |b| ByteString(b.to_vec());
}

/// Any JSON (apiextensions' `JSON`, `FieldsV1`, `RawExtension`): its compact text as bytes, as
/// Go keeps the raw JSON.
/// The length of a value's compact JSON, counted without building it: each enclosing message
/// asks for its fields' lengths (managedFields' FieldsV1 is asked at every level of a list), and
/// `to_string` went through the formatter and an allocation every time.
fn json_len(value: &serde_json::Value) -> usize {
    struct Count(usize);
    impl std::io::Write for Count {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0 += bytes.len();
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut count = Count(0);
    let _ = serde_json::to_writer(&mut count, value);
    count.0
}

impl Field for serde_json::Value {
    const WIRE_TYPE: WireType = WireType::LengthDelimited;

    fn encode_field(&self, number: u32, buf: &mut Vec<u8>) {
        // Writing into a Vec cannot fail, and a Value always serializes.
        encode_nested(number, buf, |buf| {
            let _ = serde_json::to_writer(&mut *buf, self);
        });
    }

    fn field_len(&self, number: u32) -> usize {
        delimited_len(number, json_len(self))
    }

    fn merge(&mut self, wire_type: WireType, buf: &mut &[u8], _depth: u32) -> Result<(), DecodeError> {
        let bytes = take_delimited(wire_type, buf)?;
        *self = if bytes.is_empty() {
            serde_json::Value::Null
        } else {
            serde_json::from_slice(bytes).map_err(|_| DecodeError::new("a raw JSON field is not JSON"))?
        };
        Ok(())
    }

    fn empty() -> Self {
        serde_json::Value::Null
    }
}

/// Go's pointer: written only when set; reading it sets it, even to a zero value (but not to
/// Go's zero time, which JSON cannot tell from unset).
impl<T: Field> Field for Option<T> {
    const WIRE_TYPE: WireType = T::WIRE_TYPE;

    fn encode_field(&self, number: u32, buf: &mut Vec<u8>) {
        if let Some(v) = self {
            v.encode_field(number, buf);
        }
    }

    fn field_len(&self, number: u32) -> usize {
        self.as_ref().map_or(0, |v| v.field_len(number))
    }

    fn merge(&mut self, wire_type: WireType, buf: &mut &[u8], depth: u32) -> Result<(), DecodeError> {
        T::merge_option(self, wire_type, buf, depth)
    }

    fn empty() -> Self {
        None
    }
}

impl<T: Field> Field for Box<T> {
    const WIRE_TYPE: WireType = T::WIRE_TYPE;

    fn encode_field(&self, number: u32, buf: &mut Vec<u8>) {
        (**self).encode_field(number, buf);
    }

    fn field_len(&self, number: u32) -> usize {
        (**self).field_len(number)
    }

    fn merge(&mut self, wire_type: WireType, buf: &mut &[u8], depth: u32) -> Result<(), DecodeError> {
        (**self).merge(wire_type, buf, depth)
    }

    fn empty() -> Self {
        Box::new(T::empty())
    }
}

/// A repeated field: one field per element. Numbers may also arrive packed (one length-delimited
/// run), which proto3 writers produce.
impl<T: Field> Field for Vec<T> {
    const WIRE_TYPE: WireType = T::WIRE_TYPE;

    fn encode_field(&self, number: u32, buf: &mut Vec<u8>) {
        for v in self {
            v.encode_field(number, buf);
        }
    }

    fn field_len(&self, number: u32) -> usize {
        self.iter().map(|v| v.field_len(number)).sum()
    }

    fn merge(&mut self, wire_type: WireType, buf: &mut &[u8], depth: u32) -> Result<(), DecodeError> {
        if wire_type == WireType::LengthDelimited && T::WIRE_TYPE != WireType::LengthDelimited {
            let mut run = take_delimited(wire_type, buf)?;
            while !run.is_empty() {
                let mut v = T::empty();
                v.merge(T::WIRE_TYPE, &mut run, depth)?;
                self.push(v);
            }
            return Ok(());
        }
        let mut v = T::empty();
        v.merge(wire_type, buf, depth)?;
        self.push(v);
        Ok(())
    }

    fn empty() -> Self {
        Vec::new()
    }
}

/// One map entry: `{1: key, 2: value}`.
fn encode_entry<K: Field, V: Field>(number: u32, k: &K, v: &V, buf: &mut Vec<u8>) {
    encode_nested(number, buf, |buf| {
        k.encode_field(1, buf);
        v.encode_field(2, buf);
    });
}

/// Reads one map entry; a missing key or value is its zero value.
fn merge_entry<K: Field, V: Field>(wire_type: WireType, buf: &mut &[u8], depth: u32) -> Result<(K, V), DecodeError> {
    let mut entry = take_delimited(wire_type, buf)?;
    let (mut k, mut v) = (K::empty(), V::empty());
    while !entry.is_empty() {
        let (number, wire_type) = prost::encoding::decode_key(&mut entry)?;
        match number {
            1 => k.merge(wire_type, &mut entry, depth + 1)?,
            2 => v.merge(wire_type, &mut entry, depth + 1)?,
            _ => super::skip(wire_type, number, &mut entry)?,
        }
    }
    Ok((k, v))
}

/// Maps: one entry per key, in key order as Go sorts them (a `HashMap`'s are sorted, so the bytes
/// do not depend on hashing).
macro_rules! map_field {
    ($($map:ident<K: $($bound:path),+> |$m:ident| $entries:expr;)+) => {$(
        impl<K: Field $(+ $bound)+, V: Field> Field for $map<K, V> {
            const WIRE_TYPE: WireType = WireType::LengthDelimited;

            fn encode_field(&self, number: u32, buf: &mut Vec<u8>) {
                let $m = self;
                for (k, v) in $entries {
                    encode_entry(number, k, v, buf);
                }
            }

            fn field_len(&self, number: u32) -> usize {
                self.iter()
                    .map(|(k, v)| delimited_len(number, k.field_len(1) + v.field_len(2)))
                    .sum()
            }

            fn merge(&mut self, wire_type: WireType, buf: &mut &[u8], depth: u32) -> Result<(), DecodeError> {
                let (k, v) = merge_entry(wire_type, buf, depth)?;
                self.insert(k, v);
                Ok(())
            }

            fn empty() -> Self {
                $map::new()
            }
        }
    )+};
}

map_field! {
    BTreeMap<K: Ord> |m| m.iter();
    HashMap<K: Ord, std::hash::Hash> |m| sorted(m);
}

/// A hash map's entries in key order.
pub(super) fn sorted<K: Ord, V>(m: &HashMap<K, V>) -> Vec<(&K, &V)> {
    let mut entries: Vec<_> = m.iter().collect();
    entries.sort_by(|a, b| a.0.cmp(b.0));
    entries
}
