//! The informer over a scripted stream of watcher events: what the cache holds and what each
//! handler is told, in order, for lists, relists, changes, late handlers, resyncs and
//! transforms. The same behaviour against a real server is in kube-apiserver/tests/kube_apiserver/informers.rs.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use k8s_openapi::api::core::v1::ConfigMap;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{ManagedFieldsEntry, ObjectMeta};
use kube::runtime::watcher::{self, Event};
use tokio::sync::mpsc;

use super::*;

fn cm(name: &str, rv: &str) -> ConfigMap {
    ConfigMap {
        metadata: ObjectMeta {
            name: Some(name.into()),
            namespace: Some("ns".into()),
            resource_version: Some(rv.into()),
            managed_fields: Some(vec![ManagedFieldsEntry::default()]),
            ..Default::default()
        },
        ..Default::default()
    }
}

/// An informer fed by the returned sender.
fn scripted(resync: Option<Duration>) -> (SharedInformer<ConfigMap>, mpsc::UnboundedSender<Event<ConfigMap>>) {
    let (tx, rx) = mpsc::unbounded_channel();
    let stream = futures::stream::unfold(rx, |mut rx| async move { rx.recv().await.map(|e| (Ok(e), rx)) });
    (SharedInformer::from_stream(move || stream.boxed(), resync), tx)
}

type Log = Arc<Mutex<Vec<String>>>;

fn label(o: &ConfigMap) -> String {
    format!(
        "{}@{}",
        o.metadata.name.as_deref().unwrap(),
        o.metadata.resource_version.as_deref().unwrap()
    )
}

/// A handler that writes what it is told as lines.
fn recorder() -> (HandlerFns<ConfigMap>, Log) {
    let log: Log = Arc::default();
    let (a, u, d) = (log.clone(), log.clone(), log.clone());
    let handler = HandlerFns::new()
        .on_add(move |o, initial| {
            let initial = if initial { " initial" } else { "" };
            a.lock().unwrap().push(format!("add {}{initial}", label(o)));
        })
        .on_update(move |old, new| {
            u.lock()
                .unwrap()
                .push(format!("update {} -> {}", label(old), label(new)))
        })
        .on_delete(move |deleted| {
            let how = match deleted {
                Deleted::Object(_) => "delete",
                Deleted::Tombstone { .. } => "tombstone",
            };
            d.lock().unwrap().push(format!("{how} {}", label(deleted.object())));
        });
    (handler, log)
}

/// Waits until the log has `n` lines, then returns them.
async fn lines(log: &Log, n: usize) -> Vec<String> {
    for _ in 0..200 {
        if log.lock().unwrap().len() >= n {
            break;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    log.lock().unwrap().clone()
}

fn list(tx: &mpsc::UnboundedSender<Event<ConfigMap>>, objects: &[ConfigMap]) {
    tx.send(Event::Init).unwrap();
    for o in objects {
        tx.send(Event::InitApply(o.clone())).unwrap();
    }
    tx.send(Event::InitDone).unwrap();
}

#[tokio::test]
async fn lists_then_changes_reach_the_cache_and_the_handler_in_order() {
    let (informer, tx) = scripted(None);
    let (handler, log) = recorder();
    informer.add_event_handler(handler);
    informer.run();
    assert!(!informer.has_synced());
    list(&tx, &[cm("a", "1"), cm("b", "2")]);
    assert!(informer.wait_for_sync(Duration::from_secs(5)).await);
    tx.send(Event::Apply(cm("a", "3"))).unwrap();
    tx.send(Event::Apply(cm("c", "4"))).unwrap();
    tx.send(Event::Delete(cm("b", "5"))).unwrap();
    let got = lines(&log, 5).await;
    assert_eq!(
        got,
        [
            "add a@1 initial",
            "add b@2 initial",
            "update a@1 -> a@3",
            "add c@4",
            "delete b@5"
        ]
    );
    assert_eq!(informer.indexer().list_keys(), ["ns/a", "ns/c"]);
}

#[tokio::test]
async fn a_relist_updates_what_stayed_adds_what_is_new_and_tombstones_what_is_gone() {
    let (informer, tx) = scripted(None);
    let (handler, log) = recorder();
    informer.add_event_handler(handler);
    informer.run();
    list(&tx, &[cm("a", "1"), cm("b", "2")]);
    list(&tx, &[cm("b", "7"), cm("c", "8")]);
    let got = lines(&log, 5).await;
    assert_eq!(
        got,
        [
            "add a@1 initial",
            "add b@2 initial",
            "update b@2 -> b@7",
            "add c@8",
            "tombstone a@1"
        ]
    );
    assert_eq!(informer.indexer().list_keys(), ["ns/b", "ns/c"]);
}

#[tokio::test]
async fn a_late_handler_first_receives_every_cached_object() {
    let (informer, tx) = scripted(None);
    informer.run();
    list(&tx, &[cm("a", "1"), cm("b", "2")]);
    assert!(informer.wait_for_sync(Duration::from_secs(5)).await);
    let (handler, log) = recorder();
    informer.add_event_handler(handler);
    tx.send(Event::Apply(cm("b", "3"))).unwrap();
    let got = lines(&log, 3).await;
    assert_eq!(got, ["add a@1 initial", "add b@2 initial", "update b@2 -> b@3"]);
}

#[tokio::test]
async fn a_removed_handler_hears_nothing_more_and_others_go_on() {
    let (informer, tx) = scripted(None);
    let (first, first_log) = recorder();
    let (second, second_log) = recorder();
    let id = informer.add_event_handler(first);
    informer.add_event_handler(second);
    informer.run();
    list(&tx, &[cm("a", "1")]);
    lines(&first_log, 1).await;
    informer.remove_event_handler(id);
    tx.send(Event::Apply(cm("a", "2"))).unwrap();
    assert_eq!(lines(&second_log, 2).await.len(), 2);
    assert_eq!(first_log.lock().unwrap().len(), 1);
}

#[tokio::test(start_paused = true)]
async fn resync_tells_every_handler_about_unchanged_objects() {
    let (informer, tx) = scripted(Some(Duration::from_secs(30)));
    let (handler, log) = recorder();
    informer.add_event_handler(handler);
    informer.run();
    list(&tx, &[cm("a", "1")]);
    assert!(informer.wait_for_sync(Duration::from_secs(5)).await);
    tokio::time::sleep(Duration::from_secs(61)).await;
    let got = lines(&log, 3).await;
    assert_eq!(got, ["add a@1 initial", "update a@1 -> a@1", "update a@1 -> a@1"]);
}

#[tokio::test]
async fn the_transform_runs_before_caching_and_only_before_start() {
    let (informer, tx) = scripted(None);
    informer
        .set_transform(|mut o: ConfigMap| {
            o.metadata.managed_fields = None;
            o
        })
        .unwrap();
    informer.run();
    assert_eq!(informer.set_transform(|o| o), Err(AlreadyStarted));
    list(&tx, &[cm("a", "1")]);
    tx.send(Event::Apply(cm("b", "2"))).unwrap();
    for _ in 0..200 {
        if informer.indexer().len() == 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let cached = informer.indexer().list();
    assert_eq!(cached.len(), 2);
    assert!(cached.iter().all(|o| o.metadata.managed_fields.is_none()));
}

#[tokio::test]
async fn wait_for_sync_gives_up_after_its_timeout() {
    let (informer, _tx) = scripted(None);
    informer.run();
    assert!(!informer.wait_for_sync(Duration::from_millis(20)).await);
}

#[tokio::test]
async fn watch_failures_reach_the_error_handler_and_the_informer_goes_on() {
    let (tx, rx) = mpsc::unbounded_channel::<Result<Event<ConfigMap>, watcher::Error>>();
    let stream = futures::stream::unfold(rx, |mut rx| async move { rx.recv().await.map(|e| (e, rx)) });
    let informer = SharedInformer::from_stream(move || stream.boxed(), None);
    let failures: Arc<Mutex<Vec<String>>> = Arc::default();
    let seen = failures.clone();
    informer
        .set_watch_error_handler(move |e| seen.lock().unwrap().push(e.to_string()))
        .unwrap();
    informer.run();
    assert_eq!(informer.set_watch_error_handler(|_| ()), Err(AlreadyStarted));
    tx.send(Err(watcher::Error::NoResourceVersion)).unwrap();
    tx.send(Ok(Event::Init)).unwrap();
    tx.send(Ok(Event::InitApply(cm("a", "1")))).unwrap();
    tx.send(Ok(Event::InitDone)).unwrap();
    assert!(informer.wait_for_sync(Duration::from_secs(5)).await);
    assert_eq!(failures.lock().unwrap().len(), 1);
    assert_eq!(informer.indexer().list_keys(), ["ns/a"]);
}

/// kube-runtime's side: the reflector store follows the cache (handed over when asked after a
/// sync), and `subscribe` streams each changed object, the cached ones first.
#[tokio::test]
async fn the_store_and_the_stream_follow_the_informer() {
    use futures::StreamExt;
    let (informer, tx) = scripted(None);
    informer.run();
    for e in [Event::Init, Event::InitApply(cm("a", "1")), Event::InitDone] {
        tx.send(e).unwrap();
    }
    assert!(informer.wait_for_sync(Duration::from_secs(5)).await);
    let store = informer.store();
    tokio::time::timeout(Duration::from_secs(5), store.wait_until_ready())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(store.state().len(), 1, "handed what the informer had");
    let mut changes = Box::pin(informer.subscribe());
    tx.send(Event::Apply(cm("b", "2"))).unwrap();
    tx.send(Event::Delete(cm("a", "1"))).unwrap();
    let mut seen = Vec::new();
    for _ in 0..3 {
        let obj = tokio::time::timeout(Duration::from_secs(5), changes.next())
            .await
            .unwrap()
            .unwrap();
        seen.push(label(&obj));
    }
    assert_eq!(seen, ["a@1", "b@2", "a@1"]);
    let names: Vec<_> = store.state().iter().map(|o| label(o)).collect();
    assert_eq!(names, ["b@2"], "the store saw the add and the delete");
}

/// A failing list-watch says why; stopping is awaitable, and a dropped factory stops its
/// informers.
#[tokio::test]
async fn watch_errors_are_kept_and_stopping_is_awaitable() {
    let stream = futures::stream::iter([Err(watcher::Error::NoResourceVersion)]).chain(futures::stream::pending());
    let informer: SharedInformer<ConfigMap> = SharedInformer::from_stream(move || stream.boxed(), None);
    informer.run();
    tokio::time::sleep(Duration::from_millis(50)).await;
    let error = informer.last_watch_error().expect("the failure is kept");
    assert!(error.contains("resourceVersion"), "{error}");
    informer.stop();
    tokio::time::timeout(Duration::from_secs(5), informer.stopped())
        .await
        .expect("stopped");

    let factory = factory::InformerFactory::new(None);
    let api = |_: &str| -> kube::Api<ConfigMap> {
        let config = kube::Config::new("http://127.0.0.1:9".parse().unwrap());
        kube::Api::all(kube::Client::try_from(config).unwrap())
    };
    let watched = factory.informer_for(api);
    factory.start();
    drop(factory);
    tokio::time::timeout(Duration::from_secs(5), watched.stopped())
        .await
        .expect("a dropped factory's informers stop");
}
