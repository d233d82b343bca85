//! Maps whose values are lists (`map[string]ExtraValue`, Go's named `[]string` types):
//! go-to-protobuf makes the named slice a message `{repeated items = 1}`, so an entry is
//! `{1: key, 2: {1: item, 1: item, ...}}`. A plain `Field` impl would write the items straight
//! into the entry, so protobuf-gen calls these for a map of `Vec`s instead.

use std::collections::{BTreeMap, HashMap};

use prost::encoding::decode_key;

use super::{DecodeError, Field, WireType, delimited_len, encode_nested, skip, take_delimited};

/// A map of lists as one protobuf field (each entry's value wrapped as Go's named slices are).
pub trait ListMap {
    /// Writes every entry as field `number`.
    fn encode_field(&self, number: u32, buf: &mut Vec<u8>);

    /// The length of [`ListMap::encode_field`]'s output.
    fn field_len(&self, number: u32) -> usize;

    /// Reads one entry.
    fn merge(&mut self, wire_type: WireType, buf: &mut &[u8], depth: u32) -> Result<(), DecodeError>;
}

/// The length of an entry's body.
fn entry_len<K: Field, T: Field>(k: &K, items: &Vec<T>) -> usize {
    k.field_len(1) + delimited_len(2, items.field_len(1))
}

fn encode_entry<K: Field, T: Field>(number: u32, k: &K, items: &Vec<T>, buf: &mut Vec<u8>) {
    encode_nested(number, buf, |buf| {
        k.encode_field(1, buf);
        encode_nested(2, buf, |buf| items.encode_field(1, buf));
    });
}

fn merge_entry<K: Field, T: Field>(
    wire_type: WireType,
    buf: &mut &[u8],
    depth: u32,
) -> Result<(K, Vec<T>), DecodeError> {
    let mut entry = take_delimited(wire_type, buf)?;
    let (mut k, mut items) = (K::empty(), Vec::new());
    while !entry.is_empty() {
        let (number, wire_type) = decode_key(&mut entry)?;
        match number {
            1 => k.merge(wire_type, &mut entry, depth + 1)?,
            2 => {
                let mut list = take_delimited(wire_type, &mut entry)?;
                while !list.is_empty() {
                    let (number, wire_type) = decode_key(&mut list)?;
                    match number {
                        1 => items.merge(wire_type, &mut list, depth + 2)?,
                        _ => skip(wire_type, number, &mut list)?,
                    }
                }
            }
            _ => skip(wire_type, number, &mut entry)?,
        }
    }
    Ok((k, items))
}

macro_rules! list_map {
    ($($map:ident<K: $($bound:path),+> |$m:ident| $entries:expr;)+) => {$(
        impl<K: Field $(+ $bound)+, T: Field> ListMap for $map<K, Vec<T>> {
            fn encode_field(&self, number: u32, buf: &mut Vec<u8>) {
                let $m = self;
                for (k, items) in $entries {
                    encode_entry(number, k, items, buf);
                }
            }

            fn field_len(&self, number: u32) -> usize {
                self.iter().map(|(k, items)| delimited_len(number, entry_len(k, items))).sum()
            }

            fn merge(&mut self, wire_type: WireType, buf: &mut &[u8], depth: u32) -> Result<(), DecodeError> {
                let (k, items) = merge_entry(wire_type, buf, depth)?;
                self.insert(k, items);
                Ok(())
            }
        }
    )+};
}

list_map! {
    BTreeMap<K: Ord> |m| m.iter();
    HashMap<K: Ord, std::hash::Hash> |m| super::scalar::sorted(m);
}

impl<M: ListMap + Default> ListMap for Option<M> {
    fn encode_field(&self, number: u32, buf: &mut Vec<u8>) {
        if let Some(m) = self {
            m.encode_field(number, buf);
        }
    }

    fn field_len(&self, number: u32) -> usize {
        self.as_ref().map_or(0, |m| m.field_len(number))
    }

    fn merge(&mut self, wire_type: WireType, buf: &mut &[u8], depth: u32) -> Result<(), DecodeError> {
        self.get_or_insert_with(M::default).merge(wire_type, buf, depth)
    }
}
