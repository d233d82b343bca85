//! The capabilities of a resource's storage, after k8s.io/apiserver's `rest.Creater`,
//! `rest.Getter`, ...: Go's installer finds them by type assertion on one storage value; Rust has
//! none on trait objects, so a storage answers `fn getter(&self) -> Option<&dyn Getter>` per
//! capability. That keeps Go's shape (one value, capabilities discovered, not declared twice) and
//! lets a subresource storage offer only some: `/status` gets and updates, it does not create or
//! list. Objects are JSON in the storage version; the handlers convert at the edges.

use async_trait::async_trait;
use serde_json::Value;

use crate::authentication::UserInfo;
use crate::registry::store::{Deleted, Page, Preconditions, Store, Target};
use crate::status::ApiError;
use crate::stored::Stored;
use kube_apiserver_storage::{Revision, Watch};

/// A function computing an object's next state from its current one (a patch).
pub type Mutation<'a> = &'a (dyn Fn(&Value) -> Result<Value, ApiError> + Send + Sync);

/// `GET .../{name}`.
#[async_trait]
pub trait Getter: Send + Sync {
    /// The object.
    async fn get(&self, namespace: Option<&str>, name: &str) -> Result<Value, ApiError>;

    /// The object as stored (its bytes and revision), when the storage answers with what it
    /// stores: a GET in the storage version then writes those bytes without parsing them.
    /// `None` where the storage builds what it answers (a subresource, a scale).
    async fn get_stored(&self, _namespace: Option<&str>, _name: &str) -> Result<Option<Stored>, ApiError> {
        Ok(None)
    }
}

/// `GET .../<resource>`.
#[async_trait]
pub trait Lister: Send + Sync {
    /// A page of objects: after a key, at most `limit`, as of revision `at` (the latest when `None`).
    async fn list(
        &self,
        namespace: Option<&str>,
        after: Option<String>,
        limit: Option<usize>,
        at: Option<Revision>,
    ) -> Result<Page, ApiError>;
}

/// What a storage call knows of its request beyond the object (Go's request context).
#[derive(Clone, Copy, Debug)]
pub struct Context<'a> {
    /// Who asks.
    pub user: &'a UserInfo,
    /// The name the path gives a create of a subresource (`serviceaccounts/{name}/token`,
    /// Go's `NamedCreater`).
    pub name: Option<&'a str>,
}

/// `POST .../<resource>` (and `POST .../{name}/<subresource>`).
#[async_trait]
pub trait Creater: Send + Sync {
    /// Creates the object.
    async fn create(
        &self,
        ctx: &Context<'_>,
        namespace: Option<&str>,
        obj: Value,
        dry_run: bool,
    ) -> Result<Value, ApiError>;
}

/// `PUT .../{name}`.
#[async_trait]
pub trait Updater: Send + Sync {
    /// Replaces the object.
    async fn update(&self, namespace: Option<&str>, name: &str, obj: Value, dry_run: bool) -> Result<Value, ApiError>;
}

/// `PATCH .../{name}`: a read-modify-write the storage retries on conflicts.
#[async_trait]
pub trait Patcher: Send + Sync {
    /// Applies `mutation` to the current object and stores the result.
    async fn patch(
        &self,
        namespace: Option<&str>,
        name: &str,
        precondition: Option<Revision>,
        dry_run: bool,
        mutation: Mutation<'_>,
    ) -> Result<Value, ApiError>;
}

/// `DELETE .../{name}`, honouring finalizers.
#[async_trait]
pub trait GracefulDeleter: Send + Sync {
    /// Deletes or marks the object, if it meets the preconditions.
    async fn delete(
        &self,
        namespace: Option<&str>,
        name: &str,
        preconditions: &Preconditions,
        dry_run: bool,
    ) -> Result<Deleted, ApiError>;

    /// Whether a DELETE answers with the deleted object rather than a Success Status
    /// ([`crate::registry::strategy::Strategy::returns_deleted_object`]).
    fn returns_deleted_object(&self) -> bool {
        false
    }
}

/// `DELETE .../<resource>`: deletes every listed object (the handler selects them).
pub trait CollectionDeleter: Send + Sync {}

/// `GET ...?watch=true`.
#[async_trait]
pub trait Watcher: Send + Sync {
    /// Changes after `after`.
    async fn watch(&self, namespace: Option<&str>, after: Revision) -> Result<Watch, ApiError>;
    /// The current revision (where a watch without resourceVersion starts).
    async fn revision(&self) -> Result<Revision, ApiError>;
}

/// The storage of one resource or subresource; each capability it has answers `Some`.
pub trait RestStorage: Send + Sync {
    /// Reading one object.
    fn getter(&self) -> Option<&dyn Getter> {
        None
    }
    /// Listing.
    fn lister(&self) -> Option<&dyn Lister> {
        None
    }
    /// Creating.
    fn creater(&self) -> Option<&dyn Creater> {
        None
    }
    /// Replacing.
    fn updater(&self) -> Option<&dyn Updater> {
        None
    }
    /// Patching.
    fn patcher(&self) -> Option<&dyn Patcher> {
        None
    }
    /// Deleting one object.
    fn graceful_deleter(&self) -> Option<&dyn GracefulDeleter> {
        None
    }
    /// Deleting a collection.
    fn collection_deleter(&self) -> Option<&dyn CollectionDeleter> {
        None
    }
    /// Watching.
    fn watcher(&self) -> Option<&dyn Watcher> {
        None
    }
}

#[async_trait]
impl Getter for Store {
    async fn get(&self, namespace: Option<&str>, name: &str) -> Result<Value, ApiError> {
        Store::get(self, namespace, name).await
    }

    async fn get_stored(&self, namespace: Option<&str>, name: &str) -> Result<Option<Stored>, ApiError> {
        Store::get_stored(self, namespace, name).await.map(Some)
    }
}

#[async_trait]
impl Lister for Store {
    async fn list(
        &self,
        namespace: Option<&str>,
        after: Option<String>,
        limit: Option<usize>,
        at: Option<Revision>,
    ) -> Result<Page, ApiError> {
        Store::list(self, namespace, after, limit, at).await
    }
}

#[async_trait]
impl Creater for Store {
    async fn create(
        &self,
        _ctx: &Context<'_>,
        namespace: Option<&str>,
        obj: Value,
        dry_run: bool,
    ) -> Result<Value, ApiError> {
        Store::create(self, namespace, obj, dry_run).await
    }
}

#[async_trait]
impl Updater for Store {
    async fn update(&self, namespace: Option<&str>, name: &str, obj: Value, dry_run: bool) -> Result<Value, ApiError> {
        Store::update(self, namespace, name, obj, Target::Main, dry_run).await
    }
}

#[async_trait]
impl Patcher for Store {
    async fn patch(
        &self,
        namespace: Option<&str>,
        name: &str,
        precondition: Option<Revision>,
        dry_run: bool,
        mutation: Mutation<'_>,
    ) -> Result<Value, ApiError> {
        self.guaranteed_update(namespace, name, precondition, dry_run, mutation, Target::Main)
            .await
    }
}

#[async_trait]
impl GracefulDeleter for Store {
    async fn delete(
        &self,
        namespace: Option<&str>,
        name: &str,
        preconditions: &Preconditions,
        dry_run: bool,
    ) -> Result<Deleted, ApiError> {
        Store::delete(self, namespace, name, preconditions, dry_run).await
    }

    fn returns_deleted_object(&self) -> bool {
        self.returns_deleted_object()
    }
}

impl CollectionDeleter for Store {}

#[async_trait]
impl Watcher for Store {
    async fn watch(&self, namespace: Option<&str>, after: Revision) -> Result<Watch, ApiError> {
        Store::watch(self, namespace, after).await
    }
    async fn revision(&self) -> Result<Revision, ApiError> {
        Store::revision(self).await
    }
}

impl RestStorage for Store {
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

/// `/status`: get, update and patch of the status alone (Kubernetes' `StatusREST`).
pub struct StatusStorage(pub std::sync::Arc<Store>);

#[async_trait]
impl Getter for StatusStorage {
    async fn get(&self, namespace: Option<&str>, name: &str) -> Result<Value, ApiError> {
        self.0.get(namespace, name).await
    }
}

#[async_trait]
impl Updater for StatusStorage {
    async fn update(&self, namespace: Option<&str>, name: &str, obj: Value, dry_run: bool) -> Result<Value, ApiError> {
        self.0.update(namespace, name, obj, Target::Status, dry_run).await
    }
}

#[async_trait]
impl Patcher for StatusStorage {
    async fn patch(
        &self,
        namespace: Option<&str>,
        name: &str,
        precondition: Option<Revision>,
        dry_run: bool,
        mutation: Mutation<'_>,
    ) -> Result<Value, ApiError> {
        self.0
            .guaranteed_update(namespace, name, precondition, dry_run, mutation, Target::Status)
            .await
    }
}

impl RestStorage for StatusStorage {
    fn getter(&self) -> Option<&dyn Getter> {
        Some(self)
    }
    fn updater(&self) -> Option<&dyn Updater> {
        Some(self)
    }
    fn patcher(&self) -> Option<&dyn Patcher> {
        Some(self)
    }
}
