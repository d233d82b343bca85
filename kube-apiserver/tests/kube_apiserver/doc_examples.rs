//! The example manifests Kubernetes keeps beside its code: its copy of the documentation's
//! examples (`test/fixtures/doc-yaml`) and the manifests of its end-to-end tests
//! (`test/e2e/testing-manifests`), from the k8s.io/kubernetes module on the Go module proxy.
//! Every object of a kind this server serves is created under `fieldValidation=Strict` without a
//! warning and read back with every field it gave (a Quantity in its canonical form).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::support::api::Api;
use crate::support::kubernetes::{self, missing};
/// The folders of the module that hold the manifests.
const FOLDERS: &[&str] = &["test/fixtures/doc-yaml", "test/e2e/testing-manifests"];

/// The manifests kube-apiserver refuses too, with its answer: a mount of a volume the pod does
/// not have (the manifest predates token volumes being injected), and a field spelled with a
/// capital (`Type`), which Go's case-sensitive decoding does not know under `Strict`.
const REFUSED: &[(&str, u16, &str)] = &[
    (
        "test/fixtures/doc-yaml/admin/high-availability/kube-scheduler.yaml",
        422,
        "Pod \"kube-scheduler\" is invalid: spec.containers[0].volumeMounts[1].name: Not found: \"default-token-s8ejd\"",
    ),
    (
        "test/e2e/testing-manifests/serviceloadbalancer/netexecsvc.yaml",
        400,
        "strict decoding error: unknown field \"spec.Type\"",
    ),
];

/// The manifests under `root`, sorted; Go templates (`{{ }}`) are not manifests yet.
fn manifests(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut dirs = vec![root.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if matches!(path.extension().and_then(|e| e.to_str()), Some("yaml" | "yml" | "json"))
                && !std::fs::read_to_string(&path).unwrap_or_default().contains("{{")
            {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// What Kubernetes does not read back by design: `status` (a create sets none), a Secret's
/// `stringData` (folded into `data`), the create-time `creationTimestamp: null`.
fn comparable(object: &Value) -> Value {
    let mut object = object.clone();
    if let Some(o) = object.as_object_mut() {
        o.remove("status");
        if o.get("kind") == Some(&json!("Secret")) {
            o.remove("stringData");
        }
    }
    object
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kubernetes_example_manifests_are_served_with_every_field() {
    let root = kubernetes::module();
    let api = Api::bare(crate::support::start());
    let kinds = kubernetes::served(&api).await;
    let mut created = BTreeMap::<String, usize>::new();
    let mut not_served = BTreeSet::new();
    let mut failures = Vec::new();
    let mut files = 0;
    let mut refused = 0;
    for folder in FOLDERS {
        for file in manifests(&root.join(folder)) {
            files += 1;
            let text = std::fs::read_to_string(&file).unwrap();
            let shown = file.strip_prefix(&root).unwrap().display().to_string();
            let documents: Vec<Value> = if shown.ends_with(".json") {
                vec![serde_json::from_str(&text).unwrap()]
            } else {
                serde_saphyr::from_multiple(&text).unwrap_or_else(|e| panic!("{shown}: {e}"))
            };
            // Each file gets a namespace of its own, so that names repeated across files do not
            // meet.
            let namespace = format!("example-{files}");
            for (i, mut object) in documents.into_iter().filter(|d| d.is_object()).enumerate() {
                let api_version = object["apiVersion"].as_str().unwrap_or_default().to_string();
                let kind = object["kind"].as_str().unwrap_or_default().to_string();
                let Some(served) = kinds.get(&(api_version.clone(), kind.clone())) else {
                    not_served.insert(format!("{api_version} {kind}"));
                    continue;
                };
                let namespaced = &served.namespaced;
                if *namespaced {
                    object["metadata"]["namespace"] = json!(namespace);
                    let ns = json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": namespace}});
                    api.send("POST", "/api/v1/namespaces", "application/json", ns.to_string())
                        .await;
                }
                let collection = served.collection(&namespace);
                let place = format!("{shown} #{i} ({kind} {})", object["metadata"]["name"]);
                let (code, warnings, answer) = create(&api, &collection, &object).await;
                let (code, warnings, answer) = if code == StatusCode::CONFLICT && !*namespaced {
                    // A cluster-scoped name another file took: the same object under another name.
                    let name = format!("{}-{files}", object["metadata"]["name"].as_str().unwrap_or_default());
                    object["metadata"]["name"] = json!(name);
                    create(&api, &collection, &object).await
                } else {
                    (code, warnings, answer)
                };
                if let Some((_, status, message)) = REFUSED.iter().find(|(f, _, _)| *f == shown) {
                    if code.as_u16() != *status || answer["message"] != *message {
                        failures.push(format!(
                            "{place}: kube-apiserver answers {status} {message:?}, not {code} {answer}"
                        ));
                    }
                    refused += 1;
                    continue;
                }
                if code != StatusCode::CREATED || !warnings.is_empty() {
                    failures.push(format!("{place}: {code} {warnings:?} {answer}"));
                    continue;
                }
                let name = answer["metadata"]["name"].as_str().unwrap();
                let (code, read) = api.get(&format!("{collection}/{name}")).await;
                assert_eq!(code, StatusCode::OK, "{place}: {read}");
                if let Some(diff) = missing("", &comparable(&object), &read) {
                    failures.push(format!("{place}: {diff}"));
                    continue;
                }
                *created.entry(format!("{api_version} {kind}")).or_default() += 1;
            }
        }
    }
    let total: usize = created.values().sum();
    eprintln!(
        "{total} objects of {} kinds from {files} files created and read back; kinds not served here: {not_served:?}",
        created.len()
    );
    assert!(
        failures.is_empty(),
        "{} refused or changed:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert_eq!(refused, REFUSED.len(), "every refusal kube-apiserver makes is met");
    // What the folders hold at this release: a shrinking count would mean a folder was not read.
    assert!(total >= 150 && created.len() >= 20, "{created:?}");
}

/// POSTs `object` with `fieldValidation=Strict`: the status, the warnings and the answer.
async fn create(api: &Api, collection: &str, object: &Value) -> (StatusCode, Vec<String>, Value) {
    let r = api
        .client
        .post(format!("{}{collection}?fieldValidation=Strict", api.url))
        .header("content-type", "application/json")
        .body(object.to_string())
        .send()
        .await
        .unwrap();
    let code = r.status();
    let warnings = r
        .headers()
        .get_all("warning")
        .iter()
        .map(|w| w.to_str().unwrap().to_string())
        .collect();
    (code, warnings, r.json().await.unwrap_or(Value::Null))
}
