//! The stores of every served resource, compiled and installed at run time: what the namespace
//! deletion empties and the garbage collector reads, kept current as CRDs come and go.

use std::sync::{Arc, RwLock};

use crate::registry::store::Store;

/// The stores, shared; a change is announced to [`Stores::subscribe`]rs.
pub struct Stores {
    list: RwLock<Vec<Arc<Store>>>,
    changed: tokio::sync::watch::Sender<u64>,
}

impl Stores {
    /// The stores `initial` (the compiled kinds').
    pub fn new(initial: Vec<Arc<Store>>) -> Arc<Self> {
        Arc::new(Stores {
            list: RwLock::new(initial),
            changed: tokio::sync::watch::Sender::new(0),
        })
    }

    /// Every store now.
    pub fn all(&self) -> Vec<Arc<Store>> {
        self.list.read().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// The stores of namespaced resources now.
    pub fn namespaced(&self) -> Vec<Arc<Store>> {
        self.all().into_iter().filter(|s| s.namespaced).collect()
    }

    /// Adds `store` (replacing one of the same group and resource).
    pub fn add(&self, store: Arc<Store>) {
        let mut list = self.list.write().unwrap_or_else(|e| e.into_inner());
        list.retain(|s| !(s.group == store.group && s.resource == store.resource));
        list.push(store);
        drop(list);
        self.changed.send_modify(|n| *n += 1);
    }

    /// Removes the store of `resource` of `group`.
    pub fn remove(&self, group: &str, resource: &str) {
        let mut list = self.list.write().unwrap_or_else(|e| e.into_inner());
        list.retain(|s| !(s.group == group && s.resource == resource));
        drop(list);
        self.changed.send_modify(|n| *n += 1);
    }

    /// A receiver told of every change.
    pub fn subscribe(&self) -> tokio::sync::watch::Receiver<u64> {
        self.changed.subscribe()
    }
}
