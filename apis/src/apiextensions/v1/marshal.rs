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

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use serde_json::{Value, json};

    use super::*;

    fn schema(type_: &str) -> Box<JSONSchemaProps> {
        Box::new(JSONSchemaProps {
            type_: Some(type_.into()),
            ..Default::default()
        })
    }

    fn read<T: for<'de> Deserialize<'de>>(v: Value) -> T {
        serde_json::from_value(v).expect("deserializes")
    }

    fn write<T: Serialize>(v: &T) -> Value {
        serde_json::to_value(v).expect("serializes")
    }

    /// The value survives a JSON round trip unchanged, through text as well as through `Value`.
    fn roundtrips<T: for<'de> Deserialize<'de> + Serialize>(v: Value) {
        assert_eq!(write(&read::<T>(v.clone())), v);
        let text = serde_json::to_string(&v).unwrap();
        let typed: T = serde_json::from_str(&text).unwrap();
        assert_eq!(serde_json::to_string(&typed).unwrap(), text);
    }

    #[test]
    fn or_array_reads_a_schema_or_an_array() {
        let one: JSONSchemaPropsOrArray = read(json!({"type": "string"}));
        assert_eq!(
            one,
            JSONSchemaPropsOrArray {
                schema: Some(schema("string")),
                json_schemas: vec![]
            }
        );
        let many: JSONSchemaPropsOrArray = read(json!([{"type": "string"}, {"type": "integer"}]));
        assert_eq!(many.schema, None);
        assert_eq!(many.json_schemas, vec![*schema("string"), *schema("integer")]);
        roundtrips::<JSONSchemaPropsOrArray>(json!({"type": "string"}));
        roundtrips::<JSONSchemaPropsOrArray>(json!([{"type": "string"}, {"type": "integer"}]));
        roundtrips::<JSONSchemaPropsOrArray>(json!({}));
    }

    #[test]
    fn or_array_is_empty_for_other_values_and_writes_null() {
        for v in [json!([]), json!(null), json!(true), json!(3), json!(1.5), json!("x")] {
            let got: JSONSchemaPropsOrArray = read(v.clone());
            assert_eq!(got, JSONSchemaPropsOrArray::default(), "{v}");
            assert_eq!(write(&got), Value::Null, "{v}");
        }
        // Both set: the array wins, as in Go.
        let both = JSONSchemaPropsOrArray {
            schema: Some(schema("string")),
            json_schemas: vec![*schema("integer")],
        };
        assert_eq!(write(&both), json!([{"type": "integer"}]));
    }

    #[test]
    fn or_array_reports_errors_inside_the_schema() {
        let err = serde_json::from_value::<JSONSchemaPropsOrArray>(json!({"type": 5})).unwrap_err();
        assert!(err.to_string().contains("invalid type"), "{err}");
        assert!(serde_json::from_value::<JSONSchemaPropsOrArray>(json!([true])).is_err());
    }

    #[test]
    fn or_bool_reads_a_schema_or_a_bool() {
        assert_eq!(
            read::<JSONSchemaPropsOrBool>(json!(true)),
            JSONSchemaPropsOrBool {
                allows: true,
                schema: None
            }
        );
        assert_eq!(
            read::<JSONSchemaPropsOrBool>(json!(false)),
            JSONSchemaPropsOrBool {
                allows: false,
                schema: None
            }
        );
        assert_eq!(
            read::<JSONSchemaPropsOrBool>(json!({"type": "string"})),
            JSONSchemaPropsOrBool {
                allows: true,
                schema: Some(schema("string"))
            }
        );
        for v in [json!(true), json!(false), json!({"type": "string"}), json!({})] {
            roundtrips::<JSONSchemaPropsOrBool>(v);
        }
    }

    #[test]
    fn or_bool_rejects_everything_else_with_gos_message() {
        for v in [json!(null), json!([]), json!(1), json!("true")] {
            let err = serde_json::from_value::<JSONSchemaPropsOrBool>(v.clone()).unwrap_err();
            assert!(
                err.to_string().contains("boolean or JSON schema expected"),
                "{v}: {err}"
            );
        }
        // A schema always wins over `allows`, even `false`.
        let odd = JSONSchemaPropsOrBool {
            allows: false,
            schema: Some(schema("string")),
        };
        assert_eq!(write(&odd), json!({"type": "string"}));
    }

    #[test]
    fn or_string_array_reads_a_schema_or_strings() {
        let strings: JSONSchemaPropsOrStringArray = read(json!(["a", "b"]));
        assert_eq!(strings.property, ["a", "b"]);
        assert_eq!(strings.schema, None);
        let one: JSONSchemaPropsOrStringArray = read(json!({"type": "object"}));
        assert_eq!(one.schema, Some(schema("object")));
        roundtrips::<JSONSchemaPropsOrStringArray>(json!(["a", "b"]));
        roundtrips::<JSONSchemaPropsOrStringArray>(json!({"type": "object"}));
        for v in [json!([]), json!(null), json!(false), json!(7), json!("a")] {
            let got: JSONSchemaPropsOrStringArray = read(v.clone());
            assert_eq!(got, JSONSchemaPropsOrStringArray::default(), "{v}");
            assert_eq!(write(&got), Value::Null, "{v}");
        }
        assert!(serde_json::from_value::<JSONSchemaPropsOrStringArray>(json!([1])).is_err());
    }

    #[test]
    fn dependencies_keep_null_entries() {
        // A map value that Go reads as empty is written back as null, never dropped.
        let deps: BTreeMap<String, JSONSchemaPropsOrStringArray> =
            read(json!({"a": ["b"], "c": {"required": ["d"]}, "e": null}));
        assert_eq!(write(&deps), json!({"a": ["b"], "c": {"required": ["d"]}, "e": null}));
    }

    #[test]
    fn optional_fields_drop_null_and_keep_empty_arrays_as_null() {
        let s: JSONSchemaProps = read(json!({"items": null, "additionalProperties": null}));
        assert_eq!(s, JSONSchemaProps::default());
        assert_eq!(write(&s), json!({}));
        let s: JSONSchemaProps = read(json!({"items": []}));
        assert_eq!(write(&s), json!({"items": null}));
    }

    #[test]
    fn floats_are_written_as_go_writes_them() {
        let s: JSONSchemaProps = read(json!({"minimum": 0, "maximum": 100, "multipleOf": 0.5}));
        assert_eq!(s.minimum, Some(0.0));
        assert_eq!(s.maximum, Some(100.0));
        assert_eq!(
            serde_json::to_string(&s).unwrap(),
            r#"{"maximum":100,"minimum":0,"multipleOf":0.5}"#
        );
        let s: JSONSchemaProps = read(json!({"minimum": -3.0, "maximum": 1e300}));
        assert_eq!(write(&s), json!({"minimum": -3, "maximum": 1e300}));
    }
}
