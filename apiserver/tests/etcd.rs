//! The etcd backend: the storage conformance suite on a real etcd 3.4, the server on etcd through
//! HTTP, and a three-member cluster that loses a member during a write loop without losing an
//! acknowledged write.

mod support;

use std::sync::Arc;
use std::time::Duration;

use apiserver::storage::Storage;
use apiserver::storage::etcd::EtcdStorage;
use bytes::Bytes;
use support::etcd;

#[tokio::test(flavor = "multi_thread")]
async fn the_conformance_suite_passes_on_etcd() {
    let cluster = etcd::start("conformance", 1);
    let store = EtcdStorage::new(cluster.endpoints()).unwrap();
    apiserver::storage::conformance::run(&store).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn objects_are_stored_under_registry_keys_in_the_storage_version() {
    let cluster = etcd::start("keys", 1);
    let server = support::start_on(Arc::new(EtcdStorage::new(cluster.endpoints()).unwrap()));
    let client = reqwest::Client::new();
    let post = |path: &str, body: serde_json::Value| client.post(format!("{}{path}", server.url)).json(&body).send();
    let ns = serde_json::json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "ns"}});
    assert_eq!(post("/api/v1/namespaces", ns).await.unwrap().status(), 201);
    let mut d = serde_json::json!({"apiVersion": "apps/v1beta1", "kind": "Deployment", "metadata": {"name": "web"},
        "spec": {"template": {"metadata": {"labels": {"app": "web"}}, "spec": {"containers": [{"name": "c", "image": "i"}]}}}});
    let created = post("/apis/apps/v1beta1/namespaces/ns/deployments", d.clone())
        .await
        .unwrap();
    assert_eq!(created.status(), 201);
    let created: serde_json::Value = created.json().await.unwrap();
    // Stored as apps/v1 (the group's preferred version) under Kubernetes' key, without resourceVersion,
    // which is the key's mod revision.
    let store = EtcdStorage::new(cluster.endpoints()).unwrap();
    let kv = store
        .get("/registry/apps/deployments/ns/web")
        .await
        .unwrap()
        .expect("the key");
    let stored: serde_json::Value = serde_json::from_slice(&kv.value).unwrap();
    assert_eq!(stored["apiVersion"], "apps/v1");
    assert!(stored["metadata"].get("resourceVersion").is_none());
    assert_eq!(created["metadata"]["resourceVersion"], kv.mod_revision.to_string());
    assert_eq!(
        created["apiVersion"], "apps/v1beta1",
        "answered in the request's version"
    );
    // A stale update is a Conflict, as etcd's compare-and-swap refuses it.
    d["metadata"]["resourceVersion"] = serde_json::json!("1");
    let stale = client
        .put(format!(
            "{}/apis/apps/v1beta1/namespaces/ns/deployments/web",
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
                        Err(apiserver::storage::StorageError::AlreadyExists(_)) => {
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
