//! Custom resources defined at run time next to the compiled kind they copy: the widgets CRD the
//! generator writes, installed under another group (`widgets.bench.dev`) so both serve the same
//! schema, one compiled into the server and one read from the CRD (pruned, defaulted and
//! validated by the structural schema engine). Create, get and a list of 1,000 of each on the
//! embedded store and, when `/usr/bin/etcd` exists, on etcd; and the time from a CRD's creation
//! to the first request its resource serves. Run with `cargo bench -p kube-apiserver --bench custom`.

use std::sync::{Arc, LazyLock};
use std::time::Duration;

use divan::Bencher;
use kube_apiserver_storage::memory::MemoryStorage;
use serde_json::{Value, json};

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    divan::main();
}

mod support;

const CRD: &str = include_str!("../../generated/crds/widgets.example.dev_widgets.yaml");

/// The widgets CRD under group `widgets.bench.dev`, v1 only.
fn runtime_crd(group: &str) -> Value {
    let mut crd: Value = serde_saphyr::from_str(CRD).unwrap();
    crd["metadata"] = json!({"name": format!("widgets.{group}")});
    crd["spec"]["group"] = json!(group);
    let versions = crd["spec"]["versions"].as_array_mut().unwrap();
    versions.retain(|v| v["name"] == "v1");
    crd
}

/// A widget of `api_version`.
fn widget(api_version: &str) -> Value {
    json!({"apiVersion": api_version, "kind": "Widget", "metadata": {"name": "w"},
           "spec": {"replicas": 3, "image": "example.dev/widget:2.4.1", "size": "Large",
                    "selector": {"matchLabels": {"app": "shop"}},
                    "ports": [{"name": "http", "port": 8080}],
                    "limits": {"cpu": "2", "memory": "4Gi"}}})
}

/// A server with the run-time CRD established and 1,000 widgets of each kind in namespace `b`.
struct Served {
    rt: tokio::runtime::Runtime,
    url: String,
    client: reqwest::Client,
    _etcd: Option<std::process::Child>,
}

fn served(storage: Arc<dyn kube_apiserver_storage::Storage>, etcd: Option<std::process::Child>) -> Served {
    let (rt, url, client) = support::serve(storage);
    rt.block_on(async {
        let ns = json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "b"}});
        client
            .post(format!("{url}/api/v1/namespaces"))
            .json(&ns)
            .send()
            .await
            .unwrap();
        let crds = format!("{url}/apis/apiextensions.k8s.io/v1/customresourcedefinitions");
        let r = client
            .post(&crds)
            .json(&runtime_crd("widgets.bench.dev"))
            .send()
            .await
            .unwrap();
        assert!(r.status().is_success(), "{}", r.text().await.unwrap());
        let list = format!("{url}/apis/widgets.bench.dev/v1/namespaces/b/widgets");
        while !client.get(&list).send().await.unwrap().status().is_success() {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        for (group, prefix) in [("widgets.example.dev", "c"), ("widgets.bench.dev", "r")] {
            let path = format!("/apis/{group}/v1/namespaces/b/widgets");
            support::post_copies(&client, &url, &path, &widget(&format!("{group}/v1")), prefix, 1_000).await;
        }
    });
    Served {
        rt,
        url,
        client,
        _etcd: etcd,
    }
}

static MEMORY: LazyLock<Served> = LazyLock::new(|| served(Arc::new(MemoryStorage::default()), None));

static ETCD: LazyLock<Option<Served>> = LazyLock::new(|| {
    let (child, _, storage) = support::etcd()?;
    Some(served(Arc::new(storage), Some(child)))
});

fn backend(name: &str) -> Option<&'static Served> {
    match name {
        "memory" => Some(&MEMORY),
        _ => ETCD.as_ref(),
    }
}

/// `(backend, kind)`: the compiled widgets or the run-time copy.
const CASES: &[(&str, &str)] = &[
    ("memory", "compiled"),
    ("memory", "runtime"),
    ("etcd", "compiled"),
    ("etcd", "runtime"),
];

fn group(kind: &str) -> &'static str {
    if kind == "compiled" {
        "widgets.example.dev"
    } else {
        "widgets.bench.dev"
    }
}

fn prefix(kind: &str) -> &'static str {
    if kind == "compiled" { "c" } else { "r" }
}

#[divan::bench(args = CASES)]
fn create(b: Bencher, case: &(&str, &str)) {
    let (name, kind) = *case;
    let Some(s) = backend(name) else { return };
    let url = format!("{}/apis/{}/v1/namespaces/b/widgets", s.url, group(kind));
    let mut body = widget(&format!("{}/v1", group(kind)));
    body["metadata"] = json!({"generateName": "g-"});
    b.bench(|| {
        s.rt.block_on(async {
            let r = s.client.post(&url).json(&body).send().await.unwrap();
            assert!(r.status().is_success());
        })
    });
}

#[divan::bench(args = CASES)]
fn get(b: Bencher, case: &(&str, &str)) {
    let (name, kind) = *case;
    let Some(s) = backend(name) else { return };
    let url = format!(
        "{}/apis/{}/v1/namespaces/b/widgets/{}00042",
        s.url,
        group(kind),
        prefix(kind)
    );
    b.bench(|| {
        s.rt.block_on(async { s.client.get(&url).send().await.unwrap().bytes().await.unwrap() })
    });
}

#[divan::bench(args = CASES, sample_count = 20)]
fn list_1k(b: Bencher, case: &(&str, &str)) {
    let (name, kind) = *case;
    let Some(s) = backend(name) else { return };
    // The list holds the 1,000 loaded widgets and those `create` added.
    let url = format!("{}/apis/{}/v1/namespaces/b/widgets?limit=1000", s.url, group(kind));
    b.bench(|| {
        s.rt.block_on(async { s.client.get(&url).send().await.unwrap().bytes().await.unwrap() })
    });
}

/// From the CRD's POST to the first 200 from its resource: naming, establishing and installing.
#[divan::bench(args = ["memory", "etcd"], sample_count = 10, sample_size = 1)]
fn crd_create_to_first_served_request(b: Bencher, name: &str) {
    let Some(s) = backend(name) else { return };
    let crds = format!("{}/apis/apiextensions.k8s.io/v1/customresourcedefinitions", s.url);
    let mut n = 0;
    b.bench_local(|| {
        n += 1;
        let group = format!("g{n}.bench.dev");
        let list = format!("{}/apis/{group}/v1/namespaces/b/widgets", s.url);
        s.rt.block_on(async {
            let r = s.client.post(&crds).json(&runtime_crd(&group)).send().await.unwrap();
            assert!(r.status().is_success());
            while !s.client.get(&list).send().await.unwrap().status().is_success() {
                tokio::time::sleep(Duration::from_micros(200)).await;
            }
        })
    });
}
