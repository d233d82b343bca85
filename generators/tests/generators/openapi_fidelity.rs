//! Fidelity of the generated OpenAPI definitions against Kubernetes' own (1.36, the release of the
//! imported k8s.io/api, vendored under
//! `data/`, see `data/README.md`): for every apis type that mirrors a Kubernetes type, each
//! property our definition has must match the official one in type, format, `$ref` target, items,
//! additional properties, required-ness, x-kubernetes-* extensions and description. Where a
//! mirrored type deliberately differs, the difference is listed in `KNOWN` with its reason.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

const OFFICIAL: &str = include_str!("../../data/k8s-1.36-api-definitions.json");
const OURS: &str = include_str!("../../../generated/openapi/swagger.json");

/// Differences kept on purpose, as "Model.property: aspect", with the reason. None at present:
/// an entry that no longer matches a difference fails the test, so the list stays true.
const KNOWN: &[(&str, &str)] = &[];

/// The aspects of a property schema compared.
fn aspects(p: &Value) -> BTreeMap<&'static str, Value> {
    let mut a = BTreeMap::new();
    let get = |k: &str| p.get(k).cloned().unwrap_or(Value::Null);
    a.insert("type", get("type"));
    a.insert("format", get("format"));
    a.insert("$ref", get("$ref"));
    a.insert("items", p.get("items").map(json_shape).unwrap_or(Value::Null));
    a.insert(
        "additionalProperties",
        p.get("additionalProperties").map(json_shape).unwrap_or(Value::Null),
    );
    // Kubernetes publishes its spec (api/openapi-spec) with the OpenAPIEnums gate off, which a
    // live kube-apiserver has on: the live one, as ours, ends an enum's description with its
    // values. Compared without them.
    let description = get("description");
    let description = match description
        .as_str()
        .and_then(|d| d.split_once("\n\nPossible enum values:"))
    {
        Some((text, _)) => Value::String(text.to_string()),
        None => description,
    };
    a.insert("description", description);
    for (k, v) in p.as_object().into_iter().flatten() {
        if k.starts_with("x-kubernetes-") {
            a.insert(Box::leak(k.clone().into_boxed_str()), v.clone());
        }
    }
    a
}

/// The type-level shape of a nested schema (type, format, $ref), without its description.
fn json_shape(v: &Value) -> Value {
    let mut m = serde_json::Map::new();
    for k in ["type", "format", "$ref"] {
        if let Some(x) = v.get(k) {
            m.insert(k.into(), x.clone());
        }
    }
    Value::Object(m)
}

fn definitions(text: &str, key: Option<&str>) -> BTreeMap<String, Value> {
    let v: Value = serde_json::from_str(text).expect("valid JSON");
    let defs = match key {
        Some(k) => v[k].clone(),
        None => v,
    };
    serde_json::from_value(defs).expect("a map of definitions")
}

#[test]
fn mirrored_definitions_match_kubernetes() {
    let official = definitions(OFFICIAL, None);
    let ours = definitions(OURS, Some("definitions"));
    let known: BTreeSet<&str> = KNOWN.iter().map(|(k, _)| *k).collect();
    let mut used = BTreeSet::new();
    let mut diffs = Vec::new();
    let mut differs = |key: String, detail: String| {
        if known.contains(key.as_str()) {
            used.insert(key);
        } else {
            diffs.push(format!("{key}{detail}"));
        }
    };
    let mut compared = 0;
    for (name, off) in &official {
        let Some(our) = ours.get(name) else {
            differs(format!("{name}: not generated"), String::new());
            continue;
        };
        for aspect in ["type", "description", "x-kubernetes-group-version-kind"] {
            if our.get(aspect) != off.get(aspect) {
                differs(
                    format!("{name}: {aspect}"),
                    format!(": ours {:?}, official {:?}", our.get(aspect), off.get(aspect)),
                );
            }
        }
        let required = |d: &Value| -> BTreeSet<String> {
            d["required"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .map(String::from)
                .collect()
        };
        let (off_required, our_required) = (required(off), required(our));
        for (prop, ours_p) in our["properties"].as_object().into_iter().flatten() {
            compared += 1;
            let Some(off_p) = off["properties"].get(prop) else {
                differs(format!("{name}.{prop}: not an official property"), String::new());
                continue;
            };
            let (a, b) = (aspects(ours_p), aspects(off_p));
            for (aspect, want) in &b {
                let got = a.get(aspect).cloned().unwrap_or(Value::Null);
                if &got != want {
                    differs(
                        format!("{name}.{prop}: {aspect}"),
                        format!(": ours {got}, official {want}"),
                    );
                }
            }
            for aspect in a.keys().filter(|k| !b.contains_key(*k)) {
                differs(
                    format!("{name}.{prop}: {aspect}"),
                    format!(": ours {}, official none", a[aspect]),
                );
            }
            let (o, f) = (our_required.contains(prop), off_required.contains(prop));
            if o != f {
                differs(format!("{name}.{prop}: required"), format!(": ours {o}, official {f}"));
            }
        }
    }
    let stale: Vec<&&str> = known.iter().filter(|k| !used.contains(**k)).collect();
    assert!(stale.is_empty(), "KNOWN entries that no longer differ: {stale:?}");
    assert!(compared > 100, "only {compared} properties compared");
    assert!(
        diffs.is_empty(),
        "{} differences from Kubernetes 1.36:\n{}",
        diffs.len(),
        diffs.join("\n")
    );
}

/// Every `$ref` of a document resolves inside it, every definition has a type or is a documented
/// opaque value, and the v3 documents point at their components.
#[test]
fn documents_are_self_contained() {
    fn refs(v: &Value, out: &mut Vec<String>) {
        match v {
            Value::Object(m) => {
                if let Some(Value::String(r)) = m.get("$ref") {
                    out.push(r.clone());
                }
                m.values().for_each(|x| refs(x, out));
            }
            Value::Array(a) => a.iter().for_each(|x| refs(x, out)),
            _ => {}
        }
    }
    let swagger: Value = serde_json::from_str(OURS).unwrap();
    assert_eq!(swagger["swagger"], "2.0");
    let defs = swagger["definitions"].as_object().unwrap();
    let mut all = Vec::new();
    refs(&swagger, &mut all);
    for r in &all {
        let name = r
            .strip_prefix("#/definitions/")
            .unwrap_or_else(|| panic!("swagger ref {r}"));
        assert!(defs.contains_key(name), "unresolved {r}");
    }
    for (name, d) in defs {
        assert!(
            d.get("type").is_some() || d.get("description").is_some(),
            "{name} has neither type nor description"
        );
    }
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../generated/openapi/v3");
    let mut documents = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let doc: Value = serde_json::from_str(&std::fs::read_to_string(entry.unwrap().path()).unwrap()).unwrap();
        assert_eq!(doc["openapi"], "3.0.0");
        let schemas = doc["components"]["schemas"].as_object().unwrap();
        let mut all = Vec::new();
        refs(&doc, &mut all);
        for r in &all {
            let name = r
                .strip_prefix("#/components/schemas/")
                .unwrap_or_else(|| panic!("v3 ref {r}"));
            assert!(schemas.contains_key(name), "unresolved {r}");
        }
        documents += 1;
    }
    // Every group-version of apis: k8s.io/api's 58, apiextensions' v1beta1 (removed by 1.36, but
    // documented) and the widgets'.
    assert_eq!(documents, 60, "one document per group-version");
}

/// The generated crate serves the same definitions to Rust, with their dependencies.
#[test]
fn generated_crate_serves_the_definitions() {
    let defs = generated::get_openapi_definitions();
    let swagger: Value = serde_json::from_str(OURS).unwrap();
    assert_eq!(defs.len(), swagger["definitions"].as_object().unwrap().len());
    let deployment = &defs["io.k8s.api.apps.v1.Deployment"];
    for dep in [
        "io.k8s.api.apps.v1.DeploymentSpec",
        "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta",
    ] {
        assert!(
            deployment.dependencies.iter().any(|d| d == dep),
            "{dep} missing from {:?}",
            deployment.dependencies
        );
    }
    assert_eq!(
        deployment.schema["x-kubernetes-group-version-kind"][0]["kind"],
        "Deployment"
    );
}
