//! The storage conformance suite: what every [`Storage`] backend must do, checked by calls a test of
//! that backend makes (`conformance::run(&store).await`). It panics with the failed expectation, as
//! a test does. Keys live under a prefix of their own per run, so a shared etcd may hold others.

use std::time::Duration;

use bytes::Bytes;

use super::{EventType, ListOptions, Storage, StorageError};

/// Runs every check against `store`.
pub async fn run(store: &dyn Storage) {
    let prefix = format!("/registry/conformance-{}/", uuid::Uuid::new_v4());
    create_get_update_delete(store, &prefix).await;
    list_pages(store, &prefix).await;
    watch_from_revision(store, &prefix).await;
    keys_with_a_ttl_expire(store, &prefix).await;
}

fn b(s: &str) -> Bytes {
    Bytes::copy_from_slice(s.as_bytes())
}

async fn create_get_update_delete(store: &dyn Storage, prefix: &str) {
    let key = format!("{prefix}crud/a");
    let before = store.revision().await.unwrap();
    let created = store.create(&key, b("1")).await.unwrap();
    assert!(created > before, "a write advances the revision");
    assert!(matches!(
        store.create(&key, b("x")).await,
        Err(StorageError::AlreadyExists(_))
    ));
    let got = store.get(&key).await.unwrap().expect("created key");
    assert_eq!((got.value, got.mod_revision), (b("1"), created));
    assert!(store.get(&format!("{prefix}crud/none")).await.unwrap().is_none());
    let updated = store.update(&key, b("2"), created).await.unwrap();
    assert!(updated > created);
    match store.update(&key, b("3"), created).await {
        Err(StorageError::Conflict { expected, actual, .. }) => assert_eq!((expected, actual), (created, updated)),
        other => panic!("a stale update must conflict, got {other:?}"),
    }
    assert!(matches!(
        store.update(&format!("{prefix}crud/none"), b("1"), 1).await,
        Err(StorageError::NotFound(_))
    ));
    assert!(matches!(
        store.delete(&key, Some(created)).await,
        Err(StorageError::Conflict { .. })
    ));
    let (removed, at) = store.delete(&key, Some(updated)).await.unwrap();
    assert_eq!((removed.value, removed.mod_revision), (b("2"), updated));
    assert!(at > updated);
    assert!(store.get(&key).await.unwrap().is_none());
    assert!(matches!(store.delete(&key, None).await, Err(StorageError::NotFound(_))));
}

async fn list_pages(store: &dyn Storage, prefix: &str) {
    let dir = format!("{prefix}list/");
    for name in ["c", "a", "b", "d"] {
        store.create(&format!("{dir}{name}"), b(name)).await.unwrap();
    }
    // A key that shares the prefix's text but not its directory is not listed.
    store.create(&format!("{prefix}list-other"), b("x")).await.unwrap();
    let all = store.list(&dir, &ListOptions::default()).await.unwrap();
    let names: Vec<&str> = all.items.iter().map(|kv| &kv.key[dir.len()..]).collect();
    assert_eq!(names, ["a", "b", "c", "d"]);
    assert!(!all.more);
    assert!(all.revision >= all.items.iter().map(|kv| kv.mod_revision).max().unwrap());
    let first = store
        .list(
            &dir,
            &ListOptions {
                limit: Some(3),
                ..ListOptions::default()
            },
        )
        .await
        .unwrap();
    assert_eq!(first.items.len(), 3);
    assert!(first.more);
    let rest = store
        .list(
            &dir,
            &ListOptions {
                after: Some(first.items[2].key.clone()),
                limit: Some(3),
                revision: Some(first.revision),
            },
        )
        .await
        .unwrap();
    assert_eq!(
        rest.items.iter().map(|kv| kv.value.clone()).collect::<Vec<_>>(),
        [b("d")]
    );
    assert!(!rest.more);
    assert_eq!(rest.revision, first.revision, "a later page reads as of the first");
    // After a change under the prefix, a read as of before it is the state of then or Gone, never
    // the state after.
    store.create(&format!("{dir}e"), b("e")).await.unwrap();
    let then = ListOptions {
        revision: Some(all.revision),
        ..ListOptions::default()
    };
    match store.list(&dir, &then).await {
        Ok(page) => {
            assert_eq!(page.revision, all.revision);
            assert_eq!(page.items, all.items);
        }
        Err(StorageError::Gone { requested, .. }) => assert_eq!(requested, all.revision),
        Err(e) => panic!("a read as of revision {}: {e}", all.revision),
    }
}

async fn watch_from_revision(store: &dyn Storage, prefix: &str) {
    let dir = format!("{prefix}watch/");
    let start = store.revision().await.unwrap();
    let a = format!("{dir}a");
    let r1 = store.create(&a, b("1")).await.unwrap();
    // A watch that starts in the past replays what happened since, then continues live.
    let mut w = store.watch(&dir, start).await.unwrap();
    let r2 = store.update(&a, b("2"), r1).await.unwrap();
    store.create(&format!("{prefix}elsewhere"), b("x")).await.unwrap();
    let (_, r3) = store.delete(&a, None).await.unwrap();
    let mut seen = Vec::new();
    for _ in 0..3 {
        let e = tokio::time::timeout(Duration::from_secs(10), w.recv())
            .await
            .expect("an event within 10 s")
            .expect("the watch is open")
            .expect("no watch error");
        if e.kind == EventType::Modified {
            assert_eq!(e.prev, Some(b("1")), "a modification carries the value before it");
        }
        seen.push((e.kind, e.kv.value, e.kv.mod_revision));
    }
    assert_eq!(
        seen,
        [
            (EventType::Added, b("1"), r1),
            (EventType::Modified, b("2"), r2),
            (EventType::Deleted, b("2"), r3),
        ],
        "events in revision order; a deletion carries the last value"
    );
    // A watch from the current revision sees only the changes that follow it.
    let mut later = store.watch(&dir, r3).await.unwrap();
    let r4 = store.create(&a, b("4")).await.unwrap();
    let e = tokio::time::timeout(Duration::from_secs(10), later.recv())
        .await
        .unwrap()
        .unwrap()
        .unwrap();
    assert_eq!((e.kind, e.kv.mod_revision), (EventType::Added, r4));
}

/// A key written with a TTL is deleted once it runs out, as a change watches see; an update
/// without one makes a key permanent, and an update with one moves its expiry.
async fn keys_with_a_ttl_expire(store: &dyn Storage, prefix: &str) {
    let dir = format!("{prefix}ttl/");
    let (short, kept, moved) = (format!("{dir}short"), format!("{dir}kept"), format!("{dir}moved"));
    let from = store.revision().await.unwrap();
    let ttl = Some(Duration::from_secs(1));
    let created = store.create_with_ttl(&short, b("s"), ttl).await.unwrap();
    let k = store.create_with_ttl(&kept, b("k"), ttl).await.unwrap();
    store.update(&kept, b("k2"), k).await.unwrap();
    let m = store.create_with_ttl(&moved, b("m"), ttl).await.unwrap();
    store
        .update_with_ttl(&moved, b("m2"), m, Some(Duration::from_secs(30)))
        .await
        .unwrap();
    assert_eq!(store.get(&short).await.unwrap().unwrap().mod_revision, created);
    // etcd grants at least its minimum lease TTL (1.5 s with its default timing) and checks
    // leases every half second.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(15);
    while store.get(&short).await.unwrap().is_some() {
        assert!(tokio::time::Instant::now() < deadline, "{short} outlived its TTL");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let mut watch = store.watch(&dir, from).await.unwrap();
    let deleted = loop {
        let event = tokio::time::timeout(Duration::from_secs(5), watch.recv())
            .await
            .expect("the expiry is a change a watch sees")
            .expect("watch open")
            .unwrap();
        if event.kind == EventType::Deleted {
            break event;
        }
    };
    assert_eq!(
        (deleted.kv.key.as_str(), &deleted.kv.value[..]),
        (short.as_str(), &b"s"[..])
    );
    assert!(deleted.kv.mod_revision > created);
    assert!(
        store.get(&kept).await.unwrap().is_some(),
        "an update without a TTL keeps the key"
    );
    assert!(
        store.get(&moved).await.unwrap().is_some(),
        "an update with a TTL moves the expiry"
    );
    for key in [&kept, &moved] {
        store.delete(key, None).await.unwrap();
    }
}
