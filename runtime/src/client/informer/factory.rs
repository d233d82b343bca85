//! The informers of one factory, one per kind (client-go's `sharedInformerFactory`): the
//! generated `SharedInformerFactory` asks it for a kind's informer, so every consumer of a kind
//! shares one watch and one cache; it starts, waits for and stops them together.

use std::any::{Any, TypeId};
use std::collections::BTreeMap;
use std::fmt::Debug;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use kube::api::DynamicObject;
use kube::core::Selector;
use kube::runtime::watcher;
use serde::Serialize;
use serde::de::DeserializeOwned;
use tokio::sync::watch;

use super::SharedInformer;

/// Changes the list-watch of every informer of a factory (client-go's `TweakListOptionsFunc`):
/// a label or field selector, a page size.
pub type TweakFn = Arc<dyn Fn(watcher::Config) -> watcher::Config + Send + Sync>;

/// A kind's informer with its type erased.
trait ErasedInformer: Send + Sync {
    fn run(&self);
    fn stop(&self);
    fn stopped(&self) -> futures::future::BoxFuture<'static, ()>;
    fn synced(&self) -> watch::Receiver<bool>;
    fn last_watch_error(&self) -> Option<String>;
    fn as_any(&self) -> &dyn Any;
    /// The cached objects as dynamic objects, in key order, `namespace` (`""`: all) and
    /// `selector` applied.
    fn list_dynamic(&self, namespace: &str, selector: &Selector) -> Vec<DynamicObject>;
    fn get_dynamic(&self, key: &str) -> Option<DynamicObject>;
}

impl<K> ErasedInformer for SharedInformer<K>
where
    K: kube::Resource + Clone + Serialize + DeserializeOwned + Debug + Send + Sync + 'static,
{
    fn run(&self) {
        SharedInformer::run(self);
    }

    fn stop(&self) {
        SharedInformer::stop(self);
    }

    fn stopped(&self) -> futures::future::BoxFuture<'static, ()> {
        Box::pin(SharedInformer::stopped(self))
    }

    fn synced(&self) -> watch::Receiver<bool> {
        SharedInformer::synced(self)
    }

    fn last_watch_error(&self) -> Option<String> {
        SharedInformer::last_watch_error(self)
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn list_dynamic(&self, namespace: &str, selector: &Selector) -> Vec<DynamicObject> {
        let lister = crate::client::lister::Lister::new(self.indexer().clone());
        let objects = match namespace {
            "" => lister.list(selector),
            ns => lister.namespace(ns).list(selector),
        };
        objects.iter().filter_map(|o| dynamic(o.as_ref())).collect()
    }

    fn get_dynamic(&self, key: &str) -> Option<DynamicObject> {
        dynamic(self.indexer().get(key)?.as_ref())
    }
}

/// An object as a `DynamicObject`; every served kind serializes to one.
fn dynamic<K: Serialize>(obj: &K) -> Option<DynamicObject> {
    serde_json::to_value(obj)
        .ok()
        .and_then(|v| serde_json::from_value(v).ok())
}

/// A factory's informers by the type of their kind, each with the type's name for messages.
type Informers = BTreeMap<TypeId, (&'static str, Arc<dyn ErasedInformer>)>;

/// The informers of a factory, keyed by kind.
pub struct InformerFactory {
    namespace: String,
    tweak: Option<TweakFn>,
    resync: Option<Duration>,
    informers: Mutex<Informers>,
}

impl InformerFactory {
    /// A factory whose informers watch every namespace and resync every `resync`, if given.
    pub fn new(resync: Option<Duration>) -> Self {
        Self::with_options(resync, "", None)
    }

    /// A factory whose informers watch only `namespace` (`""`: all) with `tweak` applied to
    /// their list-watch (client-go's `WithNamespace` and `WithTweakListOptions`).
    pub fn with_options(resync: Option<Duration>, namespace: &str, tweak: Option<TweakFn>) -> Self {
        Self {
            namespace: namespace.to_string(),
            tweak,
            resync,
            informers: Mutex::new(BTreeMap::new()),
        }
    }

    /// The namespace the informers watch (`""`: all).
    pub fn namespace(&self) -> &str {
        &self.namespace
    }

    fn informers(&self) -> MutexGuard<'_, Informers> {
        self.informers.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The informer of `K`, made on first use from the `kube::Api` that `api` returns for the
    /// factory's namespace (client-go's `InformerFor`). It runs from the next [`Self::start`].
    pub fn informer_for<K>(&self, api: impl FnOnce(&str) -> kube::Api<K>) -> SharedInformer<K>
    where
        K: kube::Resource + Clone + Serialize + DeserializeOwned + Debug + Send + Sync + 'static,
    {
        let mut informers = self.informers();
        if let Some((_, existing)) = informers.get(&TypeId::of::<K>())
            && let Some(informer) = existing.as_any().downcast_ref::<SharedInformer<K>>()
        {
            return informer.clone();
        }
        let config = watcher::Config::default();
        let config = match &self.tweak {
            Some(tweak) => tweak(config),
            None => config,
        };
        let informer = SharedInformer::new(api(&self.namespace), config, self.resync);
        informers.insert(
            TypeId::of::<K>(),
            (std::any::type_name::<K>(), Arc::new(informer.clone())),
        );
        informer
    }

    /// Starts every informer asked for so far that is not running (client-go's `Start`); ask
    /// for informers first, then start.
    pub fn start(&self) {
        for (_, informer) in self.informers().values() {
            informer.run();
        }
    }

    /// Waits until every started informer has synced or `timeout` has passed; says for each
    /// kind (by type name) whether it synced (client-go's `WaitForCacheSync`).
    pub async fn wait_for_cache_sync(&self, timeout: Duration) -> BTreeMap<&'static str, bool> {
        let receivers: Vec<_> = self.informers().values().map(|(name, i)| (*name, i.synced())).collect();
        let deadline = tokio::time::Instant::now() + timeout;
        let mut synced = BTreeMap::new();
        for (name, mut rx) in receivers {
            let ok = matches!(tokio::time::timeout_at(deadline, rx.wait_for(|s| *s)).await, Ok(Ok(_)));
            synced.insert(name, ok);
        }
        // Why a cache did not sync is the first thing a user needs: say it, with the watch's
        // last failure (a refused connection, a 403), not only which kinds failed.
        for (name, error) in self.watch_errors() {
            if synced.get(name) == Some(&false) {
                tracing::warn!(kind = name, %error, "the informer's cache did not sync");
            }
        }
        synced
    }

    /// The last failure of each informer's list-watch that has failed, by kind: why a cache has
    /// not synced.
    pub fn watch_errors(&self) -> BTreeMap<&'static str, String> {
        self.informers()
            .values()
            .filter_map(|(name, i)| Some((*name, i.last_watch_error()?)))
            .collect()
    }

    /// Stops every informer (client-go's `Shutdown`); [`Self::shutdown_and_wait`] also waits
    /// until their tasks have ended.
    pub fn shutdown(&self) {
        for (_, informer) in self.informers().values() {
            informer.stop();
        }
    }

    /// Stops every informer and waits until each one's watch has ended (client-go's `Shutdown`,
    /// which blocks until its goroutines return).
    pub async fn shutdown_and_wait(&self) {
        let stopped: Vec<_> = self
            .informers()
            .values()
            .map(|(_, informer)| {
                informer.stop();
                informer.stopped()
            })
            .collect();
        futures::future::join_all(stopped).await;
    }
}

/// A factory that goes stops its informers: their watches end with it, not with the runtime.
impl Drop for InformerFactory {
    fn drop(&mut self) {
        self.shutdown();
    }
}

/// An informer reached by its resource rather than its type (client-go's `GenericInformer`,
/// from `for_resource`): its objects as `DynamicObject`s.
#[derive(Clone)]
pub struct GenericInformer {
    informer: Arc<dyn ErasedInformer>,
}

impl GenericInformer {
    /// Erases a typed informer's type.
    pub fn new<K>(informer: SharedInformer<K>) -> Self
    where
        K: kube::Resource + Clone + Serialize + DeserializeOwned + Debug + Send + Sync + 'static,
    {
        Self {
            informer: Arc::new(informer),
        }
    }

    /// Whether the informer's first list has reached its cache.
    pub fn has_synced(&self) -> bool {
        *self.informer.synced().borrow()
    }

    /// The typed informer underneath, when it is of kind `K`.
    pub fn typed<K: 'static>(&self) -> Option<SharedInformer<K>> {
        self.informer.as_any().downcast_ref::<SharedInformer<K>>().cloned()
    }

    /// The objects of `namespace` (`""`: all) that `selector` selects, in key order.
    pub fn list(&self, namespace: &str, selector: &Selector) -> Vec<DynamicObject> {
        self.informer.list_dynamic(namespace, selector)
    }

    /// One object by namespace (`""` for a cluster-scoped one) and name.
    pub fn get(&self, namespace: &str, name: &str) -> Option<DynamicObject> {
        let key = if namespace.is_empty() {
            name.to_string()
        } else {
            format!("{namespace}/{name}")
        };
        self.informer.get_dynamic(&key)
    }
}

/// The resource `for_resource` was asked for is not one the factory has informers of.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("no informer for resource `{0}`")]
pub struct NoInformer(pub String);
