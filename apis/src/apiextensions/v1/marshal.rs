//! The hand-written JSON forms of apiextensions v1 and v1beta1 (marshal.go in each; v1beta1 compiles this same file): `JSONSchemaPropsOrArray`
//! is a schema or an array of schemas, `JSONSchemaPropsOrBool` a schema or a bool,
//! `JSONSchemaPropsOrStringArray` a schema or an array of strings, `JSON` any JSON value as it is;
//! and float64 schema bounds written as Go's encoding/json writes them.
//!
//! Each impl reproduces its Go counterpart value for value, quirks included:
//!
//! | type | reads | writes |
//! |---|---|---|
//! | `JSONSchemaPropsOrArray` | object: `schema`; array: `json_schemas`; anything else: empty, no error | non-empty `json_schemas` as an array, else `schema`, else `null` |
//! | `JSONSchemaPropsOrBool` | object: `schema` and `allows: true`; bool: `allows`; anything else: error | `schema` if set, else `allows` |
//! | `JSONSchemaPropsOrStringArray` | object: `schema`; array: `property`; anything else: empty, no error | non-empty `property` as an array, else `schema`, else `null` |
//!
//! So `"items": []` reads as an empty value and writes back as `"items": null`, exactly as the API
//! server does. A `null` where such a value is optional (`"items": null`) is `None` in Rust and nil
//! in Go, and is dropped on output by both.

use std::fmt;

use serde::de::value::{MapAccessDeserializer, SeqAccessDeserializer};
use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, Serializer};

use super::{JSON, JSONSchemaProps, JSONSchemaPropsOrArray, JSONSchemaPropsOrBool, JSONSchemaPropsOrStringArray};

/// Writes an `Option<f64>` as Go's encoding/json writes a float64: a whole number without a
/// fractional part (`0`, `100`, not `0.0`), so schemas with `minimum: 0` survive a round trip.
/// Anything else is written as serde writes an f64.
pub(super) fn serialize_go_float<S: Serializer>(value: &Option<f64>, serializer: S) -> Result<S::Ok, S::Error> {
    match *value {
        // Every whole f64 below 2^63 in magnitude is exactly an i64.
        Some(f) if f.fract() == 0.0 && f.abs() < (1u64 << 63) as f64 => serializer.serialize_some(&(f as i64)),
        Some(f) => serializer.serialize_some(&f),
        None => serializer.serialize_none(),
    }
}

impl Serialize for JSON {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for JSON {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        serde_json::Value::deserialize(deserializer).map(JSON)
    }
}

impl Serialize for JSONSchemaPropsOrArray {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if !self.json_schemas.is_empty() {
            return self.json_schemas.serialize(serializer);
        }
        self.schema.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for JSONSchemaPropsOrArray {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = JSONSchemaPropsOrArray;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON schema or an array of JSON schemas")
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
                let schema = JSONSchemaProps::deserialize(MapAccessDeserializer::new(map))?;
                Ok(JSONSchemaPropsOrArray {
                    schema: Some(Box::new(schema)),
                    json_schemas: Vec::new(),
                })
            }
            fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
                let json_schemas = Vec::deserialize(SeqAccessDeserializer::new(seq))?;
                Ok(JSONSchemaPropsOrArray {
                    schema: None,
                    json_schemas,
                })
            }
            fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
                deserializer.deserialize_any(self)
            }
            fn visit_newtype_struct<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
                deserializer.deserialize_any(self)
            }
            // Go ignores every other value and leaves the result empty.
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
                Ok(JSONSchemaPropsOrArray::default())
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
                Ok(JSONSchemaPropsOrArray::default())
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
                Ok(JSONSchemaPropsOrArray::default())
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
                Ok(JSONSchemaPropsOrArray::default())
            }
            fn visit_str<E: de::Error>(self, _: &str) -> Result<Self::Value, E> {
                Ok(JSONSchemaPropsOrArray::default())
            }
            fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
                Ok(JSONSchemaPropsOrArray::default())
            }
            fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
                Ok(JSONSchemaPropsOrArray::default())
            }
        }
        deserializer.deserialize_any(V)
    }
}

impl Serialize for JSONSchemaPropsOrBool {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match &self.schema {
            Some(schema) => schema.serialize(serializer),
            None => serializer.serialize_bool(self.allows),
        }
    }
}

impl<'de> Deserialize<'de> for JSONSchemaPropsOrBool {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = JSONSchemaPropsOrBool;
            // Go's error text, word for word.
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("boolean or JSON schema expected")
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
                let schema = JSONSchemaProps::deserialize(MapAccessDeserializer::new(map))?;
                Ok(JSONSchemaPropsOrBool {
                    allows: true,
                    schema: Some(Box::new(schema)),
                })
            }
            fn visit_bool<E: de::Error>(self, allows: bool) -> Result<Self::Value, E> {
                Ok(JSONSchemaPropsOrBool { allows, schema: None })
            }
            fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
                deserializer.deserialize_any(self)
            }
            fn visit_newtype_struct<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
                deserializer.deserialize_any(self)
            }
        }
        deserializer.deserialize_any(V)
    }
}

impl Serialize for JSONSchemaPropsOrStringArray {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if !self.property.is_empty() {
            return self.property.serialize(serializer);
        }
        match &self.schema {
            Some(schema) => schema.serialize(serializer),
            None => serializer.serialize_none(),
        }
    }
}

impl<'de> Deserialize<'de> for JSONSchemaPropsOrStringArray {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = JSONSchemaPropsOrStringArray;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON schema or an array of strings")
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
                let schema = JSONSchemaProps::deserialize(MapAccessDeserializer::new(map))?;
                Ok(JSONSchemaPropsOrStringArray {
                    schema: Some(Box::new(schema)),
                    property: Vec::new(),
                })
            }
            fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
                let property = Vec::deserialize(SeqAccessDeserializer::new(seq))?;
                Ok(JSONSchemaPropsOrStringArray { schema: None, property })
            }
            fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
                deserializer.deserialize_any(self)
            }
            fn visit_newtype_struct<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
                deserializer.deserialize_any(self)
            }
            // Go ignores every other value and leaves the result empty.
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
                Ok(JSONSchemaPropsOrStringArray::default())
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
                Ok(JSONSchemaPropsOrStringArray::default())
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
                Ok(JSONSchemaPropsOrStringArray::default())
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
                Ok(JSONSchemaPropsOrStringArray::default())
            }
            fn visit_str<E: de::Error>(self, _: &str) -> Result<Self::Value, E> {
                Ok(JSONSchemaPropsOrStringArray::default())
            }
            fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
                Ok(JSONSchemaPropsOrStringArray::default())
            }
            fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
                Ok(JSONSchemaPropsOrStringArray::default())
            }
        }
        deserializer.deserialize_any(V)
    }
}
