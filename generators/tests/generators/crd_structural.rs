//! Every CRD manifest the repository checks in (`generated/crds/` and each fixture's
//! `generated/crds/`) holds structural schemas by the API server's rules: every node has a
//! `type` (unless it is int-or-string or keeps unknown fields), no `$ref`, no `properties` beside
//! `additionalProperties`, logical junctors only in the int-or-string form, `metadata` without
//! restrictions, list maps whose items are objects with scalar keys that are required or
//! defaulted, sets of scalars, and defaults and enum values of the node's type. The manifest
//! around the schemas is checked too: one storage version, and subresource paths that resolve.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

fn manifests() -> Vec<PathBuf> {
    let mut dirs = vec![PathBuf::from("../generated/crds")];
    for fixture in std::fs::read_dir("tests/fixtures").unwrap() {
        dirs.push(fixture.unwrap().path().join("generated/crds"));
    }
    let mut files: Vec<PathBuf> = dirs
        .iter()
        .filter(|d| d.exists())
        .flat_map(|d| std::fs::read_dir(d).unwrap().map(|e| e.unwrap().path()))
        .collect();
    files.sort();
    files
}

fn is_scalar(t: Option<&str>) -> bool {
    matches!(t, Some("string" | "integer" | "number" | "boolean"))
}

fn fits_type(t: Option<&str>, v: &Value) -> bool {
    match t {
        Some("string") => v.is_string(),
        Some("integer") => v.is_i64() || v.is_u64(),
        Some("number") => v.is_number(),
        Some("boolean") => v.is_boolean(),
        Some("object") => v.is_object(),
        Some("array") => v.is_array(),
        _ => true,
    }
}

/// The structural-schema violations under `s`, each with its path.
fn violations(s: &Value, path: &str, out: &mut Vec<String>) {
    let Some(map) = s.as_object() else {
        out.push(format!("{path}: not a schema object"));
        return;
    };
    let flag = |k: &str| map.get(k) == Some(&Value::Bool(true));
    let ty = map.get("type").and_then(Value::as_str);
    if map.contains_key("$ref") {
        out.push(format!("{path}: $ref"));
    }
    for k in ["x-kubernetes-preserve-unknown-fields", "x-kubernetes-int-or-string"] {
        if map.get(k).is_some_and(|v| v != &Value::Bool(true)) {
            out.push(format!("{path}: {k} must be true when set"));
        }
    }
    if flag("x-kubernetes-int-or-string") {
        let allowed = json!([{ "type": "integer" }, { "type": "string" }]);
        if ty.is_some() || map.get("anyOf").is_some_and(|a| a != &allowed) {
            out.push(format!(
                "{path}: int-or-string must have no type and anyOf [integer, string]"
            ));
        }
    } else if ty.is_none() && !flag("x-kubernetes-preserve-unknown-fields") {
        out.push(format!("{path}: no type"));
    }
    for junctor in ["allOf", "oneOf", "not"] {
        if map.contains_key(junctor) {
            out.push(format!("{path}: {junctor} outside the int-or-string form"));
        }
    }
    if map.contains_key("anyOf") && !flag("x-kubernetes-int-or-string") {
        out.push(format!("{path}: anyOf outside the int-or-string form"));
    }
    if map.contains_key("properties") && map.contains_key("additionalProperties") {
        out.push(format!("{path}: both properties and additionalProperties"));
    }
    if map.contains_key("x-kubernetes-map-type") && ty != Some("object") {
        out.push(format!("{path}: x-kubernetes-map-type on a {ty:?}"));
    }
    if let Some(d) = map.get("default")
        && !fits_type(ty, d)
    {
        out.push(format!("{path}: default {d} is not a {ty:?}"));
    }
    for e in map.get("enum").and_then(Value::as_array).into_iter().flatten() {
        if !fits_type(ty, e) {
            out.push(format!("{path}: enum value {e} is not a {ty:?}"));
        }
    }
    for (keys, want) in [
        (&["minLength", "maxLength", "pattern"][..], "string"),
        (
            &[
                "minimum",
                "maximum",
                "multipleOf",
                "exclusiveMinimum",
                "exclusiveMaximum",
            ][..],
            "integer|number",
        ),
        (&["minItems", "maxItems", "uniqueItems"][..], "array"),
        (&["minProperties", "maxProperties"][..], "object"),
    ] {
        for k in keys.iter().filter(|k| map.contains_key(**k)) {
            // An int-or-string value is checked as whichever it is (Quantity's pattern).
            let int_or_string = flag("x-kubernetes-int-or-string") && want != "array" && want != "object";
            if !int_or_string && !ty.is_some_and(|t| want.split('|').any(|w| w == t)) {
                out.push(format!("{path}: {k} on a {ty:?}"));
            }
        }
    }
    for rule in map
        .get("x-kubernetes-validations")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        if !rule.get("rule").is_some_and(Value::is_string) {
            out.push(format!("{path}: a validation rule without `rule`"));
        }
    }
    let items = map.get("items");
    match map.get("x-kubernetes-list-type").and_then(Value::as_str) {
        Some("map") => list_map(map, path, out),
        Some("set") if !is_scalar(items.and_then(|i| i["type"].as_str())) => {
            out.push(format!("{path}: a set of non-scalar items"));
        }
        _ if map.contains_key("x-kubernetes-list-map-keys") => {
            out.push(format!("{path}: list-map keys on a list that is not a map"));
        }
        _ => {}
    }
    if ty == Some("array") && items.is_none() {
        out.push(format!("{path}: array without items"));
    }
    for (name, sub) in map.get("properties").and_then(Value::as_object).into_iter().flatten() {
        violations(sub, &format!("{path}.{name}"), out);
    }
    if let Some(sub) = map.get("additionalProperties") {
        violations(sub, &format!("{path}.*"), out);
    }
    if let Some(sub) = items {
        violations(sub, &format!("{path}[]"), out);
    }
}

fn list_map(map: &serde_json::Map<String, Value>, path: &str, out: &mut Vec<String>) {
    let item = &map["items"];
    if item["type"] != "object" {
        out.push(format!("{path}: list map of non-objects"));
    }
    let keys = map.get("x-kubernetes-list-map-keys").and_then(Value::as_array);
    if keys.is_none_or(|k| k.is_empty()) {
        out.push(format!("{path}: list map without keys"));
    }
    let required: Vec<&Value> = item["required"].as_array().into_iter().flatten().collect();
    for key in keys.into_iter().flatten() {
        let field = &item["properties"][key.as_str().unwrap_or_default()];
        if !is_scalar(field["type"].as_str()) {
            out.push(format!("{path}: list-map key {key} is not a scalar field"));
        }
        if !required.contains(&key) && field.get("default").is_none() {
            out.push(format!("{path}: list-map key {key} is neither required nor defaulted"));
        }
    }
}

/// The schema's type at a `.a.b` path.
fn type_at<'a>(schema: &'a Value, path: &str) -> Option<&'a str> {
    let mut at = schema;
    for seg in path.trim_start_matches('.').split('.') {
        at = at.get("properties")?.get(seg)?;
    }
    at.get("type").and_then(Value::as_str)
}

fn check_manifest(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    assert!(
        text.starts_with("# Code generated by crd-gen. DO NOT EDIT.\n---\n"),
        "{}",
        path.display()
    );
    let crd: Value = serde_saphyr::from_str(&text).unwrap();
    let mut out = Vec::new();
    assert_eq!(crd["apiVersion"], "apiextensions.k8s.io/v1");
    assert_eq!(crd["kind"], "CustomResourceDefinition");
    let spec = &crd["spec"];
    let versions = spec["versions"].as_array().unwrap();
    let storage = versions.iter().filter(|v| v["storage"] == true).count();
    if storage != 1 {
        out.push(format!("{storage} storage versions"));
    }
    if let Some(conversion) = spec.get("conversion")
        && conversion["strategy"] == "Webhook"
    {
        let service = &conversion["webhook"]["clientConfig"]["service"];
        if !service["name"].is_string() || !service["namespace"].is_string() {
            out.push("webhook conversion without a service".into());
        }
        if !conversion["webhook"]["conversionReviewVersions"]
            .as_array()
            .is_some_and(|v| v.contains(&json!("v1")))
        {
            out.push("webhook conversion without review version v1".into());
        }
    }
    for v in versions {
        let name = v["name"].as_str().unwrap();
        let schema = &v["schema"]["openAPIV3Schema"];
        if schema["type"] != "object" {
            out.push(format!("{name}: root is not an object"));
        }
        if schema["properties"]["metadata"] != json!({ "type": "object" }) {
            out.push(format!("{name}: metadata carries restrictions"));
        }
        let mut found = Vec::new();
        violations(schema, "", &mut found);
        out.extend(found.into_iter().map(|f| format!("{name}: {f}")));
        if let Some(scale) = v["subresources"].get("scale") {
            for (key, want) in [("specReplicasPath", "integer"), ("statusReplicasPath", "integer")] {
                let p = scale[key].as_str().unwrap();
                if type_at(schema, p) != Some(want) {
                    out.push(format!("{name}: scale {key} {p} is not an {want}"));
                }
            }
        }
        if v["subresources"].get("status").is_some() && schema["properties"].get("status").is_none() {
            out.push(format!("{name}: status subresource without a status field"));
        }
    }
    out
}

#[test]
fn every_checked_in_crd_is_structural() {
    let files = manifests();
    assert!(files.len() >= 4, "CRD manifests went missing: {files:?}");
    for path in files {
        let problems = check_manifest(&path);
        assert!(problems.is_empty(), "{}:\n{}", path.display(), problems.join("\n"));
    }
}

/// The checker is not vacuous: each rule fires on a schema that breaks it.
#[test]
fn violations_are_found() {
    let bad = json!({
        "type": "object",
        "properties": {
            "untyped": { "description": "no type" },
            "reference": { "$ref": "#/definitions/X" },
            "both": { "type": "object", "properties": {}, "additionalProperties": { "type": "string" } },
            "ports": {
                "type": "array",
                "x-kubernetes-list-type": "map",
                "x-kubernetes-list-map-keys": ["name"],
                "items": { "type": "object", "properties": { "name": { "type": "string" } } },
            },
            "tags": { "type": "array", "x-kubernetes-list-type": "set", "items": { "type": "object" } },
            "size": { "type": "integer", "default": "big", "maxLength": 3 },
            "checked": { "type": "string", "x-kubernetes-validations": [{ "message": "m" }] },
            "mixed": { "anyOf": [{ "type": "integer" }, { "type": "string" }] },
        },
    });
    let mut out = Vec::new();
    violations(&bad, "", &mut out);
    out.sort();
    assert_eq!(
        out,
        [
            ".both: both properties and additionalProperties",
            ".checked: a validation rule without `rule`",
            ".mixed: anyOf outside the int-or-string form",
            ".mixed: no type",
            ".ports: list-map key \"name\" is neither required nor defaulted",
            ".reference: $ref",
            ".reference: no type",
            ".size: default \"big\" is not a Some(\"integer\")",
            ".size: maxLength on a Some(\"integer\")",
            ".tags: a set of non-scalar items",
            ".untyped: no type",
        ]
    );
}
