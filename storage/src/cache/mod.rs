//! The watch cache of one resource (k8s.io/apiserver's `Cacher`, reduced to its fan-out): one
//! watch on the storage for the resource's whole prefix, a window of its recent events, and every
//! client watch of the resource served from them. A thousand `kubectl get -w` cost etcd one watch.
//!
//! The cache starts with the first client watch, at the storage's revision then. A watch from a
//! revision the window still covers is replayed from it and then fed live, both under one lock, so
//! nothing is missed or repeated in between. A watch from an older revision goes to the storage,
//! which replays it or answers Gone, as without a cache. When the storage's watch ends (etcd
//! restarted, a slow cache), every client watch ends with it, cleanly: clients watch again from
//! the last revision they saw, and the next watch starts the cache again.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::sync::{mpsc, oneshot};

use super::{Event, Revision, Storage, StorageError, Watch};

/// The events a cache keeps by default.
pub const DEFAULT_WINDOW: usize = 1024;

/// How many events a client watch may fall behind before it is ended as a slow reader.
const QUEUE: usize = 4096;

/// The watch cache of the keys under one prefix.
pub struct WatchCache {
    storage: Arc<dyn Storage>,
    prefix: String,
    window: usize,
    state: Arc<Mutex<State>>,
    /// Serializes starts, so concurrent first watches open one storage watch.
    starting: tokio::sync::Mutex<()>,
    /// Dropping the cache drops this sender, which stops the task feeding it.
    stop: Mutex<Option<oneshot::Sender<()>>>,
}

#[derive(Default)]
struct State {
    running: bool,
    /// Every event with a revision above this one is in `history`.
    complete_after: Revision,
    history: VecDeque<Event>,
    watchers: Vec<Subscriber>,
    /// Storage watches opened so far (for tests and metrics).
    upstream_watches: usize,
}

struct Subscriber {
    prefix: String,
    /// Events at or below this revision are not this watcher's.
    after: Revision,
    tx: mpsc::Sender<Result<Event, StorageError>>,
}

impl WatchCache {
    /// A cache for the keys under `prefix` of `storage`, keeping `window` events.
    pub fn new(storage: Arc<dyn Storage>, prefix: impl Into<String>, window: usize) -> Self {
        WatchCache {
            storage,
            prefix: prefix.into(),
            window: window.max(1),
            state: Arc::default(),
            starting: tokio::sync::Mutex::new(()),
            stop: Mutex::new(None),
        }
    }

    /// Events for keys under `prefix` (the cache's own prefix or one below it) after `after`.
    pub async fn watch(&self, prefix: &str, after: Revision) -> Result<Watch, StorageError> {
        debug_assert!(prefix.starts_with(&self.prefix));
        self.start().await?;
        if let Some(watch) = self.subscribe(prefix, after) {
            return Ok(watch);
        }
        self.storage.watch(prefix, after).await
    }

    /// A watch fed from the cache, or `None` when the window does not reach back to `after`.
    fn subscribe(&self, prefix: &str, after: Revision) -> Option<Watch> {
        let mut state = lock(&self.state);
        if !state.running || after < state.complete_after {
            return None;
        }
        let (tx, rx) = mpsc::channel(QUEUE);
        for event in state
            .history
            .iter()
            .filter(|e| e.kv.mod_revision > after && e.kv.key.starts_with(prefix))
        {
            if tx.try_send(Ok(event.clone())).is_err() {
                return Some(rx);
            }
        }
        state.watchers.push(Subscriber {
            prefix: prefix.to_string(),
            after,
            tx,
        });
        Some(rx)
    }

    /// How many watches the cache has opened on the storage.
    pub fn upstream_watches(&self) -> usize {
        lock(&self.state).upstream_watches
    }

    /// Opens the storage watch unless it is open.
    async fn start(&self) -> Result<(), StorageError> {
        let _one_at_a_time = self.starting.lock().await;
        if lock(&self.state).running {
            return Ok(());
        }
        let revision = self.storage.revision().await?;
        let upstream = self.storage.watch(&self.prefix, revision).await?;
        {
            let mut state = lock(&self.state);
            state.running = true;
            state.complete_after = revision;
            state.history.clear();
            state.upstream_watches += 1;
        }
        let (stop_tx, stop_rx) = oneshot::channel();
        *self.stop.lock().unwrap_or_else(|e| e.into_inner()) = Some(stop_tx);
        tokio::spawn(feed(self.state.clone(), upstream, self.window, stop_rx));
        Ok(())
    }
}

/// Moves the storage's events into the window and out to every watcher, until the storage's watch
/// ends or the cache is dropped.
async fn feed(state: Arc<Mutex<State>>, mut upstream: Watch, window: usize, mut stop: oneshot::Receiver<()>) {
    loop {
        let event = tokio::select! {
            event = upstream.recv() => event,
            _ = &mut stop => break,
        };
        let Some(Ok(event)) = event else { break };
        let mut state = lock(&state);
        let revision = event.kv.mod_revision;
        state.watchers.retain(|w| {
            if revision <= w.after || !event.kv.key.starts_with(&w.prefix) {
                return !w.tx.is_closed();
            }
            // A full queue is a slow reader: its watch ends, and it watches again.
            w.tx.try_send(Ok(event.clone())).is_ok()
        });
        state.history.push_back(event);
        while state.history.len() > window {
            if let Some(old) = state.history.pop_front() {
                state.complete_after = old.kv.mod_revision;
            }
        }
    }
    let mut state = lock(&state);
    state.running = false;
    state.history.clear();
    // Dropping the senders ends every client watch.
    state.watchers.clear();
}

fn lock(state: &Mutex<State>) -> MutexGuard<'_, State> {
    // The lock guards plain data that every holder leaves consistent.
    state.lock().unwrap_or_else(|e| e.into_inner())
}

#[cfg(test)]
mod tests;
