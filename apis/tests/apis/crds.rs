//! The CRD manifests checked in under `generated/crds/`, read as a cluster would read them: each
//! decodes strictly as an apiextensions.k8s.io/v1 CustomResourceDefinition (ours and
//! k8s-openapi's) without losing a field, serves exactly the widgets kinds the Scheme knows, words
//! its deprecation as `kube_apimachinery::ApiLifecycle` does, and its schemas keep and admit everything the
//! Rust types write: random objects of every version, serialized, would not lose a field to
//! pruning nor fail a type, enum or required check.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use apis::apiextensions::v1 as crd_v1;
use apis::widgets::{v1, v1alpha1};
use kube_apimachinery::codec::Codec;
use kube_apimachinery::{ApiLifecycle, GroupVersion};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

fn crd_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../generated/crds");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("generated/crds exists")
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    files
}

fn read(path: &Path) -> (String, Value) {
    let text = std::fs::read_to_string(path).unwrap();
    let value: Value = serde_saphyr::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    (text, value)
}

/// The CRD of one resource of the widgets group.
fn crd(plural: &str) -> Value {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../generated/crds/widgets.example.dev_{plural}.yaml"));
    read(&path).1
}

#[test]
fn every_crd_decodes_strictly_and_loses_nothing() {
    let scheme = apis::scheme().unwrap();
    let strict = Codec::new(&scheme).with_strict(true);
    for path in crd_files() {
        let (text, value) = read(&path);
        strict
            .decode(text.as_bytes())
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        // The same manifest with an extension a JSONSchemaProps cannot hold is rejected, so the
        // strict decode above would catch one.
        let mut foreign = value.clone();
        foreign["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["x-kubernetes-print-columns"] = "x".into();
        let err = strict.decode(foreign.to_string().as_bytes()).unwrap_err().to_string();
        assert!(err.contains("x-kubernetes-print-columns"), "{}: {err}", path.display());
        let ours: crd_v1::CustomResourceDefinition = serde_json::from_value(value.clone()).unwrap();
        // Ours writes bounds as Go does (`1`, not `1.0`): byte for byte the same document.
        assert_eq!(serde_json::to_value(&ours).unwrap(), value, "{}", path.display());
        let floats = numbers_as_floats(value.clone());
        let same = |v: Value| numbers_as_floats(v) == floats;
        let theirs: k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition =
            serde_json::from_value(value.clone()).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(same(serde_json::to_value(&theirs).unwrap()), "{}", path.display());
    }
}

/// k8s-openapi writes the f64 bounds (`minimum`) as `1.0` where Go writes `1`: the same number.
/// Every number becomes a float so that comparison is about values, not spelling.
fn numbers_as_floats(v: Value) -> Value {
    match v {
        Value::Number(n) => n.as_f64().map_or(Value::Number(n), Value::from),
        Value::Array(a) => Value::Array(a.into_iter().map(numbers_as_floats).collect()),
        Value::Object(m) => Value::Object(m.into_iter().map(|(k, x)| (k, numbers_as_floats(x))).collect()),
        other => other,
    }
}

#[test]
fn crds_serve_the_kinds_of_the_widgets_group() {
    let scheme = apis::scheme().unwrap();
    let mut expected = BTreeSet::new();
    for version in ["v1", "v1alpha1"] {
        let gv = GroupVersion::new("widgets.example.dev", version);
        for kind in scheme.known_types(&gv).into_keys().filter(|k| !k.ends_with("List")) {
            expected.insert((version.to_string(), kind));
        }
    }
    let mut served = BTreeSet::new();
    for path in crd_files() {
        let (_, crd) = read(&path);
        let spec = &crd["spec"];
        let kind = spec["names"]["kind"].as_str().unwrap();
        let plural = spec["names"]["plural"].as_str().unwrap();
        assert_eq!(crd["metadata"]["name"], format!("{plural}.widgets.example.dev"));
        assert_eq!(
            path.file_name().unwrap().to_string_lossy(),
            format!("widgets.example.dev_{plural}.yaml")
        );
        let versions = spec["versions"].as_array().unwrap();
        let names: Vec<&str> = versions.iter().map(|v| v["name"].as_str().unwrap()).collect();
        assert_eq!(names, ["v1", "v1alpha1"], "versions in priority order");
        let storage: Vec<&str> = versions
            .iter()
            .filter(|v| v["storage"] == true)
            .map(|v| v["name"].as_str().unwrap())
            .collect();
        assert_eq!(storage, ["v1"], "{kind}");
        for v in versions {
            served.insert((v["name"].as_str().unwrap().to_string(), kind.to_string()));
        }
    }
    assert_eq!(served, expected);
}

#[test]
fn scope_and_subresources_follow_the_tags() {
    let (widgets, classes) = (crd("widgets"), crd("widgetclasses"));
    assert_eq!(widgets["spec"]["scope"], "Namespaced");
    assert_eq!(classes["spec"]["scope"], "Cluster");
    assert_eq!(widgets["spec"]["names"]["shortNames"], serde_json::json!(["wd"]));
    let v1 = &widgets["spec"]["versions"][0];
    assert_eq!(v1["subresources"]["status"], serde_json::json!({}));
    assert_eq!(v1["subresources"]["scale"]["specReplicasPath"], ".spec.replicas");
    assert!(classes["spec"]["versions"][0].get("subresources").is_none());
    // Widget's versions hold different fields, so it converts through the hub in a webhook
    // (conversion_review.rs); WidgetClass's versions are alike and need none.
    assert_eq!(widgets["spec"]["conversion"]["strategy"], "Webhook");
    assert_eq!(
        widgets["spec"]["conversion"]["webhook"]["clientConfig"]["service"],
        serde_json::json!({ "name": "widgets-webhook", "namespace": "widgets-system", "path": "/convert" })
    );
    assert_eq!(
        widgets["spec"]["conversion"]["webhook"]["conversionReviewVersions"],
        serde_json::json!(["v1"])
    );
    assert!(classes["spec"].get("conversion").is_none());
}

/// The CRD's deprecation warning is the one a server built on `kube_apimachinery::ApiLifecycle` sends for
/// the same kind once the deprecating release is current.
#[test]
fn deprecation_warnings_match_the_lifecycle_methods() {
    let widgets = crd("widgets");
    let alpha = &widgets["spec"]["versions"][1];
    assert_eq!(alpha["deprecated"], true);
    let gvk = v1alpha1::SCHEME_GROUP_VERSION.with_kind("Widget");
    let deprecated = v1alpha1::Widget::api_lifecycle_deprecated().unwrap();
    let warning = v1alpha1::Widget::deprecation_warning(&gvk, deprecated).unwrap();
    assert_eq!(alpha["deprecationWarning"], warning);
    assert_eq!(
        warning,
        "widgets.example.dev/v1alpha1 Widget is deprecated in v1.34+, unavailable in v1.37+; use widgets.example.dev/v1 Widget"
    );
    let ga = &widgets["spec"]["versions"][0];
    assert!(ga.get("deprecated").is_none() && ga.get("deprecationWarning").is_none());
}

/// Where `value` breaks `schema` as the API server would apply it: fields it would prune, types
/// and enum values it would reject, required fields missing.
fn misfits(value: &Value, schema: &Value, path: &str, out: &mut Vec<String>) {
    let flag = |k: &str| schema.get(k) == Some(&Value::Bool(true));
    if flag("x-kubernetes-int-or-string") {
        if !(value.is_i64() || value.is_u64() || value.is_string()) {
            out.push(format!("{path}: {value} is neither an integer nor a string"));
        }
        return;
    }
    // ObjectMeta is validated by the server itself; the schema only says it is an object.
    if path == ".metadata" {
        return;
    }
    let ty = schema.get("type").and_then(Value::as_str);
    let ok = match (ty, value) {
        (None, _) => flag("x-kubernetes-preserve-unknown-fields"),
        (Some("object"), Value::Object(_)) | (Some("array"), Value::Array(_)) => true,
        (Some("string"), Value::String(_)) | (Some("boolean"), Value::Bool(_)) => true,
        (Some("integer"), v) => v.is_i64() || v.is_u64(),
        (Some("number"), v) => v.is_number(),
        _ => false,
    };
    if !ok {
        out.push(format!("{path}: {value} is not of type {ty:?}"));
        return;
    }
    if let Some(values) = schema.get("enum").and_then(Value::as_array)
        && !values.contains(value)
    {
        out.push(format!("{path}: {value} is not one of {values:?}"));
    }
    match value {
        Value::Object(map) if !flag("x-kubernetes-preserve-unknown-fields") => {
            for (key, v) in map {
                let sub = format!("{path}.{key}");
                match (
                    schema.pointer(&format!("/properties/{key}")),
                    schema.get("additionalProperties"),
                ) {
                    (Some(s), _) | (None, Some(s)) => misfits(v, s, &sub, out),
                    (None, None) => out.push(format!("{sub}: would be pruned")),
                }
            }
            for required in schema.get("required").and_then(Value::as_array).into_iter().flatten() {
                if !map.contains_key(required.as_str().unwrap()) {
                    out.push(format!("{path}: required field {required} is missing"));
                }
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                misfits(item, &schema["items"], &format!("{path}[{i}]"), out);
            }
        }
        _ => {}
    }
}

fn schema_of(kind: &str, version: &str) -> Value {
    for path in crd_files() {
        let (_, crd) = read(&path);
        if crd["spec"]["names"]["kind"] == kind {
            for v in crd["spec"]["versions"].as_array().unwrap() {
                if v["name"] == version {
                    return v["schema"]["openAPIV3Schema"].clone();
                }
            }
        }
    }
    panic!("no CRD schema for {version} {kind}");
}

fn assert_fits<T: DeserializeOwned + Serialize>(kind: &str, version: &str) {
    let schema = schema_of(kind, version);
    let mut fields = BTreeSet::new();
    for seed in 0..64 {
        let obj: T = kube_apimachinery::testing::fill(seed).expect("widget types fill");
        let mut value = serde_json::to_value(&obj).unwrap();
        // A client sends apiVersion and kind; the schema must admit them too.
        value["apiVersion"] = format!("widgets.example.dev/{version}").into();
        value["kind"] = kind.into();
        let mut out = Vec::new();
        misfits(&value, &schema, "", &mut out);
        assert!(out.is_empty(), "{version} {kind} seed {seed}:\n{}", out.join("\n"));
        collect_paths(&value, "", &mut fields);
    }
    // The random objects reached the leaves, so the check above covered them.
    assert!(fields.len() > 8, "{version} {kind}: only {fields:?}");
}

fn collect_paths(v: &Value, path: &str, out: &mut BTreeSet<String>) {
    if let Value::Object(m) = v {
        for (k, x) in m {
            let p = format!("{path}.{k}");
            collect_paths(x, &p, out);
            out.insert(p);
        }
    }
}

#[test]
fn schemas_keep_and_admit_everything_the_types_write() {
    assert_fits::<v1::Widget>("Widget", "v1");
    assert_fits::<v1alpha1::Widget>("Widget", "v1alpha1");
    assert_fits::<v1::WidgetClass>("WidgetClass", "v1");
    assert_fits::<v1alpha1::WidgetClass>("WidgetClass", "v1alpha1");
}

/// The checker is not vacuous: a field the schema lacks, a wrong type and a bad enum value are
/// each reported.
#[test]
fn misfits_are_reported() {
    let schema = schema_of("Widget", "v1");
    let value = serde_json::json!({
        "spec": { "image": "x", "size": "Huge", "replicas": "three", "colour": "red" },
    });
    let mut out = Vec::new();
    misfits(&value, &schema, "", &mut out);
    out.sort();
    assert_eq!(
        out,
        [
            ".spec.colour: would be pruned",
            ".spec.replicas: \"three\" is not of type Some(\"integer\")",
            ".spec.size: \"Huge\" is not one of [String(\"Large\"), String(\"Medium\"), String(\"Small\")]",
        ]
    );
}
