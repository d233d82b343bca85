//! The embedded store: keys in an ordered map behind one lock, a revision counter every write
//! advances, a bounded history of recent events (for watches that start in the past, and for
//! reads as of a past revision, which undo the changes made since), and the watchers, fed under
//! the same lock so no event is missed or reordered between history and live. Keys written with a
//! TTL are deleted by a task that looks for expired ones every quarter second (etcd's lessor looks
//! every half second), each deletion a change of its own as on etcd.

use std::collections::{BTreeMap, VecDeque};
use std::ops::Bound;
use std::sync::{Arc, Mutex, OnceLock, Weak};
use std::time::{Duration, Instant};

use async_trait::async_trait;
use bytes::Bytes;
use tokio::sync::mpsc;

use super::{Event, EventType, KeyValue, ListOptions, ListResult, Revision, Storage, StorageError, Watch};

/// Events a watcher may have queued before the store ends its watch (client-go then re-watches
/// from the last revision it saw, as it does when Kubernetes' watch cache drops a slow watcher).
const WATCH_QUEUE: usize = 4096;

/// The default number of past events kept for watches from an older revision.
pub const DEFAULT_HISTORY: usize = 10_000;

/// How often the keys with a TTL are checked for expiry.
const EXPIRY_TICK: Duration = Duration::from_millis(250);

/// An in-memory [`Storage`].
pub struct MemoryStorage {
    inner: Arc<Mutex<Inner>>,
    /// Set once the task that deletes expired keys runs (started by the first write with a TTL).
    expirer: OnceLock<()>,
}

struct Inner {
    data: BTreeMap<String, (Bytes, Revision)>,
    revision: Revision,
    history: VecDeque<Past>,
    history_limit: usize,
    watchers: Vec<Watcher>,
    /// When each key written with a TTL expires.
    expiry: BTreeMap<String, Instant>,
}

/// One change in the history, with the revision the key had before it (none for a creation), so
/// a read as of an older revision can undo it.
struct Past {
    event: Event,
    prior: Option<Revision>,
}

struct Watcher {
    prefix: String,
    tx: mpsc::Sender<Result<Event, StorageError>>,
}

impl Default for MemoryStorage {
    fn default() -> Self {
        Self::with_history(DEFAULT_HISTORY)
    }
}

impl MemoryStorage {
    /// An empty store at revision 1 (as a new etcd is) keeping `history` past events.
    pub fn with_history(history: usize) -> Self {
        MemoryStorage {
            inner: Arc::new(Mutex::new(Inner {
                data: BTreeMap::new(),
                revision: 1,
                history: VecDeque::new(),
                history_limit: history.max(1),
                watchers: Vec::new(),
                expiry: BTreeMap::new(),
            })),
            expirer: OnceLock::new(),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        lock(&self.inner)
    }

    /// Records when `key` expires (or that it does not), starting the expiry task on first use.
    fn set_expiry(&self, inner: &mut Inner, key: &str, ttl: Option<Duration>) {
        let Some(ttl) = ttl else {
            inner.expiry.remove(key);
            return;
        };
        let seconds = super::ttl_seconds(ttl) as u64;
        inner
            .expiry
            .insert(key.to_string(), Instant::now() + Duration::from_secs(seconds));
        self.expirer.get_or_init(|| {
            // Outside a Tokio runtime nothing expires: the store has no thread of its own.
            if let Ok(runtime) = tokio::runtime::Handle::try_current() {
                runtime.spawn(expire(Arc::downgrade(&self.inner)));
            }
        });
    }
}

fn lock(inner: &Mutex<Inner>) -> std::sync::MutexGuard<'_, Inner> {
    // A panic while holding the lock leaves the map consistent (every write is one insert or
    // remove), so a poisoned lock is still usable.
    inner.lock().unwrap_or_else(|p| p.into_inner())
}

/// Deletes expired keys until the store is dropped.
async fn expire(inner: Weak<Mutex<Inner>>) {
    loop {
        tokio::time::sleep(EXPIRY_TICK).await;
        let Some(inner) = inner.upgrade() else {
            return;
        };
        lock(&inner).expire(Instant::now());
    }
}

impl Inner {
    /// Deletes every key whose TTL has run out by `now`, each at a revision of its own.
    fn expire(&mut self, now: Instant) {
        let expired: Vec<String> = self
            .expiry
            .iter()
            .filter(|(_, at)| **at <= now)
            .map(|(key, _)| key.clone())
            .collect();
        for key in expired {
            self.expiry.remove(&key);
            if let Some((value, actual)) = self.data.remove(&key) {
                self.commit(EventType::Deleted, &key, value, None, Some(actual));
            }
        }
    }

    /// Records one change: advances the revision, keeps it in the history and sends it to every
    /// watcher of a matching prefix. Watchers whose queue is full or closed are dropped.
    fn commit(
        &mut self,
        kind: EventType,
        key: &str,
        value: Bytes,
        prev: Option<Bytes>,
        prior: Option<Revision>,
    ) -> Revision {
        self.revision += 1;
        let event = Event {
            kind,
            kv: KeyValue {
                key: key.to_string(),
                value,
                mod_revision: self.revision,
            },
            prev,
        };
        self.watchers
            .retain(|w| !key.starts_with(&w.prefix) || w.tx.try_send(Ok(event.clone())).is_ok());
        if self.history.len() == self.history_limit {
            self.history.pop_front();
        }
        self.history.push_back(Past { event, prior });
        self.revision
    }

    /// The keys under `prefix` as they were at revision `at`, when anything under it changed
    /// since (`None`: the current state is that state). `at` is within the history.
    fn as_of(&self, prefix: &str, at: Revision) -> Option<BTreeMap<String, (Bytes, Revision)>> {
        let newer = || {
            self.history
                .iter()
                .rev()
                .take_while(|p| p.event.kv.mod_revision > at)
                .filter(|p| p.event.kv.key.starts_with(prefix))
        };
        newer().next()?;
        let mut then: BTreeMap<String, (Bytes, Revision)> = self
            .data
            .range::<str, _>((Bound::Included(prefix), Bound::Unbounded))
            .take_while(|(k, _)| k.starts_with(prefix))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        for past in newer() {
            let kv = &past.event.kv;
            match (past.event.kind, past.prior) {
                (EventType::Added, _) | (_, None) => {
                    then.remove(&kv.key);
                }
                (EventType::Modified, Some(prior)) => {
                    let before = past.event.prev.clone().unwrap_or_default();
                    then.insert(kv.key.clone(), (before, prior));
                }
                // A deletion's event carries the value the key had.
                (EventType::Deleted, Some(prior)) => {
                    then.insert(kv.key.clone(), (kv.value.clone(), prior));
                }
            }
        }
        Some(then)
    }

    /// The oldest revision a watch can start after.
    fn oldest_watchable(&self) -> Revision {
        match self.history.front() {
            // Once the history has dropped events, a watch must start at or after the first kept one.
            Some(first) if self.history.len() == self.history_limit => first.event.kv.mod_revision - 1,
            _ => 0,
        }
    }
}

#[async_trait]
impl Storage for MemoryStorage {
    async fn create_with_ttl(&self, key: &str, value: Bytes, ttl: Option<Duration>) -> Result<Revision, StorageError> {
        let mut inner = self.lock();
        if inner.data.contains_key(key) {
            return Err(StorageError::AlreadyExists(key.to_string()));
        }
        let rev = inner.commit(EventType::Added, key, value.clone(), None, None);
        inner.data.insert(key.to_string(), (value, rev));
        self.set_expiry(&mut inner, key, ttl);
        Ok(rev)
    }

    async fn get(&self, key: &str) -> Result<Option<KeyValue>, StorageError> {
        let inner = self.lock();
        Ok(inner.data.get(key).map(|(value, rev)| KeyValue {
            key: key.to_string(),
            value: value.clone(),
            mod_revision: *rev,
        }))
    }

    async fn list(&self, prefix: &str, options: &ListOptions) -> Result<ListResult, StorageError> {
        let inner = self.lock();
        // A read as of an older revision undoes, newest first, the changes under the prefix
        // made since (etcd's MVCC, within the history the store keeps); before the history it
        // is Gone, as a compacted etcd revision is.
        let past = match options.revision {
            Some(at) if at > inner.revision => return Err(StorageError::TooNew { requested: at }),
            Some(at) if at < inner.oldest_watchable() => {
                return Err(StorageError::Gone {
                    requested: at,
                    oldest: inner.oldest_watchable() + 1,
                });
            }
            Some(at) => inner.as_of(prefix, at),
            None => None,
        };
        let data = past.as_ref().unwrap_or(&inner.data);
        let start = match &options.after {
            Some(after) => Bound::Excluded(after.clone()),
            None => Bound::Included(prefix.to_string()),
        };
        let limit = options.limit.filter(|l| *l > 0).unwrap_or(usize::MAX);
        let mut items = Vec::new();
        let mut remaining = 0;
        for (key, (value, rev)) in data.range((start, Bound::Unbounded)) {
            if !key.starts_with(prefix) {
                break;
            }
            // Past the page, the keys are only counted (as etcd's range counts them).
            if items.len() == limit {
                remaining += 1;
                continue;
            }
            items.push(KeyValue {
                key: key.clone(),
                value: value.clone(),
                mod_revision: *rev,
            });
        }
        Ok(ListResult {
            items,
            revision: options.revision.unwrap_or(inner.revision),
            more: remaining > 0,
            remaining,
        })
    }

    async fn update_with_ttl(
        &self,
        key: &str,
        value: Bytes,
        expected: Revision,
        ttl: Option<Duration>,
    ) -> Result<Revision, StorageError> {
        let mut inner = self.lock();
        let (prev, actual) = match inner.data.get(key) {
            None => return Err(StorageError::NotFound(key.to_string())),
            Some((prev, rev)) => (prev.clone(), *rev),
        };
        if actual != expected {
            return Err(StorageError::Conflict {
                key: key.to_string(),
                expected,
                actual,
            });
        }
        let rev = inner.commit(EventType::Modified, key, value.clone(), Some(prev), Some(actual));
        inner.data.insert(key.to_string(), (value, rev));
        self.set_expiry(&mut inner, key, ttl);
        Ok(rev)
    }

    async fn delete(&self, key: &str, expected: Option<Revision>) -> Result<(KeyValue, Revision), StorageError> {
        let mut inner = self.lock();
        let (value, actual) = match inner.data.get(key) {
            None => return Err(StorageError::NotFound(key.to_string())),
            Some((value, rev)) => (value.clone(), *rev),
        };
        if let Some(expected) = expected.filter(|e| *e != actual) {
            return Err(StorageError::Conflict {
                key: key.to_string(),
                expected,
                actual,
            });
        }
        inner.data.remove(key);
        inner.expiry.remove(key);
        let rev = inner.commit(EventType::Deleted, key, value.clone(), None, Some(actual));
        Ok((
            KeyValue {
                key: key.to_string(),
                value,
                mod_revision: actual,
            },
            rev,
        ))
    }

    async fn watch(&self, prefix: &str, after: Revision) -> Result<Watch, StorageError> {
        let mut inner = self.lock();
        let oldest = inner.oldest_watchable();
        if after < oldest {
            return Err(StorageError::Gone {
                requested: after,
                oldest: oldest + 1,
            });
        }
        let (tx, rx) = mpsc::channel(WATCH_QUEUE);
        // Replay what happened after `after`, then go live; both under the lock, so nothing is
        // missed in between. A replay longer than the queue ends the watch early, as a slow
        // reader's does.
        for event in inner
            .history
            .iter()
            .map(|p| &p.event)
            .filter(|e| e.kv.mod_revision > after && e.kv.key.starts_with(prefix))
        {
            if tx.try_send(Ok(event.clone())).is_err() {
                return Ok(rx);
            }
        }
        inner.watchers.push(Watcher {
            prefix: prefix.to_string(),
            tx,
        });
        Ok(rx)
    }

    async fn revision(&self) -> Result<Revision, StorageError> {
        Ok(self.lock().revision)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn the_conformance_suite_passes() {
        super::super::conformance::run(&MemoryStorage::default()).await;
    }

    /// A read as of a past revision undoes what happened since: a creation, a modification
    /// (the old value with its old revision) and a deletion; before the history it is Gone.
    #[tokio::test]
    async fn reads_as_of_a_past_revision_undo_the_changes_since() {
        let store = MemoryStorage::with_history(4);
        let b = |s: &'static str| Bytes::from_static(s.as_bytes());
        let r_a = store.create("/k/a", b("a1")).await.unwrap();
        let r_b = store.create("/k/b", b("b1")).await.unwrap();
        let then = store.revision().await.unwrap();
        store.update("/k/a", b("a2"), r_a).await.unwrap();
        store.delete("/k/b", None).await.unwrap();
        store.create("/k/c", b("c1")).await.unwrap();
        let at = |revision| ListOptions {
            revision: Some(revision),
            ..ListOptions::default()
        };
        let past = store.list("/k/", &at(then)).await.unwrap();
        let seen: Vec<(&str, &[u8], Revision)> = past
            .items
            .iter()
            .map(|kv| (kv.key.as_str(), &kv.value[..], kv.mod_revision))
            .collect();
        assert_eq!(seen, [("/k/a", &b"a1"[..], r_a), ("/k/b", &b"b1"[..], r_b)]);
        assert_eq!(past.revision, then);
        // Pages of the past read on from a key.
        let page = ListOptions {
            after: Some("/k/a".into()),
            ..at(then)
        };
        assert_eq!(store.list("/k/", &page).await.unwrap().items.len(), 1);
        // Two more changes push `then` out of a history of four.
        store.create("/k/d", b("d1")).await.unwrap();
        store.create("/k/e", b("e1")).await.unwrap();
        assert!(matches!(
            store.list("/k/", &at(then)).await,
            Err(StorageError::Gone { .. })
        ));
    }

    #[tokio::test]
    async fn a_watch_older_than_the_history_is_gone() {
        let store = MemoryStorage::with_history(3);
        for i in 0..5 {
            store
                .create(&format!("/k/{i}"), Bytes::from_static(b"{}"))
                .await
                .unwrap();
        }
        // Revisions 2..=6 were written; the history keeps 4, 5 and 6.
        assert!(matches!(
            store.watch("/k/", 1).await,
            Err(StorageError::Gone { oldest: 4, .. })
        ));
        let mut w = store.watch("/k/", 3).await.unwrap();
        let revs: Vec<Revision> = [w.recv().await, w.recv().await, w.recv().await]
            .into_iter()
            .map(|e| e.unwrap().unwrap().kv.mod_revision)
            .collect();
        assert_eq!(revs, [4, 5, 6]);
    }
}
