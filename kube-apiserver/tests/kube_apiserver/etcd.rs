//! The etcd backend over gRPC: the storage conformance suite on a real etcd 3.4, the server on
//! etcd through HTTP, every call and watch on one connection and one watch stream, and a
//! three-member cluster that loses a member during a write loop without losing an acknowledged
//! write, and under a watch without losing an event; leases for keys with a TTL.

use crate::support;

use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use kube_apiserver_storage::etcd::{EtcdStorage, EtcdTls};
use kube_apiserver_storage::{EventType, Storage, StorageError};
use support::etcd;

#[tokio::test(flavor = "multi_thread")]
async fn the_conformance_suite_passes_on_etcd() {
    let cluster = etcd::start("conformance", 1);
    let store = EtcdStorage::new(cluster.endpoints()).unwrap();
    kube_apiserver_storage::conformance::run(&store).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn objects_are_stored_under_registry_keys_in_the_storage_version() {
    let cluster = etcd::start("keys", 1);
    let server = support::start_on(Arc::new(EtcdStorage::new(cluster.endpoints()).unwrap()));
    let client = reqwest::Client::new();
    let post = |path: &str, body: serde_json::Value| client.post(format!("{}{path}", server.url)).json(&body).send();
    let ns = serde_json::json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "ns"}});
    assert_eq!(post("/api/v1/namespaces", ns).await.unwrap().status(), 201);
    let mut d = serde_json::json!({"apiVersion": "autoscaling/v1", "kind": "HorizontalPodAutoscaler", "metadata": {"name": "web"},
        "spec": {"scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "web"}, "maxReplicas": 3,
                 "targetCPUUtilizationPercentage": 70}});
    let created = post("/apis/autoscaling/v1/namespaces/ns/horizontalpodautoscalers", d.clone())
        .await
        .unwrap();
    assert_eq!(created.status(), 201);
    let created: serde_json::Value = created.json().await.unwrap();
    // Stored as autoscaling/v2 (the group's preferred version) under the registry key, without
    // resourceVersion, which is the key's mod revision.
    let store = EtcdStorage::new(cluster.endpoints()).unwrap();
    let kv = store
        .get("/registry/autoscaling/horizontalpodautoscalers/ns/web")
        .await
        .unwrap()
        .expect("the key");
    let stored: serde_json::Value = serde_json::from_slice(&kv.value).unwrap();
    assert_eq!(stored["apiVersion"], "autoscaling/v2");
    assert_eq!(
        stored["spec"]["metrics"][0]["resource"]["target"]["averageUtilization"], 70,
        "v1's CPU target is v2's metric"
    );
    assert!(stored["metadata"].get("resourceVersion").is_none());
    assert_eq!(created["metadata"]["resourceVersion"], kv.mod_revision.to_string());
    assert_eq!(
        created["apiVersion"], "autoscaling/v1",
        "answered in the request's version"
    );
    assert_eq!(created["spec"]["targetCPUUtilizationPercentage"], 70);
    // A stale update is a Conflict, as etcd's compare-and-swap refuses it.
    d["metadata"]["resourceVersion"] = serde_json::json!("1");
    let stale = client
        .put(format!(
            "{}/apis/autoscaling/v1/namespaces/ns/horizontalpodautoscalers/web",
            server.url
        ))
        .json(&d)
        .send()
        .await
        .unwrap();
    assert_eq!(stale.status(), 409);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_three_member_cluster_keeps_every_acknowledged_write_when_a_member_dies() {
    let mut cluster = etcd::start("cluster", 3);
    let store = Arc::new(EtcdStorage::new(cluster.endpoints()).unwrap());
    let done = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let writer = {
        let store = store.clone();
        let done = done.clone();
        tokio::spawn(async move {
            let mut acknowledged = Vec::new();
            for i in 0..150 {
                let key = format!("/registry/loop/{i:04}");
                // A write may fail while the cluster elects a leader; only acknowledged ones count.
                for _ in 0..50 {
                    match store.create(&key, Bytes::from(i.to_string())).await {
                        Ok(_) => {
                            acknowledged.push(key.clone());
                            done.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                            break;
                        }
                        Err(kube_apiserver_storage::StorageError::AlreadyExists(_)) => {
                            acknowledged.push(key.clone());
                            break;
                        }
                        Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
                    }
                }
            }
            acknowledged
        })
    };
    // Kill the member the client prefers (the first) once a third of the writes are in.
    while done.load(std::sync::atomic::Ordering::SeqCst) < 50 {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    cluster.members[0].kill();
    let at_kill = done.load(std::sync::atomic::Ordering::SeqCst);
    assert!(at_kill < 150, "the member died before the loop ended");
    let acknowledged = writer.await.unwrap();
    assert!(
        acknowledged.len() >= 140,
        "the cluster kept serving: {} of 150 writes acknowledged",
        acknowledged.len()
    );
    let listed = store.list("/registry/loop/", &Default::default()).await.unwrap();
    let keys: Vec<&str> = listed.items.iter().map(|kv| kv.key.as_str()).collect();
    for key in &acknowledged {
        assert!(keys.contains(&key.as_str()), "acknowledged write {key} was lost");
    }
}

/// Creates `key`, retrying while the cluster has no leader; a create that landed before its
/// answer was lost counts as done.
async fn create_until_acknowledged(store: &EtcdStorage, key: &str) {
    for _ in 0..100 {
        match store.create(key, Bytes::from_static(b"v")).await {
            Ok(_) | Err(StorageError::AlreadyExists(_)) => return,
            Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
        }
    }
    panic!("{key} was never acknowledged");
}

#[tokio::test(flavor = "multi_thread")]
async fn every_call_and_watch_shares_one_connection_and_one_watch_stream() {
    let cluster = etcd::start("multiplex", 1);
    let endpoint = cluster.endpoints()[0].clone();
    let store = Arc::new(EtcdStorage::new(cluster.endpoints()).unwrap());
    let start = store.revision().await.unwrap();
    let mut watches = Vec::new();
    for i in 0..40 {
        watches.push(store.watch(&format!("/registry/mux/{i:02}/"), start).await.unwrap());
    }
    // 40 tasks at once, each writing and reading its own keys.
    let tasks: Vec<_> = (0..40)
        .map(|i| {
            let store = store.clone();
            tokio::spawn(async move {
                for j in 0..5 {
                    let key = format!("/registry/mux/{i:02}/{j}");
                    store.create(&key, Bytes::from_static(b"v")).await.unwrap();
                    assert!(store.get(&key).await.unwrap().is_some());
                }
            })
        })
        .collect();
    for t in tasks {
        t.await.unwrap();
    }
    for (i, w) in watches.iter_mut().enumerate() {
        for j in 0..5 {
            let e = tokio::time::timeout(Duration::from_secs(10), w.recv())
                .await
                .expect("an event within 10 s")
                .expect("the watch is open")
                .unwrap();
            assert_eq!(
                (e.kind, e.kv.key.as_str()),
                (EventType::Added, format!("/registry/mux/{i:02}/{j}").as_str())
            );
        }
    }
    assert_eq!(
        etcd::connections_from_this_process(&endpoint),
        1,
        "one HTTP/2 connection carries every call and watch"
    );
    let metric = |name| etcd::metric(&endpoint, name).unwrap_or_else(|| panic!("etcd reports {name}"));
    assert_eq!(
        metric("etcd_debugging_mvcc_watch_stream_total"),
        1.0,
        "40 watches, one stream"
    );
    assert_eq!(metric("etcd_debugging_mvcc_watcher_total"), 40.0);
    // Dropped watches are cancelled on etcd, found at their next event.
    watches.truncate(10);
    for i in 10..40 {
        store
            .create(&format!("/registry/mux/{i:02}/after"), Bytes::new())
            .await
            .unwrap();
    }
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while metric("etcd_debugging_mvcc_watcher_total") != 10.0 {
        assert!(
            std::time::Instant::now() < deadline,
            "dropped watches were not cancelled on etcd"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_watch_on_a_member_that_dies_closes_and_resumes_on_another_without_a_gap() {
    let mut cluster = etcd::start("watch-failover", 3);
    let store = EtcdStorage::new(cluster.endpoints()).unwrap();
    let prefix = "/registry/failover/";
    let mut last = store.revision().await.unwrap();
    let mut watch = store.watch(prefix, last).await.unwrap();
    let mut seen = Vec::new();
    for i in 0..10 {
        create_until_acknowledged(&store, &format!("{prefix}{i:02}")).await;
    }
    while seen.len() < 10 {
        let e = tokio::time::timeout(Duration::from_secs(10), watch.recv())
            .await
            .unwrap()
            .unwrap()
            .unwrap();
        last = e.kv.mod_revision;
        seen.push(e.kv.key);
    }
    // The watch runs on the member the client prefers, the first; its death ends the stream, and
    // the channel closes without an error, which tells the reader to watch again from `last`.
    cluster.members[0].kill();
    let end = tokio::time::timeout(Duration::from_secs(15), watch.recv())
        .await
        .expect("the watch closes when its member dies");
    assert!(end.is_none(), "closed, not an error: {end:?}");
    for i in 10..20 {
        create_until_acknowledged(&store, &format!("{prefix}{i:02}")).await;
    }
    let mut watch = store.watch(prefix, last).await.expect("a watch on a live member");
    while seen.len() < 20 {
        let e = tokio::time::timeout(Duration::from_secs(10), watch.recv())
            .await
            .unwrap()
            .unwrap()
            .unwrap();
        seen.push(e.kv.key);
    }
    let expected: Vec<String> = (0..20).map(|i| format!("{prefix}{i:02}")).collect();
    assert_eq!(seen, expected, "every change once, in order, across the failover");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_watch_on_a_member_that_loses_its_leader_closes() {
    let mut cluster = etcd::start("leaderless", 3);
    // Only the first member: the one that is left alone.
    let store = EtcdStorage::new(vec![cluster.members[0].client.clone()]).unwrap();
    let start = store.revision().await.unwrap();
    let mut watch = store.watch("/registry/leaderless/", start).await.unwrap();
    create_until_acknowledged(&store, "/registry/leaderless/a").await;
    let e = tokio::time::timeout(Duration::from_secs(10), watch.recv())
        .await
        .unwrap()
        .unwrap()
        .unwrap();
    assert_eq!(e.kind, EventType::Added);
    // Without a quorum the member has no leader and will see no new event; the watch must not
    // wait on it forever, but close, so its reader moves on.
    cluster.members[1].kill();
    cluster.members[2].kill();
    let end = tokio::time::timeout(Duration::from_secs(20), watch.recv())
        .await
        .expect("the watch closes once its member has no leader");
    assert!(end.is_none(), "closed, not an error: {end:?}");
}

/// A CA, a serving certificate it signed for 127.0.0.1 and a client certificate, written under
/// `dir` with `name`: the files etcd reads, and what the server's client is given.
fn etcd_certificates(dir: &std::path::Path, name: &str) -> (etcd::ServingTls, EtcdTls) {
    let mut ca = rcgen::CertificateParams::new(Vec::<String>::new()).unwrap();
    ca.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
    ca.distinguished_name
        .push(rcgen::DnType::CommonName, format!("{name}-etcd-ca"));
    let ca_key = rcgen::KeyPair::generate().unwrap();
    let ca_cert = ca.self_signed(&ca_key).unwrap();
    let issue = |sans: Vec<String>, usage: rcgen::ExtendedKeyUsagePurpose| {
        let mut params = rcgen::CertificateParams::new(sans).unwrap();
        params.distinguished_name.push(rcgen::DnType::CommonName, name);
        params.extended_key_usages = vec![usage];
        let key = rcgen::KeyPair::generate().unwrap();
        let cert = params.signed_by(&key, &ca_cert, &ca_key).unwrap();
        (cert.pem(), key.serialize_pem())
    };
    let (serving_cert, serving_key) = issue(vec!["127.0.0.1".into()], rcgen::ExtendedKeyUsagePurpose::ServerAuth);
    let (client_cert, client_key) = issue(vec![], rcgen::ExtendedKeyUsagePurpose::ClientAuth);
    std::fs::create_dir_all(dir).unwrap();
    let write = |file: &str, text: &str| {
        let path = dir.join(format!("{name}-{file}"));
        std::fs::write(&path, text).unwrap();
        path
    };
    let serving = etcd::ServingTls {
        ca: write("ca.crt", &ca_cert.pem()),
        cert: write("server.crt", &serving_cert),
        key: write("server.key", &serving_key),
    };
    let client = EtcdTls {
        ca: ca_cert.pem().into_bytes(),
        identity: Some((client_cert.into_bytes(), client_key.into_bytes())),
    };
    (serving, client)
}

#[tokio::test(flavor = "multi_thread")]
async fn etcd_over_tls_with_a_client_certificate() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("etcd-tls-certificates");
    let (serving, client) = etcd_certificates(&dir, "tls");
    let cluster = etcd::start_tls("tls", &serving);
    assert!(cluster.endpoints()[0].starts_with("https://"));
    let store = EtcdStorage::with_tls(cluster.endpoints(), Some(client.clone())).unwrap();
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    while let Err(e) = store.revision().await {
        assert!(
            std::time::Instant::now() < deadline,
            "etcd over TLS never answered: {e}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    kube_apiserver_storage::conformance::run(&store).await;

    // etcd asks for a client certificate: a client without one is refused at the handshake (under
    // TLS 1.3 the client learns it as etcd's alert, a broken pipe or a closed connection,
    // whichever comes first, so only the refusal is checked).
    let anonymous = EtcdTls {
        identity: None,
        ..client.clone()
    };
    let anonymous = EtcdStorage::with_tls(cluster.endpoints(), Some(anonymous)).unwrap();
    match anonymous.revision().await {
        Err(StorageError::Unavailable(_)) => {}
        other => panic!("refused at the handshake, not {other:?}"),
    }
    // A client that trusts another CA refuses etcd's certificate.
    let (_, other) = etcd_certificates(&dir, "other");
    let wary = EtcdTls { ca: other.ca, ..client };
    let wary = EtcdStorage::with_tls(cluster.endpoints(), Some(wary)).unwrap();
    match wary.revision().await {
        Err(StorageError::Unavailable(m)) => assert!(m.contains("UnknownIssuer"), "{m}"),
        other => panic!("etcd's certificate refused, not {other:?}"),
    }
}

/// Keys written with a TTL are attached to leases shared as kube-apiserver shares them: two keys
/// of an hour share one lease granted for an hour and a minute, a key without a TTL has none, an
/// update without one detaches its key, and a write after the shared lease was revoked gets a
/// new lease instead of failing.
#[tokio::test(flavor = "multi_thread")]
async fn keys_with_a_ttl_share_leases_as_kube_apiservers_do() {
    let cluster = etcd::start("leases", 1);
    let store = EtcdStorage::new(cluster.endpoints()).unwrap();
    let hour = Some(Duration::from_secs(3600));
    let key = |name: &str| format!("/registry/events/ns/{name}");
    let value = || Bytes::from_static(b"{}");
    let a = store.create_with_ttl(&key("a"), value(), hour).await.unwrap();
    store.create_with_ttl(&key("b"), value(), hour).await.unwrap();
    store.create(&key("c"), value()).await.unwrap();

    let lease_of = async |name: &str| cluster.lease_of(&key(name)).await;
    let shared = lease_of("a").await.unwrap();
    assert_ne!(shared, 0, "a key with a TTL has a lease");
    assert_eq!(lease_of("b").await, Some(shared), "one lease for the hour's keys");
    assert_eq!(lease_of("c").await, Some(0), "no lease without a TTL");
    let live = cluster.lease(shared).await;
    assert_eq!(live.granted_ttl, 3660, "the TTL and a minute's reuse window");
    assert_eq!(live.keys.len(), 2);

    store.update(&key("a"), value(), a).await.unwrap();
    assert_eq!(lease_of("a").await, Some(0), "an update without a TTL detaches the key");

    cluster.revoke(shared).await;
    assert_eq!(lease_of("b").await, None, "revoking the lease deleted its key");
    store.create_with_ttl(&key("d"), value(), hour).await.unwrap();
    let fresh = lease_of("d").await.unwrap();
    assert!(fresh != 0 && fresh != shared, "a new lease replaced the revoked one");
}
