//! Load on loopback: 16 concurrent clients send 2,000 requests of one kind to the sample server
//! on each backend, and the run prints p50 and p99 latency and requests per second per operation;
//! then, on the same etcd member and at the same concurrency, a get and a create as the server's
//! storage makes them (`EtcdStorage`) and as a bare tonic client makes them, so the server's own
//! share is visible; then etcd's own `etcdctl check perf`, for what etcd alone does on this
//! machine. Run with `cargo bench -p kube-apiserver --bench load` (about two minutes with etcd).

use std::future::Future;
use std::time::{Duration, Instant};

use kube_apiserver_storage::Storage;
use kube_apiserver_storage::etcd::EtcdStorage;
use kube_apiserver_storage::etcd::proto::etcdserverpb::{
    Compare, PutRequest, RangeRequest, RequestOp, TxnRequest, compare, kv_client::KvClient, request_op,
};

use serde_json::json;

mod support;

use support::{BACKENDS, Loaded, backend};

/// The allocator of the sample-apiserver binary, so the figures are the binary's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

const REQUESTS: usize = 2_000;
const CLIENTS: usize = 16;

/// One request of an operation to the server at a base URL, the `i`th of the run.
type Request = fn(&reqwest::Client, &str, usize) -> reqwest::RequestBuilder;

fn get(client: &reqwest::Client, url: &str, i: usize) -> reqwest::RequestBuilder {
    client.get(format!(
        "{url}/apis/apps/v1/namespaces/small/deployments/d{:05}",
        i % 1000
    ))
}

fn list_page_of_50(client: &reqwest::Client, url: &str, _: usize) -> reqwest::RequestBuilder {
    client.get(format!("{url}/apis/apps/v1/namespaces/small/deployments?limit=50"))
}

fn list_of_1000(client: &reqwest::Client, url: &str, _: usize) -> reqwest::RequestBuilder {
    client.get(format!("{url}/apis/apps/v1/namespaces/small/deployments"))
}

/// The list as client-go's typed clients ask for it.
fn list_of_1000_protobuf(client: &reqwest::Client, url: &str, i: usize) -> reqwest::RequestBuilder {
    list_of_1000(client, url, i).header("accept", "application/vnd.kubernetes.protobuf, application/json")
}

fn create(client: &reqwest::Client, url: &str, _: usize) -> reqwest::RequestBuilder {
    let body =
        json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"generateName": "load-"}, "data": {"k": "v"}});
    client
        .post(format!("{url}/api/v1/namespaces/small/configmaps"))
        .json(&body)
}

fn strategic_patch(client: &reqwest::Client, url: &str, i: usize) -> reqwest::RequestBuilder {
    client
        .patch(format!(
            "{url}/apis/apps/v1/namespaces/small/deployments/d{:05}",
            i % 1000
        ))
        .header("content-type", "application/strategic-merge-patch+json")
        .body(json!({"metadata": {"labels": {"load": i.to_string()}}}).to_string())
}

/// Each operation, its requests and how many are sent (fewer for whole lists of 1,000).
const OPERATIONS: &[(&str, Request, usize)] = &[
    ("get", get, REQUESTS),
    ("list (limit=50)", list_page_of_50, REQUESTS),
    ("list of 1,000", list_of_1000, REQUESTS / 10),
    ("list of 1,000, protobuf", list_of_1000_protobuf, REQUESTS / 10),
    ("create", create, REQUESTS),
    ("patch", strategic_patch, REQUESTS),
];

fn main() {
    // `LOAD_ONLY=memory:get LOAD_REPEAT=100` runs one operation, many times over, and nothing
    // else: the run to profile (`perf record` on the bench binary).
    if let Ok(only) = std::env::var("LOAD_ONLY") {
        let (name, op) = only.split_once(':').expect("LOAD_ONLY=<backend>:<operation>");
        let repeat: usize = std::env::var("LOAD_REPEAT")
            .ok()
            .and_then(|r| r.parse().ok())
            .unwrap_or(1);
        let s = backend(name).expect("the backend");
        let (_, request, count) = OPERATIONS.iter().find(|(o, ..)| *o == op).expect("the operation");
        eprintln!("loaded; measuring");
        for _ in 0..repeat {
            let (p50, p99, rate) = measure(s, &s.url, *request, *count);
            println!("| {name} | {op} | {p50:.2?} | {p99:.2?} | {rate:.0} |");
        }
        return;
    }
    println!(
        "{CLIENTS} concurrent clients; {REQUESTS} requests per operation ({} for whole lists)",
        REQUESTS / 10
    );
    println!("| backend | operation | p50 | p99 | requests/s |");
    println!("|---|---|---|---|---|");
    for name in BACKENDS {
        let Some(s) = backend(name) else {
            println!("| {name} | (not available) | | | |");
            continue;
        };
        for (op, request, count) in OPERATIONS {
            let (p50, p99, rate) = measure(s, &s.url, *request, *count);
            println!("| {name} | {op} | {p50:.2?} | {p99:.2?} | {rate:.0} |");
        }
    }
    floor();
    if let Some(s) = backend("etcd")
        && let Some(endpoint) = s.etcd_endpoint.clone()
    {
        etcd_calls(s, &endpoint);
        check_perf(&endpoint);
    }
}

/// A get and a create on etcd itself at the same concurrency: through the server's storage
/// (`EtcdStorage`, the call a server request makes) and through a bare tonic client (the floor).
fn etcd_calls(s: &Loaded, endpoint: &str) {
    let storage = EtcdStorage::new(vec![endpoint.to_string()]).unwrap();
    let raw =
        s.rt.block_on(async { KvClient::connect(endpoint.to_string()).await.unwrap() });
    let run = std::process::id();
    let key = |i: usize| format!("/registry/apps/deployments/small/d{:05}", i % 1000);
    let fresh = |what: &str, i: usize| format!("/registry/load-{what}-{run}/{i:05}");
    let rows: [(&str, (Duration, Duration, f64)); 4] = [
        (
            "get, the storage's call",
            measure_calls(s, REQUESTS, |i| {
                let storage = &storage;
                async move {
                    assert!(storage.get(&key(i)).await.unwrap().is_some());
                }
            }),
        ),
        (
            "get, a bare tonic Range",
            measure_calls(s, REQUESTS, |i| {
                let mut raw = raw.clone();
                async move {
                    let request = RangeRequest {
                        key: key(i).into_bytes().into(),
                        ..RangeRequest::default()
                    };
                    assert_eq!(raw.range(request).await.unwrap().into_inner().kvs.len(), 1);
                }
            }),
        ),
        (
            "create, the storage's call",
            measure_calls(s, REQUESTS, |i| {
                let storage = &storage;
                async move {
                    storage
                        .create(&fresh("storage", i), DEPLOYMENT_BYTES.clone())
                        .await
                        .unwrap();
                }
            }),
        ),
        (
            "create, a bare tonic Txn",
            measure_calls(s, REQUESTS, |i| {
                let mut raw = raw.clone();
                async move {
                    let key: bytes::Bytes = fresh("raw", i).into_bytes().into();
                    let request = TxnRequest {
                        compare: vec![Compare {
                            key: key.clone(),
                            target: compare::CompareTarget::Create as i32,
                            target_union: Some(compare::TargetUnion::CreateRevision(0)),
                            ..Compare::default()
                        }],
                        success: vec![RequestOp {
                            request: Some(request_op::Request::RequestPut(PutRequest {
                                key,
                                value: DEPLOYMENT_BYTES.clone(),
                                ..PutRequest::default()
                            })),
                        }],
                        failure: vec![],
                    };
                    assert!(raw.txn(request).await.unwrap().into_inner().succeeded);
                }
            }),
        ),
    ];
    println!(
        "\netcd alone, {REQUESTS} calls from {CLIENTS} concurrent clients (the create writes the 3.8 KB Deployment):"
    );
    println!("| call | p50 | p99 | calls/s |");
    println!("|---|---|---|---|");
    for (what, (p50, p99, rate)) in rows {
        println!("| {what} | {p50:.2?} | {p99:.2?} | {rate:.0} |");
    }
}

static DEPLOYMENT_BYTES: std::sync::LazyLock<bytes::Bytes> =
    std::sync::LazyLock::new(|| bytes::Bytes::from_static(support::DEPLOYMENT.as_bytes()));

/// The floor on this machine: an axum handler on the same runtime that answers the get and the
/// list of 1,000 with the embedded server's own bytes, held in memory, at the same concurrency.
fn floor() {
    let s = backend("memory").expect("the embedded store");
    let url = s.rt.block_on(async {
        let body = |r: reqwest::RequestBuilder| async { r.send().await.unwrap().bytes().await.unwrap() };
        let object = body(get(&s.client, &s.url, 42)).await;
        let list = body(list_of_1000(&s.client, &s.url, 0)).await;
        let list_protobuf = body(list_of_1000_protobuf(&s.client, &s.url, 0)).await;
        let json = |b: bytes::Bytes| move || async move { ([("content-type", "application/json")], b) };
        let router = axum::Router::new()
            .route(
                "/apis/apps/v1/namespaces/small/deployments/{name}",
                axum::routing::get(json(object)),
            )
            .route(
                "/apis/apps/v1/namespaces/small/deployments",
                axum::routing::get(move |headers: axum::http::HeaderMap| {
                    let (list, list_protobuf) = (list.clone(), list_protobuf.clone());
                    async move {
                        match headers.get("accept") {
                            Some(a) if a.as_bytes().starts_with(b"application/vnd.kubernetes.protobuf") => {
                                ([("content-type", "application/vnd.kubernetes.protobuf")], list_protobuf)
                            }
                            _ => ([("content-type", "application/json")], list),
                        }
                    }
                }),
            );
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(async move { axum::serve(listener, router).await });
        url
    });
    for (op, request, count) in &OPERATIONS[..4] {
        if *op == "list (limit=50)" {
            continue;
        }
        let (p50, p99, rate) = measure(s, &url, *request, *count);
        println!("| floor: axum, the same bytes from memory | {op} | {p50:.2?} | {p99:.2?} | {rate:.0} |");
    }
}

/// p50, p99 and requests per second of `count` requests from `CLIENTS` concurrent clients.
fn measure(s: &Loaded, url: &str, request: Request, count: usize) -> (Duration, Duration, f64) {
    measure_calls(s, count, |i| async move {
        let r = request(&s.client, url, i).send().await.expect("the server answers");
        assert!(r.status().is_success(), "{}", r.status());
        r.bytes().await.expect("a body");
    })
}

/// p50, p99 and calls per second of `count` calls of `call(i)` from `CLIENTS` concurrent
/// clients.
fn measure_calls<F, Fut>(s: &Loaded, count: usize, call: F) -> (Duration, Duration, f64)
where
    F: Fn(usize) -> Fut,
    Fut: Future<Output = ()>,
{
    let start = Instant::now();
    let call = &call;
    let mut latencies: Vec<Duration> = s.rt.block_on(async {
        let per_client = count / CLIENTS;
        let clients = (0..CLIENTS).map(|c| async move {
            let mut own = Vec::with_capacity(per_client);
            for i in 0..per_client {
                let sent = Instant::now();
                call(c * per_client + i).await;
                own.push(sent.elapsed());
            }
            own
        });
        futures::future::join_all(clients).await.into_iter().flatten().collect()
    });
    let elapsed = start.elapsed();
    latencies.sort();
    let at = |q: f64| latencies[((latencies.len() as f64 * q) as usize).min(latencies.len() - 1)];
    (at(0.50), at(0.99), latencies.len() as f64 / elapsed.as_secs_f64())
}

/// `etcdctl check perf` against the benchmark's etcd, when etcdctl is installed.
fn check_perf(endpoint: &str) {
    let out = std::process::Command::new("etcdctl")
        .env("ETCDCTL_API", "3")
        .args(["--endpoints", endpoint, "check", "perf"])
        .output();
    match out {
        Ok(out) => {
            println!("\netcdctl check perf (etcd alone, 60 s at the \"s\" load):");
            for line in String::from_utf8_lossy(&out.stdout)
                .lines()
                .filter(|l| !l.contains('%'))
            {
                println!("  {line}");
            }
        }
        Err(e) => println!("\netcdctl check perf: not run ({e})"),
    }
}
