//! apiextensions-apiserver's CustomResourceDefinition controllers, run in the server: the naming
//! controller (`NamesAccepted`, `status.acceptedNames`), the establishing controller
//! (`Established`), the CRD handler (each served version of an established CRD installed through
//! the same installer as the compiled kinds, `storedVersions` kept), and the finalizer controller
//! (a deleted CRD is `Terminating` until its objects are deleted, then goes).
//!
//! It watches the CRDs and, after each burst of changes, reconciles them all in creation order:
//! the first CRD to claim a name in its group keeps it, as the naming controller's "already in
//! use" rule decides between two. A CRD for a resource compiled into the server is accepted and
//! established but the compiled kind serves it (envtest-style set-ups apply the CRDs of the kinds
//! a server also compiles).

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use kube_apimachinery::GroupVersion;
use serde_json::{Value, json};
use tokio::sync::Notify;

use crate::{CustomEdges, Definition, Names, SchemaChecks};
use kube_apiserver_storage::Storage;
use kube_generic_apiserver::endpoints::registrar::Registrar;
use kube_generic_apiserver::meta;
use kube_generic_apiserver::registry::rest::{
    Creater, Getter, GracefulDeleter, Lister, Patcher, RestStorage, StatusStorage, Updater, Watcher,
};
use kube_generic_apiserver::registry::scale::ScaleStorage;
use kube_generic_apiserver::registry::store::ignore_gone;
use kube_generic_apiserver::registry::store::{Deleted, Preconditions, Store, Target};
use kube_generic_apiserver::registry::stores::Stores;
use kube_generic_apiserver::registry::strategy::{Checked, GenericStrategy};
use kube_generic_apiserver::registry::{ResourceInfo, SubresourceInfo};
use kube_generic_apiserver::status::ApiError;

/// The finalizer that keeps a deleted CRD until its objects are gone.
pub const CLEANUP: &str = "customresourcecleanup.apiextensions.k8s.io";

/// How long a burst of CRD changes may last before they are reconciled.
const SETTLE: Duration = Duration::from_millis(5);

/// How often a terminating CRD whose objects finalizers hold looks again.
const RECHECK: Duration = Duration::from_millis(200);

/// What one CRD has installed.
struct Served {
    definition: Definition,
    names: Names,
    group: &'static str,
    resource: &'static str,
    versions: Vec<GroupVersion>,
}

/// The controllers over the CRDs of one server.
pub struct CustomResources {
    crds: Arc<Store>,
    storage: Arc<dyn Storage>,
    registrar: Arc<Registrar>,
    stores: Arc<Stores>,
    served: tokio::sync::Mutex<BTreeMap<String, Served>>,
    changed: Notify,
}

impl CustomResources {
    /// Controllers of the CRDs in `crds`, storing custom objects in `storage` and serving them
    /// through `registrar`; the stores they install join `stores`.
    pub fn new(
        crds: Arc<Store>,
        storage: Arc<dyn Storage>,
        registrar: Arc<Registrar>,
        stores: Arc<Stores>,
    ) -> Arc<Self> {
        Arc::new(CustomResources {
            crds,
            storage,
            registrar,
            stores,
            served: Default::default(),
            changed: Notify::new(),
        })
    }

    /// Runs on the current Tokio runtime until it ends: a reconcile at start and after every
    /// burst of CRD changes.
    pub fn start(self: Arc<Self>) {
        tokio::spawn(watch(self.crds.clone(), self.clone()));
        self.changed.notify_one();
        tokio::spawn(async move {
            loop {
                self.changed.notified().await;
                tokio::time::sleep(SETTLE).await;
                match self.reconcile().await {
                    Ok(again) if !again => {}
                    result => {
                        if let Err(e) = result {
                            tracing::warn!(error = %e, "reconciling CustomResourceDefinitions failed; retrying");
                        }
                        let this = self.clone();
                        tokio::spawn(async move {
                            tokio::time::sleep(RECHECK).await;
                            this.changed.notify_one();
                        });
                    }
                }
            }
        });
    }

    /// One pass over every CRD; whether a terminating one must be looked at again.
    pub async fn reconcile(&self) -> Result<bool, ApiError> {
        let mut crds: Vec<Value> = Vec::new();
        for item in self.crds.list(None, None, None, None).await?.items {
            crds.push(item.value()?);
        }
        crds.sort_by(|a, b| {
            let key = |o: &Value| {
                (
                    meta::field(o, "creationTimestamp").to_string(),
                    meta::name(o).to_string(),
                )
            };
            key(a).cmp(&key(b))
        });
        let compiled = self.compiled();
        // The names each CRD holds: those its status accepted, then those this pass accepts. A
        // CRD's own names never conflict with themselves.
        let mut held: BTreeMap<String, (String, Vec<String>)> = crds
            .iter()
            .filter(|crd| !meta::deleting(crd))
            .filter_map(|crd| {
                let names: Names = serde_json::from_value(crd.pointer("/status/acceptedNames")?.clone()).ok()?;
                let group = crd.pointer("/spec/group")?.as_str()?.to_string();
                Some((meta::name(crd).to_string(), (group, claimed(&names))))
            })
            .collect();
        let mut serving = BTreeSet::new();
        let mut again = false;
        for crd in &crds {
            let Some(definition) = Definition::read(crd) else {
                continue;
            };
            if meta::deleting(crd) {
                self.uninstall(&definition.name).await;
                again |= !self.terminate(crd, &definition).await?;
                continue;
            }
            let requested = definition.names.defaulted();
            let group_taken: BTreeSet<String> = held
                .iter()
                .filter(|(name, (group, _))| **name != definition.name && *group == definition.group)
                .flat_map(|(_, (_, names))| names.iter().cloned())
                .collect();
            let shadowed = compiled.get(&(definition.group.clone(), requested.plural.clone())) == Some(&requested.kind);
            let conflict = if shadowed {
                None
            } else {
                conflict(&requested, &group_taken, &compiled, &definition.group)
            };
            let previous: Names = crd
                .pointer("/status/acceptedNames")
                .and_then(|n| serde_json::from_value(n.clone()).ok())
                .unwrap_or_default();
            let accepted = match &conflict {
                None => requested.clone(),
                Some(_) => previous,
            };
            // Served before `Established` is written: a client that waits for the condition
            // (kubectl wait, envtest) may use the resource at once.
            if !accepted.plural.is_empty() {
                held.insert(definition.name.clone(), (definition.group.clone(), claimed(&accepted)));
                if !shadowed {
                    self.install(&definition, &accepted).await;
                    serving.insert(definition.name.clone());
                }
            }
            self.write_status(crd, &definition, &accepted, conflict.as_ref())
                .await?;
        }
        let gone: Vec<String> = self
            .served
            .lock()
            .await
            .keys()
            .filter(|n| !serving.contains(*n))
            .cloned()
            .collect();
        for name in gone {
            self.uninstall(&name).await;
        }
        Ok(again)
    }

    /// The resources the server serves from its Scheme, by (group, plural), with their kinds.
    fn compiled(&self) -> BTreeMap<(String, String), String> {
        let registry = self.registrar.registry();
        registry
            .installed
            .resources
            .values()
            .flatten()
            .filter(|r| r.edges.is_none() && r.subresource.is_none())
            .map(|r| {
                let m = &r.mapping;
                ((m.group.to_string(), m.resource.to_string()), m.kind.to_string())
            })
            .collect()
    }

    /// Serves `definition`'s versions under `names` (again only if something changed).
    async fn install(&self, definition: &Definition, names: &Names) {
        let mut served = self.served.lock().await;
        if let Some(s) = served.get(&definition.name)
            && s.definition == *definition
            && s.names == *names
        {
            return;
        }
        let mappings = definition.mappings(names);
        let Some(first) = mappings.first().copied() else {
            return;
        };
        // Objects written after this revision meet the new edges (a write in flight on the old
        // registry may still land just after it, shaped by the old schema).
        let installed_at = self.storage.revision().await.unwrap_or(u64::MAX);
        let edges: Arc<CustomEdges> = Arc::new(CustomEdges::new(definition, &names.kind, installed_at));
        // Stored objects are checked against the storage version's schema, the edges' own when
        // that version is served.
        let storage_schema = edges
            .schema(first.storage_version)
            .unwrap_or_else(|| Arc::new(definition.structural(first.storage_version)));
        let strategy = Checked {
            inner: Arc::new(GenericStrategy::for_mapping(&first)),
            checks: SchemaChecks(storage_schema),
        };
        let store = Arc::new(Store::new(
            self.storage.clone(),
            first.group,
            first.resource,
            first.kind,
            first.namespaced(),
            Arc::new(strategy),
        ));
        let versions: Vec<GroupVersion> = mappings
            .iter()
            .map(|m| GroupVersion::from_static(m.group, m.version))
            .collect();
        if let Some(old) = served.remove(&definition.name) {
            for gv in old
                .versions
                .iter()
                .filter(|gv| !versions.contains(gv) || old.resource != first.resource)
            {
                self.registrar.uninstall(gv, old.resource);
            }
            self.stores.remove(old.group, old.resource);
        }
        let resources = mappings.iter().map(|m| {
            let mut subresources = Vec::new();
            for sub in m.subresources {
                let storage: Arc<dyn RestStorage> = match (sub.name, sub.scale) {
                    ("status", _) => Arc::new(StatusStorage(store.clone())),
                    ("scale", Some(paths)) => Arc::new(ScaleStorage {
                        store: store.clone(),
                        paths,
                        kind: sub.group_version_kind(),
                    }),
                    _ => continue,
                };
                subresources.push(SubresourceInfo {
                    name: sub.name,
                    kind: sub.group_version_kind(),
                    storage,
                    edges: None,
                });
            }
            ResourceInfo {
                mapping: *m,
                storage: store.clone(),
                subresources,
                edges: Some(edges.clone()),
            }
        });
        let (described, accepted) = (definition.clone(), names.clone());
        self.registrar.set_documents(
            &definition.name,
            Some(&move |generated| crate::openapi::documents(&described, &accepted, generated)),
        );
        self.registrar.install_all(resources);
        self.stores.add(store);
        served.insert(
            definition.name.clone(),
            Served {
                definition: definition.clone(),
                names: names.clone(),
                group: first.group,
                resource: first.resource,
                versions,
            },
        );
    }

    /// Stops serving what the CRD named `name` installed.
    async fn uninstall(&self, name: &str) {
        if let Some(old) = self.served.lock().await.remove(name) {
            self.registrar.set_documents(name, None);
            for gv in &old.versions {
                self.registrar.uninstall(gv, old.resource);
            }
            self.stores.remove(old.group, old.resource);
        }
    }

    /// Deletes a terminating CRD's objects, and the CRD once none is left; whether it is done.
    async fn terminate(&self, crd: &Value, definition: &Definition) -> Result<bool, ApiError> {
        let finalizers = crd.pointer("/metadata/finalizers").and_then(Value::as_array);
        if !finalizers.is_some_and(|list| list.iter().any(|f| f.as_str() == Some(CLEANUP))) {
            return Ok(true);
        }
        let names: Names = crd
            .pointer("/status/acceptedNames")
            .and_then(|n| serde_json::from_value(n.clone()).ok())
            .filter(|n: &Names| !n.plural.is_empty())
            .unwrap_or_else(|| definition.names.defaulted());
        let mut left = 0;
        if let Some(m) = definition.mappings(&names).first() {
            let store = Store::new(
                self.storage.clone(),
                m.group,
                m.resource,
                m.kind,
                m.namespaced(),
                Arc::new(GenericStrategy::for_mapping(m)),
            );
            self.set_condition(
                crd,
                "Terminating",
                "True",
                "InstanceDeletionInProgress",
                "CustomResource deletion is in progress",
            )
            .await?;
            for item in store.list(None, None, None, None).await?.items {
                let obj = item.value()?;
                let ns = meta::field(&obj, "namespace");
                let ns = (!ns.is_empty()).then_some(ns);
                match store
                    .delete(ns, meta::name(&obj), &Preconditions::default(), false)
                    .await
                {
                    Ok(Deleted::Marked(_)) => left += 1,
                    Ok(Deleted::Gone(_)) => {}
                    Err(e) if e.code == 404 => {}
                    Err(e) => return Err(e),
                }
            }
        }
        if left > 0 {
            return Ok(false);
        }
        let uid = meta::field(crd, "uid").to_string();
        let release = |current: &Value| {
            let mut next = current.clone();
            if meta::field(current, "uid") == uid
                && let Some(list) = next.pointer_mut("/metadata/finalizers").and_then(Value::as_array_mut)
            {
                list.retain(|f| f.as_str() != Some(CLEANUP));
            }
            Ok(next)
        };
        let released = self
            .crds
            .guaranteed_update(None, meta::name(crd), None, false, release, Target::Main)
            .await;
        ignore_gone(released.map(drop)).map(|()| true)
    }

    /// Writes the naming and establishing controllers' status, if it changed.
    async fn write_status(
        &self,
        crd: &Value,
        definition: &Definition,
        accepted: &Names,
        conflict: Option<&(String, String)>,
    ) -> Result<(), ApiError> {
        let (names_status, names_reason, names_message) = match conflict {
            None => ("True", "NoConflicts", "no conflicts found".to_string()),
            Some((reason, message)) => ("False", reason.as_str(), message.clone()),
        };
        let established = !accepted.plural.is_empty();
        let storage = definition.storage_version().map(|v| v.name.clone());
        let uid = meta::field(crd, "uid").to_string();
        let edit = |current: &Value| -> Result<Value, ApiError> {
            let mut next = current.clone();
            if meta::field(current, "uid") != uid {
                return Ok(next);
            }
            let status = next
                .as_object_mut()
                .map(|o| o.entry("status").or_insert_with(|| json!({})))
                .filter(|s| s.is_object());
            let Some(status) = status else { return Ok(next) };
            put_condition(status, "NamesAccepted", names_status, names_reason, &names_message);
            if established {
                put_condition(
                    status,
                    "Established",
                    "True",
                    "InitialNamesAccepted",
                    "the initial names have been accepted",
                );
            } else {
                put_condition(
                    status,
                    "Established",
                    "False",
                    "NotAccepted",
                    "not all names are accepted",
                );
            }
            status["acceptedNames"] = serde_json::to_value(accepted).unwrap_or_default();
            if let Some(storage) = &storage {
                let stored = status
                    .as_object_mut()
                    .map(|s| s.entry("storedVersions").or_insert_with(|| json!([])));
                if let Some(list) = stored.and_then(Value::as_array_mut)
                    && !list.iter().any(|v| v.as_str() == Some(storage))
                {
                    list.push(json!(storage));
                }
            }
            Ok(next)
        };
        let next = edit(crd)?;
        if next.get("status") == crd.get("status") {
            return Ok(());
        }
        let written = self
            .crds
            .guaranteed_update(None, meta::name(crd), None, false, edit, Target::Status)
            .await;
        ignore_gone(written.map(drop))
    }

    /// Sets one condition of the CRD, if it changed.
    async fn set_condition(
        &self,
        crd: &Value,
        kind: &str,
        status: &str,
        reason: &str,
        message: &str,
    ) -> Result<(), ApiError> {
        let mut next = crd.clone();
        if let Some(s) = next
            .as_object_mut()
            .map(|o| o.entry("status").or_insert_with(|| json!({})))
        {
            put_condition(s, kind, status, reason, message);
        }
        if next.get("status") == crd.get("status") {
            return Ok(());
        }
        let edit = |current: &Value| -> Result<Value, ApiError> {
            let mut next = current.clone();
            if let Some(s) = next
                .as_object_mut()
                .map(|o| o.entry("status").or_insert_with(|| json!({})))
            {
                put_condition(s, kind, status, reason, message);
            }
            Ok(next)
        };
        let written = self
            .crds
            .guaranteed_update(None, meta::name(crd), None, false, edit, Target::Status)
            .await;
        ignore_gone(written.map(drop))
    }
}

/// Every name a CRD's accepted names claim in its group: resource names (plural, singular,
/// short names) and kind names (kind, list kind) apart, as the naming controller keeps them.
fn claimed(names: &Names) -> Vec<String> {
    let mut out = vec![
        format!("resource:{}", names.plural),
        format!("resource:{}", names.singular),
        format!("kind:{}", names.kind),
        format!("kind:{}", names.list_kind),
    ];
    out.extend(names.short_names.iter().map(|s| format!("resource:{s}")));
    out.retain(|n| !n.ends_with(':'));
    out
}

/// The naming controller's verdict on `requested`: the first name another CRD of the group, or a
/// compiled resource, already uses, as (reason, message).
fn conflict(
    requested: &Names,
    taken: &BTreeSet<String>,
    compiled: &BTreeMap<(String, String), String>,
    group: &str,
) -> Option<(String, String)> {
    let compiled_plural = |p: &str| compiled.contains_key(&(group.to_string(), p.to_string()));
    let compiled_kind = |k: &str| compiled.iter().any(|((g, _), kind)| g == group && kind == k);
    let resource = |n: &str| taken.contains(&format!("resource:{n}"));
    let kind = |n: &str| taken.contains(&format!("kind:{n}"));
    let in_use = |reason: &str, name: &str| Some((reason.to_string(), format!("\"{name}\" is already in use")));
    if resource(&requested.plural) || compiled_plural(&requested.plural) {
        return in_use("PluralConflict", &requested.plural);
    }
    if resource(&requested.singular) {
        return in_use("SingularConflict", &requested.singular);
    }
    if let Some(short) = requested.short_names.iter().find(|s| resource(s)) {
        return in_use("ShortNamesConflict", short);
    }
    if kind(&requested.kind) || compiled_kind(&requested.kind) {
        return in_use("KindConflict", &requested.kind);
    }
    if kind(&requested.list_kind) {
        return in_use("ListKindConflict", &requested.list_kind);
    }
    None
}

/// Sets condition `kind` in `status.conditions`, keeping its lastTransitionTime when its status
/// stays.
fn put_condition(status: &mut Value, kind: &str, value: &str, reason: &str, message: &str) {
    let Some(status) = status.as_object_mut() else { return };
    let conditions = status.entry("conditions").or_insert_with(|| json!([]));
    let Some(list) = conditions.as_array_mut() else { return };
    let existing = list
        .iter_mut()
        .find(|c| c.get("type").and_then(Value::as_str) == Some(kind));
    let since = match &existing {
        Some(c) if c.get("status").and_then(Value::as_str) == Some(value) => c
            .get("lastTransitionTime")
            .cloned()
            .unwrap_or_else(|| json!(meta::now())),
        _ => json!(meta::now()),
    };
    let condition = json!({
        "type": kind,
        "status": value,
        "reason": reason,
        "message": message,
        "lastTransitionTime": since,
    });
    match existing {
        Some(c) => *c = condition,
        None => list.push(condition),
    }
}

/// Tells the controllers of every change of a CRD, watching again after a watch ends.
async fn watch(crds: Arc<Store>, controllers: Arc<CustomResources>) {
    loop {
        let started = async {
            let from = crds.revision().await?;
            crds.watch(None, from).await
        };
        match started.await {
            Ok(mut events) => {
                while events.recv().await.is_some() {
                    controllers.changed.notify_one();
                }
            }
            Err(e) => tracing::debug!(error = %e, "CustomResourceDefinition watch failed"),
        }
        tokio::time::sleep(RECHECK).await;
        controllers.changed.notify_one();
    }
}

/// The CRDs' storage: the generic store, with a deletion that marks the CRD `Terminating` and
/// adds the cleanup finalizer, so its objects are deleted before it goes (the CRD registry's
/// `Delete` in apiextensions-apiserver).
pub struct CrdStorage(pub Arc<Store>);

#[async_trait]
impl GracefulDeleter for CrdStorage {
    async fn delete(
        &self,
        _namespace: Option<&str>,
        name: &str,
        preconditions: &Preconditions,
        dry_run: bool,
    ) -> Result<Deleted, ApiError> {
        let current = self.0.get(None, name).await?;
        preconditions.check(&current, "apiextensions.k8s.io", "customresourcedefinitions", name)?;
        if dry_run || meta::deleting(&current) {
            return Ok(Deleted::Marked(current));
        }
        let marked = self
            .0
            .mark_deleting(None, name, |crd| {
                meta::add_finalizer(crd, CLEANUP);
                if let Some(s) = crd
                    .as_object_mut()
                    .map(|o| o.entry("status").or_insert_with(|| json!({})))
                {
                    put_condition(
                        s,
                        "Terminating",
                        "True",
                        "InstanceDeletionPending",
                        "CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon",
                    );
                }
            })
            .await?;
        Ok(Deleted::Marked(marked))
    }

    fn returns_deleted_object(&self) -> bool {
        true
    }
}

/// Every capability but deletion is the CRDs' store's own.
impl RestStorage for CrdStorage {
    fn getter(&self) -> Option<&dyn Getter> {
        self.0.getter()
    }
    fn lister(&self) -> Option<&dyn Lister> {
        self.0.lister()
    }
    fn creater(&self) -> Option<&dyn Creater> {
        self.0.creater()
    }
    fn updater(&self) -> Option<&dyn Updater> {
        self.0.updater()
    }
    fn patcher(&self) -> Option<&dyn Patcher> {
        self.0.patcher()
    }
    fn graceful_deleter(&self) -> Option<&dyn GracefulDeleter> {
        Some(self)
    }
    fn collection_deleter(&self) -> Option<&dyn kube_generic_apiserver::registry::rest::CollectionDeleter> {
        self.0.collection_deleter()
    }
    fn watcher(&self) -> Option<&dyn Watcher> {
        self.0.watcher()
    }
}
