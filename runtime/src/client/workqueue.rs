//! A rate-limited work queue (client-go's `workqueue.TypedRateLimitingInterface`): what an event
//! handler puts keys on and a controller's workers take them from. An item is queued at most
//! once however often it is added (a burst of changes to one object is one reconcile); an item
//! added while a worker holds it is queued again when the worker is done, never handed to two
//! workers at once; a failed item comes back after a per-item exponential backoff until it is
//! forgotten.

use std::collections::{HashMap, HashSet, VecDeque};
use std::hash::Hash;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use tokio::sync::Notify;

/// client-go's default per-item backoff: 5 ms, doubling per failure, at most 1000 s.
const BASE_DELAY: Duration = Duration::from_millis(5);
const MAX_DELAY: Duration = Duration::from_secs(1000);

/// A de-duplicating, rate-limited queue of `T` (an `ObjectRef`, a `namespace/name` key). Clones
/// share one queue.
pub struct WorkQueue<T> {
    inner: Arc<Inner<T>>,
}

impl<T> Clone for WorkQueue<T> {
    fn clone(&self) -> Self {
        Self {
            inner: self.inner.clone(),
        }
    }
}

struct Inner<T> {
    state: Mutex<State<T>>,
    ready: Notify,
    base_delay: Duration,
    max_delay: Duration,
}

struct State<T> {
    /// Items ready for a worker, in the order they were added.
    queue: VecDeque<T>,
    /// Items waiting to be processed: in `queue`, or held by a worker and added again since.
    dirty: HashSet<T>,
    /// Items a worker holds.
    processing: HashSet<T>,
    /// Failures per item since it was last forgotten.
    failures: HashMap<T, u32>,
    shutting_down: bool,
}

impl<T: Eq + Hash + Clone + Send + Sync + 'static> Default for WorkQueue<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Eq + Hash + Clone + Send + Sync + 'static> WorkQueue<T> {
    /// A queue with client-go's default backoff (5 ms doubling to 1000 s).
    pub fn new() -> Self {
        Self::with_backoff(BASE_DELAY, MAX_DELAY)
    }

    /// A queue whose failed items wait `base * 2^failures`, at most `max`.
    pub fn with_backoff(base: Duration, max: Duration) -> Self {
        Self {
            inner: Arc::new(Inner {
                state: Mutex::new(State {
                    queue: VecDeque::new(),
                    dirty: HashSet::new(),
                    processing: HashSet::new(),
                    failures: HashMap::new(),
                    shutting_down: false,
                }),
                ready: Notify::new(),
                base_delay: base,
                max_delay: max,
            }),
        }
    }

    fn state(&self) -> MutexGuard<'_, State<T>> {
        // Every change leaves the state whole, so a poisoned lock is still usable.
        self.inner.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Queues `item` unless it is queued already; an item a worker holds is queued again once
    /// the worker calls [`Self::done`]. Ignored after [`Self::shut_down`].
    pub fn add(&self, item: T) {
        let mut state = self.state();
        if state.shutting_down || !state.dirty.insert(item.clone()) {
            return;
        }
        if state.processing.contains(&item) {
            return;
        }
        state.queue.push_back(item);
        drop(state);
        self.inner.ready.notify_one();
    }

    /// Queues `item` after `delay` (client-go's `AddAfter`), on the current Tokio runtime.
    pub fn add_after(&self, item: T, delay: Duration) {
        if delay.is_zero() {
            return self.add(item);
        }
        if self.is_shutting_down() {
            return;
        }
        let queue = self.clone();
        tokio::spawn(async move {
            tokio::time::sleep(delay).await;
            queue.add(item);
        });
    }

    /// Queues `item` after its backoff, which doubles with each call until [`Self::forget`]
    /// (client-go's `AddRateLimited`); what a worker does with an item that failed.
    pub fn add_rate_limited(&self, item: T) {
        let delay = {
            let mut state = self.state();
            let failures = state.failures.entry(item.clone()).or_insert(0);
            let exponent = (*failures).min(40);
            *failures = failures.saturating_add(1);
            let factor = 2u32.saturating_pow(exponent);
            self.inner.base_delay.saturating_mul(factor).min(self.inner.max_delay)
        };
        self.add_after(item, delay);
    }

    /// Clears `item`'s failures, so its next backoff starts over (after it succeeded).
    pub fn forget(&self, item: &T) {
        self.state().failures.remove(item);
    }

    /// How many times `item` was re-queued after failing since it was last forgotten.
    pub fn num_requeues(&self, item: &T) -> u32 {
        self.state().failures.get(item).copied().unwrap_or(0)
    }

    /// The next item, waiting for one; `None` once the queue is shut down and empty. The item is
    /// the caller's until it calls [`Self::done`].
    pub async fn get(&self) -> Option<T> {
        loop {
            let ready = self.inner.ready.notified();
            tokio::pin!(ready);
            // Registered before the state is read, so an add in between is not missed.
            ready.as_mut().enable();
            {
                let mut state = self.state();
                if let Some(item) = state.queue.pop_front() {
                    state.dirty.remove(&item);
                    state.processing.insert(item.clone());
                    return Some(item);
                }
                if state.shutting_down {
                    return None;
                }
            }
            ready.await;
        }
    }

    /// Ends a worker's hold of `item`; if it was added meanwhile, it is queued again.
    pub fn done(&self, item: &T) {
        let mut state = self.state();
        state.processing.remove(item);
        if state.dirty.contains(item) {
            state.queue.push_back(item.clone());
            drop(state);
            self.inner.ready.notify_one();
        }
    }

    /// How many items wait for a worker.
    pub fn len(&self) -> usize {
        self.state().queue.len()
    }

    /// Whether no item waits for a worker.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Stops taking items: workers drain what is queued, then [`Self::get`] answers `None`.
    pub fn shut_down(&self) {
        self.state().shutting_down = true;
        self.inner.ready.notify_waiters();
    }

    /// Whether [`Self::shut_down`] was called.
    pub fn is_shutting_down(&self) -> bool {
        self.state().shutting_down
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn items_are_queued_once_and_never_held_twice() {
        let q = WorkQueue::new();
        q.add("a");
        q.add("b");
        q.add("a");
        assert_eq!(q.len(), 2, "a burst of adds is one item");
        let a = q.get().await.unwrap();
        assert_eq!(a, "a");
        q.add("a");
        assert_eq!(q.len(), 1, "added while held: waits for done, not queued beside b");
        assert_eq!(q.get().await, Some("b"));
        q.done(&"b");
        assert!(q.is_empty());
        q.done(&"a");
        assert_eq!(q.get().await, Some("a"), "queued again once done");
        q.done(&"a");
    }

    #[tokio::test]
    async fn a_waiting_worker_wakes_for_an_add_and_for_shutdown() {
        let q: WorkQueue<u32> = WorkQueue::new();
        let worker = tokio::spawn({
            let q = q.clone();
            async move { (q.get().await, q.get().await) }
        });
        tokio::time::sleep(Duration::from_millis(20)).await;
        q.add(7);
        tokio::time::sleep(Duration::from_millis(20)).await;
        q.add(8);
        q.shut_down();
        q.add(9);
        assert_eq!(worker.await.unwrap(), (Some(7), Some(8)), "drained before None");
        assert_eq!(q.get().await, None);
    }

    #[tokio::test(start_paused = true)]
    async fn failures_back_off_exponentially_until_forgotten() {
        let q = WorkQueue::with_backoff(Duration::from_millis(10), Duration::from_millis(50));
        let start = tokio::time::Instant::now();
        let mut waits = Vec::new();
        for _ in 0..4 {
            q.add_rate_limited("x");
            let before = tokio::time::Instant::now();
            let x = q.get().await.unwrap();
            waits.push((tokio::time::Instant::now() - before).as_millis());
            q.done(&x);
        }
        assert_eq!(waits, [10, 20, 40, 50], "doubling, capped");
        assert_eq!(q.num_requeues(&"x"), 4);
        q.forget(&"x");
        q.add_rate_limited("x");
        let before = tokio::time::Instant::now();
        q.get().await.unwrap();
        assert_eq!((tokio::time::Instant::now() - before).as_millis(), 10, "starts over");
        assert!(start.elapsed() >= Duration::from_millis(130));
    }
}
