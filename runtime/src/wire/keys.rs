//! The top-level keys an object writes, collected by a serializer that records the key of each
//! struct field and map entry and never serializes a value. Strict decoding compares them with the
//! input's top-level keys, which costs a walk of the object's top-level fields, not an encoding.

use serde::ser::{self, Impossible, Serialize};
use std::fmt;

/// The keys `value` writes at its top level, in the order it writes them; empty when it is not a
/// struct or a map. A field skipped by `skip_serializing_if` is not among them.
pub(crate) fn top_level<T: Serialize + ?Sized>(value: &T) -> Vec<String> {
    let mut keys = Vec::new();
    // A value that is not a struct or map leaves `keys` empty, which is all the caller needs.
    let _ = value.serialize(Top { keys: &mut keys });
    keys
}

/// Why collecting stopped: the value (or a map key) is not of a shape with keys.
#[derive(Debug)]
struct NoKeys;

impl fmt::Display for NoKeys {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not a struct or map with string keys")
    }
}

impl std::error::Error for NoKeys {}

impl ser::Error for NoKeys {
    fn custom<T: fmt::Display>(_: T) -> Self {
        NoKeys
    }
}

/// Rejects the listed scalar methods of a serializer with [`NoKeys`].
macro_rules! no_keys {
    ($($method:ident($ty:ty);)*) => {
        $(fn $method(self, _: $ty) -> Result<Self::Ok, NoKeys> {
            Err(NoKeys)
        })*
    };
}

/// Rejects the compound and generic methods of a serializer whose compound types are `Impossible`.
macro_rules! no_compounds {
    () => {
        fn serialize_none(self) -> Result<Self::Ok, NoKeys> {
            Err(NoKeys)
        }
        fn serialize_unit(self) -> Result<Self::Ok, NoKeys> {
            Err(NoKeys)
        }
        fn serialize_unit_struct(self, _: &'static str) -> Result<Self::Ok, NoKeys> {
            Err(NoKeys)
        }
        fn serialize_unit_variant(self, _: &'static str, _: u32, _: &'static str) -> Result<Self::Ok, NoKeys> {
            Err(NoKeys)
        }
        fn serialize_newtype_variant<T: Serialize + ?Sized>(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
            _: &T,
        ) -> Result<Self::Ok, NoKeys> {
            Err(NoKeys)
        }
        fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, NoKeys> {
            Err(NoKeys)
        }
        fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, NoKeys> {
            Err(NoKeys)
        }
        fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Self::SerializeTupleStruct, NoKeys> {
            Err(NoKeys)
        }
        fn serialize_tuple_variant(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
            _: usize,
        ) -> Result<Self::SerializeTupleVariant, NoKeys> {
            Err(NoKeys)
        }
        fn serialize_struct_variant(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
            _: usize,
        ) -> Result<Self::SerializeStructVariant, NoKeys> {
            Err(NoKeys)
        }
    };
}

/// The serializer for the object itself: structs and maps record their keys.
struct Top<'k> {
    keys: &'k mut Vec<String>,
}

impl<'k> ser::Serializer for Top<'k> {
    type Ok = ();
    type Error = NoKeys;
    type SerializeSeq = Impossible<(), NoKeys>;
    type SerializeTuple = Impossible<(), NoKeys>;
    type SerializeTupleStruct = Impossible<(), NoKeys>;
    type SerializeTupleVariant = Impossible<(), NoKeys>;
    type SerializeMap = Keys<'k>;
    type SerializeStruct = Keys<'k>;
    type SerializeStructVariant = Impossible<(), NoKeys>;

    no_keys! {
        serialize_bool(bool); serialize_i8(i8); serialize_i16(i16); serialize_i32(i32);
        serialize_i64(i64); serialize_u8(u8); serialize_u16(u16); serialize_u32(u32);
        serialize_u64(u64); serialize_f32(f32); serialize_f64(f64); serialize_char(char);
        serialize_str(&str); serialize_bytes(&[u8]);
    }
    no_compounds!();

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), NoKeys> {
        value.serialize(self)
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, value: &T) -> Result<(), NoKeys> {
        value.serialize(self)
    }

    fn serialize_map(self, _: Option<usize>) -> Result<Keys<'k>, NoKeys> {
        Ok(Keys { keys: self.keys })
    }

    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Keys<'k>, NoKeys> {
        Ok(Keys { keys: self.keys })
    }
}

/// A struct's or map's entries: keys are kept, values are never visited.
struct Keys<'k> {
    keys: &'k mut Vec<String>,
}

impl ser::SerializeStruct for Keys<'_> {
    type Ok = ();
    type Error = NoKeys;

    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, _: &T) -> Result<(), NoKeys> {
        self.keys.push(key.to_owned());
        Ok(())
    }

    fn end(self) -> Result<(), NoKeys> {
        Ok(())
    }
}

impl ser::SerializeMap for Keys<'_> {
    type Ok = ();
    type Error = NoKeys;

    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), NoKeys> {
        self.keys.push(key.serialize(KeyText)?);
        Ok(())
    }

    fn serialize_value<T: Serialize + ?Sized>(&mut self, _: &T) -> Result<(), NoKeys> {
        Ok(())
    }

    fn end(self) -> Result<(), NoKeys> {
        Ok(())
    }
}

/// A map key as text; JSON object keys are strings.
struct KeyText;

impl ser::Serializer for KeyText {
    type Ok = String;
    type Error = NoKeys;
    type SerializeSeq = Impossible<String, NoKeys>;
    type SerializeTuple = Impossible<String, NoKeys>;
    type SerializeTupleStruct = Impossible<String, NoKeys>;
    type SerializeTupleVariant = Impossible<String, NoKeys>;
    type SerializeMap = Impossible<String, NoKeys>;
    type SerializeStruct = Impossible<String, NoKeys>;
    type SerializeStructVariant = Impossible<String, NoKeys>;

    no_keys! {
        serialize_bool(bool); serialize_i8(i8); serialize_i16(i16); serialize_i32(i32);
        serialize_i64(i64); serialize_u8(u8); serialize_u16(u16); serialize_u32(u32);
        serialize_u64(u64); serialize_f32(f32); serialize_f64(f64); serialize_char(char);
        serialize_bytes(&[u8]);
    }
    no_compounds!();

    fn serialize_str(self, key: &str) -> Result<String, NoKeys> {
        Ok(key.to_owned())
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<String, NoKeys> {
        value.serialize(self)
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, value: &T) -> Result<String, NoKeys> {
        value.serialize(self)
    }

    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, NoKeys> {
        Err(NoKeys)
    }

    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self::SerializeStruct, NoKeys> {
        Err(NoKeys)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    #[derive(serde::Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Meta {
        api_version: String,
        kind: String,
    }

    #[derive(serde::Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Kind {
        #[serde(flatten)]
        type_meta: Option<Meta>,
        metadata: BTreeMap<String, String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        status: Option<u32>,
        spec_field: Vec<u32>,
    }

    #[test]
    fn records_struct_fields_and_flattened_keys_without_their_values() {
        let kind = Kind {
            type_meta: Some(Meta {
                api_version: "v1".into(),
                kind: "Kind".into(),
            }),
            metadata: BTreeMap::from([("name".into(), "x".into())]),
            status: None,
            spec_field: vec![1],
        };
        assert_eq!(top_level(&kind), ["apiVersion", "kind", "metadata", "specField"]);
        assert_eq!(top_level(&BTreeMap::from([("b", 1), ("a", 2)])), ["a", "b"]);
        assert!(top_level(&7).is_empty());
    }
}
