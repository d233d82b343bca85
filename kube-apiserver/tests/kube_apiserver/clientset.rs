//! The generated typed clientset against the sample API server on loopback (embedded store and
//! etcd) and against the fake clientset: one behavioural suite, written against the `Clientset`
//! (which the fake dereferences to), run on each backend, so the three must agree on every case.

use crate::support;

use std::time::Duration;

use futures::StreamExt;
use generated::clientset::Clientset;
use generated::clientset::prelude::*;
use kube::api::{DeleteParams, GetParams, ListParams, Patch, PatchParams, PostParams, WatchEvent, WatchParams};
use serde_json::{Value, json};

/// The Status code of a failed call (0 for a failure without one).
fn code(e: &kube::Error) -> u16 {
    match e {
        kube::Error::Api(s) => s.code,
        _ => 0,
    }
}

/// A typed object from its manifest.
fn object<T: serde::de::DeserializeOwned>(manifest: Value) -> T {
    serde_json::from_value(manifest).expect("the manifest decodes")
}

fn to_json(v: &impl serde::Serialize) -> Value {
    serde_json::to_value(v).unwrap()
}

/// A clientset of the server at `url` on loopback.
async fn clientset(url: &str) -> generated::clientset::Clientset {
    let config = kube::Config::new(url.parse().unwrap());
    generated::clientset::Clientset::new(kube::Client::try_from(config).unwrap())
}

fn pod_template(app: &str) -> Value {
    json!({"metadata": {"labels": {"app": app}}, "spec": {"containers": [{"name": "c", "image": "nginx"}]}})
}

fn deployment(name: &str) -> Value {
    json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": name, "labels": {"app": name}},
           "spec": {"replicas": 1, "selector": {"matchLabels": {"app": name}}, "template": pod_template(name)}})
}

/// create, get, list, update (a label) and delete through one typed client, then the object is
/// gone (or, for a namespace, terminating).
macro_rules! crud {
    ($client:expr, $manifest:expr) => {{
        let c = $client;
        let obj = object($manifest);
        let created = c.create(&obj, &PostParams::default()).await.expect("create");
        let name = created.metadata.name.clone().unwrap();
        assert!(created.metadata.uid.is_some(), "{name}: the server sets a uid");
        let again = c.create(&obj, &PostParams::default()).await.unwrap_err();
        assert_eq!(code(&again), 409, "{name}: a second create is AlreadyExists: {again}");
        let got = c.get(&name, &GetParams::default()).await.expect("get");
        assert_eq!(got.metadata.uid, created.metadata.uid);
        let listed = c.list(&ListParams::default()).await.expect("list");
        assert!(
            listed
                .items
                .iter()
                .any(|o| o.metadata.name.as_deref() == Some(name.as_str()))
        );
        // Retried on conflict, as client-go's RetryOnConflict does: a controller of the server's
        // own (a CRD's naming controller) may write the object between the read and the update.
        let mut latest = got.clone();
        let updated = loop {
            let mut changed = latest.clone();
            changed
                .metadata
                .labels
                .get_or_insert_with(Default::default)
                .insert("touched".into(), "yes".into());
            match c.update(&changed, &PostParams::default()).await {
                Err(e) if code(&e) == 409 => latest = c.get(&name, &GetParams::default()).await.expect("get"),
                other => break other.expect("update"),
            }
        };
        assert_eq!(updated.metadata.labels.as_ref().unwrap()["touched"], "yes");
        assert_ne!(updated.metadata.resource_version, created.metadata.resource_version);
        c.delete(&name, &DeleteParams::default()).await.expect("delete");
        match c.get(&name, &GetParams::default()).await {
            Err(e) => assert_eq!(code(&e), 404, "{name}: {e}"),
            Ok(o) => assert!(o.metadata.deletion_timestamp.is_some(), "{name} is still there"),
        }
        let missing = c.get("no-such-object", &GetParams::default()).await.unwrap_err();
        assert_eq!(code(&missing), 404);
    }};
}

/// Creates the namespaces the cases write into (the server refuses writes into a namespace
/// that does not exist, as Kubernetes' NamespaceLifecycle does).
async fn namespaces(cs: &Clientset, names: &[&str]) {
    for name in names {
        let ns = json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": name}});
        cs.core_v1()
            .namespaces()
            .create(&object(ns), &PostParams::default())
            .await
            .unwrap();
    }
}

/// Every behaviour the clientset promises, on one backend.
/// Each step is boxed: its future holds whole Kubernetes objects (a Pod is kilobytes), and all of
/// them inline would overflow the test thread's stack.
async fn suite(cs: &Clientset) {
    Box::pin(namespaces(
        cs,
        &["ns", "status", "scale", "select", "watch", "conflict", "apply"],
    ))
    .await;
    Box::pin(every_kind(cs)).await;
    Box::pin(status_and_spec(cs)).await;
    Box::pin(scale(cs)).await;
    Box::pin(selectors_and_pages(cs)).await;
    Box::pin(watch_in_order(cs)).await;
    Box::pin(conflicts(cs)).await;
    Box::pin(apply_with_two_managers(cs)).await;
}

async fn every_kind(cs: &Clientset) {
    let core = cs.core_v1();
    crud!(
        core.namespaces(),
        json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "scratch"}})
    );
    crud!(
        core.pods("ns"),
        json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}, "spec": pod_template("p")["spec"]})
    );
    crud!(
        core.pod_templates("ns"),
        json!({"apiVersion": "v1", "kind": "PodTemplate", "metadata": {"name": "pt"}, "template": pod_template("pt")})
    );
    crud!(
        core.config_maps("ns"),
        json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "cm"}, "data": {"k": "v"}})
    );
    crud!(cs.apps_v1().deployments("ns"), deployment("d"));
    let set = |api: &str, kind: &str, name: &str| {
        json!({"apiVersion": api, "kind": kind, "metadata": {"name": name},
               "spec": {"selector": {"matchLabels": {"app": name}}, "template": pod_template(name), "serviceName": name}})
    };
    crud!(cs.apps_v1().stateful_sets("ns"), set("apps/v1", "StatefulSet", "ss"));
    crud!(cs.apps_v1().replica_sets("ns"), set("apps/v1", "ReplicaSet", "rs"));
    // apps/v1beta1 and v1beta2 are not served, as Kubernetes stopped serving them in 1.16; kinds
    // the hand-written subset never had are.
    crud!(
        core.secrets("ns"),
        json!({"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "s"}, "data": {"k": "dg=="}})
    );
    crud!(
        cs.batch_v1().jobs("ns"),
        json!({"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "j"},
               "spec": {"template": {"spec": {"restartPolicy": "Never", "containers": [{"name": "c", "image": "busybox"}]}}}})
    );
    crud!(
        cs.coordination_v1().leases("ns"),
        json!({"apiVersion": "coordination.k8s.io/v1", "kind": "Lease", "metadata": {"name": "l"}, "spec": {"holderIdentity": "me"}})
    );
    let crd = |api: &str, name: &str| {
        let version = json!({"name": "v1", "served": true, "storage": true,
               "schema": {"openAPIV3Schema": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}}});
        json!({"apiVersion": api, "kind": "CustomResourceDefinition", "metadata": {"name": format!("{name}s.example.com")},
               "spec": {"group": "example.com", "scope": "Namespaced", "versions": [version],
                        "names": {"plural": format!("{name}s"), "singular": name, "kind": "Thing", "listKind": "ThingList"}}})
    };
    crud!(
        cs.apiextensions_v1().custom_resource_definitions(),
        crd("apiextensions.k8s.io/v1", "thing")
    );
    crud!(
        cs.widgets_v1().widgets("ns"),
        json!({"apiVersion": "widgets.example.dev/v1", "kind": "Widget", "metadata": {"name": "w"}, "spec": {"image": "nginx"}})
    );
    crud!(
        cs.widgets_v1alpha1().widgets("ns"),
        json!({"apiVersion": "widgets.example.dev/v1alpha1", "kind": "Widget", "metadata": {"name": "wa"}, "spec": {"image": "nginx"}})
    );
    crud!(
        cs.widgets_v1().widget_classes(),
        json!({"apiVersion": "widgets.example.dev/v1", "kind": "WidgetClass", "metadata": {"name": "wc"}})
    );
    crud!(
        cs.widgets_v1alpha1().widget_classes(),
        json!({"apiVersion": "widgets.example.dev/v1alpha1", "kind": "WidgetClass", "metadata": {"name": "wca"}})
    );
}

/// Plain updates keep the stored status, status updates keep the stored spec.
async fn status_and_spec(cs: &Clientset) {
    let d = cs.apps_v1().deployments("status");
    let created = d
        .create(&object(deployment("s")), &PostParams::default())
        .await
        .unwrap();
    let mut both = to_json(&created);
    both["spec"]["replicas"] = json!(5);
    both["status"] = json!({"replicas": 7, "observedGeneration": 1});
    let updated = d.update(&object(both.clone()), &PostParams::default()).await.unwrap();
    let updated = to_json(&updated);
    assert_eq!(updated["spec"]["replicas"], json!(5));
    assert!(updated["status"].get("replicas").is_none(), "{}", updated["status"]);
    assert_eq!(
        updated["metadata"]["generation"],
        json!(2),
        "a spec change bumps the generation"
    );

    both["metadata"]["resourceVersion"] = updated["metadata"]["resourceVersion"].clone();
    both["spec"]["replicas"] = json!(9);
    let status = d.update_status(&object(both), &PostParams::default()).await.unwrap();
    let status = to_json(&status);
    assert_eq!(status["status"]["replicas"], json!(7));
    assert_eq!(status["spec"]["replicas"], json!(5), "a status update keeps the spec");
    assert_eq!(status["metadata"]["generation"], json!(2));
}

/// `+genclient:method=GetScale/UpdateScale`: the scale subresource with autoscaling/v1 Scale.
async fn scale(cs: &Clientset) {
    let d = cs.apps_v1().deployments("scale");
    d.create(&object(deployment("web")), &PostParams::default())
        .await
        .unwrap();
    let s = d.get_scale("web", &GetParams::default()).await.unwrap();
    let mut s = to_json(&s);
    assert_eq!(
        (s["kind"].clone(), s["spec"]["replicas"].clone()),
        (json!("Scale"), json!(1))
    );
    s["spec"]["replicas"] = json!(4);
    let scaled = d.update_scale("web", &object(s), &PostParams::default()).await.unwrap();
    assert_eq!(to_json(&scaled)["spec"]["replicas"], json!(4));
    let after = d.get("web", &GetParams::default()).await.unwrap();
    assert_eq!(after.spec.as_ref().and_then(|s| s.replicas), Some(4));
    let err = d.get_scale("nothing", &GetParams::default()).await.unwrap_err();
    assert_eq!(code(&err), 404);
}

/// Label and field selectors, and pages of a list that add up to the whole.
async fn selectors_and_pages(cs: &Clientset) {
    let cms = cs.core_v1().config_maps("select");
    for i in 0..5 {
        let tier = if i % 2 == 0 { "front" } else { "back" };
        let cm = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": format!("cm{i}"), "labels": {"tier": tier}}});
        cms.create(&object(cm), &PostParams::default()).await.unwrap();
    }
    let names = |l: &kube::api::ObjectList<apis::core::v1::ConfigMap>| -> Vec<String> {
        l.items.iter().map(|o| o.metadata.name.clone().unwrap()).collect()
    };
    let front = cms.list(&ListParams::default().labels("tier=front")).await.unwrap();
    assert_eq!(names(&front), ["cm0", "cm2", "cm4"]);
    let one = cms
        .list(&ListParams::default().fields("metadata.name=cm3"))
        .await
        .unwrap();
    assert_eq!(names(&one), ["cm3"]);
    let pods = cs.core_v1().pods("select");
    let pod = json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "on-n1"},
                     "spec": {"nodeName": "n1", "containers": [{"name": "c", "image": "i"}]}});
    pods.create(&object(pod), &PostParams::default()).await.unwrap();
    let on = pods
        .list(&ListParams::default().fields("spec.nodeName=n1"))
        .await
        .unwrap();
    assert_eq!(on.items.len(), 1);
    let off = pods
        .list(&ListParams::default().fields("spec.nodeName=n2"))
        .await
        .unwrap();
    assert!(off.items.is_empty());

    let mut seen = Vec::new();
    let mut lp = ListParams::default().limit(2);
    loop {
        let page = cms.list(&lp).await.unwrap();
        assert!(page.items.len() <= 2);
        seen.extend(names(&page));
        match page.metadata.continue_.filter(|c| !c.is_empty()) {
            Some(token) => lp = lp.continue_token(&token),
            None => break,
        }
    }
    assert_eq!(seen, ["cm0", "cm1", "cm2", "cm3", "cm4"]);
}

/// A watch from a list's resourceVersion sees the create, the update and the delete, in order.
async fn watch_in_order(cs: &Clientset) {
    let d = cs.apps_v1().deployments("watch");
    let from = d
        .list(&ListParams::default())
        .await
        .unwrap()
        .metadata
        .resource_version
        .unwrap();
    let mut events = d.watch(&WatchParams::default(), &from).await.unwrap();
    let created = d
        .create(&object(deployment("w")), &PostParams::default())
        .await
        .unwrap();
    let mut changed = created.clone();
    changed.spec.get_or_insert_default().replicas = Some(3);
    d.update(&changed, &PostParams::default()).await.unwrap();
    d.delete("w", &DeleteParams::default()).await.unwrap();
    let mut seen = Vec::new();
    while seen.len() < 3 {
        let next = tokio::time::timeout(Duration::from_secs(10), events.next()).await;
        match next
            .expect("an event within 10 s")
            .expect("the watch stays open")
            .unwrap()
        {
            WatchEvent::Added(o) => seen.push(("ADDED", o.spec.as_ref().and_then(|s| s.replicas))),
            WatchEvent::Modified(o) => seen.push(("MODIFIED", o.spec.as_ref().and_then(|s| s.replicas))),
            WatchEvent::Deleted(o) => seen.push(("DELETED", o.spec.as_ref().and_then(|s| s.replicas))),
            WatchEvent::Bookmark(_) => {}
            WatchEvent::Error(e) => panic!("watch error: {e:?}"),
        }
    }
    assert_eq!(seen, [("ADDED", Some(1)), ("MODIFIED", Some(3)), ("DELETED", Some(3))]);
}

/// An update with a stale resourceVersion is 409 Conflict and changes nothing.
async fn conflicts(cs: &Clientset) {
    let d = cs.apps_v1().deployments("conflict");
    let first = d
        .create(&object(deployment("c")), &PostParams::default())
        .await
        .unwrap();
    let mut a = first.clone();
    a.spec.get_or_insert_default().replicas = Some(2);
    d.update(&a, &PostParams::default()).await.unwrap();
    let mut stale = first;
    stale.spec.get_or_insert_default().replicas = Some(9);
    let err = d.update(&stale, &PostParams::default()).await.unwrap_err();
    assert_eq!(code(&err), 409, "{err}");
    assert_eq!(
        d.get("c", &GetParams::default())
            .await
            .unwrap()
            .spec
            .as_ref()
            .and_then(|s| s.replicas),
        Some(2)
    );
    let mut nameless = stale.clone();
    nameless.metadata.name = None;
    let err = d.update(&nameless, &PostParams::default()).await.unwrap_err();
    assert!(matches!(err, kube::Error::BuildRequest(_)), "{err}");
}

/// A typed apply configuration of Deployment `name` in `namespace` with `replicas`.
fn applied(
    name: &str,
    namespace: &str,
    replicas: i32,
) -> generated::applyconfigurations::apps_v1::DeploymentApplyConfiguration {
    use generated::applyconfigurations::{apps_v1, core_v1};
    use k8s_openapi::apimachinery::pkg::apis::meta::v1::{LabelSelector, ObjectMeta};
    let labels = std::collections::BTreeMap::from([("app".to_string(), name.to_string())]);
    let container = core_v1::ContainerApplyConfiguration::default()
        .with_name("c")
        .with_image("nginx");
    let template = core_v1::PodTemplateSpecApplyConfiguration::default()
        .with_metadata(ObjectMeta {
            labels: Some(labels.clone()),
            ..Default::default()
        })
        .with_spec(core_v1::PodSpecApplyConfiguration::default().with_containers([container]));
    apps_v1::deployment(name, namespace).with_spec(
        apps_v1::DeploymentSpecApplyConfiguration::default()
            .with_replicas(replicas)
            .with_selector(LabelSelector {
                match_labels: Some(labels),
                ..Default::default()
            })
            .with_template(template),
    )
}

/// Server-side apply by two managers through typed apply configurations: the second's change
/// of the first's field conflicts unless forced, then the field is the second's; extracting
/// each manager's configuration gives back what it owns.
async fn apply_with_two_managers(cs: &Clientset) {
    use generated::applyconfigurations::apps_v1;
    let d = cs.apps_v1().deployments("apply");
    let config = applied("a", "apply", 2);
    let sent = to_json(&config);
    assert!(
        sent.get("status").is_none() && sent["spec"].get("paused").is_none(),
        "only what was set: {sent}"
    );
    let first = d.apply(&config, &PatchParams::apply("first")).await.unwrap();
    assert_eq!(first.spec.as_ref().and_then(|s| s.replicas), Some(2));
    let err = d
        .apply(&applied("a", "apply", 3), &PatchParams::apply("second"))
        .await
        .unwrap_err();
    assert_eq!(code(&err), 409, "{err}");
    let forced = d
        .apply(&applied("a", "apply", 3), &PatchParams::apply("second").force())
        .await
        .unwrap();
    assert_eq!(forced.spec.as_ref().and_then(|s| s.replicas), Some(3));
    let second = apps_v1::extract_deployment(&forced, "second").unwrap();
    assert_eq!(second.spec.as_ref().and_then(|s| s.replicas), Some(3));
    let mine = apps_v1::extract_deployment(&forced, "first").unwrap();
    let mine_spec = mine.spec.as_ref().unwrap();
    assert_eq!(mine_spec.replicas, None, "the forced field left the first manager");
    assert!(
        mine_spec.template.is_some(),
        "the template is still the first manager's too"
    );
    assert_eq!((mine.name(), mine.kind.as_deref()), (Some("a"), Some("Deployment")));
    // Re-applying what was extracted changes nothing.
    let again = d.apply(&second, &PatchParams::apply("second")).await.unwrap();
    assert_eq!(
        again.metadata.resource_version,
        forced.metadata.resource_version,
        "{}\n{}\n{}",
        to_json(&second),
        to_json(&forced),
        to_json(&again)
    );

    let status = apps_v1::deployment("a", "apply")
        .with_status(apps_v1::DeploymentStatusApplyConfiguration::default().with_replicas(3));
    let with_status = d
        .apply_status(&status, &PatchParams::apply("controller"))
        .await
        .unwrap();
    assert_eq!(with_status.status.and_then(|s| s.replicas), Some(3));
    assert_eq!(with_status.spec.as_ref().and_then(|s| s.replicas), Some(3));

    let err = d
        .apply(
            &apps_v1::DeploymentApplyConfiguration::default(),
            &PatchParams::apply("x"),
        )
        .await
        .unwrap_err();
    assert!(matches!(err, kube::Error::BuildRequest(_)), "{err}");
    let merge = json!({"metadata": {"labels": {"merged": "yes"}}});
    let merged = d
        .patch("a", &PatchParams::default(), &Patch::Merge(merge))
        .await
        .unwrap();
    assert_eq!(merged.metadata.labels.unwrap()["merged"], "yes");
}

#[tokio::test(flavor = "multi_thread")]
async fn the_clientset_against_the_server_on_the_embedded_store() {
    let server = support::start();
    suite(&clientset(&server.url).await).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn the_clientset_against_the_server_on_etcd() {
    let cluster = support::etcd::start("clientset", 1);
    let storage = kube_apiserver_storage::etcd::EtcdStorage::new(cluster.endpoints()).unwrap();
    let server = support::start_on(std::sync::Arc::new(storage));
    suite(&clientset(&server.url).await).await;
}

/// Built-in kinds travel as protobuf by default (client-go's content type for them), on the
/// wire as the server sees it, and read back the same objects JSON does; custom kinds and
/// `json()` clients stay on JSON; errors come back as the same Status either way.
#[tokio::test(flavor = "multi_thread")]
async fn built_in_kinds_speak_protobuf_and_read_what_json_reads() {
    let server = support::start();
    let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::<(String, String, String)>::new()));
    let record = seen.clone();
    let layer = tower::util::MapRequestLayer::new(move |req: http::Request<kube::client::Body>| {
        let header = |h| {
            req.headers()
                .get(h)
                .map_or("", |v| v.to_str().unwrap_or(""))
                .to_string()
        };
        let entry = (
            req.uri().path().to_string(),
            header(http::header::CONTENT_TYPE),
            header(http::header::ACCEPT),
        );
        record.lock().unwrap().push(entry);
        req
    });
    let config = kube::Config::new(server.url.parse().unwrap());
    let client = kube::client::ClientBuilder::try_from(config)
        .unwrap()
        .with_layer(&layer)
        .build();
    let cs = Clientset::new(client);
    namespaces(&cs, &["pb"]).await;
    let deployments = cs.apps_v1().deployments("pb");
    let json_deployments = cs.apps_v1().deployments("pb").json();
    assert!(deployments.speaks_protobuf() && !json_deployments.speaks_protobuf());
    assert!(
        !cs.widgets_v1().widgets("pb").speaks_protobuf(),
        "custom kinds have no protobuf form"
    );

    let mut manifest = deployment("web");
    manifest["spec"]["template"]["spec"]["containers"][0]["ports"] = json!([{"containerPort": 80, "name": "http"}]);
    manifest["metadata"]["annotations"] = json!({"a": "b"});
    seen.lock().unwrap().clear();
    let created = deployments
        .create(&object(manifest), &PostParams::default())
        .await
        .expect("create");
    let (path, content_type, accept) = seen.lock().unwrap()[0].clone();
    assert_eq!(path, "/apis/apps/v1/namespaces/pb/deployments");
    assert_eq!(content_type, "application/vnd.kubernetes.protobuf");
    assert!(accept.starts_with("application/vnd.kubernetes.protobuf"), "{accept}");
    assert_eq!(created.spec.as_ref().and_then(|s| s.replicas), Some(1));

    let got = deployments.get("web", &GetParams::default()).await.expect("get");
    let json_got = json_deployments
        .get("web", &GetParams::default())
        .await
        .expect("get in JSON");
    assert_eq!(
        to_json(&got),
        to_json(&json_got),
        "protobuf and JSON read the same object"
    );
    assert_eq!(to_json(&got), to_json(&created));

    let mut changed = got.clone();
    changed
        .metadata
        .labels
        .get_or_insert_default()
        .insert("tier".into(), "front".into());
    let updated = deployments
        .update(&changed, &PostParams::default())
        .await
        .expect("update");
    assert_eq!(updated.metadata.labels.as_ref().unwrap()["tier"], "front");
    let mut status = updated.clone();
    status.status.get_or_insert_default().observed_generation = Some(7);
    let with_status = deployments
        .update_status(&status, &PostParams::default())
        .await
        .expect("update_status");
    assert_eq!(with_status.status.unwrap().observed_generation, Some(7));

    for name in ["api", "db"] {
        deployments
            .create(&object(deployment(name)), &PostParams::default())
            .await
            .unwrap();
    }
    let listed = deployments.list(&ListParams::default()).await.expect("list");
    let json_listed = json_deployments
        .list(&ListParams::default())
        .await
        .expect("list in JSON");
    assert_eq!(listed.items.len(), 3);
    assert_eq!(listed.types.kind, "DeploymentList");
    assert_eq!(listed.metadata.resource_version, json_listed.metadata.resource_version);
    assert_eq!(to_json(&listed.items), to_json(&json_listed.items));

    let missing = deployments.get("nope", &GetParams::default()).await.unwrap_err();
    let json_missing = json_deployments.get("nope", &GetParams::default()).await.unwrap_err();
    match (&missing, &json_missing) {
        (kube::Error::Api(a), kube::Error::Api(b)) => {
            assert_eq!((a.code, &a.reason, &a.message), (404, &b.reason, &b.message));
        }
        _ => panic!("expected API errors: {missing:?}, {json_missing:?}"),
    }
    let conflict = deployments.update(&changed, &PostParams::default()).await.unwrap_err();
    assert_eq!(
        code(&conflict),
        409,
        "a stale resourceVersion is a Conflict: {conflict}"
    );

    let on_wire = seen.lock().unwrap().clone();
    let protobuf = on_wire
        .iter()
        .filter(|(_, ct, _)| ct == "application/vnd.kubernetes.protobuf")
        .count();
    assert_eq!(
        protobuf, 6,
        "create, update, update_status, two creates, the stale update: {on_wire:?}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn the_fake_clientset() {
    let fake = generated::clientset::fake::Clientset::new(apis::scheme().unwrap());
    suite(&fake).await;
}

/// Reactors answer in place of the server, by verb and resource, and every action is recorded.
#[tokio::test(flavor = "multi_thread")]
async fn fake_reactors_inject_errors_and_actions_are_recorded() {
    let fake = generated::clientset::fake::Clientset::new(apis::scheme().unwrap());
    namespaces(&fake, &["ns"]).await;
    fake.clear_actions();
    let d = fake.apps_v1().deployments("ns");
    d.create(&object(deployment("r")), &PostParams::default())
        .await
        .unwrap();
    fake.prepend_reactor("update", "deployments", |_| {
        Some(Err(kube_generic_apiserver::status::ApiError::conflict(
            "apps",
            "deployments",
            "r",
            "injected",
        )))
    });
    fake.prepend_reactor("get", "deployments/scale", |a| {
        Some(Ok(json!({"apiVersion": "autoscaling/v1", "kind": "Scale",
                       "metadata": {"name": a.name.clone().unwrap(), "namespace": a.namespace.clone().unwrap()},
                       "spec": {"replicas": 42}})))
    });
    let got = d.get("r", &GetParams::default()).await.unwrap();
    let err = d.update(&got, &PostParams::default()).await.unwrap_err();
    assert_eq!(code(&err), 409);
    assert!(err.to_string().contains("injected"), "{err}");
    let scale = d.get_scale("r", &GetParams::default()).await.unwrap();
    assert_eq!(scale.spec.and_then(|s| s.replicas), Some(42));
    // A reactor that passes leaves the server to answer.
    fake.prepend_reactor("*", "*", |_| None);
    assert_eq!(
        d.get("r", &GetParams::default())
            .await
            .unwrap()
            .spec
            .as_ref()
            .and_then(|s| s.replicas),
        Some(1)
    );

    let verbs: Vec<(String, String)> = fake
        .actions()
        .iter()
        .map(|a| {
            (
                a.verb.clone(),
                match &a.subresource {
                    Some(s) => format!("{}/{s}", a.resource),
                    None => a.resource.clone(),
                },
            )
        })
        .collect();
    let expect = |v: &str, r: &str| (v.to_string(), r.to_string());
    assert_eq!(
        verbs,
        [
            expect("create", "deployments"),
            expect("get", "deployments"),
            expect("update", "deployments"),
            expect("get", "deployments/scale"),
            expect("get", "deployments"),
        ]
    );
    let create = &fake.actions()[0];
    assert_eq!(create.namespace.as_deref(), Some("ns"));
    assert_eq!(create.body.as_ref().unwrap()["metadata"]["name"], json!("r"));
    fake.clear_actions();
    assert!(fake.actions().is_empty());
}

/// A fake filled with objects of several kinds answers with them and records no action for them.
#[tokio::test(flavor = "multi_thread")]
async fn a_fake_starts_with_the_objects_it_is_given() {
    let fake = generated::clientset::fake::Clientset::with_objects(
        apis::scheme().unwrap(),
        [
            json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "seeded"}}),
            json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "cm", "namespace": "seeded"}, "data": {"k": "v"}}),
            {
                let mut d = deployment("d");
                d["metadata"]["namespace"] = json!("seeded");
                d
            },
        ],
    )
    .await
    .unwrap();
    assert!(fake.actions().is_empty());
    let cm = fake
        .core_v1()
        .config_maps("seeded")
        .get("cm", &GetParams::default())
        .await
        .unwrap();
    assert_eq!(cm.data.unwrap()["k"], "v");
    let listed = fake
        .apps_v1()
        .deployments("")
        .list(&ListParams::default())
        .await
        .unwrap();
    assert_eq!(listed.items.len(), 1);
    let unknown = json!({"apiVersion": "v9", "kind": "Nothing", "metadata": {"name": "x"}});
    let err = generated::clientset::fake::Clientset::with_objects(apis::scheme().unwrap(), [unknown])
        .await
        .err()
        .unwrap();
    assert!(err.to_string().contains("does not serve v9 Nothing"), "{err}");
}

/// kube-runtime's Controller reconciles a generated kind through the clientset's `kube::Api`.
#[tokio::test(flavor = "multi_thread")]
async fn kube_runtime_s_controller_reconciles_generated_kinds() {
    use kube::runtime::controller::{Action, Controller};
    use std::sync::Arc;
    let server = support::start();
    let cs = clientset(&server.url).await;
    namespaces(&cs, &["ctl"]).await;
    let d = cs.apps_v1().deployments("ctl");
    d.create(&object(deployment("reconciled")), &PostParams::default())
        .await
        .unwrap();
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<String>();
    let reconcile = |obj: Arc<apis::apps::v1::Deployment>, tx: Arc<tokio::sync::mpsc::UnboundedSender<String>>| async move {
        let _ = tx.send(obj.metadata.name.clone().unwrap_or_default());
        Ok::<_, kube::Error>(Action::await_change())
    };
    let controller = Controller::new(d.api().clone(), kube::runtime::watcher::Config::default())
        .run(reconcile, |_, _, _| Action::await_change(), Arc::new(tx))
        .for_each(|_| async {});
    tokio::spawn(controller);
    let name = tokio::time::timeout(Duration::from_secs(10), rx.recv())
        .await
        .expect("a reconcile within 10 s");
    assert_eq!(name.as_deref(), Some("reconciled"));
}

/// The clients' `kube::Api` works with kube-runtime's watcher as any kube-rs client does.
#[tokio::test(flavor = "multi_thread")]
async fn kube_runtime_watches_through_the_clientset_s_api() {
    use kube::runtime::watcher;
    let server = support::start();
    let cs = clientset(&server.url).await;
    namespaces(&cs, &["rt"]).await;
    let d = cs.apps_v1().deployments("rt");
    d.create(&object(deployment("seen")), &PostParams::default())
        .await
        .unwrap();
    let mut stream = watcher(d.api().clone(), watcher::Config::default()).boxed();
    let mut names = Vec::new();
    while names.is_empty() {
        let event = tokio::time::timeout(Duration::from_secs(10), stream.next())
            .await
            .expect("an event within 10 s")
            .expect("the watcher stays open")
            .unwrap();
        if let watcher::Event::InitApply(o) | watcher::Event::Apply(o) = event {
            names.push(o.metadata.name.unwrap());
        }
    }
    assert_eq!(names, ["seen"]);
}
