//! The generated listers and shared informers against the sample API server on loopback (a
//! router that counts the watch requests it serves, and a restart on the same port) and against
//! the fake clientset: one suite, run on each, so the two must agree.

use crate::support;

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use apis::core::v1::ConfigMap;
use generated::clientset::Clientset;
use generated::informers::SharedInformerFactory;
use kube::api::{DeleteParams, ListParams, PostParams};
use kube::core::Selector;
use kube_apimachinery::client::cache::IndexFunc;
use kube_apimachinery::client::informer::{Deleted, HandlerFns, TweakFn};
use kube_apiserver_storage::Storage;
use kube_apiserver_storage::memory::MemoryStorage;
use serde_json::json;

const SYNC: Duration = Duration::from_secs(20);

/// A server on loopback that counts the watch requests it serves; it stops when dropped.
struct Served {
    addr: SocketAddr,
    watches: Arc<AtomicUsize>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Served {
    /// Serves `storage` on `addr` (port 0: a free one) on a thread and runtime of its own.
    fn start(storage: Arc<dyn Storage>, addr: SocketAddr) -> Served {
        let watches = Arc::new(AtomicUsize::new(0));
        let counted = watches.clone();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let (tx, rx) = std::sync::mpsc::channel();
        let thread = std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .unwrap();
            rt.block_on(async move {
                let server = Arc::new(support::sample(storage, kube_apiserver::Config::default()));
                let router = server.router().layer(axum::middleware::from_fn(
                    move |req: axum::extract::Request, next: axum::middleware::Next| {
                        let counted = counted.clone();
                        async move {
                            if req
                                .uri()
                                .query()
                                .is_some_and(|q| q.split('&').any(|p| p == "watch=true"))
                            {
                                counted.fetch_add(1, Ordering::SeqCst);
                            }
                            next.run(req).await
                        }
                    },
                ));
                let listener = tokio::net::TcpListener::bind(addr).await.unwrap();
                tx.send(listener.local_addr().unwrap()).unwrap();
                let service = router.into_make_service_with_connect_info::<SocketAddr>();
                // Stopping drops the runtime with every connection, open watches included, as
                // a killed server does.
                tokio::select! {
                    served = axum::serve(listener, service) => served.unwrap(),
                    _ = stopped => {}
                }
            });
            rt.shutdown_background();
        });
        Served {
            addr: rx.recv().unwrap(),
            watches,
            stop: Some(stop),
            thread: Some(thread),
        }
    }

    fn clientset(&self) -> Clientset {
        let config = kube::Config::new(format!("http://{}", self.addr).parse().unwrap());
        Clientset::new(kube::Client::try_from(config).unwrap())
    }

    fn stop(mut self) {
        self.halt();
    }

    fn halt(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            thread.join().unwrap();
        }
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        self.halt();
    }
}

/// How a backend counts the watches it served.
type WatchCount = Arc<dyn Fn() -> usize + Send + Sync>;

fn configmap(name: &str, labels: serde_json::Value) -> ConfigMap {
    serde_json::from_value(json!({"apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {"name": name, "labels": labels}, "data": {"k": "v"}}))
    .unwrap()
}

async fn namespace(cs: &Clientset, name: &str) {
    let ns =
        serde_json::from_value(json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": name}})).unwrap();
    cs.core_v1()
        .namespaces()
        .create(&ns, &PostParams::default())
        .await
        .unwrap();
}

type Log = Arc<Mutex<Vec<String>>>;

/// A handler that logs `add|update|delete|tombstone <name>`; resyncs (no change) log `resync`.
/// The server's own ConfigMaps (kube-system's, as `extension-apiserver-authentication`) are
/// not the tests' and are left out.
fn recorder() -> (HandlerFns<ConfigMap>, Log) {
    let log: Log = Arc::default();
    let (a, u, d) = (log.clone(), log.clone(), log.clone());
    let name = |o: &ConfigMap| o.metadata.name.clone().unwrap_or_default();
    let system = |o: &ConfigMap| o.metadata.namespace.as_deref() == Some("kube-system");
    let handler = HandlerFns::new()
        .on_add(move |o, _| {
            if !system(o) {
                a.lock().unwrap().push(format!("add {}", name(o)))
            }
        })
        .on_update(move |old, new| {
            if system(new) {
                return;
            }
            let what = if old.metadata.resource_version == new.metadata.resource_version {
                "resync"
            } else {
                "update"
            };
            u.lock().unwrap().push(format!("{what} {}", name(new)));
        })
        .on_delete(move |gone| {
            if system(gone.object()) {
                return;
            }
            let what = match gone {
                Deleted::Object(_) => "delete",
                Deleted::Tombstone { .. } => "tombstone",
            };
            d.lock().unwrap().push(format!("{what} {}", name(gone.object())));
        });
    (handler, log)
}

/// Polls `check` until it holds or 20 s pass.
async fn eventually(what: &str, mut check: impl FnMut() -> bool) {
    for _ in 0..400 {
        if check() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("{what} did not happen within 20 s");
}

fn lines(log: &Log) -> Vec<String> {
    log.lock().unwrap().clone()
}

/// Everything the informers promise, on one backend.
async fn suite(cs: &Clientset, watches: WatchCount) {
    syncs_lists_and_follows_changes_in_order(cs).await;
    consumers_of_one_kind_share_one_watch(cs, watches).await;
    resync_and_late_handlers(cs).await;
    user_indexes_follow_changes(cs).await;
    namespace_and_tweak_narrow_the_watch(cs).await;
}

async fn syncs_lists_and_follows_changes_in_order(cs: &Clientset) {
    namespace(cs, "inf-order").await;
    let cms = cs.core_v1().config_maps("inf-order");
    for i in 0..3 {
        cms.create(&configmap(&format!("cm-{i}"), json!({})), &PostParams::default())
            .await
            .unwrap();
    }
    let factory = SharedInformerFactory::new(cs.clone(), None);
    let informer = factory.core().v1().config_maps();
    let (handler, log) = recorder();
    informer.add_event_handler(handler);
    factory.start();
    let synced = factory.wait_for_cache_sync(SYNC).await;
    assert!(synced.values().all(|s| *s), "{synced:?}");
    let lister = informer.lister();
    let names = |objs: Vec<Arc<ConfigMap>>| {
        objs.iter()
            .map(|o| o.metadata.name.clone().unwrap())
            .collect::<Vec<_>>()
    };
    assert_eq!(
        names(lister.config_maps("inf-order").list(&Selector::default())),
        ["cm-0", "cm-1", "cm-2"]
    );
    assert!(lister.config_maps("inf-order").get("cm-1").is_some());
    assert!(lister.config_maps("elsewhere").get("cm-1").is_none());

    cms.create(&configmap("cm-3", json!({})), &PostParams::default())
        .await
        .unwrap();
    let mut changed = (*lister.config_maps("inf-order").get("cm-0").unwrap()).clone();
    changed.data = Some([("k".to_string(), "changed".to_string())].into());
    cms.update(&changed, &PostParams::default()).await.unwrap();
    cms.delete("cm-1", &DeleteParams::default()).await.unwrap();
    eventually("six events", || lines(&log).len() >= 6).await;
    assert_eq!(
        lines(&log),
        [
            "add cm-0",
            "add cm-1",
            "add cm-2",
            "add cm-3",
            "update cm-0",
            "delete cm-1"
        ]
    );

    // The lister answers what the server has.
    let server = cms.list(&ListParams::default()).await.unwrap();
    let served: BTreeMap<_, _> = server
        .items
        .iter()
        .map(|o| (o.metadata.name.clone(), o.metadata.resource_version.clone()))
        .collect();
    let cached: BTreeMap<_, _> = lister
        .config_maps("inf-order")
        .list(&Selector::default())
        .iter()
        .map(|o| (o.metadata.name.clone(), o.metadata.resource_version.clone()))
        .collect();
    assert_eq!(cached, served);

    // The same informer by its resource, with its objects as DynamicObjects.
    let gvr = kube_apimachinery::GroupVersion::from_static("", "v1").with_resource("configmaps");
    let generic = factory.for_resource(&gvr).unwrap();
    assert!(generic.has_synced());
    let dynamic = generic.list("inf-order", &Selector::default());
    assert_eq!(dynamic.len(), 3);
    assert_eq!(generic.get("inf-order", "cm-0").unwrap().data["data"]["k"], "changed");
    let unknown = kube_apimachinery::GroupVersion::from_static("", "v1").with_resource("gadgets");
    assert!(factory.for_resource(&unknown).is_err());
    factory.shutdown();
}

async fn consumers_of_one_kind_share_one_watch(cs: &Clientset, watches: WatchCount) {
    namespace(cs, "inf-share").await;
    let factory = SharedInformerFactory::new(cs.clone(), None);
    // Two consumers that each ask the factory for the kind's informer.
    let first = factory.apps().v1().deployments();
    let second = factory.apps().v1().deployments();
    let seen: [Arc<AtomicUsize>; 2] = Default::default();
    for (consumer, count) in [&first, &second].into_iter().zip(&seen) {
        let count = count.clone();
        consumer.add_event_handler(HandlerFns::new().on_add(move |_, _| {
            count.fetch_add(1, Ordering::SeqCst);
        }));
    }
    let before = watches();
    factory.start();
    assert!(factory.wait_for_cache_sync(SYNC).await.values().all(|s| *s));
    let d = serde_json::from_value(json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "shared"},
        "spec": {"selector": {"matchLabels": {"app": "s"}},
                 "template": {"metadata": {"labels": {"app": "s"}}, "spec": {"containers": [{"name": "c", "image": "nginx"}]}}}}))
    .unwrap();
    cs.apps_v1()
        .deployments("inf-share")
        .create(&d, &PostParams::default())
        .await
        .unwrap();
    eventually("both consumers hear of the deployment", || {
        seen.iter().all(|c| c.load(Ordering::SeqCst) == 1)
    })
    .await;
    assert_eq!(watches() - before, 1, "two consumers of one kind share one watch");
    assert!(
        Arc::ptr_eq(first.informer().indexer(), second.lister().indexer()),
        "and one cache"
    );
    factory.shutdown();
}

async fn resync_and_late_handlers(cs: &Clientset) {
    namespace(cs, "inf-resync").await;
    let cms = cs.core_v1().config_maps("inf-resync");
    for name in ["a", "b"] {
        cms.create(&configmap(name, json!({})), &PostParams::default())
            .await
            .unwrap();
    }
    let factory = SharedInformerFactory::with_options(cs.clone(), Some(Duration::from_millis(300)), "inf-resync", None);
    let informer = factory.core().v1().config_maps();
    let (handler, log) = recorder();
    informer.add_event_handler(handler);
    factory.start();
    assert!(factory.wait_for_cache_sync(SYNC).await.values().all(|s| *s));
    eventually("two resyncs of each object", || {
        lines(&log).iter().filter(|l| l.starts_with("resync")).count() >= 4
    })
    .await;
    let log = lines(&log);
    assert_eq!(log[..2], ["add a", "add b"]);
    assert!(log[2..].iter().all(|l| l == "resync a" || l == "resync b"), "{log:?}");

    // A handler added after the sync first receives every cached object as an add.
    let initial: Log = Arc::default();
    let late = initial.clone();
    informer.add_event_handler(HandlerFns::new().on_add(move |o: &Arc<ConfigMap>, in_initial_list| {
        late.lock()
            .unwrap()
            .push(format!("{} {in_initial_list}", o.metadata.name.clone().unwrap()));
    }));
    eventually("the late handler's adds", || lines(&initial).len() >= 2).await;
    assert_eq!(lines(&initial), ["a true", "b true"]);
    factory.shutdown();
}

async fn user_indexes_follow_changes(cs: &Clientset) {
    namespace(cs, "inf-index").await;
    let cms = cs.core_v1().config_maps("inf-index");
    let factory = SharedInformerFactory::with_options(cs.clone(), None, "inf-index", None);
    let informer = factory.core().v1().config_maps().informer();
    let tier: IndexFunc<ConfigMap> =
        Arc::new(|o: &ConfigMap| o.metadata.labels.iter().flat_map(|l| l.get("tier").cloned()).collect());
    informer.indexer().add_indexers([("tier".to_string(), tier)]);
    factory.start();
    assert!(factory.wait_for_cache_sync(SYNC).await.values().all(|s| *s));
    let by_tier = |t: &str| informer.indexer().index_keys("tier", t).unwrap();
    cms.create(&configmap("x", json!({"tier": "front"})), &PostParams::default())
        .await
        .unwrap();
    cms.create(&configmap("y", json!({"tier": "front"})), &PostParams::default())
        .await
        .unwrap();
    eventually("two front objects", || by_tier("front").len() == 2).await;
    let mut x = cms.get("x", &Default::default()).await.unwrap();
    x.metadata.labels = Some([("tier".to_string(), "back".to_string())].into());
    cms.update(&x, &PostParams::default()).await.unwrap();
    eventually("x moves to back", || by_tier("back") == ["inf-index/x"]).await;
    assert_eq!(by_tier("front"), ["inf-index/y"]);
    cms.delete("y", &DeleteParams::default()).await.unwrap();
    eventually("y leaves the index", || by_tier("front").is_empty()).await;
    assert_eq!(informer.indexer().index_values("tier").unwrap(), ["back"]);
    let objects = informer.indexer().by_index("tier", "back").unwrap();
    assert_eq!(objects[0].metadata.name.as_deref(), Some("x"));
    factory.shutdown();
}

async fn namespace_and_tweak_narrow_the_watch(cs: &Clientset) {
    for ns in ["inf-narrow", "inf-other"] {
        namespace(cs, ns).await;
        for (name, app) in [("in", "yes"), ("out", "no")] {
            let cm = configmap(name, json!({"app": app}));
            cs.core_v1()
                .config_maps(ns)
                .create(&cm, &PostParams::default())
                .await
                .unwrap();
        }
    }
    let tweak: TweakFn = Arc::new(|c| c.labels("app=yes"));
    let factory = SharedInformerFactory::with_options(cs.clone(), None, "inf-narrow", Some(tweak));
    let lister = factory.core().v1().config_maps().lister();
    factory.start();
    assert!(factory.wait_for_cache_sync(SYNC).await.values().all(|s| *s));
    let keys = lister.indexer().list_keys();
    assert_eq!(keys, ["inf-narrow/in"]);
    factory.shutdown();
}

#[tokio::test(flavor = "multi_thread")]
async fn informers_against_the_server_on_loopback() {
    let served = Served::start(Arc::new(MemoryStorage::default()), "127.0.0.1:0".parse().unwrap());
    let watches = served.watches.clone();
    suite(&served.clientset(), Arc::new(move || watches.load(Ordering::SeqCst))).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn informers_against_the_fake_clientset() {
    let fake = generated::clientset::fake::Clientset::new(apis::scheme().unwrap());
    let local = fake.local().clone();
    let watches = move || local.actions().iter().filter(|a| a.verb == "watch").count();
    suite(fake.clientset(), Arc::new(watches)).await;
}

/// The server goes away; while it is down objects are deleted and created (more changes than
/// the store's history keeps, so resuming the watch is 410 Gone); when it is back the informer
/// relists: what was deleted arrives as a tombstone, what was created as an add.
#[tokio::test(flavor = "multi_thread")]
async fn an_informer_survives_a_server_restart() {
    let storage: Arc<dyn Storage> = Arc::new(MemoryStorage::with_history(2));
    let served = Served::start(storage.clone(), "127.0.0.1:0".parse().unwrap());
    let addr = served.addr;
    let cs = served.clientset();
    namespace(&cs, "inf-restart").await;
    let cms = cs.core_v1().config_maps("inf-restart");
    for name in ["kept", "gone-1", "gone-2"] {
        cms.create(&configmap(name, json!({})), &PostParams::default())
            .await
            .unwrap();
    }
    let factory = SharedInformerFactory::new(cs.clone(), None);
    let informer = factory.core().v1().config_maps();
    let (handler, log) = recorder();
    informer.add_event_handler(handler);
    factory.start();
    assert!(factory.wait_for_cache_sync(SYNC).await.values().all(|s| *s));
    served.stop();

    // The changes go through a second server on the same storage while the first is down.
    let other = Served::start(storage.clone(), "127.0.0.1:0".parse().unwrap());
    let other_cms = other.clientset().core_v1().config_maps("inf-restart");
    other_cms.delete("gone-1", &DeleteParams::default()).await.unwrap();
    other_cms.delete("gone-2", &DeleteParams::default()).await.unwrap();
    other_cms
        .create(&configmap("new", json!({})), &PostParams::default())
        .await
        .unwrap();
    other.stop();

    let _back = Served::start(storage, addr);
    eventually("the relist's events", || lines(&log).len() >= 7).await;
    let log = lines(&log);
    assert_eq!(log[..3], ["add gone-1", "add gone-2", "add kept"]);
    // The relist in key order (an unchanged object is reported again), then what it lacks.
    assert_eq!(
        log[3..],
        ["resync kept", "add new", "tombstone gone-1", "tombstone gone-2"],
        "{log:?}"
    );
    let mut keys = informer.lister().indexer().list_keys();
    keys.retain(|k| !k.starts_with("kube-system/"));
    assert_eq!(keys, ["inf-restart/kept", "inf-restart/new"]);
    factory.shutdown();
}
