//! core/v1 Events: what the real kubectl shows of them (`get events`, its wide columns, the
//! Events of `describe`, field selectors), Kubernetes' namespace check, and the TTL
//! (`--event-ttl`): an Event goes once it runs out, as a deletion watches see, and on etcd its key
//! is attached to a lease. On the embedded store and on etcd. events.k8s.io's Events are the same
//! storage, as kube-runtime's Recorder writes them.

use crate::support;

use std::sync::Arc;
use std::time::Duration;

use kube_apiserver::Config;
use kube_apiserver_storage::Storage;
use kube_apiserver_storage::etcd::EtcdStorage;
use kube_apiserver_storage::memory::MemoryStorage;
use serde_json::{Value, json};
use support::etcd;
use support::kubectl::{Backend, Kubectl};

#[test]
fn kubectl_gets_describes_and_selects_events() {
    events(Kubectl::new("events"));
}

#[test]
fn kubectl_gets_describes_and_selects_events_on_etcd() {
    events(Kubectl::on("events", Backend::Etcd));
}

fn events(k: Kubectl) {
    k.ok(&["create", "namespace", "ev"]);
    k.ok(&["create", "configmap", "cm", "-n", "ev", "--from-literal=a=b"]);
    let uid = k.ok(&["get", "configmap", "cm", "-n", "ev", "-o", "jsonpath={.metadata.uid}"]);
    let now = k8s_openapi::jiff::Timestamp::now()
        .strftime("%Y-%m-%dT%H:%M:%SZ")
        .to_string();
    let event = |name: &str, namespace: &str| {
        format!(
            "apiVersion: v1\nkind: Event\nmetadata: {{name: {name}, namespace: ev}}\n\
             involvedObject: {{apiVersion: v1, kind: ConfigMap, name: cm, namespace: {namespace}, uid: {uid}}}\n\
             reason: Tested\nmessage: hello from a test\ntype: Normal\nsource: {{component: events-test}}\n\
             firstTimestamp: \"{now}\"\nlastTimestamp: \"{now}\"\ncount: 2\n"
        )
    };
    k.ok(&["create", "-f", &k.file("event.yaml", &event("cm.tested", "ev"))]);

    let table = k.ok(&["get", "events", "-n", "ev"]);
    for shown in [
        "LAST SEEN",
        "TYPE",
        "REASON",
        "OBJECT",
        "MESSAGE",
        "Normal",
        "Tested",
        "configmap/cm",
        "hello from a test",
    ] {
        assert!(table.contains(shown), "{shown} in\n{table}");
    }
    let wide = k.ok(&["get", "events", "-n", "ev", "-o", "wide"]);
    for shown in ["SUBOBJECT", "SOURCE", "FIRST SEEN", "COUNT", "events-test", "cm.tested"] {
        assert!(wide.contains(shown), "{shown} in\n{wide}");
    }
    // describe finds an object's Events by its name, namespace, kind and uid.
    let described = k.ok(&["describe", "configmap", "cm", "-n", "ev"]);
    let events = described.split("Events:").nth(1).expect("an Events section");
    for shown in ["Normal", "Tested", "events-test", "hello from a test"] {
        assert!(events.contains(shown), "{shown} in the Events of\n{described}");
    }

    let select = |selector: &str| k.run(&["get", "events", "-n", "ev", "-o", "name", "--field-selector", selector]);
    let names = |selector: &str| String::from_utf8(select(selector).stdout).unwrap();
    assert_eq!(names("reason=Tested"), "event/cm.tested\n");
    assert_eq!(names("source=events-test,type=Normal"), "event/cm.tested\n");
    assert_eq!(
        names("involvedObject.kind=ConfigMap,involvedObject.name=cm"),
        "event/cm.tested\n"
    );
    assert_eq!(names("reason=Other"), "");
    let refused = select("message=hello");
    assert!(!refused.status.success());
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(stderr.contains("field label not supported: message"), "{stderr}");

    // An old-style Event belongs to its object's namespace.
    let elsewhere = k.run(&[
        "create",
        "-f",
        &k.file("elsewhere.yaml", &event("cm.elsewhere", "other")),
    ]);
    assert!(!elsewhere.status.success());
    let stderr = String::from_utf8_lossy(&elsewhere.stderr);
    assert!(
        stderr.contains(r#"involvedObject.namespace: Invalid value: "other": does not match event.namespace"#),
        "{stderr}"
    );
}

/// The server's `--event-ttl`: an Event and every update of it live that long from the write,
/// then go, as a deletion a watch sees. Returns the server's URL.
async fn expires(storage: Arc<dyn Storage>) -> String {
    let config = Config {
        event_ttl: Duration::from_secs(2),
        ..Config::default()
    };
    let server = support::start_with(storage, config);
    let client = reqwest::Client::new();
    let url = |path: &str| format!("{}{path}", server.url);
    let ns = json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "ev"}});
    let created = client.post(url("/api/v1/namespaces")).json(&ns).send().await.unwrap();
    assert_eq!(created.status(), 201);
    let event = json!({"apiVersion": "v1", "kind": "Event", "metadata": {"name": "e", "namespace": "ev"},
        "involvedObject": {"kind": "ConfigMap", "name": "cm", "namespace": "ev"}, "reason": "Tested"});
    let created = client
        .post(url("/api/v1/namespaces/ev/events"))
        .json(&event)
        .send()
        .await
        .unwrap();
    assert_eq!(created.status(), 201);
    let created: Value = created.json().await.unwrap();
    let rv = created["metadata"]["resourceVersion"].as_str().unwrap().to_string();
    let watch = client
        .get(url(&format!(
            "/api/v1/namespaces/ev/events?watch=true&resourceVersion={rv}"
        )))
        .send()
        .await
        .unwrap();
    let event_url = url("/api/v1/namespaces/ev/events/e");
    let started = std::time::Instant::now();
    support::eventually("the Event expires", || async {
        client.get(&event_url).send().await.unwrap().status() == 404
    })
    .await;
    assert!(
        started.elapsed() >= Duration::from_millis(900),
        "gone after {:?}",
        started.elapsed()
    );
    let mut watch = watch;
    let mut seen = String::new();
    while !seen.contains("DELETED") {
        let chunk = tokio::time::timeout(Duration::from_secs(5), watch.chunk())
            .await
            .expect("the expiry reaches the watch")
            .unwrap()
            .expect("watch open");
        seen.push_str(&String::from_utf8_lossy(&chunk));
    }
    assert!(seen.contains(r#""name":"e""#), "{seen}");
    server.url
}

#[tokio::test(flavor = "multi_thread")]
async fn events_expire_after_the_event_ttl() {
    expires(Arc::new(MemoryStorage::default())).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn events_expire_after_the_event_ttl_on_etcd_through_a_lease() {
    let cluster = etcd::start("events-ttl", 1);
    let server = expires(Arc::new(EtcdStorage::new(cluster.endpoints()).unwrap())).await;
    // Another Event, its key read straight from etcd: attached to a lease of the TTL.
    let event = json!({"apiVersion": "v1", "kind": "Event", "metadata": {"name": "later", "namespace": "ev"},
        "involvedObject": {"kind": "ConfigMap", "name": "cm", "namespace": "ev"}, "reason": "Tested"});
    let created = reqwest::Client::new()
        .post(format!("{server}/api/v1/namespaces/ev/events"))
        .json(&event)
        .send()
        .await
        .unwrap();
    assert_eq!(created.status(), 201);
    let lease = cluster
        .lease_of("/registry/events/ev/later")
        .await
        .expect("the Event's key");
    assert_ne!(lease, 0, "the Event's key has a lease");
    let live = cluster.lease(lease).await;
    assert_eq!(
        live.granted_ttl, 2,
        "the --event-ttl, with no reuse window at this length"
    );
}

/// kube-runtime's Recorder posts (and then merge-patches) events.k8s.io/v1 Events: they are the
/// core/v1 Events `kubectl describe` reads, and core Events are read through events.k8s.io, as
/// kube-apiserver keeps both in one storage.
#[tokio::test(flavor = "multi_thread")]
async fn events_of_both_groups_are_one_storage_for_kube_runtimes_recorder() {
    use kube::runtime::events::{Event, EventType, Recorder, Reporter};

    let server = support::start();
    let client = kube::Client::try_from(kube::Config::new(server.url.parse().unwrap())).unwrap();
    let http = support::api::Api::bare(support::Running {
        url: server.url.clone(),
        addr: server.addr,
    });
    let reporter = Reporter {
        controller: "widget-controller".into(),
        instance: Some("widget-controller-0".into()),
    };
    let recorder = Recorder::new(client, reporter);
    let reference = k8s_openapi::api::core::v1::ObjectReference {
        api_version: Some("v1".into()),
        kind: Some("ConfigMap".into()),
        name: Some("cfg".into()),
        namespace: Some("default".into()),
        uid: Some("0c9f4f55-0000-4000-8000-000000000001".into()),
        ..Default::default()
    };
    let event = Event {
        type_: EventType::Normal,
        reason: "Synced".into(),
        note: Some("reconciled".into()),
        action: "Reconcile".into(),
        secondary: None,
    };
    recorder.publish(&event, &reference).await.unwrap();
    // The same event again is a series: a merge patch through events.k8s.io.
    recorder.publish(&event, &reference).await.unwrap();

    let (code, core) = http
        .get("/api/v1/namespaces/default/events?fieldSelector=involvedObject.name=cfg")
        .await;
    assert_eq!(code, reqwest::StatusCode::OK, "{core}");
    let items = core["items"].as_array().unwrap();
    assert_eq!(items.len(), 1, "{core}");
    let e = &items[0];
    assert_eq!(e["message"], "reconciled");
    assert_eq!(e["reason"], "Synced");
    assert_eq!(e["reportingComponent"], "widget-controller");
    assert_eq!(e["reportingInstance"], "widget-controller-0");
    assert_eq!(e["involvedObject"]["kind"], "ConfigMap");
    assert_eq!(e["series"]["count"], 2);

    let (_, events) = http
        .get("/apis/events.k8s.io/v1/namespaces/default/events?fieldSelector=regarding.name=cfg,reportingController=widget-controller")
        .await;
    let items = events["items"].as_array().unwrap();
    assert_eq!(items.len(), 1, "{events}");
    assert_eq!(items[0]["note"], "reconciled");
    assert_eq!(items[0]["regarding"]["name"], "cfg");
    assert!(items[0].get("message").is_none(), "{events}");

    // A core Event, as kubelets and older controllers write them, read through events.k8s.io.
    let old = json!({
        "apiVersion": "v1", "kind": "Event", "metadata": {"name": "pulled", "namespace": "default"},
        "involvedObject": {"kind": "Pod", "name": "web", "namespace": "default"},
        "reason": "Pulled", "message": "image pulled", "type": "Normal", "count": 3,
        "source": {"component": "kubelet", "host": "node-1"},
        "firstTimestamp": "2026-01-01T00:00:00Z", "lastTimestamp": "2026-01-01T00:05:00Z",
    });
    let (code, _) = http
        .send(
            "POST",
            "/api/v1/namespaces/default/events",
            "application/json",
            old.to_string(),
        )
        .await;
    assert_eq!(code, reqwest::StatusCode::CREATED);
    let (code, read) = http
        .get("/apis/events.k8s.io/v1/namespaces/default/events/pulled")
        .await;
    assert_eq!(code, reqwest::StatusCode::OK, "{read}");
    assert_eq!(read["apiVersion"], "events.k8s.io/v1");
    assert_eq!(read["note"], "image pulled");
    assert_eq!(read["deprecatedCount"], 3);
    assert_eq!(
        read["deprecatedSource"],
        json!({"component": "kubelet", "host": "node-1"})
    );
    assert_eq!(read["deprecatedFirstTimestamp"], "2026-01-01T00:00:00Z");
    assert_eq!(read["regarding"]["name"], "web");
}
