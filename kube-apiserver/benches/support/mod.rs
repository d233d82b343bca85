//! The servers the benchmarks load: the sample server on loopback over the embedded store and,
//! when `/usr/bin/etcd` exists, over a single-member etcd started for the run, each with
//! namespaces `small` (1k Deployments) and `large` (10k).

// Each benchmark uses part of this module.
#![allow(dead_code)]

use std::sync::{Arc, LazyLock};

use kube_apiserver::Config;
use kube_apiserver_storage::Storage;
use kube_apiserver_storage::memory::MemoryStorage;
use serde_json::{Value, json};

/// The Deployment every object is a copy of (3.8 KB).
pub const DEPLOYMENT: &str = include_str!("../deployment.json");

/// A server on loopback with namespaces `small` (1k Deployments) and `large` (10k).
pub struct Loaded {
    pub rt: tokio::runtime::Runtime,
    pub url: String,
    pub client: reqwest::Client,
    /// The etcd member, when the backend is etcd; killed on drop.
    pub etcd: Option<std::process::Child>,
    /// The etcd member's client URL, when the backend is etcd.
    pub etcd_endpoint: Option<String>,
}

impl Drop for Loaded {
    fn drop(&mut self) {
        if let Some(c) = self.etcd.as_mut() {
            let _ = c.kill();
        }
    }
}

/// The sample server over `storage` on a loopback port, on a runtime of its own: the runtime,
/// the URL and a client.
pub fn serve(storage: Arc<dyn Storage>) -> (tokio::runtime::Runtime, String, reqwest::Client) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let url = rt.block_on(async {
        let config = Config {
            generic: kube_generic_apiserver::Config {
                max_requests_inflight: 10_000,
                ..Default::default()
            },
            ..Config::default()
        };
        let server = kube_apiserver::server(apis::scheme().unwrap(), storage, config)
            .with_openapi(&generated::openapi_v3_documents());
        let server = Arc::new(server);
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(server.serve(listener, std::future::pending()));
        url
    });
    (rt, url, reqwest::Client::new())
}

/// POSTs `count` copies of `doc` named `<prefix><n>` to `path`, 64 at a time.
pub async fn post_copies(client: &reqwest::Client, url: &str, path: &str, doc: &Value, prefix: &str, count: usize) {
    let mut doc = doc.clone();
    let posts = (0..count).map(|i| {
        doc["metadata"]["name"] = json!(format!("{prefix}{i:05}"));
        client.post(format!("{url}{path}")).json(&doc).send()
    });
    for chunk in posts.collect::<Vec<_>>().chunks_mut(64) {
        for r in futures::future::join_all(chunk.iter_mut()).await {
            let r = r.unwrap();
            assert!(r.status().is_success(), "{}", r.text().await.unwrap_or_default());
        }
    }
}

fn load(storage: Arc<dyn Storage>, etcd: Option<std::process::Child>) -> Loaded {
    let (rt, url, client) = serve(storage);
    rt.block_on(async {
        let doc: Value = serde_json::from_str(DEPLOYMENT).unwrap();
        for (ns, count) in [("small", 1_000), ("large", 10_000)] {
            let body = json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": ns}});
            client
                .post(format!("{url}/api/v1/namespaces"))
                .json(&body)
                .send()
                .await
                .unwrap();
            post_copies(
                &client,
                &url,
                &format!("/apis/apps/v1/namespaces/{ns}/deployments"),
                &doc,
                "d",
                count,
            )
            .await;
        }
    });
    Loaded {
        rt,
        url,
        client,
        etcd,
        etcd_endpoint: None,
    }
}

pub static MEMORY: LazyLock<Loaded> = LazyLock::new(|| load(Arc::new(MemoryStorage::default()), None));

pub static ETCD: LazyLock<Option<Loaded>> = LazyLock::new(|| {
    let (child, endpoint, storage) = etcd()?;
    let mut loaded = load(Arc::new(storage), Some(child));
    loaded.etcd_endpoint = Some(endpoint);
    Some(loaded)
});

/// A single-member etcd started for the run (when `/usr/bin/etcd` exists): the process, its
/// client URL and a storage over it.
pub fn etcd() -> Option<(std::process::Child, String, kube_apiserver_storage::etcd::EtcdStorage)> {
    if !std::path::Path::new("/usr/bin/etcd").exists() {
        return None;
    }
    let (client, peer) = (free_port(), free_port());
    // The member lives in a static and is never dropped, so its data directory (64 MB of
    // preallocated log) outlives the run: each run removes those of earlier runs.
    let tmp = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    let ours = format!("bench-etcd-{}-", std::process::id());
    for entry in std::fs::read_dir(tmp).into_iter().flatten().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with("bench-etcd-") && !name.starts_with(&ours) {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
    let dir = tmp.join(format!("{ours}{client}"));
    let child = std::process::Command::new("/usr/bin/etcd")
        .args(["--name", "b", "--data-dir"])
        .arg(&dir)
        .args([
            "--listen-client-urls",
            &format!("http://127.0.0.1:{client}"),
            "--advertise-client-urls",
            &format!("http://127.0.0.1:{client}"),
        ])
        .args([
            "--listen-peer-urls",
            &format!("http://127.0.0.1:{peer}"),
            "--initial-advertise-peer-urls",
            &format!("http://127.0.0.1:{peer}"),
        ])
        .args(["--initial-cluster", &format!("b=http://127.0.0.1:{peer}")])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .ok()?;
    std::thread::sleep(std::time::Duration::from_secs(2));
    let endpoint = format!("http://127.0.0.1:{client}");
    let storage = kube_apiserver_storage::etcd::EtcdStorage::new(vec![endpoint.clone()]).ok()?;
    Some((child, endpoint, storage))
}

pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

pub fn backend(name: &str) -> Option<&'static Loaded> {
    match name {
        "memory" => Some(&MEMORY),
        _ => ETCD.as_ref(),
    }
}

pub const BACKENDS: &[&str] = &["memory", "etcd"];
