// The cases of marshal.rs, included once per apiextensions version (`api` names it).

use std::collections::BTreeMap;

use serde_json::{Value, json};

use api::{JSONSchemaProps, JSONSchemaPropsOrArray, JSONSchemaPropsOrBool, JSONSchemaPropsOrStringArray};
use serde::{Deserialize, Serialize};

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
