//! CRD validation: the cases the issue names and the structural-schema rules, with Kubernetes'
//! messages.

use serde_json::{Value, json};

use super::validate;

fn crd(spec: Value) -> Value {
    json!({"metadata": {"name": "foos.ex.com"}, "spec": spec})
}

fn good_spec() -> Value {
    json!({
        "group": "ex.com", "scope": "Namespaced",
        "names": {"plural": "foos", "singular": "foo", "kind": "Foo", "listKind": "FooList"},
        "versions": [{"name": "v1", "served": true, "storage": true,
            "schema": {"openAPIV3Schema": {"type": "object", "properties": {
                "spec": {"type": "object", "properties": {"replicas": {"type": "integer"}}}}}}}]
    })
}

fn errors(crd: &Value) -> Vec<String> {
    validate(crd, None).iter().map(|e| e.to_string()).collect()
}

#[test]
fn a_good_crd_passes() {
    assert_eq!(errors(&crd(good_spec())), Vec::<String>::new());
}

#[test]
fn storage_versions_are_exactly_one() {
    let mut spec = good_spec();
    spec["versions"][0]["storage"] = json!(false);
    assert_eq!(
        errors(&crd(spec.clone())),
        [
            "spec.versions: Invalid value: [{\"Name\":\"v1\",\"Served\":true,\"Storage\":false,\"Deprecated\":false,\"DeprecationWarning\":null,\"Schema\":null,\"Subresources\":null,\"AdditionalPrinterColumns\":null,\"SelectableFields\":null}]: must have exactly one version marked as storage version",
            "status.storedVersions: Invalid value: null: must have at least one stored version",
        ]
    );
    let mut second = spec["versions"][0].clone();
    second["name"] = json!("v2");
    spec["versions"][0]["storage"] = json!(true);
    second["storage"] = json!(true);
    spec["versions"].as_array_mut().unwrap().push(second);
    assert_eq!(
        errors(&crd(spec)),
        [
            "spec.versions: Invalid value: [{\"Name\":\"v1\",\"Served\":true,\"Storage\":true,\"Deprecated\":false,\"DeprecationWarning\":null,\"Schema\":null,\"Subresources\":null,\"AdditionalPrinterColumns\":null,\"SelectableFields\":null},{\"Name\":\"v2\",\"Served\":true,\"Storage\":true,\"Deprecated\":false,\"DeprecationWarning\":null,\"Schema\":null,\"Subresources\":null,\"AdditionalPrinterColumns\":null,\"SelectableFields\":null}]: must have exactly one version marked as storage version"
        ]
    );
}

#[test]
fn a_group_needs_a_dot_and_the_name_follows_it() {
    let mut spec = good_spec();
    spec["group"] = json!("ex");
    assert_eq!(
        errors(&json!({"metadata": {"name": "foos.ex"}, "spec": spec})),
        ["spec.group: Invalid value: \"ex\": should be a domain with at least one dot"]
    );
    assert_eq!(
        errors(&json!({"metadata": {"name": "bars.ex.com"}, "spec": good_spec()})),
        ["metadata.name: Invalid value: \"bars.ex.com\": must be spec.names.plural+\".\"+spec.group"]
    );
}

#[test]
fn schemas_must_be_structural() {
    let mut spec = good_spec();
    spec["versions"][0]["schema"]["openAPIV3Schema"] = json!({"type": "object", "properties": {
        "spec": {"properties": {"a": {"type": "string"}}},
        "list": {"type": "array"},
        "metadata": {"type": "object", "properties": {"labels": {"type": "object"}}},
        "port": {"type": "string", "x-kubernetes-int-or-string": true}
    }});
    // One version: its schema is reported where the internal type holds it.
    let root = "spec.validation.openAPIV3Schema";
    assert_eq!(
        errors(&crd(spec)),
        [
            format!("{root}.properties[list].items: Required value: must be specified"),
            format!(
                "{root}.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified"
            ),
            format!(
                "{root}.properties[port].type: Invalid value: \"string\": must be empty if x-kubernetes-int-or-string is true"
            ),
            format!("{root}.properties[spec].type: Required value: must not be empty for specified object fields"),
        ]
    );
    let mut missing = good_spec();
    missing["versions"][0].as_object_mut().unwrap().remove("schema");
    assert_eq!(
        errors(&crd(missing)),
        ["spec.versions[0].schema.openAPIV3Schema: Required value"]
    );
}

#[test]
fn rules_must_compile_and_fit_the_budget() {
    let mut spec = good_spec();
    spec["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["x-kubernetes-validations"] =
        json!([{"rule": "self.replicas >"}]);
    let found = errors(&crd(spec));
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].starts_with(
            "spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: Invalid value: {\"Rule\":\"self.replicas >\",\"Message\":\"\",\"MessageExpression\":\"\",\"Reason\":null,\"FieldPath\":\"\",\"OptionalOldSelf\":null}: compilation failed: ERROR: <input>:1:"
        ),
        "{}",
        found[0]
    );
}

#[test]
fn rules_may_select_only_fields_the_schema_has() {
    let mut spec = good_spec();
    spec["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["x-kubernetes-validations"] =
        json!([{"rule": "self.replicas > 0 && self.size < 3"}]);
    assert_eq!(
        errors(&crd(spec)),
        [
            "spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: Invalid value: {\"Rule\":\"self.replicas > 0 && self.size < 3\",\"Message\":\"\",\"MessageExpression\":\"\",\"Reason\":null,\"FieldPath\":\"\",\"OptionalOldSelf\":null}: compilation failed: ERROR: <input>:1:26: undefined field 'size'\n | self.replicas > 0 && self.size < 3\n | .........................^"
        ]
    );
    // At the root, a resource's own fields are there; under preserved fields anything is.
    let mut root = good_spec();
    root["versions"][0]["schema"]["openAPIV3Schema"]["x-kubernetes-validations"] =
        json!([{"rule": "self.metadata.name.size() < 20 && self.spec.replicas >= 0"}]);
    assert_eq!(errors(&crd(root)), Vec::<String>::new());
}
