//! Tests of the watch cache over the embedded store: one storage watch for many clients, replay
//! from the window, no event twice, older revisions from the storage.

use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;

use super::WatchCache;
use crate::memory::MemoryStorage;
use crate::{EventType, Revision, Storage, Watch};

const PREFIX: &str = "/registry/widgets/";

async fn next(w: &mut Watch) -> (EventType, String, Revision) {
    let event = tokio::time::timeout(Duration::from_secs(5), w.recv())
        .await
        .expect("an event within 5 s")
        .expect("the watch is open")
        .expect("not an error");
    (event.kind, event.kv.key, event.kv.mod_revision)
}

fn key(ns: &str, name: &str) -> String {
    format!("{PREFIX}{ns}/{name}")
}

#[tokio::test]
async fn many_watchers_share_one_storage_watch_and_see_every_event_once_in_order() {
    let storage = Arc::new(MemoryStorage::default());
    let cache = WatchCache::new(storage.clone(), PREFIX, 64);
    let from = storage.revision().await.unwrap();
    let mut all = Vec::new();
    for _ in 0..20 {
        all.push(cache.watch(PREFIX, from).await.unwrap());
    }
    let mut in_a = cache.watch(&format!("{PREFIX}a/"), from).await.unwrap();
    let mut written = Vec::new();
    for i in 0..30 {
        let ns = if i % 2 == 0 { "a" } else { "b" };
        let rev = storage
            .create(&key(ns, &format!("w{i}")), Bytes::from("{}"))
            .await
            .unwrap();
        written.push((EventType::Added, key(ns, &format!("w{i}")), rev));
    }
    for w in &mut all {
        for expected in &written {
            assert_eq!(&next(w).await, expected);
        }
    }
    for expected in written.iter().filter(|(_, k, _)| k.contains("/a/")) {
        assert_eq!(&next(&mut in_a).await, expected, "a namespace's watch sees only it");
    }
    assert_eq!(cache.upstream_watches(), 1);

    // A late watcher from the middle is replayed from the window, then fed live.
    let mut late = cache.watch(PREFIX, written[9].2).await.unwrap();
    for expected in &written[10..] {
        assert_eq!(&next(&mut late).await, expected);
    }
    let rev = storage.delete(&key("a", "w0"), None).await.unwrap().1;
    assert_eq!(next(&mut late).await, (EventType::Deleted, key("a", "w0"), rev));
    assert_eq!(cache.upstream_watches(), 1);
}

#[tokio::test]
async fn a_watch_from_a_revision_the_cache_has_not_delivered_yet_gets_no_event_twice() {
    let storage = Arc::new(MemoryStorage::default());
    let cache = WatchCache::new(storage.clone(), PREFIX, 64);
    cache.watch(PREFIX, storage.revision().await.unwrap()).await.unwrap();
    for i in 0..50 {
        // The watch starts at the revision just written, which the cache may not have seen yet.
        let seen = storage
            .create(&key("a", &format!("x{i}")), Bytes::from("{}"))
            .await
            .unwrap();
        let mut w = cache.watch(PREFIX, seen).await.unwrap();
        let after = storage
            .create(&key("a", &format!("y{i}")), Bytes::from("{}"))
            .await
            .unwrap();
        assert_eq!(
            next(&mut w).await,
            (EventType::Added, key("a", &format!("y{i}")), after)
        );
    }
}

#[tokio::test]
async fn revisions_older_than_the_window_are_the_storages_to_replay_or_refuse() {
    let storage = Arc::new(MemoryStorage::with_history(8));
    let before = storage.revision().await.unwrap();
    let first = storage.create(&key("a", "old"), Bytes::from("{}")).await.unwrap();
    let cache = WatchCache::new(storage.clone(), PREFIX, 4);
    // The cache starts after `first`: a watch from before it is replayed by the storage.
    let mut w = cache.watch(PREFIX, before).await.unwrap();
    assert_eq!(next(&mut w).await, (EventType::Added, key("a", "old"), first));
    let mut live = cache.watch(PREFIX, first).await.unwrap();
    for i in 0..20 {
        storage
            .create(&key("a", &format!("n{i}")), Bytes::from("{}"))
            .await
            .unwrap();
    }
    for _ in 0..20 {
        next(&mut live).await;
    }
    // Once the cache has moved past `first`, and the storage's window too, the storage answers Gone.
    let err = cache.watch(PREFIX, first).await.err();
    assert!(matches!(err, Some(crate::StorageError::Gone { .. })), "{err:?}");
}
