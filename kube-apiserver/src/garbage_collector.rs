//! The garbage collector (kube-controller-manager's, run in the server's process): owner
//! references mean something. An object whose owners are all gone is deleted (`Background`, the
//! default); an owner deleted with `propagationPolicy=Orphan` keeps its `orphan` finalizer until
//! its dependents no longer name it; one deleted with `Foreground` keeps `foregroundDeletion`
//! until its dependents are deleted (those with `blockOwnerDeletion` gone first), then goes.
//!
//! It watches every store and, after each burst of changes that concern it (deletions, objects
//! with owners or being deleted), sweeps all objects once: owners are found by uid, as the
//! collector's graph keys them. A sweep reads every object, which suits a test server or an edge
//! control plane; a cluster-sized store would want the collector's incremental graph instead.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};
use tokio::sync::Notify;

use super::Stores;
use kube_generic_apiserver::meta;
use kube_generic_apiserver::registry::store::ignore_gone;
use kube_generic_apiserver::registry::store::{Preconditions, Store, Target};
use kube_generic_apiserver::status::ApiError;

use kube_generic_apiserver::endpoints::delete::{FOREGROUND, ORPHAN};

/// How long a burst of changes may last before the sweep runs.
const SETTLE: Duration = Duration::from_millis(20);

/// One object as a sweep sees it.
struct Node {
    store: Arc<Store>,
    namespace: Option<String>,
    name: String,
    uid: String,
    deleting: bool,
    finalizers: Vec<String>,
    /// (owner uid, blockOwnerDeletion).
    owners: Vec<(String, bool)>,
}

/// The collector over every store of a server, those CRDs add included.
pub struct GarbageCollector {
    stores: Arc<Stores>,
}

impl GarbageCollector {
    /// A collector of the objects in `stores`.
    pub fn new(stores: Arc<Stores>) -> Self {
        Self { stores }
    }

    /// Runs on the current Tokio runtime until the runtime ends: a sweep after every burst of
    /// changes in any store, and one at start (for what changed while nothing ran).
    pub fn start(self) {
        let changed = Arc::new(Notify::new());
        tokio::spawn(watch_all(self.stores.clone(), changed.clone()));
        changed.notify_one();
        tokio::spawn(async move {
            loop {
                changed.notified().await;
                tokio::time::sleep(SETTLE).await;
                if let Err(e) = self.sweep().await {
                    tracing::warn!(error = %e, "garbage collection failed; retrying at the next change");
                    tokio::time::sleep(Duration::from_millis(500)).await;
                    changed.notify_one();
                }
            }
        });
    }

    /// One pass: orphan, delete in the foreground, and delete what lost all its owners.
    pub async fn sweep(&self) -> Result<(), ApiError> {
        let mut nodes = self.read().await?;
        // The stores are read one after another: a dependent created just before its owner was
        // marked may be missed by a read of its store that came before the mark was seen in the
        // owner's. Read again once an owner waits on its dependents: what was created before the
        // mark was seen, so before the first read ended, is in the second.
        let waiting = |n: &Node| n.deleting && n.finalizers.iter().any(|f| f == ORPHAN || f == FOREGROUND);
        if nodes.iter().any(waiting) {
            nodes = self.read().await?;
        }
        let live: HashSet<&str> = nodes.iter().map(|n| n.uid.as_str()).collect();
        let mut dependents: HashMap<&str, Vec<&Node>> = HashMap::new();
        for n in &nodes {
            for (owner, _) in &n.owners {
                dependents.entry(owner.as_str()).or_default().push(n);
            }
        }
        for owner in nodes.iter().filter(|n| n.deleting) {
            let theirs = dependents.get(owner.uid.as_str()).cloned().unwrap_or_default();
            if owner.finalizers.iter().any(|f| f == ORPHAN) {
                for d in &theirs {
                    self.drop_owners(d, &[owner.uid.as_str()]).await?;
                }
                self.remove_finalizer(owner, ORPHAN).await?;
            } else if owner.finalizers.iter().any(|f| f == FOREGROUND) {
                // Each dependent goes in the foreground too when it owns others in turn.
                for d in theirs.iter().filter(|d| !d.deleting) {
                    self.delete(d, dependents.contains_key(d.uid.as_str())).await?;
                }
                // The owner waits for the dependents that block it; the others go on their own.
                if !theirs
                    .iter()
                    .any(|d| d.owners.iter().any(|(o, block)| o == &owner.uid && *block))
                {
                    self.remove_finalizer(owner, FOREGROUND).await?;
                }
            }
        }
        let missing = |n: &Node| n.owners.iter().any(|(o, _)| !live.contains(o.as_str()));
        let orphaned: Vec<&Node> = nodes.iter().filter(|n| !n.deleting && missing(n)).collect();
        if orphaned.is_empty() {
            return Ok(());
        }
        // The stores are read one after another, so an owner created after its store was read
        // and a dependent created after it would look ownerless. A second read confirms: an owner
        // a dependent names existed before the dependent, so before the first read ended, and is
        // seen by the second unless it is truly gone (the collector's live lookup in Kubernetes).
        let confirmed = self.read().await?;
        let live: HashSet<&str> = confirmed.iter().map(|n| n.uid.as_str()).collect();
        for n in orphaned {
            let gone: Vec<&str> = n
                .owners
                .iter()
                .map(|(o, _)| o.as_str())
                .filter(|o| !live.contains(o))
                .collect();
            if gone.is_empty() {
                continue;
            }
            if gone.len() == n.owners.len() {
                self.delete(n, false).await?;
            } else {
                self.drop_owners(n, &gone).await?;
            }
        }
        // What these deletions free in turn (a chain of owners) is the next sweep's: the
        // deletions are changes the watches report.
        Ok(())
    }

    async fn read(&self) -> Result<Vec<Node>, ApiError> {
        let mut nodes = Vec::new();
        for store in self.stores.all() {
            for item in store.list(None, None, None, None).await?.items {
                let obj = item.value()?;
                let strings = |key: &str| -> Vec<String> {
                    obj.pointer(&format!("/metadata/{key}"))
                        .and_then(Value::as_array)
                        .into_iter()
                        .flatten()
                        .filter_map(|v| v.as_str().map(str::to_string))
                        .collect()
                };
                let owners = obj
                    .pointer("/metadata/ownerReferences")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .filter_map(|o| {
                        let uid = o.get("uid")?.as_str()?.to_string();
                        Some((uid, o.get("blockOwnerDeletion") == Some(&json!(true))))
                    })
                    .collect();
                let namespace = meta::field(&obj, "namespace");
                nodes.push(Node {
                    store: store.clone(),
                    namespace: (!namespace.is_empty()).then(|| namespace.to_string()),
                    name: meta::name(&obj).to_string(),
                    uid: meta::field(&obj, "uid").to_string(),
                    deleting: meta::deleting(&obj),
                    finalizers: strings("finalizers"),
                    owners,
                });
            }
        }
        Ok(nodes)
    }

    /// Deletes `n` (the uid it had, not a successor of the same name); in the `foreground` it
    /// keeps `foregroundDeletion` until its own dependents are gone.
    async fn delete(&self, n: &Node, foreground: bool) -> Result<(), ApiError> {
        let store = &n.store;
        if foreground {
            self.edit(n, |obj| meta::add_finalizer(obj, FOREGROUND)).await?;
        }
        let preconditions = Preconditions {
            resource_version: None,
            uid: Some(n.uid.clone()),
        };
        ignore_gone(
            store
                .delete(n.namespace.as_deref(), &n.name, &preconditions, false)
                .await
                .map(drop),
        )
    }

    /// Removes the references to `owners` from `n`.
    async fn drop_owners(&self, n: &Node, owners: &[&str]) -> Result<(), ApiError> {
        let owners: Vec<String> = owners.iter().map(|o| o.to_string()).collect();
        self.edit(n, move |obj| {
            if let Some(refs) = obj
                .pointer_mut("/metadata/ownerReferences")
                .and_then(Value::as_array_mut)
            {
                refs.retain(|r| !owners.iter().any(|o| r.get("uid").and_then(Value::as_str) == Some(o)));
                if refs.is_empty() {
                    meta::meta_mut(obj).remove("ownerReferences");
                }
            }
        })
        .await
    }

    async fn remove_finalizer(&self, n: &Node, finalizer: &str) -> Result<(), ApiError> {
        let finalizer = finalizer.to_string();
        self.edit(n, move |obj| {
            if let Some(list) = obj.pointer_mut("/metadata/finalizers").and_then(Value::as_array_mut) {
                list.retain(|f| f.as_str() != Some(finalizer.as_str()));
            }
        })
        .await
    }

    /// Changes `n` as `edit` says, if it is still the object the sweep saw.
    async fn edit(&self, n: &Node, edit: impl Fn(&mut Value) + Send + Sync) -> Result<(), ApiError> {
        let store = &n.store;
        let uid = n.uid.clone();
        let changed = store
            .guaranteed_update(
                n.namespace.as_deref(),
                &n.name,
                None,
                false,
                |current| {
                    let mut next = current.clone();
                    if meta::field(current, "uid") == uid {
                        edit(&mut next);
                    }
                    Ok(next)
                },
                Target::Main,
            )
            .await;
        ignore_gone(changed.map(drop))
    }
}

/// Whether a change can give the collector work: a deletion (an owner may be gone), or an object
/// that has owners or is being deleted. A plain write of an ownerless object, most of a server's
/// traffic, costs the collector nothing.
fn concerns_collector(event: &kube_apiserver_storage::Event) -> bool {
    let mentions = |needle: &[u8]| event.kv.value.windows(needle.len()).any(|w| w == needle);
    event.kind == kube_apiserver_storage::EventType::Deleted
        || mentions(b"\"ownerReferences\"")
        || mentions(b"\"deletionTimestamp\"")
}

/// A store watched, and the task watching it.
type Watching = (Arc<Store>, tokio::task::JoinHandle<()>);

/// Watches every store of `stores` as they come and go (a CRD's with it), telling `changed`.
async fn watch_all(stores: Arc<Stores>, changed: Arc<Notify>) {
    let mut updates = stores.subscribe();
    let mut watching: HashMap<(&'static str, &'static str), Watching> = HashMap::new();
    loop {
        let now = stores.all();
        watching.retain(|_, (store, task)| {
            let kept = now.iter().any(|s| Arc::ptr_eq(s, store));
            if !kept {
                task.abort();
            }
            kept
        });
        for store in now {
            let key = (store.group, store.resource);
            if let std::collections::hash_map::Entry::Vacant(entry) = watching.entry(key) {
                let task = tokio::spawn(watch(store.clone(), changed.clone()));
                entry.insert((store, task));
            }
        }
        // A store that came or went is a change too: its objects may own or be owned.
        changed.notify_one();
        if updates.changed().await.is_err() {
            return;
        }
    }
}

/// Tells `changed` of every change in `store` that concerns it, watching again after a watch
/// ends.
async fn watch(store: Arc<Store>, changed: Arc<Notify>) {
    loop {
        let started = async {
            let from = store.revision().await?;
            store.watch(None, from).await
        };
        match started.await {
            Ok(mut events) => {
                while let Some(event) = events.recv().await {
                    if event.as_ref().is_ok_and(concerns_collector) {
                        changed.notify_one();
                    }
                }
            }
            Err(e) => tracing::debug!(error = %e, resource = store.resource, "garbage collector watch failed"),
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
        changed.notify_one();
    }
}
