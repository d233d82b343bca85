//! What the tests read of Kubernetes itself: the k8s.io/kubernetes module from the Go module proxy
//! (its example manifests and its published OpenAPI documents), what a running server serves
//! according to its discovery, and the comparison "every field given was read back".

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::process::Command;

use kube_apimachinery::quantity::canonical;
use serde_json::Value;

use super::api::Api;

/// The Kubernetes release whose files are read (the API this server serves).
pub const KUBERNETES: &str = "k8s.io/kubernetes@v1.36.3";

/// The module's folder in Go's module cache, downloaded by `go mod download` when missing.
pub fn module() -> PathBuf {
    let out = Command::new("go")
        .args(["mod", "download", "-json", KUBERNETES])
        .env("GOFLAGS", "-mod=mod")
        .output()
        .unwrap_or_else(|e| panic!("these tests read {KUBERNETES} with Go, which is not installed: {e}"));
    let info: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "`go mod download {KUBERNETES}`: {e}: {}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    let dir = info["Dir"].as_str();
    PathBuf::from(dir.unwrap_or_else(|| panic!("`go mod download {KUBERNETES}` answered {info}")))
}

/// One resource a server serves, from its discovery.
#[derive(Clone, Debug)]
pub struct Served {
    /// `/api/v1` or `/apis/<group>/<version>`.
    pub base: String,
    /// The resource's plural name.
    pub plural: String,
    pub namespaced: bool,
    pub verbs: BTreeSet<String>,
    /// The names of its subresources (`status`, `scale`, ...).
    pub subresources: BTreeSet<String>,
}

impl Served {
    /// The collection's path, under `namespace` when the resource is namespaced.
    pub fn collection(&self, namespace: &str) -> String {
        if self.namespaced {
            format!("{}/namespaces/{namespace}/{}", self.base, self.plural)
        } else {
            format!("{}/{}", self.base, self.plural)
        }
    }
}

/// Every resource the server behind `api` serves, keyed by group-version and kind.
pub async fn served(api: &Api) -> BTreeMap<(String, String), Served> {
    let mut versions = vec!["/api/v1".to_string()];
    let (_, groups) = api.get("/apis").await;
    for g in groups["groups"].as_array().unwrap() {
        for v in g["versions"].as_array().unwrap() {
            versions.push(format!("/apis/{}", v["groupVersion"].as_str().unwrap()));
        }
    }
    let mut kinds = BTreeMap::new();
    for base in versions {
        let (_, list) = api.get(&base).await;
        let group_version = list["groupVersion"].as_str().unwrap().to_string();
        let resources = list["resources"].as_array().unwrap();
        for r in resources {
            let name = r["name"].as_str().unwrap();
            if name.contains('/') {
                continue;
            }
            let subresources = resources
                .iter()
                .filter_map(|s| s["name"].as_str()?.strip_prefix(name)?.strip_prefix('/'))
                .map(str::to_string)
                .collect();
            let verbs = r["verbs"].as_array().unwrap();
            kinds.insert(
                (group_version.clone(), r["kind"].as_str().unwrap().to_string()),
                Served {
                    base: base.clone(),
                    plural: name.to_string(),
                    namespaced: r["namespaced"] == true,
                    verbs: verbs.iter().map(|v| v.as_str().unwrap().to_string()).collect(),
                    subresources,
                },
            );
        }
    }
    kinds
}

/// Where `want` (what a client gave) differs from `got` (the server's answer): `None` when every
/// field `want` gives is in `got` with the same value. `null` and empty collections are no value;
/// a Quantity may come back in its canonical form, a list with more items after the given ones.
pub fn missing(path: &str, want: &Value, got: &Value) -> Option<String> {
    match (want, got) {
        (Value::Null, _) => None,
        (Value::Object(w), Value::Object(g)) => w.iter().find_map(|(k, v)| {
            let at = format!("{path}.{k}");
            match g.get(k) {
                Some(gv) => missing(&at, v, gv),
                None if v.is_null() || v.as_object().is_some_and(|o| o.is_empty()) => None,
                None if v.as_array().is_some_and(|a| a.is_empty()) => None,
                None => Some(format!("{at}: gave {v}, read back nothing")),
            }
        }),
        // A list may come back longer: a server's default appends to it (a Namespace's
        // `kubernetes` finalizer).
        (Value::Array(w), Value::Array(g)) if w.len() <= g.len() => w
            .iter()
            .zip(g)
            .enumerate()
            .find_map(|(i, (w, g))| missing(&format!("{path}[{i}]"), w, g)),
        (w, g) if w == g => None,
        (w, Value::String(g)) => {
            let text = w.as_str().map(str::to_string).unwrap_or_else(|| w.to_string());
            (canonical(text.trim()).ok().as_deref() != Some(g.as_str()))
                .then(|| format!("{path}: gave {w}, read back {g:?}"))
        }
        (w, g) => Some(format!("{path}: gave {w}, read back {g}")),
    }
}
