//! A shared informer as kube-runtime consumes one: a reflector [`Store`] the informer keeps
//! current, a stream of the objects it sees change, and [`ObjectRef`]s for a work queue, so
//! that `Controller::for_shared_stream`, `owns_shared_stream` and `reconcile_on` run on the
//! informer's one watch instead of opening their own.

use std::sync::Arc;

use futures::Stream;
use kube::runtime::reflector::store::Writer;
use kube::runtime::reflector::{ObjectRef, Store};
use kube::runtime::watcher::Event;
use tokio::sync::mpsc;

use super::handler::{Deleted, EventHandler};

/// What the informer feeds its events to besides its own cache (a reflector store), erased so
/// the informer's state needs no bounds of kube-runtime's.
pub(super) trait Feed<K>: Send {
    /// A complete list.
    fn replace(&mut self, objects: &mut dyn Iterator<Item = &Arc<K>>);
    /// An object added or changed.
    fn apply(&mut self, obj: &Arc<K>);
    /// An object deleted.
    fn delete(&mut self, obj: &Arc<K>);
    /// The reader, as a `Store<K>`.
    fn reader(&self) -> Box<dyn std::any::Any>;
}

/// kube-runtime's writer of a [`Store`], fed the informer's events.
pub(super) struct StoreFeed<K: kube::Resource + Clone + 'static>
where
    K::DynamicType: std::hash::Hash + Eq + Clone,
{
    writer: Writer<K>,
}

impl<K> Feed<K> for StoreFeed<K>
where
    K: kube::Resource + Clone + Send + Sync + 'static,
    K::DynamicType: std::hash::Hash + Eq + Clone + Send + Sync,
{
    fn replace(&mut self, objects: &mut dyn Iterator<Item = &Arc<K>>) {
        // The store swaps a complete list in at once, and is ready from the first.
        self.writer.apply_watcher_event(&Event::Init);
        for obj in objects {
            self.writer.apply_watcher_event(&Event::InitApply(K::clone(obj)));
        }
        self.writer.apply_watcher_event(&Event::InitDone);
    }

    fn apply(&mut self, obj: &Arc<K>) {
        self.writer.apply_watcher_event(&Event::Apply(K::clone(obj)));
    }

    fn delete(&mut self, obj: &Arc<K>) {
        self.writer.apply_watcher_event(&Event::Delete(K::clone(obj)));
    }

    fn reader(&self) -> Box<dyn std::any::Any> {
        Box::new(self.writer.as_reader())
    }
}

/// Forwards every object a handler sees (added, updated, deleted) to a channel.
struct Forward<T, K> {
    tx: mpsc::UnboundedSender<T>,
    map: fn(&Arc<K>) -> T,
}

impl<T: Send + Sync + 'static, K: Send + Sync + 'static> EventHandler<K> for Forward<T, K> {
    fn on_add(&self, obj: &Arc<K>, _: bool) {
        let _ = self.tx.send((self.map)(obj));
    }

    fn on_update(&self, _: &Arc<K>, new: &Arc<K>) {
        let _ = self.tx.send((self.map)(new));
    }

    fn on_delete(&self, obj: &Deleted<K>) {
        let _ = self.tx.send((self.map)(obj.object()));
    }
}

/// The stream of a channel's items until every sender is gone.
fn receiver_stream<T: Send + 'static>(rx: mpsc::UnboundedReceiver<T>) -> impl Stream<Item = T> + Send + 'static {
    futures::stream::unfold(rx, |mut rx| async move { rx.recv().await.map(|item| (item, rx)) })
}

impl<K> super::SharedInformer<K>
where
    K: kube::Resource + Clone + serde::de::DeserializeOwned + std::fmt::Debug + Send + Sync + 'static,
    K::DynamicType: std::hash::Hash + Eq + Clone + Default + Send + Sync,
{
    /// kube-runtime's reader of the informer's objects (the `reader` of
    /// `Controller::for_shared_stream`, or what `Store::wait_until_ready` and `get` read),
    /// kept current by the informer itself: no second watch.
    pub fn store(&self) -> Store<K> {
        let reader = |feed: &dyn Feed<K>| -> Store<K> {
            *feed
                .reader()
                .downcast::<Store<K>>()
                .expect("the feed of a SharedInformer<K> reads a Store<K>")
        };
        let mut state = self.shared.state();
        if let Some(feed) = &state.store {
            return reader(feed.as_ref());
        }
        let mut feed = StoreFeed {
            writer: Writer::new(K::DynamicType::default()),
        };
        // An informer that has synced hands over what it has; otherwise its first list will.
        if self.has_synced() {
            feed.replace(&mut self.shared.indexer.list().iter());
        }
        let store = reader(&feed);
        state.store = Some(Box::new(feed));
        store
    }

    /// Every object the informer adds, updates or deletes, from the cached ones on, as
    /// `Controller::for_shared_stream` and `owns_shared_stream` take them. The stream ends when
    /// the informer stops.
    pub fn subscribe(&self) -> impl Stream<Item = Arc<K>> + Send + 'static {
        let (tx, rx) = mpsc::unbounded_channel();
        self.add_event_handler(Forward { tx, map: Arc::clone });
        receiver_stream(rx)
    }

    /// The reference of every object the informer adds, updates or deletes, for a work queue or
    /// `Controller::reconcile_on`.
    pub fn object_refs(&self) -> impl Stream<Item = ObjectRef<K>> + Send + 'static {
        let (tx, rx) = mpsc::unbounded_channel();
        self.add_event_handler(Forward {
            tx,
            map: |obj: &Arc<K>| ObjectRef::from_obj(obj.as_ref()),
        });
        receiver_stream(rx)
    }
}
