//! A custom object's values checked against its structural schema, with Kubernetes' messages.

use serde_json::{Value, json};

use super::{Structural, validate};

fn errors(schema: Value, new: Value, old: Option<Value>) -> Vec<String> {
    let mut problems = Vec::new();
    let s = Structural::read(&schema, "openAPIV3Schema", &mut problems);
    assert!(problems.is_empty(), "{problems:?}");
    validate(&s, &new, old.as_ref()).iter().map(|e| e.to_string()).collect()
}

fn spec(properties: Value) -> Value {
    json!({"type": "object", "properties": {"spec": {"type": "object", "properties": properties}}})
}

#[test]
fn types_are_checked_before_values() {
    let s = spec(
        json!({"replicas": {"type": "integer", "minimum": 0}, "on": {"type": "boolean"},
                        "port": {"x-kubernetes-int-or-string": true}, "ratio": {"type": "number"}}),
    );
    assert_eq!(
        errors(
            s.clone(),
            json!({"spec": {"replicas": "3", "on": 1, "port": true, "ratio": 1}}),
            None
        ),
        [
            "spec.on: Invalid value: \"integer\": spec.on in body must be of type boolean: \"integer\"",
            "spec.port: Invalid value: \"boolean\": spec.port in body must be of type integer,string: \"boolean\"",
            "spec.replicas: Invalid value: \"string\": spec.replicas in body must be of type integer: \"string\"",
        ]
    );
    assert_eq!(
        errors(s, json!({"spec": {"replicas": -5, "port": "http", "ratio": 0.5}}), None),
        ["spec.replicas: Invalid value: -5: spec.replicas in body should be greater than or equal to 0"]
    );
}

#[test]
fn required_enum_lengths_patterns_and_formats() {
    let s = json!({"type": "object", "properties": {"spec": {"type": "object", "required": ["mode", "name"],
    "properties": {
        "mode": {"type": "string", "enum": ["Fast", "Slow"]},
        "name": {"type": "string", "maxLength": 3, "pattern": "^[a-z]+$"},
        "id": {"type": "string", "format": "uuid"},
        "items": {"type": "array", "maxItems": 1, "items": {"type": "string", "minLength": 2}}
    }}}});
    assert_eq!(
        errors(
            s.clone(),
            json!({"spec": {"name": "Abcd", "id": "nope", "items": ["a", "bb"]}}),
            None
        ),
        [
            "spec.mode: Required value",
            "spec.id: Invalid value: \"nope\": spec.id in body must be of type uuid: \"nope\"",
            "spec.items: Too many: 2: must have at most 1 item",
            "spec.items[0]: Invalid value: \"a\": spec.items[0] in body should be at least 2 chars long",
            "spec.name: Too long: may not be more than 3 bytes",
            "spec.name: Invalid value: \"Abcd\": spec.name in body should match '^[a-z]+$'",
        ]
    );
    assert_eq!(
        errors(s, json!({"spec": {"mode": "Medium", "name": "ab"}}), None),
        ["spec.mode: Unsupported value: \"Medium\": supported values: \"Fast\", \"Slow\""]
    );
}

#[test]
fn list_types_nullable_and_embedded_resources() {
    let s = spec(json!({
        "set": {"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "string"}},
        "ports": {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"],
                  "items": {"type": "object", "properties": {"name": {"type": "string"}}}},
        "maybe": {"type": "string", "nullable": true},
        "never": {"type": "string"},
        "template": {"type": "object", "x-kubernetes-embedded-resource": true,
                     "x-kubernetes-preserve-unknown-fields": true}
    }));
    assert_eq!(
        errors(
            s,
            json!({"spec": {"set": ["a", "a"], "ports": [{"name": "x"}, {"name": "x"}], "maybe": null,
                            "never": null, "template": {"kind": "Pod"}}}),
            None
        ),
        [
            "spec.never: Invalid value: \"null\": spec.never in body must be of type string: \"null\"",
            "spec.ports[1]: Duplicate value: {\"name\":\"x\"}",
            "spec.set[1]: Duplicate value: \"a\"",
            "spec.template.apiVersion: Required value",
        ]
    );
}

#[test]
fn unchanged_values_are_not_checked_again_on_update() {
    let s = spec(json!({"name": {"type": "string", "maxLength": 3}, "size": {"type": "integer", "maximum": 5}}));
    let old = json!({"spec": {"name": "toolong", "size": 1}});
    assert!(
        errors(
            s.clone(),
            json!({"spec": {"name": "toolong", "size": 2}}),
            Some(old.clone())
        )
        .is_empty()
    );
    assert_eq!(
        errors(s, json!({"spec": {"name": "toolong", "size": 9}}), Some(old)),
        ["spec.size: Invalid value: 9: spec.size in body should be less than or equal to 5"]
    );
}
