//! Load on loopback: 16 concurrent clients send 2,000 requests of one kind to the sample server
//! on each backend, and the run prints p50 and p99 latency and requests per second per operation;
//! then etcd's own `etcdctl check perf` on the same member, for what etcd alone does on this
//! machine. Run with `cargo bench -p apiserver --bench load` (about two minutes with etcd).

use std::time::{Duration, Instant};

use serde_json::json;

mod support;

use support::{BACKENDS, Loaded, backend};

/// The allocator of the sample-apiserver binary, so the figures are the binary's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

const REQUESTS: usize = 2_000;
const CLIENTS: usize = 16;

/// One request of an operation, the `i`th of the run.
type Request = fn(&Loaded, usize) -> reqwest::RequestBuilder;

fn get(s: &Loaded, i: usize) -> reqwest::RequestBuilder {
    let url = format!("{}/apis/apps/v1/namespaces/small/deployments/d{:05}", s.url, i % 1000);
    s.client.get(url)
}

fn list_page_of_50(s: &Loaded, _: usize) -> reqwest::RequestBuilder {
    s.client
        .get(format!("{}/apis/apps/v1/namespaces/small/deployments?limit=50", s.url))
}

fn create(s: &Loaded, _: usize) -> reqwest::RequestBuilder {
    let body =
        json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"generateName": "load-"}, "data": {"k": "v"}});
    s.client
        .post(format!("{}/api/v1/namespaces/small/configmaps", s.url))
        .json(&body)
}

fn strategic_patch(s: &Loaded, i: usize) -> reqwest::RequestBuilder {
    let url = format!("{}/apis/apps/v1/namespaces/small/deployments/d{:05}", s.url, i % 1000);
    s.client
        .patch(url)
        .header("content-type", "application/strategic-merge-patch+json")
        .body(json!({"metadata": {"labels": {"load": i.to_string()}}}).to_string())
}

const OPERATIONS: &[(&str, Request)] = &[
    ("get", get),
    ("list (limit=50)", list_page_of_50),
    ("create", create),
    ("patch", strategic_patch),
];

fn main() {
    println!("{REQUESTS} requests from {CLIENTS} concurrent clients per operation");
    println!("| backend | operation | p50 | p99 | requests/s |");
    println!("|---|---|---|---|---|");
    for name in BACKENDS {
        let Some(s) = backend(name) else {
            println!("| {name} | (not available) | | | |");
            continue;
        };
        for (op, request) in OPERATIONS {
            let (p50, p99, rate) = measure(s, *request);
            println!("| {name} | {op} | {p50:.2?} | {p99:.2?} | {rate:.0} |");
        }
    }
    if let Some(endpoint) = backend("etcd").and_then(|s| s.etcd_endpoint.clone()) {
        check_perf(&endpoint);
    }
}

/// p50, p99 and requests per second of `REQUESTS` requests from `CLIENTS` concurrent clients.
fn measure(s: &Loaded, request: Request) -> (Duration, Duration, f64) {
    let start = Instant::now();
    let mut latencies: Vec<Duration> = s.rt.block_on(async {
        let per_client = REQUESTS / CLIENTS;
        let clients = (0..CLIENTS).map(|c| async move {
            let mut own = Vec::with_capacity(per_client);
            for i in 0..per_client {
                let sent = Instant::now();
                let r = request(s, c * per_client + i).send().await.expect("the server answers");
                assert!(r.status().is_success(), "{}", r.status());
                r.bytes().await.expect("a body");
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
