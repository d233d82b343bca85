//! A shared informer (client-go's `sharedIndexInformer`): one list-watch through kube-runtime's
//! `watcher` (relists, backoff, bookmarks and 410 handling are kube's) feeding one [`Indexer`],
//! and any number of event handlers, each told every change in order on a task of its own.
//!
//! The cache and the handlers are changed under one lock: a handler added late receives a
//! synthetic add for every cached object before any later change, as client-go's informers do,
//! and a slow handler delays only itself (its queue is unbounded, as client-go's listeners are).

mod adapter;
mod factory;
mod handler;
#[cfg(test)]
mod tests;

pub use factory::{GenericInformer, InformerFactory, NoInformer, TweakFn};
pub use handler::{Deleted, EventHandler, HandlerFns, HandlerId};

use std::collections::BTreeMap;
use std::fmt::Debug;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use futures::StreamExt;
use futures::stream::BoxStream;
use kube::runtime::WatchStreamExt;
use kube::runtime::watcher::{self, Event};
use serde::de::DeserializeOwned;
use tokio::sync::{mpsc, watch};

use super::cache::{Indexer, key_of};
use handler::Notification;

/// A function applied to every object before it is cached (client-go's `SetTransform`), such
/// as one that drops `managedFields` to save memory.
pub type Transform<K> = Arc<dyn Fn(K) -> K + Send + Sync>;

/// Told each failure of the list-watch (client-go's `WatchErrorHandler`); the watch retries by
/// itself after kube's backoff either way.
pub type WatchErrorHandler = Arc<dyn Fn(&watcher::Error) + Send + Sync>;

/// The changes an informer reads: kube-runtime's watcher events.
pub type EventStream<K> = BoxStream<'static, Result<Event<K>, watcher::Error>>;

/// The informer was asked to change what only an unstarted informer may change.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the informer has already started")]
pub struct AlreadyStarted;

/// A shared informer of kind `K`. Clones share one watch, one cache and one set of handlers.
pub struct SharedInformer<K> {
    shared: Arc<Shared<K>>,
}

impl<K> Clone for SharedInformer<K> {
    fn clone(&self) -> Self {
        Self {
            shared: self.shared.clone(),
        }
    }
}

struct Shared<K> {
    indexer: Arc<Indexer<K>>,
    state: Mutex<State<K>>,
    synced: watch::Sender<bool>,
    resync: Option<Duration>,
    /// The list-watch's last failure, until the next success.
    last_error: Mutex<Option<String>>,
    /// Set once the informer's task has ended (stopped, or its stream ended).
    stopped: watch::Sender<bool>,
}

struct State<K> {
    /// The watch, until the informer starts and takes it.
    source: Option<Box<dyn FnOnce() -> EventStream<K> + Send>>,
    task: Option<tokio::task::JoinHandle<()>>,
    transform: Option<Transform<K>>,
    on_error: Option<WatchErrorHandler>,
    listeners: Vec<(HandlerId, mpsc::UnboundedSender<Notification<K>>)>,
    next_id: u64,
    /// kube-runtime's reflector store, once asked for ([`SharedInformer::store`]).
    store: Option<Box<dyn adapter::Feed<K>>>,
}

impl<K> SharedInformer<K>
where
    K: kube::Resource + Clone + DeserializeOwned + Debug + Send + Sync + 'static,
{
    /// An informer of the objects `api` reaches that `config` selects; `resync`, when given, is
    /// how often every handler is told an update for every cached object, changed or not.
    /// Nothing is sent until [`Self::run`].
    pub fn new(api: kube::Api<K>, config: watcher::Config, resync: Option<Duration>) -> Self {
        Self::from_stream(move || watcher::watcher(api, config).default_backoff().boxed(), resync)
    }

    /// An informer over any source of watcher events (the stream is made when it starts).
    pub fn from_stream(source: impl FnOnce() -> EventStream<K> + Send + 'static, resync: Option<Duration>) -> Self {
        Self {
            shared: Arc::new(Shared {
                indexer: Arc::new(Indexer::new()),
                state: Mutex::new(State {
                    source: Some(Box::new(source)),
                    task: None,
                    transform: None,
                    on_error: None,
                    listeners: Vec::new(),
                    next_id: 0,
                    store: None,
                }),
                synced: watch::channel(false).0,
                resync,
                last_error: Mutex::new(None),
                stopped: watch::channel(false).0,
            }),
        }
    }

    /// The cache the informer keeps current, which listers read.
    pub fn indexer(&self) -> &Arc<Indexer<K>> {
        &self.shared.indexer
    }

    /// Sets the function applied to every object before it is cached; only before it runs.
    pub fn set_transform(&self, transform: impl Fn(K) -> K + Send + Sync + 'static) -> Result<(), AlreadyStarted> {
        let mut state = self.shared.state();
        if state.source.is_none() {
            return Err(AlreadyStarted);
        }
        state.transform = Some(Arc::new(transform));
        Ok(())
    }

    /// Sets what is told each failure of the list-watch (client-go's `SetWatchErrorHandler`);
    /// only before it runs. Without one, failures are logged as warnings (at most one per
    /// retry: kube's watcher backs off between them).
    pub fn set_watch_error_handler(
        &self,
        handler: impl Fn(&watcher::Error) + Send + Sync + 'static,
    ) -> Result<(), AlreadyStarted> {
        let mut state = self.shared.state();
        if state.source.is_none() {
            return Err(AlreadyStarted);
        }
        state.on_error = Some(Arc::new(handler));
        Ok(())
    }

    /// Starts the list-watch on the current Tokio runtime; a second call does nothing.
    pub fn run(&self) {
        let mut state = self.shared.state();
        let Some(source) = state.source.take() else { return };
        let shared = self.shared.clone();
        // Marks the end however the task ends, aborted by `stop` included, even before its
        // first poll (the guard is moved in, so dropping the future drops it).
        let ended = Ended(shared.stopped.clone());
        state.task = Some(tokio::spawn(async move {
            let _ended = ended;
            shared.run(source()).await
        }));
    }

    /// Resolves once the informer's watch has ended: after [`Self::stop`], or when its source
    /// ended. An informer that never ran is not waited for.
    pub fn stopped(&self) -> impl std::future::Future<Output = ()> + Send + 'static {
        let never_ran = self.shared.state().task.is_none() && self.shared.state().source.is_some();
        let mut stopped = self.shared.stopped.subscribe();
        async move {
            if !never_ran {
                let _ = stopped.wait_for(|s| *s).await;
            }
        }
    }

    /// The list-watch's last failure since it last succeeded (`None` when it is well): why a
    /// cache has not synced.
    pub fn last_watch_error(&self) -> Option<String> {
        self.shared
            .last_error
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// Stops the list-watch; handlers receive what was already sent to them and then stop. A
    /// stopped informer does not run again (its cache keeps what it had).
    pub fn stop(&self) {
        let mut state = self.shared.state();
        if let Some(task) = state.task.take() {
            task.abort();
        }
        state.listeners.clear();
    }

    /// Whether the first full list has reached the cache.
    pub fn has_synced(&self) -> bool {
        *self.shared.synced.borrow()
    }

    /// Waits until the first full list has reached the cache; `false` when `timeout` passed
    /// first.
    pub async fn wait_for_sync(&self, timeout: Duration) -> bool {
        let mut synced = self.shared.synced.subscribe();
        matches!(tokio::time::timeout(timeout, synced.wait_for(|s| *s)).await, Ok(Ok(_)))
    }

    /// A receiver of the synced flag, for waiting on several informers at once.
    pub fn synced(&self) -> watch::Receiver<bool> {
        self.shared.synced.subscribe()
    }

    /// Adds a handler (client-go's `AddEventHandler`) and starts its task on the current Tokio
    /// runtime. It first receives an add for every object already cached, then every change.
    pub fn add_event_handler(&self, handler: impl EventHandler<K>) -> HandlerId {
        let (tx, rx) = mpsc::unbounded_channel();
        let mut state = self.shared.state();
        for obj in self.shared.indexer.list() {
            let _ = tx.send(Notification::Add(obj, true));
        }
        let id = HandlerId(state.next_id);
        state.next_id += 1;
        state.listeners.push((id, tx));
        tokio::spawn(handler::deliver(rx, handler));
        id
    }

    /// Removes a handler: it receives what was already sent to it, then nothing more.
    pub fn remove_event_handler(&self, id: HandlerId) {
        self.shared.state().listeners.retain(|(i, _)| *i != id);
    }
}

impl<K: kube::Resource + Send + Sync + 'static> Shared<K> {
    fn state(&self) -> MutexGuard<'_, State<K>> {
        // The state is consistent after every statement, so a poisoned lock is still usable.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    async fn run(self: Arc<Self>, mut events: EventStream<K>) {
        let (transform, on_error) = {
            let state = self.state();
            (state.transform.clone(), state.on_error.clone())
        };
        let prepare = |obj: K| {
            Arc::new(match &transform {
                Some(t) => t(obj),
                None => obj,
            })
        };
        // A relist's objects, gathered until it is complete, then swapped in at once.
        let mut listing: Option<BTreeMap<String, Arc<K>>> = None;
        let mut resync = self.resync.map(|period| {
            let mut interval = tokio::time::interval_at(tokio::time::Instant::now() + period, period);
            // Ticks missed before the first sync are not made up in a burst.
            interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            interval
        });
        loop {
            tokio::select! {
                event = events.next() => match event {
                    None => return,
                    Some(Ok(Event::Init)) => {
                        // A relist begins: the watch works again.
                        self.clear_error();
                        listing = Some(BTreeMap::new());
                    }
                    Some(Ok(Event::InitApply(obj))) => {
                        let obj = prepare(obj);
                        listing.get_or_insert_with(BTreeMap::new).insert(key_of(obj.as_ref()), obj);
                    }
                    Some(Ok(Event::InitDone)) => self.replace(listing.take().unwrap_or_default()),
                    Some(Ok(Event::Apply(obj))) => self.apply(prepare(obj)),
                    Some(Ok(Event::Delete(obj))) => self.delete(prepare(obj)),
                    // kube's watcher recovers by itself (re-watch or relist) after its backoff.
                    Some(Err(error)) => {
                        *self.last_error.lock().unwrap_or_else(PoisonError::into_inner) = Some(error.to_string());
                        match &on_error {
                            Some(handler) => handler(&error),
                            None => tracing::warn!(%error, kind = std::any::type_name::<K>(), "informer watch failed; retrying"),
                        }
                    }
                },
                _ = tick(&mut resync), if *self.synced.borrow() => self.resync(),
            }
        }
    }

    fn clear_error(&self) {
        *self.last_error.lock().unwrap_or_else(PoisonError::into_inner) = None;
    }

    fn notify(state: &mut State<K>, notification: Notification<K>) {
        // A handler whose task has ended (it panicked) no longer receives anything.
        state.listeners.retain(|(_, tx)| tx.send(notification.clone()).is_ok());
    }

    /// A complete list: what is new is added, what was cached is updated (client-go's Replaced
    /// deltas), what is gone is deleted as a tombstone, since its deletion was missed.
    fn replace(&self, listed: BTreeMap<String, Arc<K>>) {
        let mut state = self.state();
        let first = !*self.synced.borrow();
        let mut old = self.indexer.replace(listed.values().cloned());
        if let Some(feed) = &mut state.store {
            feed.replace(&mut listed.values());
        }
        for (key, obj) in listed {
            let n = match old.remove(key.as_str()) {
                Some(previous) => Notification::Update(previous, obj),
                None => Notification::Add(obj, first),
            };
            Self::notify(&mut state, n);
        }
        for (key, last_known) in old {
            let key = key.to_string();
            Self::notify(&mut state, Notification::Delete(Deleted::Tombstone { key, last_known }));
        }
        self.synced.send_replace(true);
    }

    fn apply(&self, obj: Arc<K>) {
        let mut state = self.state();
        if let Some(feed) = &mut state.store {
            feed.apply(&obj);
        }
        let n = match self.indexer.upsert(obj.clone()) {
            Some(old) => Notification::Update(old, obj),
            None => Notification::Add(obj, false),
        };
        Self::notify(&mut state, n);
    }

    fn delete(&self, obj: Arc<K>) {
        let mut state = self.state();
        self.indexer.delete(&key_of(obj.as_ref()));
        if let Some(feed) = &mut state.store {
            feed.delete(&obj);
        }
        Self::notify(&mut state, Notification::Delete(Deleted::Object(obj)));
    }

    /// Every cached object as an update to itself (client-go's resync).
    fn resync(&self) {
        let mut state = self.state();
        for obj in self.indexer.list() {
            Self::notify(&mut state, Notification::Update(obj.clone(), obj));
        }
    }
}

/// Sets the informer's `stopped` flag when dropped, so an aborted task counts as ended too.
struct Ended(watch::Sender<bool>);

impl Drop for Ended {
    fn drop(&mut self) {
        self.0.send_replace(true);
    }
}

async fn tick(interval: &mut Option<tokio::time::Interval>) {
    match interval {
        Some(interval) => {
            interval.tick().await;
        }
        None => std::future::pending().await,
    }
}
