//! The CEL rules of a schema: messages, reasons, field paths, transition rules and cost bounds.

use serde_json::{Value, json};

use super::super::{Structural, validate};

fn schema(v: Value) -> Structural {
    let mut errors = Vec::new();
    let s = Structural::read(&v, "openAPIV3Schema", &mut errors);
    assert!(errors.is_empty(), "{errors:?}");
    s
}

fn errors(s: &Structural, new: Value, old: Option<Value>) -> Vec<String> {
    validate(s, &new, old.as_ref()).iter().map(|e| e.to_string()).collect()
}

fn spec_with(rules: Value) -> Structural {
    schema(json!({"type": "object", "properties": {"spec": {
        "type": "object",
        "properties": {
            "replicas": {"type": "integer"},
            "maxReplicas": {"type": "integer"},
            "ratio": {"type": "number"},
            "name": {"type": "string"},
            "tags": {"type": "array", "items": {"type": "string"}}
        },
        "x-kubernetes-validations": rules
    }}}))
}

#[test]
fn a_failed_rule_says_its_message_or_the_rule() {
    let s = spec_with(json!([
        {"rule": "self.replicas <= self.maxReplicas"},
        {"rule": "self.name.startsWith('x')", "message": "name must start with x"},
        {"rule": "self.ratio < 1.0", "messageExpression": "'ratio ' + string(self.ratio) + ' is too big'"}
    ]));
    let ok = json!({"spec": {"replicas": 1, "maxReplicas": 2, "ratio": 0, "name": "xa"}});
    assert!(errors(&s, ok, None).is_empty());
    let bad = json!({"spec": {"replicas": 3, "maxReplicas": 2, "ratio": 2, "name": "a"}});
    assert_eq!(
        errors(&s, bad, None),
        [
            "spec: Invalid value: failed rule: self.replicas <= self.maxReplicas",
            "spec: Invalid value: name must start with x",
            "spec: Invalid value: ratio 2 is too big",
        ]
    );
}

#[test]
fn reason_and_field_path_shape_the_error() {
    let s = spec_with(json!([
        {"rule": "has(self.name)", "reason": "FieldValueRequired", "fieldPath": ".name", "message": "name is required"},
        {"rule": "self.tags.all(t, t.size() < 4)", "reason": "FieldValueForbidden", "fieldPath": ".tags"}
    ]));
    assert_eq!(
        errors(&s, json!({"spec": {"tags": ["long-tag"]}}), None),
        [
            "spec.name: Required value: name is required",
            "spec.tags: Forbidden: failed rule: self.tags.all(t, t.size() < 4)",
        ]
    );
}

#[test]
fn transition_rules_run_on_update_only() {
    let s = spec_with(json!([{"rule": "self.replicas >= oldSelf.replicas", "message": "may not shrink"}]));
    let old = json!({"spec": {"replicas": 3}});
    assert!(errors(&s, json!({"spec": {"replicas": 1}}), None).is_empty());
    assert_eq!(
        errors(&s, json!({"spec": {"replicas": 1}}), Some(old.clone())),
        ["spec: Invalid value: may not shrink"]
    );
    assert!(errors(&s, json!({"spec": {"replicas": 4}}), Some(old)).is_empty());
}

#[test]
fn rules_on_scalars_and_list_map_items_see_their_value() {
    let s = schema(
        json!({"type": "object", "properties": {"spec": {"type": "object", "properties": {
            "image": {"type": "string", "x-kubernetes-validations": [{"rule": "self.matches('^[a-z]+:[0-9.]+$')"}]},
            "ports": {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"],
                "items": {"type": "object", "properties": {"name": {"type": "string"}, "port": {"type": "integer"}},
                    "x-kubernetes-validations": [{"rule": "self.port == oldSelf.port", "message": "port is immutable"}]}}
        }}}}),
    );
    assert_eq!(
        errors(&s, json!({"spec": {"image": "nginx"}}), None),
        ["spec.image: Invalid value: \"nginx\": failed rule: self.matches('^[a-z]+:[0-9.]+$')"]
    );
    let old = json!({"spec": {"ports": [{"name": "a", "port": 1}, {"name": "b", "port": 2}]}});
    // `b` moved and `c` is new: only the item with an old counterpart is compared.
    let new =
        json!({"spec": {"ports": [{"name": "c", "port": 9}, {"name": "b", "port": 3}, {"name": "a", "port": 1}]}});
    assert_eq!(
        errors(&s, new, Some(old)),
        ["spec.ports[1]: Invalid value: port is immutable"]
    );
}

#[test]
fn a_rule_that_does_not_compile_is_located() {
    let mut errors = Vec::new();
    let bad = json!({"type": "object", "properties": {"spec": {"type": "object",
        "x-kubernetes-validations": [{"rule": "self.a >"}, {"rule": "true", "reason": "Nope"}]}}});
    Structural::read(&bad, "spec.versions[0].schema.openAPIV3Schema", &mut errors);
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert_eq!(
        errors[0].path,
        "spec.versions[0].schema.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule"
    );
    assert!(
        errors[0].message.starts_with("compilation failed: ERROR: <input>:1:"),
        "{}",
        errors[0].message
    );
    assert_eq!(
        errors[1].path,
        "spec.versions[0].schema.openAPIV3Schema.properties[spec].x-kubernetes-validations[1].reason"
    );
}

#[test]
fn nested_comprehensions_over_unbounded_lists_are_over_budget() {
    let node = |max: Value| {
        schema(
            json!({"type": "object", "properties": {"lists": {"type": "array", "maxItems": max,
            "items": {"type": "array", "maxItems": 100, "items": {"type": "string"}}}},
            "x-kubernetes-validations": [{"rule": "self.lists.all(l, l.all(s, s.size() < 10))"}]}),
        )
    };
    let unbounded = schema(json!({"type": "object", "properties": {"lists": {"type": "array",
            "items": {"type": "array", "items": {"type": "string"}}}},
            "x-kubernetes-validations": [{"rule": "self.lists.all(l, l.all(s, s.size() < 10))"}]}));
    assert!(unbounded.rules[0].over_budget(&unbounded).is_some());
    let bounded = node(json!(5));
    assert!(bounded.rules[0].over_budget(&bounded).is_none());
}

#[test]
fn kubernetes_list_functions() {
    let s = schema(json!({"type": "object", "properties": {"spec": {"type": "object",
    "properties": {"tags": {"type": "array", "items": {"type": "integer"}}},
    "x-kubernetes-validations": [
        {"rule": "self.tags.isSorted()", "message": "sorted"},
        {"rule": "self.tags.sum() < 10", "message": "small"},
        {"rule": "self.tags.max() < 6", "message": "max"},
        {"rule": "self.tags.min() > 0", "message": "min"}
    ]}}}));
    let found = errors(&s, json!({"spec": {"tags": [1, 2, 5]}}), None);
    assert!(found.is_empty(), "{found:?}");
    assert_eq!(
        errors(&s, json!({"spec": {"tags": [7, 0, 4]}}), None),
        [
            "spec: Invalid value: sorted",
            "spec: Invalid value: small",
            "spec: Invalid value: max",
            "spec: Invalid value: min",
        ]
    );
}
