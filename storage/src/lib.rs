//! The storage of a Kubernetes-style API server, k8s.io/apiserver's `pkg/storage` in Rust: the
//! [`Storage`] interface (`storage.Interface` reduced to what a key-value store with revisions
//! gives): keys under `/registry/`, values as bytes, one revision counter for the whole store that
//! every write advances, watches from a revision, and keys that expire. Two backends implement it:
//! the embedded [`memory::MemoryStorage`] and [`etcd::EtcdStorage`] (etcd v3 over gRPC). The
//! registry watches through a [`cache::WatchCache`] per resource, so many clients share one
//! storage watch. With feature `conformance`, [`conformance::run`] checks a backend does what
//! every backend must.
//!
//! Objects are stored without their resourceVersion: it is the key's modification revision, as etcd
//! keeps it, and the registry writes it into an object when it reads one. This crate knows nothing
//! of objects: it depends on no other crate of the project.
//!
//! # Layers
//!
//! Top to bottom; a module uses only the modules of the layers below it (and this root, which
//! holds the interface):
//!
//! 1. [`conformance`]: the checks every backend passes (feature `conformance`).
//! 2. [`cache`], [`etcd`], [`memory`]: the watch cache and the two backends, each over the
//!    interface alone.

#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod cache;
#[cfg(any(test, feature = "conformance"))]
pub mod conformance;
pub mod etcd;
pub mod memory;

use std::time::Duration;

use async_trait::async_trait;
use bytes::Bytes;
use tokio::sync::mpsc;

/// A store-wide revision; a resourceVersion is one written as a decimal string.
pub type Revision = u64;

/// One stored key and the revision that last changed it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyValue {
    /// The full key (`/registry/apps/deployments/default/web`).
    pub key: String,
    /// The stored bytes (JSON in the storage version).
    pub value: Bytes,
    /// The revision of the last write of this key.
    pub mod_revision: Revision,
}

/// What happened to a key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventType {
    /// The key was created.
    Added,
    /// The key was overwritten.
    Modified,
    /// The key was removed.
    Deleted,
}

/// One change, in revision order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    /// What happened.
    pub kind: EventType,
    /// The key, its value after the change (before it, for a deletion) and the change's revision.
    pub kv: KeyValue,
    /// The value before the change, for a modification (a watch with a selector needs it to tell
    /// an object leaving the selection).
    pub prev: Option<Bytes>,
}

/// A page of a list, read at one revision.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ListResult {
    /// The keys under the prefix, in key order.
    pub items: Vec<KeyValue>,
    /// The store's revision when the list was read (the list's resourceVersion).
    pub revision: Revision,
    /// Whether keys remain after the last item (there is a next page).
    pub more: bool,
    /// How many keys remain after the last item (a list's `remainingItemCount`).
    pub remaining: u64,
}

/// Which part of a prefix to list.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ListOptions {
    /// Start after this key (a continue token's position).
    pub after: Option<String>,
    /// At most this many items; `None` or 0 for all.
    pub limit: Option<usize>,
    /// Read as of this revision (a later page of a paginated list, `resourceVersionMatch=Exact`);
    /// [`StorageError::Gone`] when the store no longer has the state of then.
    pub revision: Option<Revision>,
}

/// A watch: events after its start revision, in order, until the receiver is dropped. A channel that
/// closes without an error means the store ended the watch (a slow reader, a shutdown); the
/// client starts a new one from the last revision it saw.
pub type Watch = mpsc::Receiver<Result<Event, StorageError>>;

/// Why a storage call failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StorageError {
    /// No such key.
    #[error("key {0} not found")]
    NotFound(String),
    /// The key exists.
    #[error("key {0} already exists")]
    AlreadyExists(String),
    /// The key changed since the revision the caller expected.
    #[error("key {key} has revision {actual}, not {expected}")]
    Conflict {
        /// The key.
        key: String,
        /// The revision the caller based its write on.
        expected: Revision,
        /// The key's current revision.
        actual: Revision,
    },
    /// The revision is older than the history the store keeps.
    #[error("too old resource version: {requested} ({oldest})")]
    Gone {
        /// The revision asked for.
        requested: Revision,
        /// The oldest revision still available.
        oldest: Revision,
    },
    /// The revision asked for is newer than the store's.
    #[error("too large resource version: {requested}")]
    TooNew {
        /// The revision asked for.
        requested: Revision,
    },
    /// The backend cannot be reached, or has no leader: worth a retry.
    #[error("storage unavailable: {0}")]
    Unavailable(String),
    /// The backend refused the request as it is (a value over etcd's request limit, its space
    /// quota exhausted): retrying the same request does not help. The message is the backend's
    /// own, without its address.
    #[error("{0}")]
    Refused(String),
}

/// A key-value store with revisions and watches.
#[async_trait]
pub trait Storage: Send + Sync + 'static {
    /// Creates `key`; [`StorageError::AlreadyExists`] if it exists. Returns the new revision.
    async fn create(&self, key: &str, value: Bytes) -> Result<Revision, StorageError> {
        self.create_with_ttl(key, value, None).await
    }

    /// Creates `key` to be removed after `ttl` (whole seconds, rounded up; none: kept until
    /// deleted), as kube-apiserver stores Events. The removal is a deletion at a revision of its
    /// own, seen by watches; on etcd the key is attached to a lease.
    async fn create_with_ttl(&self, key: &str, value: Bytes, ttl: Option<Duration>) -> Result<Revision, StorageError>;

    /// The key's value and revision, if it exists.
    async fn get(&self, key: &str) -> Result<Option<KeyValue>, StorageError>;

    /// The keys under `prefix`, in key order, a page at a time.
    async fn list(&self, prefix: &str, options: &ListOptions) -> Result<ListResult, StorageError>;

    /// Replaces `key` if its revision is still `expected` (a compare-and-swap); returns the new revision.
    /// The key keeps no expiry it had: as a put without a lease does on etcd.
    async fn update(&self, key: &str, value: Bytes, expected: Revision) -> Result<Revision, StorageError> {
        self.update_with_ttl(key, value, expected, None).await
    }

    /// [`Storage::update`], the key then expiring after `ttl` from now when given.
    async fn update_with_ttl(
        &self,
        key: &str,
        value: Bytes,
        expected: Revision,
        ttl: Option<Duration>,
    ) -> Result<Revision, StorageError>;

    /// Removes `key`, if its revision is `expected` when given; returns the removed value (with its
    /// last revision) and the revision of the deletion.
    async fn delete(&self, key: &str, expected: Option<Revision>) -> Result<(KeyValue, Revision), StorageError>;

    /// Events for keys under `prefix` with revisions after `after`; [`StorageError::Gone`] when the
    /// store no longer has them.
    async fn watch(&self, prefix: &str, after: Revision) -> Result<Watch, StorageError>;

    /// The store's current revision.
    async fn revision(&self) -> Result<Revision, StorageError>;
}

/// A TTL in etcd's unit, whole seconds: rounded up, at least one.
pub fn ttl_seconds(ttl: Duration) -> i64 {
    let whole = ttl.as_secs() + u64::from(ttl.subsec_nanos() > 0);
    whole.clamp(1, i64::MAX as u64) as i64
}
