//! Namespace deletion (Kubernetes' namespace storage and namespace controller together): a deleted
//! namespace is marked Terminating at once, so NamespaceLifecycle refuses new content, then its
//! objects are deleted in the background and the namespace goes when none is left (objects held by
//! finalizers keep it Terminating until their finalizers are removed).

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use serde_json::json;

use super::Stores;
use kube_generic_apiserver::meta;
use kube_generic_apiserver::registry::rest::{
    Creater, Getter, GracefulDeleter, Lister, Patcher, RestStorage, Updater, Watcher,
};
use kube_generic_apiserver::registry::store::{Deleted, Preconditions, Store, Target};
use kube_generic_apiserver::status::ApiError;

/// How often a terminating namespace checks whether its content is gone.
const RECHECK: Duration = Duration::from_millis(200);

/// The namespaces kube-apiserver never deletes (NamespaceLifecycle's immortal namespaces).
const IMMORTAL: [&str; 3] = ["default", "kube-system", "kube-public"];

/// The namespaces' storage: the generic store with Kubernetes' deletion.
pub struct NamespaceStorage {
    /// The namespaces' store.
    pub namespaces: Arc<Store>,
    /// Every resource's store (the namespaced ones' objects a deletion removes), kept current
    /// as CRDs come and go.
    pub contents: Arc<Stores>,
}

impl NamespaceStorage {
    /// Finishes the deletion of every namespace marked Terminating (one a restart interrupted),
    /// each in a task of its own on the current runtime.
    pub async fn resume(namespaces: Arc<Store>, contents: Arc<Stores>) -> Result<(), ApiError> {
        let page = namespaces.list(None, None, None, None).await?;
        for ns in page.items {
            let ns = ns.value()?;
            if meta::deleting(&ns) {
                let name = meta::name(&ns).to_string();
                tokio::spawn(Self::finalize(namespaces.clone(), contents.clone(), name));
            }
        }
        Ok(())
    }

    /// Deletes the namespace's objects until none is left, then the namespace.
    async fn finalize(namespaces: Arc<Store>, contents: Arc<Stores>, name: String) {
        loop {
            let mut left = 0;
            for store in &contents.namespaced() {
                let Ok(page) = store.list(Some(&name), None, None, None).await else {
                    left += 1;
                    continue;
                };
                for obj in page.items {
                    left += 1;
                    let Ok(obj) = obj.value() else { continue };
                    let _ = store
                        .delete(Some(&name), meta::name(&obj), &Preconditions::default(), false)
                        .await;
                }
            }
            if left == 0 {
                let _ = namespaces.delete(None, &name, &Preconditions::default(), false).await;
                return;
            }
            tokio::time::sleep(RECHECK).await;
        }
    }
}

#[async_trait]
impl GracefulDeleter for NamespaceStorage {
    async fn delete(
        &self,
        _namespace: Option<&str>,
        name: &str,
        preconditions: &Preconditions,
        dry_run: bool,
    ) -> Result<Deleted, ApiError> {
        if IMMORTAL.contains(&name) {
            return Err(ApiError::forbidden(format!(
                "namespaces \"{name}\" is forbidden: this namespace may not be deleted"
            )));
        }
        let current = self.namespaces.get(None, name).await?;
        preconditions.check(&current, "", "namespaces", name)?;
        if dry_run {
            return Ok(Deleted::Marked(current));
        }
        let marked = self
            .namespaces
            .mark_deleting(None, name, |ns| ns["status"] = json!({"phase": "Terminating"}))
            .await?;
        tokio::spawn(Self::finalize(
            self.namespaces.clone(),
            self.contents.clone(),
            name.to_string(),
        ));
        Ok(Deleted::Marked(marked))
    }

    fn returns_deleted_object(&self) -> bool {
        self.namespaces.returns_deleted_object()
    }
}

/// Every capability but deletion is the namespaces' store's own; a collection of namespaces is
/// not deleted at once (Kubernetes: 405), so one request cannot empty the cluster.
impl RestStorage for NamespaceStorage {
    fn getter(&self) -> Option<&dyn Getter> {
        self.namespaces.getter()
    }
    fn lister(&self) -> Option<&dyn Lister> {
        self.namespaces.lister()
    }
    fn creater(&self) -> Option<&dyn Creater> {
        self.namespaces.creater()
    }
    fn updater(&self) -> Option<&dyn Updater> {
        self.namespaces.updater()
    }
    fn patcher(&self) -> Option<&dyn Patcher> {
        self.namespaces.patcher()
    }
    fn graceful_deleter(&self) -> Option<&dyn GracefulDeleter> {
        Some(self)
    }
    fn watcher(&self) -> Option<&dyn Watcher> {
        self.namespaces.watcher()
    }
}

/// `PUT /api/v1/namespaces/{name}/finalize` (Kubernetes' `FinalizeREST`): replaces
/// `spec.finalizers` and nothing else, which is how the namespace controller and tools release a
/// namespace stuck Terminating.
pub struct FinalizeStorage(pub Arc<Store>);

#[async_trait]
impl Updater for FinalizeStorage {
    async fn update(
        &self,
        _namespace: Option<&str>,
        name: &str,
        obj: serde_json::Value,
        dry_run: bool,
    ) -> Result<serde_json::Value, ApiError> {
        let precondition = meta::resource_version(&obj).map_err(ApiError::bad_request)?;
        let finalizers = obj.pointer("/spec/finalizers").cloned();
        let finalize = |current: &serde_json::Value| {
            let mut next = current.clone();
            match &finalizers {
                Some(f) => next["spec"]["finalizers"] = f.clone(),
                None => {
                    if let Some(spec) = next.get_mut("spec").and_then(serde_json::Value::as_object_mut) {
                        spec.remove("finalizers");
                    }
                }
            }
            Ok(next)
        };
        self.0
            .guaranteed_update(None, name, precondition, dry_run, finalize, Target::Main)
            .await
    }
}

impl RestStorage for FinalizeStorage {
    fn updater(&self) -> Option<&dyn Updater> {
        Some(self)
    }
}
