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

#[test]
fn one_evaluation_over_the_call_limit_stops_validation() {
    // Estimated at 500 × 500 steps, the rule is admitted when the CRD is written; on a full
    // list one evaluation would pass cel-go's per-call limit, so it is not run.
    let s = schema(json!({"type": "object", "properties": {"spec": {"type": "object",
    "properties": {"ids": {"type": "array", "maxItems": 500, "items": {"type": "integer"}}},
    "x-kubernetes-validations": [
        {"rule": "self.ids.all(a, self.ids.all(b, a == b || a != b))", "message": "distinct"},
        {"rule": "size(self.ids) < 0", "message": "never reached"}
    ]}}}));
    assert!(
        super::cost::cost(
            &s.field("spec").unwrap().rules[0].program.expression().expr,
            &[("self", super::Bound::Node(s.field("spec").unwrap()))]
        ) < super::COST_LIMIT
    );
    let few: Vec<i64> = (0..10).collect();
    assert_eq!(
        errors(&s, json!({"spec": {"ids": few}}), None),
        ["spec: Invalid value: never reached"]
    );
    let many: Vec<i64> = (0..500).collect();
    assert_eq!(
        errors(&s, json!({"spec": {"ids": many}}), None),
        [
            "spec: Invalid value: \"object\": 'operation cancelled: actual cost limit exceeded': no further \
          validation rules will be run due to call cost exceeds limit for rule: distinct"
        ]
    );
}

#[test]
fn the_budget_of_one_object_is_shared_by_all_its_rules() {
    let s = schema(json!({"type": "object", "properties": {"items": {"type": "array",
        "items": {"type": "integer", "x-kubernetes-validations": [{"rule": "self >= 0"}]}}}}));
    let v = json!({"items": [1, 2, 3, 4, 5, 6, 7, 8, -1]});
    let mut out = Vec::new();
    let mut budget = 10.0;
    super::run_within(
        &s,
        &v,
        None,
        &kube_apimachinery::validation::Path::ROOT,
        &mut out,
        &mut budget,
    );
    let found: Vec<String> = out.iter().map(|e| e.to_string()).collect();
    assert_eq!(
        found,
        [
            "items[3]: Invalid value: \"integer\": validation failed due to running out of cost budget, \
          no further validation rules will be run"
        ]
    );
    // With the whole budget, the last item's failure is found.
    assert_eq!(
        errors(&s, v, None),
        ["items[8]: Invalid value: -1: failed rule: self >= 0"]
    );
}

#[test]
fn properties_named_as_cel_keywords_or_with_punctuation_are_selected_escaped() {
    assert_eq!(super::escape("namespace").as_deref(), Some("__namespace__"));
    assert_eq!(
        super::escape("x-y.z/w").as_deref(),
        Some("x__dash__y__dot__z__slash__w")
    );
    assert_eq!(super::escape("a__b").as_deref(), Some("a__underscores__b"));
    assert_eq!(super::escape("1a"), None);
    assert_eq!(super::escape("a b"), None);
    // The CSI snapshotter's CRDs select `namespace` this way.
    let s = schema(json!({"type": "object", "properties": {"ref": {
        "type": "object",
        "properties": {"name": {"type": "string"}, "namespace": {"type": "string"}, "max-size": {"type": "integer"}},
        "x-kubernetes-validations": [
            {"rule": "has(self.name) && has(self.__namespace__)", "message": "both must be set"},
            {"rule": "!has(self.max__dash__size) || self.max__dash__size > 0"}
        ]
    }}}));
    assert!(errors(&s, json!({"ref": {"name": "a", "namespace": "b", "max-size": 1}}), None).is_empty());
    assert_eq!(
        errors(&s, json!({"ref": {"name": "a", "max-size": 0}}), None),
        [
            "ref: Invalid value: both must be set",
            "ref: Invalid value: failed rule: !has(self.max__dash__size) || self.max__dash__size > 0"
        ]
    );
}
