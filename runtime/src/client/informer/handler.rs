//! Event handlers of a shared informer (client-go's `ResourceEventHandler`): the trait, a
//! handler made of closures, what a delete carries, and the task that delivers one handler's
//! notifications in order.

use std::sync::Arc;

use tokio::sync::mpsc;

/// Identifies a handler for [`super::SharedInformer::remove_event_handler`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct HandlerId(pub(super) u64);

/// What a delete handler receives.
#[derive(Debug)]
pub enum Deleted<K> {
    /// The watch reported the deletion; the object as it was last.
    Object(Arc<K>),
    /// A relist found the object gone, so its deletion was missed (client-go's
    /// `DeletedFinalStateUnknown`): its cache key and the last state the cache held.
    Tombstone {
        /// `namespace/name`, or `name` for a cluster-scoped object.
        key: String,
        /// The object as the cache last had it; it may be stale.
        last_known: Arc<K>,
    },
}

impl<K> Deleted<K> {
    /// The deleted object: as the watch reported it, or as the cache last had it.
    pub fn object(&self) -> &Arc<K> {
        match self {
            Deleted::Object(obj) => obj,
            Deleted::Tombstone { last_known, .. } => last_known,
        }
    }
}

impl<K: kube::Resource> Deleted<K>
where
    K::DynamicType: Default,
{
    /// The deleted object's reference, as kube-runtime and a work queue key it.
    pub fn object_ref(&self) -> kube::runtime::reflector::ObjectRef<K> {
        kube::runtime::reflector::ObjectRef::from_obj(self.object().as_ref())
    }
}

impl<K> Clone for Deleted<K> {
    fn clone(&self) -> Self {
        match self {
            Deleted::Object(obj) => Deleted::Object(obj.clone()),
            Deleted::Tombstone { key, last_known } => Deleted::Tombstone {
                key: key.clone(),
                last_known: last_known.clone(),
            },
        }
    }
}

/// Receives an informer's changes, one call at a time and in the order they happened. The
/// objects are the cache's own: clone one before changing it. A handler should return quickly
/// (client-go's handlers put keys on a work queue); a slow one delays only its own later calls.
pub trait EventHandler<K>: Send + Sync + 'static {
    /// An object appeared; `in_initial_list` when it came with the informer's first list or
    /// with the synthetic adds a late handler receives.
    fn on_add(&self, obj: &Arc<K>, in_initial_list: bool) {
        let _ = (obj, in_initial_list);
    }

    /// An object changed, or a resync or relist reported it again (then `old` may equal `new`).
    fn on_update(&self, old: &Arc<K>, new: &Arc<K>) {
        let _ = (old, new);
    }

    /// An object was deleted.
    fn on_delete(&self, obj: &Deleted<K>) {
        let _ = obj;
    }
}

type AddFn<K> = Box<dyn Fn(&Arc<K>, bool) + Send + Sync>;
type UpdateFn<K> = Box<dyn Fn(&Arc<K>, &Arc<K>) + Send + Sync>;
type DeleteFn<K> = Box<dyn Fn(&Deleted<K>) + Send + Sync>;

/// A handler of closures (client-go's `ResourceEventHandlerFuncs`); the ones not set ignore
/// their events.
pub struct HandlerFns<K> {
    add: Option<AddFn<K>>,
    update: Option<UpdateFn<K>>,
    delete: Option<DeleteFn<K>>,
}

impl<K> Default for HandlerFns<K> {
    fn default() -> Self {
        Self {
            add: None,
            update: None,
            delete: None,
        }
    }
}

impl<K> HandlerFns<K> {
    /// A handler that ignores everything until given closures.
    pub fn new() -> Self {
        Self::default()
    }

    /// Called for every add.
    pub fn on_add(mut self, f: impl Fn(&Arc<K>, bool) + Send + Sync + 'static) -> Self {
        self.add = Some(Box::new(f));
        self
    }

    /// Called for every update, with the old and the new object.
    pub fn on_update(mut self, f: impl Fn(&Arc<K>, &Arc<K>) + Send + Sync + 'static) -> Self {
        self.update = Some(Box::new(f));
        self
    }

    /// Called for every delete.
    pub fn on_delete(mut self, f: impl Fn(&Deleted<K>) + Send + Sync + 'static) -> Self {
        self.delete = Some(Box::new(f));
        self
    }
}

impl<K: Send + Sync + 'static> EventHandler<K> for HandlerFns<K> {
    fn on_add(&self, obj: &Arc<K>, in_initial_list: bool) {
        if let Some(f) = &self.add {
            f(obj, in_initial_list);
        }
    }

    fn on_update(&self, old: &Arc<K>, new: &Arc<K>) {
        if let Some(f) = &self.update {
            f(old, new);
        }
    }

    fn on_delete(&self, obj: &Deleted<K>) {
        if let Some(f) = &self.delete {
            f(obj);
        }
    }
}

/// One change for one handler.
pub(super) enum Notification<K> {
    Add(Arc<K>, bool),
    Update(Arc<K>, Arc<K>),
    Delete(Deleted<K>),
}

impl<K> Clone for Notification<K> {
    fn clone(&self) -> Self {
        match self {
            Notification::Add(obj, initial) => Notification::Add(obj.clone(), *initial),
            Notification::Update(old, new) => Notification::Update(old.clone(), new.clone()),
            Notification::Delete(d) => Notification::Delete(d.clone()),
        }
    }
}

/// Calls the handler for each notification, in order, until the informer drops the sender.
pub(super) async fn deliver<K>(mut rx: mpsc::UnboundedReceiver<Notification<K>>, handler: impl EventHandler<K>) {
    while let Some(n) = rx.recv().await {
        match n {
            Notification::Add(obj, initial) => handler.on_add(&obj, initial),
            Notification::Update(old, new) => handler.on_update(&old, &new),
            Notification::Delete(d) => handler.on_delete(&d),
        }
    }
}
