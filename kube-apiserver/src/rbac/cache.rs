//! The RBAC policy as the authorizer reads it: a snapshot of ClusterRoles, Roles and their
//! bindings, rebuilt from the stores whenever one of them changes (a watch per store, as
//! kube-apiserver's RBAC authorizer reads informer caches). A request never waits on storage;
//! a change is seen a few milliseconds after it is written.

use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;
use tokio::sync::{Notify, watch};

use super::{Policy, PolicyStores};
use kube_generic_apiserver::registry::store::Store;

/// The current policy, kept current by a task of the server's runtime.
pub struct PolicyCache {
    current: watch::Receiver<Option<Arc<Policy>>>,
}

impl PolicyCache {
    /// The cache of `stores`' policy, empty, and what starts keeping it (on the current Tokio
    /// runtime: a server runs it as a post-start hook). The bootstrap roles exist before the
    /// policy is first read, so that no request is refused for want of them.
    pub fn new(stores: PolicyStores) -> (Arc<PolicyCache>, impl FnOnce() + Send + 'static) {
        let (tx, rx) = watch::channel(None);
        let start = move || {
            let changed = Arc::new(Notify::new());
            for store in [
                &stores.cluster_roles,
                &stores.roles,
                &stores.cluster_role_bindings,
                &stores.role_bindings,
            ] {
                tokio::spawn(watch_store(store.clone(), changed.clone()));
            }
            tokio::spawn(async move {
                super::bootstrap::create(&stores).await;
                rebuild(stores, tx, changed).await;
            });
        };
        (Arc::new(PolicyCache { current: rx }), start)
    }

    /// Starts keeping the policy of `stores` (on the current Tokio runtime).
    pub fn start(stores: PolicyStores) -> Arc<PolicyCache> {
        let (cache, start) = Self::new(stores);
        start();
        cache
    }

    /// The policy now; empty until it is first read.
    pub fn current(&self) -> Arc<Policy> {
        self.current.borrow().clone().unwrap_or_default()
    }

    /// Waits until the policy has been read once.
    pub async fn ready(&self) {
        let mut rx = self.current.clone();
        let _ = rx.wait_for(Option::is_some).await;
    }
}

/// Every object of `store`.
async fn all(store: &Store) -> Result<Vec<Value>, kube_generic_apiserver::status::ApiError> {
    let mut objects = Vec::new();
    let mut after = None;
    loop {
        let page = store.list(None, after, Some(500), None).await?;
        for item in &page.items {
            objects.push(store.event_object(&item.bytes, item.revision)?);
        }
        match page.next {
            Some(next) => after = Some(next),
            None => return Ok(objects),
        }
    }
}

/// Rebuilds the policy at start and after every change.
async fn rebuild(stores: PolicyStores, tx: watch::Sender<Option<Arc<Policy>>>, changed: Arc<Notify>) {
    loop {
        let read = async {
            Ok::<_, kube_generic_apiserver::status::ApiError>(Policy::new(
                &all(&stores.cluster_roles).await?,
                &all(&stores.roles).await?,
                &all(&stores.cluster_role_bindings).await?,
                &all(&stores.role_bindings).await?,
            ))
        };
        match read.await {
            Ok(policy) => {
                if tx.send(Some(Arc::new(policy))).is_err() {
                    return;
                }
            }
            Err(e) => {
                tracing::warn!(error = %e.message, "reading the RBAC policy failed; retrying");
                tokio::time::sleep(Duration::from_millis(200)).await;
                continue;
            }
        }
        changed.notified().await;
    }
}

/// Tells `changed` of every change in `store`, watching again after a watch ends.
async fn watch_store(store: Arc<Store>, changed: Arc<Notify>) {
    loop {
        let started = async {
            let from = store.revision().await?;
            // A change between the first read and this watch is caught by this notice.
            changed.notify_one();
            store.watch(None, from).await
        };
        match started.await {
            Ok(mut events) => {
                while events.recv().await.is_some() {
                    changed.notify_one();
                }
            }
            Err(e) => tracing::debug!(error = %e.message, resource = store.resource, "RBAC watch failed"),
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}
