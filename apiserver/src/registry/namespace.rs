//! Namespace deletion (Kubernetes' namespace storage and namespace controller together): a deleted
//! namespace is marked Terminating at once, so NamespaceLifecycle refuses new content, then its
//! objects are deleted in the background and the namespace goes when none is left (objects held by
//! finalizers keep it Terminating until their finalizers are removed).

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use serde_json::{Value, json};

use super::meta;
use super::store::{Deleted, Store};
use crate::rest::{
    CollectionDeleter, Creater, Getter, GracefulDeleter, Lister, Mutation, Patcher, RestStorage, Updater, Watcher,
};
use crate::status::ApiError;
use crate::storage::{Revision, Watch};

/// How often a terminating namespace checks whether its content is gone.
const RECHECK: Duration = Duration::from_millis(200);

/// The namespaces' storage: the generic store with Kubernetes' deletion.
pub struct NamespaceStorage {
    /// The namespaces' store.
    pub namespaces: Arc<Store>,
    /// Every namespaced resource's store, whose objects a deletion removes.
    pub contents: Vec<Arc<Store>>,
}

impl NamespaceStorage {
    /// Deletes the namespace's objects until none is left, then the namespace.
    async fn finalize(namespaces: Arc<Store>, contents: Vec<Arc<Store>>, name: String) {
        loop {
            let mut left = 0;
            for store in &contents {
                let Ok(page) = store.list(Some(&name), None, None).await else {
                    left += 1;
                    continue;
                };
                for obj in page.items {
                    left += 1;
                    let _ = store.delete(Some(&name), meta::name(&obj), None, false).await;
                }
            }
            if left == 0 {
                let _ = namespaces.delete(None, &name, None, false).await;
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
        precondition: Option<Revision>,
        dry_run: bool,
    ) -> Result<Deleted, ApiError> {
        let current = self.namespaces.get(None, name).await?;
        if dry_run {
            return Ok(Deleted::Marked(current));
        }
        if let Some(expected) = precondition
            && meta::resource_version(&current).ok().flatten() != Some(expected)
        {
            return Err(ApiError::conflict(
                "",
                "namespaces",
                name,
                "the object has been modified; please apply your changes to the latest version and try again",
            ));
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
}

#[async_trait]
impl Getter for NamespaceStorage {
    async fn get(&self, namespace: Option<&str>, name: &str) -> Result<Value, ApiError> {
        Getter::get(self.namespaces.as_ref(), namespace, name).await
    }
}

#[async_trait]
impl Lister for NamespaceStorage {
    async fn list(
        &self,
        namespace: Option<&str>,
        after: Option<String>,
        limit: Option<usize>,
    ) -> Result<super::store::Page, ApiError> {
        Lister::list(self.namespaces.as_ref(), namespace, after, limit).await
    }
}

#[async_trait]
impl Creater for NamespaceStorage {
    async fn create(&self, namespace: Option<&str>, obj: Value, dry_run: bool) -> Result<Value, ApiError> {
        Creater::create(self.namespaces.as_ref(), namespace, obj, dry_run).await
    }
}

#[async_trait]
impl Updater for NamespaceStorage {
    async fn update(&self, namespace: Option<&str>, name: &str, obj: Value, dry_run: bool) -> Result<Value, ApiError> {
        Updater::update(self.namespaces.as_ref(), namespace, name, obj, dry_run).await
    }
}

#[async_trait]
impl Patcher for NamespaceStorage {
    async fn patch(
        &self,
        namespace: Option<&str>,
        name: &str,
        precondition: Option<Revision>,
        dry_run: bool,
        mutation: Mutation<'_>,
    ) -> Result<Value, ApiError> {
        Patcher::patch(
            self.namespaces.as_ref(),
            namespace,
            name,
            precondition,
            dry_run,
            mutation,
        )
        .await
    }
}

#[async_trait]
impl Watcher for NamespaceStorage {
    async fn watch(&self, namespace: Option<&str>, after: Revision) -> Result<Watch, ApiError> {
        Watcher::watch(self.namespaces.as_ref(), namespace, after).await
    }
    async fn revision(&self) -> Result<Revision, ApiError> {
        Watcher::revision(self.namespaces.as_ref()).await
    }
}

impl CollectionDeleter for NamespaceStorage {}

impl RestStorage for NamespaceStorage {
    fn getter(&self) -> Option<&dyn Getter> {
        Some(self)
    }
    fn lister(&self) -> Option<&dyn Lister> {
        Some(self)
    }
    fn creater(&self) -> Option<&dyn Creater> {
        Some(self)
    }
    fn updater(&self) -> Option<&dyn Updater> {
        Some(self)
    }
    fn patcher(&self) -> Option<&dyn Patcher> {
        Some(self)
    }
    fn graceful_deleter(&self) -> Option<&dyn GracefulDeleter> {
        Some(self)
    }
    fn collection_deleter(&self) -> Option<&dyn CollectionDeleter> {
        Some(self)
    }
    fn watcher(&self) -> Option<&dyn Watcher> {
        Some(self)
    }
}
