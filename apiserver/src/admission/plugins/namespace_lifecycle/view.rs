//! NamespaceLifecycle's view of the namespaces, kept as kube-apiserver's plugin keeps it (an
//! informer's lister): a map of each namespace to whether it is terminating, filled by a list and
//! kept by a watch on the namespaces' watch cache, so a create in a namespace costs no storage
//! read. On etcd that read was a round trip on every create.
//!
//! The map answers only once it has applied this server's own last namespace write (a namespace
//! marked Terminating here refuses content at once, not a watch event later); it waits a moment
//! for that, then reads the store. A name the map lacks is read from the store too, since the
//! map may not have seen it yet (kube-apiserver's live lookup). When the watch ends, the map is
//! dropped and rebuilt on the next lookup.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use serde_json::Value;
use tokio::sync::Notify;

use crate::meta;
use crate::registry::store::Store;
use crate::status::ApiError;
use kube_apiserver_storage::{EventType, Revision};

/// How long a lookup waits for the map to apply this server's last namespace write before it
/// reads the store instead.
const CATCH_UP: Duration = Duration::from_millis(200);

/// What a namespace is, for admission.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// It exists and takes new content.
    Active,
    /// It is being deleted.
    Terminating,
    /// It does not exist.
    Missing,
}

/// The namespaces, as a map kept by a watch.
pub struct NamespaceView {
    store: Arc<Store>,
    state: Arc<Mutex<State>>,
    changed: Arc<Notify>,
    starting: tokio::sync::Mutex<()>,
}

#[derive(Default)]
struct State {
    running: bool,
    /// The revision the map reflects.
    applied: Revision,
    /// Each namespace and whether it is terminating.
    terminating: HashMap<String, bool>,
}

fn lock(state: &Mutex<State>) -> MutexGuard<'_, State> {
    // Plain data that every holder leaves consistent.
    state.lock().unwrap_or_else(|e| e.into_inner())
}

impl NamespaceView {
    /// A view of the namespaces in `store`, started by the first lookup.
    pub fn new(store: Arc<Store>) -> Self {
        NamespaceView {
            store,
            state: Arc::default(),
            changed: Arc::new(Notify::new()),
            starting: tokio::sync::Mutex::new(()),
        }
    }

    /// The namespace's phase: from the map when it has the name and this server's last
    /// namespace write, else from the store.
    pub async fn phase(&self, name: &str) -> Result<Phase, ApiError> {
        if self.start().await.is_ok()
            && let Some(phase) = self.mapped_phase(name).await
        {
            return Ok(phase);
        }
        match self.store.get(None, name).await {
            Ok(ns) if meta::deleting(&ns) => Ok(Phase::Terminating),
            Ok(_) => Ok(Phase::Active),
            Err(e) if e.code == 404 => Ok(Phase::Missing),
            Err(e) => Err(e),
        }
    }

    /// The map's answer, once it has caught up with this server's writes; `None` to read the store.
    async fn mapped_phase(&self, name: &str) -> Option<Phase> {
        let written = self.store.last_write();
        let deadline = tokio::time::Instant::now() + CATCH_UP;
        loop {
            let changed = self.changed.notified();
            {
                let state = lock(&self.state);
                if !state.running {
                    return None;
                }
                if state.applied >= written {
                    return state
                        .terminating
                        .get(name)
                        .map(|t| if *t { Phase::Terminating } else { Phase::Active });
                }
            }
            tokio::time::timeout_at(deadline, changed).await.ok()?;
        }
    }

    /// Lists the namespaces and starts the watch that keeps the map, unless it runs.
    async fn start(&self) -> Result<(), ApiError> {
        if lock(&self.state).running {
            return Ok(());
        }
        let _one_at_a_time = self.starting.lock().await;
        if lock(&self.state).running {
            return Ok(());
        }
        let mut terminating = HashMap::new();
        let mut after = None;
        let revision = loop {
            let page = self.store.list(None, after.take(), None, None).await?;
            for stored in &page.items {
                let ns = stored.value()?;
                terminating.insert(meta::name(&ns).to_string(), meta::deleting(&ns));
            }
            match page.next {
                Some(next) => after = Some(next),
                None => break page.revision,
            }
        };
        let watch = self.store.watch(None, revision).await?;
        *lock(&self.state) = State {
            running: true,
            applied: revision,
            terminating,
        };
        self.changed.notify_waiters();
        tokio::spawn(keep(self.state.clone(), self.changed.clone(), watch));
        Ok(())
    }
}

/// Applies the watch's events to the map until the watch ends, then marks the map stopped.
async fn keep(state: Arc<Mutex<State>>, changed: Arc<Notify>, mut watch: kube_apiserver_storage::Watch) {
    while let Some(Ok(event)) = watch.recv().await {
        let name = event.kv.key.rsplit('/').next().unwrap_or_default().to_string();
        let deleting = match event.kind {
            EventType::Deleted => None,
            _ => serde_json::from_slice::<Value>(&event.kv.value)
                .ok()
                .map(|ns| meta::deleting(&ns)),
        };
        {
            let mut state = lock(&state);
            match deleting {
                Some(t) => state.terminating.insert(name, t),
                None => state.terminating.remove(&name),
            };
            state.applied = state.applied.max(event.kv.mod_revision);
        }
        changed.notify_waiters();
    }
    let mut state = lock(&state);
    state.running = false;
    state.terminating.clear();
    drop(state);
    changed.notify_waiters();
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use async_trait::async_trait;
    use bytes::Bytes;
    use serde_json::json;

    use super::*;
    use crate::registry::strategy::GenericStrategy;
    use kube_apiserver_storage::memory::MemoryStorage;
    use kube_apiserver_storage::{KeyValue, ListOptions, ListResult, Storage, StorageError, Watch};

    /// The embedded store, counting the single-key reads made of it.
    #[derive(Default)]
    struct CountingGets {
        inner: MemoryStorage,
        gets: AtomicUsize,
    }

    #[async_trait]
    impl Storage for CountingGets {
        async fn create_with_ttl(
            &self,
            key: &str,
            value: Bytes,
            ttl: Option<std::time::Duration>,
        ) -> Result<Revision, StorageError> {
            self.inner.create_with_ttl(key, value, ttl).await
        }
        async fn get(&self, key: &str) -> Result<Option<KeyValue>, StorageError> {
            self.gets.fetch_add(1, Ordering::SeqCst);
            self.inner.get(key).await
        }
        async fn list(&self, prefix: &str, options: &ListOptions) -> Result<ListResult, StorageError> {
            self.inner.list(prefix, options).await
        }
        async fn update_with_ttl(
            &self,
            key: &str,
            value: Bytes,
            expected: Revision,
            ttl: Option<std::time::Duration>,
        ) -> Result<Revision, StorageError> {
            self.inner.update_with_ttl(key, value, expected, ttl).await
        }
        async fn delete(&self, key: &str, expected: Option<Revision>) -> Result<(KeyValue, Revision), StorageError> {
            self.inner.delete(key, expected).await
        }
        async fn watch(&self, prefix: &str, after: Revision) -> Result<Watch, StorageError> {
            self.inner.watch(prefix, after).await
        }
        async fn revision(&self) -> Result<Revision, StorageError> {
            self.inner.revision().await
        }
    }

    fn namespaces(storage: Arc<CountingGets>) -> Arc<Store> {
        let strategy = GenericStrategy {
            status_subresource: true,
            generation: false,
            return_deleted_object: false,
            ttl: None,
        };
        Arc::new(Store::new(
            storage,
            "",
            "namespaces",
            "Namespace",
            false,
            Arc::new(strategy),
        ))
    }

    async fn create(store: &Store, name: &str) {
        let ns = json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": name}});
        store.create(None, ns, false).await.unwrap();
    }

    #[tokio::test]
    async fn lookups_read_the_map_and_see_this_servers_writes_at_once() {
        let storage = Arc::new(CountingGets::default());
        let store = namespaces(storage.clone());
        create(&store, "a").await;
        let view = NamespaceView::new(store.clone());
        assert_eq!(view.phase("a").await.unwrap(), Phase::Active);
        let reads = storage.gets.load(Ordering::SeqCst);
        for _ in 0..100 {
            assert_eq!(view.phase("a").await.unwrap(), Phase::Active);
        }
        assert_eq!(storage.gets.load(Ordering::SeqCst), reads, "no storage read per lookup");
        // Marked Terminating by this server: refused at the very next lookup.
        store.mark_deleting(None, "a", |_| {}).await.unwrap();
        assert_eq!(view.phase("a").await.unwrap(), Phase::Terminating);
        // A namespace created here is found at once; one the map lacks is read from the store.
        create(&store, "b").await;
        assert_eq!(view.phase("b").await.unwrap(), Phase::Active);
        assert_eq!(view.phase("nowhere").await.unwrap(), Phase::Missing);
        assert!(
            storage.gets.load(Ordering::SeqCst) > reads,
            "a missing name is read live"
        );
    }

    #[tokio::test]
    async fn a_namespace_written_elsewhere_reaches_the_map_through_the_watch() {
        let storage = Arc::new(CountingGets::default());
        let here = namespaces(storage.clone());
        // Another server over the same storage: its writes are not this store's.
        let elsewhere = namespaces(storage.clone());
        create(&here, "c").await;
        let view = NamespaceView::new(here);
        assert_eq!(view.phase("c").await.unwrap(), Phase::Active);
        elsewhere.mark_deleting(None, "c", |_| {}).await.unwrap();
        let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
        while view.phase("c").await.unwrap() != Phase::Terminating {
            assert!(
                tokio::time::Instant::now() < deadline,
                "the watch never delivered the change"
            );
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }
}
