//! The generic registry store (k8s.io/apiserver's `genericregistry.Store`): one resource's objects
//! under `/registry/<group>/<resource>/[<namespace>/]<name>`, as JSON in the storage version. It
//! fills the fields the server owns (uid, creationTimestamp, generation, resourceVersion,
//! generated names), applies the kind's strategy, enforces optimistic concurrency, and implements
//! graceful deletion with finalizers.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use bytes::Bytes;
use serde_json::{Value, json};

use super::strategy::Strategy;
use crate::meta;
use crate::status::ApiError;
use crate::stored::Stored;
use kube_apiserver_storage::cache::{self, WatchCache};
use kube_apiserver_storage::{ListOptions, Revision, Storage, StorageError, Watch};

/// How many names a create with `generateName` tries before it reports the collision.
const GENERATE_NAME_ATTEMPTS: usize = 8;

/// How many times a write without a client precondition is retried after losing a race.
const RETRIES: usize = 16;

/// One resource's store.
pub struct Store {
    /// The resource's group.
    pub group: &'static str,
    /// The resource (plural).
    pub resource: &'static str,
    /// The kind, for messages.
    pub kind: &'static str,
    /// Whether objects live in namespaces.
    pub namespaced: bool,
    storage: Arc<dyn Storage>,
    prefix: String,
    strategy: Arc<dyn Strategy>,
    watch_cache: WatchCache,
    /// The revision of the last write this store made: a reader of the watch cache that must see
    /// this server's own writes waits for the cache to reach it.
    last_write: AtomicU64,
}

/// One page of a list.
#[derive(Debug)]
pub struct Page {
    /// The objects, in key order, as stored.
    pub items: Vec<Stored>,
    /// The list's resourceVersion.
    pub revision: Revision,
    /// The key to continue after, relative to the listed prefix, when more remain.
    pub next: Option<String>,
    /// How many objects remain after this page.
    pub remaining: u64,
}

/// Which update this is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// The object itself (status is kept).
    Main,
    /// `/status` (everything else is kept).
    Status,
    /// Another subresource (`pods/binding`, `pods/ephemeralcontainers`, a CSR's `approval`),
    /// whose storage made the next state from the current one itself: the strategy does not
    /// prepare it, and it is validated as an update of the object.
    Subresource,
}

/// What a delete requires of the object (`DeleteOptions.preconditions`): its resourceVersion
/// and its uid, each when given.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Preconditions {
    /// The resourceVersion the object must be at.
    pub resource_version: Option<Revision>,
    /// The uid the object must have: another object of the same name (deleted and created
    /// again) is not deleted by mistake.
    pub uid: Option<String>,
}

impl Preconditions {
    /// 409 Conflict, in kube-apiserver's words, when `obj` does not have the uid asked for.
    pub fn check_uid(&self, obj: &Value, group: &str, resource: &str, name: &str) -> Result<(), ApiError> {
        let Some(expected) = self.uid.as_deref() else {
            return Ok(());
        };
        let actual = meta::field(obj, "uid");
        if actual == expected {
            return Ok(());
        }
        Err(ApiError::conflict(
            group,
            resource,
            name,
            &format!("Precondition failed: UID in precondition: {expected}, UID in object meta: {actual}"),
        ))
    }

    /// Both preconditions against `obj`: its uid ([`Preconditions::check_uid`]) and its
    /// resourceVersion (409 Conflict, "the object has been modified"), for deletions that mark
    /// an object rather than go through [`Store::delete`].
    pub fn check(&self, obj: &Value, group: &str, resource: &str, name: &str) -> Result<(), ApiError> {
        self.check_uid(obj, group, resource, name)?;
        match self.resource_version {
            Some(expected) if meta::resource_version(obj).ok().flatten() != Some(expected) => Err(ApiError::conflict(
                group,
                resource,
                name,
                "the object has been modified; please apply your changes to the latest version and try again",
            )),
            _ => Ok(()),
        }
    }
}

/// What a delete did.
#[derive(Debug)]
pub enum Deleted {
    /// The object is gone; this is its last state.
    Gone(Value),
    /// The object has finalizers: it is marked with a deletionTimestamp and stays.
    Marked(Value),
}

impl Store {
    /// A store for `resource` of `group` over `storage`.
    pub fn new(
        storage: Arc<dyn Storage>,
        group: &'static str,
        resource: &'static str,
        kind: &'static str,
        namespaced: bool,
        strategy: Arc<dyn Strategy>,
    ) -> Self {
        // The core group's keys are `/registry/<resource>/`, as Kubernetes keeps them.
        let prefix = if group.is_empty() {
            format!("/registry/{resource}/")
        } else {
            format!("/registry/{group}/{resource}/")
        };
        Store {
            group,
            resource,
            kind,
            namespaced,
            watch_cache: WatchCache::new(storage.clone(), prefix.clone(), cache::DEFAULT_WINDOW),
            storage,
            prefix,
            strategy,
            last_write: AtomicU64::new(0),
        }
    }

    /// The revision of the last write this store made (0 before any).
    pub fn last_write(&self) -> Revision {
        self.last_write.load(Ordering::Acquire)
    }

    fn wrote(&self, revision: Revision) {
        self.last_write.fetch_max(revision, Ordering::AcqRel);
    }

    /// Whether a DELETE answers with the deleted object (the strategy says).
    pub fn returns_deleted_object(&self) -> bool {
        self.strategy.returns_deleted_object()
    }

    /// The key prefix of a namespace, or of the whole resource.
    pub fn prefix(&self, namespace: Option<&str>) -> String {
        match namespace.filter(|_| self.namespaced) {
            Some(ns) => format!("{}{ns}/", self.prefix),
            None => self.prefix.clone(),
        }
    }

    fn key(&self, namespace: Option<&str>, name: &str) -> String {
        format!("{}{name}", self.prefix(namespace))
    }

    fn error(&self, e: StorageError, name: &str) -> ApiError {
        match e {
            StorageError::NotFound(_) => ApiError::not_found(self.group, self.resource, name),
            StorageError::AlreadyExists(_) => ApiError::already_exists(self.group, self.resource, name),
            StorageError::Conflict { .. } => ApiError::conflict(
                self.group,
                self.resource,
                name,
                "the object has been modified; please apply your changes to the latest version and try again",
            ),
            StorageError::Gone { requested, oldest } => {
                ApiError::gone(format!("too old resource version: {requested} ({oldest})"))
            }
            StorageError::TooNew { requested } => ApiError::timeout(format!("Too large resource version: {requested}")),
            StorageError::Unavailable(m) => {
                // The backend's addresses stay in the server's log, out of clients' answers.
                tracing::warn!(error = %m, resource = self.resource, "storage unavailable");
                ApiError::unavailable("the storage backend is unavailable; try again later")
            }
            StorageError::Refused(m) => ApiError::unknown(m),
        }
    }

    fn decode(&self, value: &Bytes, rev: Revision) -> Result<Value, ApiError> {
        Stored {
            bytes: value.clone(),
            revision: rev,
        }
        .value()
    }

    /// The stored bytes: the object without its resourceVersion.
    fn encode(obj: &Value) -> Result<Bytes, ApiError> {
        let mut obj = obj.clone();
        meta::meta_mut(&mut obj).remove("resourceVersion");
        serde_json::to_vec(&obj)
            .map(Bytes::from)
            .map_err(|e| ApiError::internal(e.to_string()))
    }

    fn invalid(&self, obj: &Value, causes: Vec<crate::status::Cause>) -> Result<(), ApiError> {
        if causes.is_empty() {
            return Ok(());
        }
        Err(ApiError::invalid(self.group, self.kind, meta::name(obj), causes))
    }

    /// Creates `obj` in `namespace`; with `dry_run` it is checked and returned but not stored.
    pub async fn create(&self, namespace: Option<&str>, mut obj: Value, dry_run: bool) -> Result<Value, ApiError> {
        let generate = meta::field(&obj, "generateName").to_string();
        let m = meta::meta_mut(&mut obj);
        let generated = m.get("name").and_then(Value::as_str).unwrap_or("").is_empty() && !generate.is_empty();
        if generated {
            m.insert("name".into(), json!(meta::generate_name(&generate)));
        }
        for server_owned in [
            "resourceVersion",
            "uid",
            "creationTimestamp",
            "deletionTimestamp",
            "deletionGracePeriodSeconds",
            "selfLink",
        ] {
            m.remove(server_owned);
        }
        match namespace.filter(|_| self.namespaced) {
            Some(ns) => m.insert("namespace".into(), json!(ns)),
            None => m.remove("namespace"),
        };
        m.insert("uid".into(), json!(uuid::Uuid::new_v4().to_string()));
        m.insert("creationTimestamp".into(), json!(meta::now()));
        self.strategy.prepare_for_create(&mut obj);
        self.invalid(&obj, self.strategy.validate(&obj))?;
        let name = meta::name(&obj).to_string();
        if dry_run {
            return Ok(obj);
        }
        let mut name = name;
        // A generated name can collide (27^5 suffixes: one in seven runs of 2,000 creates would
        // see a collision): like kube-apiserver's RetryGenerateName, a fresh name is tried.
        let mut attempts = if generated { GENERATE_NAME_ATTEMPTS } else { 1 };
        loop {
            attempts -= 1;
            match self
                .storage
                .create_with_ttl(
                    &self.key(namespace, &name),
                    Self::encode(&obj)?,
                    self.strategy.ttl(&obj, false),
                )
                .await
            {
                Ok(rev) => {
                    self.wrote(rev);
                    meta::set_resource_version(&mut obj, rev);
                    return Ok(obj);
                }
                Err(StorageError::AlreadyExists(_)) if attempts > 0 => {
                    name = meta::generate_name(&generate);
                    meta::meta_mut(&mut obj).insert("name".into(), json!(name));
                }
                Err(e) => return Err(self.error(e, &name)),
            }
        }
    }

    /// The object `name`.
    pub async fn get(&self, namespace: Option<&str>, name: &str) -> Result<Value, ApiError> {
        self.get_stored(namespace, name).await?.value()
    }

    /// The object's stored bytes and revision.
    pub async fn get_stored(&self, namespace: Option<&str>, name: &str) -> Result<Stored, ApiError> {
        match self.storage.get(&self.key(namespace, name)).await {
            Ok(Some(kv)) => Ok(Stored {
                bytes: kv.value,
                revision: kv.mod_revision,
            }),
            Ok(None) => Err(ApiError::not_found(self.group, self.resource, name)),
            Err(e) => Err(self.error(e, name)),
        }
    }

    /// A page of the objects of `namespace` (or all), after the key `after`.
    pub async fn list(
        &self,
        namespace: Option<&str>,
        after: Option<String>,
        limit: Option<usize>,
        at: Option<Revision>,
    ) -> Result<Page, ApiError> {
        // A continuation key is relative to the listed prefix, so a forged continue token can only
        // move within the list it continues, never into another namespace or resource.
        let prefix = self.prefix(namespace);
        let options = ListOptions {
            after: after.map(|key| format!("{prefix}{key}")),
            limit,
            revision: at,
        };
        let page = self
            .storage
            .list(&prefix, &options)
            .await
            .map_err(|e| self.error(e, ""))?;
        let next = page
            .more
            .then(|| page.items.last().map(|kv| kv.key[prefix.len()..].to_string()))
            .flatten();
        let items = page
            .items
            .into_iter()
            .map(|kv| Stored {
                bytes: kv.value,
                revision: kv.mod_revision,
            })
            .collect();
        Ok(Page {
            items,
            revision: page.revision,
            next,
            remaining: page.remaining,
        })
    }

    /// Replaces `name` with `new` through the strategy. A resourceVersion in `new` is a
    /// precondition (409 when stale); without one, a lost race is retried.
    pub async fn update(
        &self,
        namespace: Option<&str>,
        name: &str,
        new: Value,
        target: Target,
        dry_run: bool,
    ) -> Result<Value, ApiError> {
        // resourceVersion "0" asks for no precondition: an unconditional update, as Kubernetes
        // allows for every kind it serves.
        let precondition = meta::resource_version(&new)
            .map_err(ApiError::bad_request)?
            .filter(|rv| *rv != 0);
        self.guaranteed_update(namespace, name, precondition, dry_run, |_old| Ok(new.clone()), target)
            .await
    }

    /// An update names the object it replaces: another uid is 409 (the object was deleted and
    /// created again since the client read it), another namespace is 400 (a patch cannot move
    /// an object), as Kubernetes answers both.
    fn check_identity(&self, new: &Value, old: &Value, namespace: Option<&str>, name: &str) -> Result<(), ApiError> {
        let uid = meta::field(new, "uid");
        if !uid.is_empty() && uid != meta::field(old, "uid") {
            return Err(ApiError::conflict(
                self.group,
                self.resource,
                name,
                &format!(
                    "Precondition failed: UID in precondition: {uid}, UID in object meta: {}",
                    meta::field(old, "uid")
                ),
            ));
        }
        let requested = namespace.filter(|_| self.namespaced).unwrap_or("");
        let ns = meta::field(new, "namespace");
        if !ns.is_empty() && ns != requested {
            return Err(ApiError::bad_request(format!(
                "the namespace of the object ({ns}) does not match the namespace on the request ({requested})"
            )));
        }
        Ok(())
    }

    /// The stored object and its revision; 409 when it is not at the client's `precondition`.
    async fn current(
        &self,
        namespace: Option<&str>,
        name: &str,
        precondition: Option<Revision>,
    ) -> Result<(Value, Revision), ApiError> {
        let obj = self.get(namespace, name).await?;
        let rev = meta::resource_version(&obj).ok().flatten().unwrap_or(0);
        match precondition {
            Some(expected) if expected != rev => Err(self.error(
                StorageError::Conflict {
                    key: self.key(namespace, name),
                    expected,
                    actual: rev,
                },
                name,
            )),
            _ => Ok((obj, rev)),
        }
    }

    /// Reads `name`, computes its next state with `next` and writes it with compare-and-swap,
    /// retrying when another write came in between (Kubernetes' GuaranteedUpdate). Patches use it
    /// directly.
    pub async fn guaranteed_update(
        &self,
        namespace: Option<&str>,
        name: &str,
        precondition: Option<Revision>,
        dry_run: bool,
        mut next: impl FnMut(&Value) -> Result<Value, ApiError>,
        target: Target,
    ) -> Result<Value, ApiError> {
        let key = self.key(namespace, name);
        for _ in 0..RETRIES {
            let (old, old_rev) = self.current(namespace, name, precondition).await?;
            let mut new = next(&old)?;
            if meta::name(&new) != name {
                return Err(ApiError::bad_request(format!(
                    "the name of the object ({}) does not match the name on the URL ({name})",
                    meta::name(&new)
                )));
            }
            self.check_identity(&new, &old, namespace, name)?;
            match target {
                Target::Main => self.strategy.prepare_for_update(&mut new, &old),
                Target::Status => self.strategy.prepare_for_status_update(&mut new, &old),
                Target::Subresource => {}
            }
            // The server-owned fields cannot be changed by an update.
            let m = meta::meta_mut(&mut new);
            for owned in ["uid", "creationTimestamp", "deletionTimestamp", "namespace"] {
                match old.get("metadata").and_then(|o| o.get(owned)) {
                    Some(v) => m.insert(owned.into(), v.clone()),
                    None => m.remove(owned),
                };
            }
            // An update that leaves managedFields out keeps them, as Kubernetes does.
            if !m.contains_key("managedFields")
                && let Some(v) = old.get("metadata").and_then(|o| o.get("managedFields"))
            {
                m.insert("managedFields".into(), v.clone());
            }
            let mut causes = match target {
                Target::Main | Target::Subresource => self.strategy.validate_update(&new, &old),
                Target::Status => self.strategy.validate_status_update(&new, &old),
            };
            causes.extend(meta::validate_finalizers_update(&new, &old));
            self.invalid(&new, causes)?;
            if dry_run {
                return Ok(new);
            }
            // A write that changes nothing is not made: the object keeps its resourceVersion
            // and watchers see no event, as Kubernetes' GuaranteedUpdate short-circuits.
            if unchanged(&old, &new) {
                return Ok(old);
            }
            // An object being deleted goes once its last finalizer is removed.
            if meta::deleting(&new) && !meta::has_finalizers(&new) {
                return match self.storage.delete(&key, Some(old_rev)).await {
                    Ok((_, rev)) => {
                        self.wrote(rev);
                        Ok(new)
                    }
                    Err(StorageError::Conflict { .. }) if precondition.is_none() => continue,
                    Err(e) => Err(self.error(e, name)),
                };
            }
            match self
                .storage
                .update_with_ttl(&key, Self::encode(&new)?, old_rev, self.strategy.ttl(&new, true))
                .await
            {
                Ok(rev) => {
                    self.wrote(rev);
                    meta::set_resource_version(&mut new, rev);
                    return Ok(new);
                }
                Err(StorageError::Conflict { .. }) if precondition.is_none() => continue,
                Err(e) => return Err(self.error(e, name)),
            }
        }
        Err(ApiError::conflict(
            self.group,
            self.resource,
            name,
            "too many concurrent writes; try again",
        ))
    }

    /// Deletes `name`: an object with finalizers is marked (deletionTimestamp) and kept; others are
    /// removed. `preconditions` are the resourceVersion and uid the client expects.
    pub async fn delete(
        &self,
        namespace: Option<&str>,
        name: &str,
        preconditions: &Preconditions,
        dry_run: bool,
    ) -> Result<Deleted, ApiError> {
        let key = self.key(namespace, name);
        let precondition = preconditions.resource_version;
        for _ in 0..RETRIES {
            let (old, rev) = self.current(namespace, name, precondition).await?;
            preconditions.check_uid(&old, self.group, self.resource, name)?;
            if meta::has_finalizers(&old) {
                if meta::deleting(&old) || dry_run {
                    return Ok(Deleted::Marked(old));
                }
                let mut marked = old.clone();
                let m = meta::meta_mut(&mut marked);
                m.insert("deletionTimestamp".into(), json!(meta::now()));
                m.insert("deletionGracePeriodSeconds".into(), json!(0));
                match self
                    .storage
                    .update_with_ttl(&key, Self::encode(&marked)?, rev, self.strategy.ttl(&marked, true))
                    .await
                {
                    Ok(new_rev) => {
                        self.wrote(new_rev);
                        meta::set_resource_version(&mut marked, new_rev);
                        return Ok(Deleted::Marked(marked));
                    }
                    Err(StorageError::Conflict { .. }) => continue,
                    Err(e) => return Err(self.error(e, name)),
                }
            }
            if dry_run {
                return Ok(Deleted::Gone(old));
            }
            match self.storage.delete(&key, Some(rev)).await {
                Ok((_, at)) => {
                    self.wrote(at);
                    return Ok(Deleted::Gone(old));
                }
                Err(StorageError::Conflict { .. }) if precondition.is_none() => continue,
                Err(e) => return Err(self.error(e, name)),
            }
        }
        Err(ApiError::conflict(
            self.group,
            self.resource,
            name,
            "too many concurrent writes; try again",
        ))
    }

    /// Marks `name` as being deleted (a deletionTimestamp, kept if already set) and applies `edit`,
    /// bypassing the strategy: the server's own change, as a namespace's Terminating phase is.
    pub async fn mark_deleting(
        &self,
        namespace: Option<&str>,
        name: &str,
        edit: impl Fn(&mut Value),
    ) -> Result<Value, ApiError> {
        let key = self.key(namespace, name);
        for _ in 0..RETRIES {
            let (mut obj, rev) = self.current(namespace, name, None).await?;
            if !meta::deleting(&obj) {
                meta::meta_mut(&mut obj).insert("deletionTimestamp".into(), json!(meta::now()));
            }
            edit(&mut obj);
            match self
                .storage
                .update_with_ttl(&key, Self::encode(&obj)?, rev, self.strategy.ttl(&obj, true))
                .await
            {
                Ok(new_rev) => {
                    self.wrote(new_rev);
                    meta::set_resource_version(&mut obj, new_rev);
                    return Ok(obj);
                }
                Err(StorageError::Conflict { .. }) => continue,
                Err(e) => return Err(self.error(e, name)),
            }
        }
        Err(ApiError::conflict(
            self.group,
            self.resource,
            name,
            "too many concurrent writes; try again",
        ))
    }

    /// The store's current revision.
    pub async fn revision(&self) -> Result<Revision, ApiError> {
        self.storage.revision().await.map_err(|e| self.error(e, ""))
    }

    /// Changes under `namespace` (or all) after `after`.
    pub async fn watch(&self, namespace: Option<&str>, after: Revision) -> Result<Watch, ApiError> {
        self.watch_cache
            .watch(&self.prefix(namespace), after)
            .await
            .map_err(|e| self.error(e, ""))
    }

    /// The resource's watch cache.
    pub fn watch_cache(&self) -> &WatchCache {
        &self.watch_cache
    }

    /// An event's object, with its resourceVersion.
    pub fn event_object(&self, value: &Bytes, rev: Revision) -> Result<Value, ApiError> {
        self.decode(value, rev)
    }
}

/// Whether `new` is `old` apart from the resourceVersion it was read at.
fn unchanged(old: &Value, new: &Value) -> bool {
    let version = |v: &Value| v.get("metadata").and_then(|m| m.get("resourceVersion")).cloned();
    if version(old) == version(new) {
        return old == new;
    }
    let mut new = new.clone();
    match (version(old), meta::meta_mut(&mut new)) {
        (Some(v), m) => m.insert("resourceVersion".into(), v),
        (None, m) => m.remove("resourceVersion"),
    };
    *old == new
}

/// An object someone else deleted meanwhile is no failure of a controller that wanted it gone
/// or changed (the garbage collector, the CRD controllers).
pub fn ignore_gone(result: Result<(), ApiError>) -> Result<(), ApiError> {
    match result {
        Err(e) if e.code == 404 => Ok(()),
        other => other,
    }
}
