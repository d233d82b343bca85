//! Reads of an informer's cache by label selector, namespace and name (client-go's
//! `cache.ListAll`, `ListAllByNamespace` and the listers' `Get`): what the generated typed
//! listers wrap. Objects are the cache's own `Arc`s: clone one before changing it.

use std::collections::BTreeMap;
use std::sync::Arc;

use kube::core::{Selector, SelectorExt};

use super::cache::{Indexer, NAMESPACE_INDEX};

/// Whether the object's labels satisfy the selector.
fn selects<K: kube::Resource>(selector: &Selector, obj: &K) -> bool {
    static NO_LABELS: BTreeMap<String, String> = BTreeMap::new();
    selector.selects_all() || selector.matches(obj.meta().labels.as_ref().unwrap_or(&NO_LABELS))
}

/// A kind's objects across namespaces.
pub struct Lister<K> {
    indexer: Arc<Indexer<K>>,
}

impl<K> Clone for Lister<K> {
    fn clone(&self) -> Self {
        Self {
            indexer: self.indexer.clone(),
        }
    }
}

impl<K: kube::Resource + Send + Sync + 'static> Lister<K> {
    /// A lister over an informer's cache.
    pub fn new(indexer: Arc<Indexer<K>>) -> Self {
        Self { indexer }
    }

    /// The objects the selector selects, in `namespace/name` order (`Selector::default()`
    /// selects all).
    pub fn list(&self, selector: &Selector) -> Vec<Arc<K>> {
        let mut all = self.indexer.list();
        if !selector.selects_all() {
            all.retain(|o| selects(selector, o.as_ref()));
        }
        all
    }

    /// A cluster-scoped object by name.
    pub fn get(&self, name: &str) -> Option<Arc<K>> {
        self.indexer.get(name)
    }

    /// The objects of one namespace, read through the namespace index.
    pub fn namespace(&self, namespace: &str) -> NamespaceLister<K> {
        NamespaceLister {
            indexer: self.indexer.clone(),
            namespace: namespace.to_string(),
        }
    }

    /// The cache underneath, for its user indexes (`by_index`).
    pub fn indexer(&self) -> &Arc<Indexer<K>> {
        &self.indexer
    }
}

/// A kind's objects in one namespace.
pub struct NamespaceLister<K> {
    indexer: Arc<Indexer<K>>,
    namespace: String,
}

impl<K> Clone for NamespaceLister<K> {
    fn clone(&self) -> Self {
        Self {
            indexer: self.indexer.clone(),
            namespace: self.namespace.clone(),
        }
    }
}

impl<K: kube::Resource + Send + Sync + 'static> NamespaceLister<K> {
    /// The namespace's objects the selector selects, in name order.
    pub fn list(&self, selector: &Selector) -> Vec<Arc<K>> {
        let mut objects = self
            .indexer
            .by_index(NAMESPACE_INDEX, &self.namespace)
            .unwrap_or_default();
        if !selector.selects_all() {
            objects.retain(|o| selects(selector, o.as_ref()));
        }
        objects
    }

    /// The namespace's object of this name.
    pub fn get(&self, name: &str) -> Option<Arc<K>> {
        self.indexer.get(&format!("{}/{name}", self.namespace))
    }
}
