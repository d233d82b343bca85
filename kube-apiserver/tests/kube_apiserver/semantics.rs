//! Request semantics over HTTP beyond plain CRUD: admission plugins, `/openapi/v2`, and lists read
//! as of a revision (`resourceVersionMatch`, continue tokens) on both backends.

use crate::support;

use reqwest::StatusCode;
use serde_json::{Value, json};
use support::api::Api;

/// A server with AlwaysPullImages: Pods created, replaced and patched pull on every start, other
/// kinds and the status subresource are left alone.
#[tokio::test(flavor = "multi_thread")]
async fn the_mutating_admission_plugin_rewrites_pods_on_every_write() {
    let storage = std::sync::Arc::new(kube_apiserver_storage::memory::MemoryStorage::default());
    let plugins = ["AlwaysPullImages".parse().unwrap()];
    let api = Api::on(support::start_with_plugins(
        storage,
        kube_apiserver::Config::default(),
        &plugins,
    ))
    .await;
    let pods = "/api/v1/namespaces/ns/pods";
    let pod = json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}, "spec": {
        "initContainers": [{"name": "init", "image": "busybox", "imagePullPolicy": "IfNotPresent"}],
        "containers": [{"name": "app", "image": "nginx:1.27", "imagePullPolicy": "Never"}]}});
    let (code, created) = api.send("POST", pods, "application/json", pod.to_string()).await;
    assert_eq!(code, StatusCode::CREATED, "{created}");
    let policies = |p: &Value| {
        [
            p["spec"]["initContainers"][0]["imagePullPolicy"].clone(),
            p["spec"]["containers"][0]["imagePullPolicy"].clone(),
        ]
    };
    assert_eq!(policies(&created), [json!("Always"), json!("Always")]);

    let mut replaced = created.clone();
    replaced["spec"]["containers"][0]["imagePullPolicy"] = json!("IfNotPresent");
    let (code, replaced) = api
        .send("PUT", &format!("{pods}/p"), "application/json", replaced.to_string())
        .await;
    assert_eq!(code, StatusCode::OK, "{replaced}");
    assert_eq!(policies(&replaced), [json!("Always"), json!("Always")]);

    let patch = json!({"spec": {"containers": [{"name": "app", "imagePullPolicy": "Never"}]}});
    let (code, patched) = api
        .send(
            "PATCH",
            &format!("{pods}/p"),
            "application/strategic-merge-patch+json",
            patch.to_string(),
        )
        .await;
    assert_eq!(code, StatusCode::OK, "{patched}");
    assert_eq!(policies(&patched)[1], json!("Always"));

    // Without the plugin the policy is what the client sent.
    let plain = Api::new().await;
    let (_, created) = plain.send("POST", pods, "application/json", pod.to_string()).await;
    assert_eq!(policies(&created), [json!("IfNotPresent"), json!("Never")]);
    assert_eq!(
        "NoSuchPlugin".parse::<kube_apiserver::Plugin>().unwrap_err(),
        "unknown admission plugin \"NoSuchPlugin\": this server has NamespaceLifecycle, AlwaysPullImages (NamespaceLifecycle is on unless disabled)"
    );
}

/// `/openapi/v2` is one Swagger 2.0 document of every group whose every reference resolves.
#[tokio::test(flavor = "multi_thread")]
async fn openapi_v2_merges_every_group_into_one_swagger_document() {
    let api = Api::new().await;
    let (code, doc) = api.get("/openapi/v2").await;
    assert_eq!(code, StatusCode::OK);
    assert_eq!(doc["swagger"], "2.0");
    fn refs<'v>(v: &'v Value, out: &mut Vec<&'v str>) {
        match v {
            Value::Object(m) => m.iter().for_each(|(k, v)| match (k.as_str(), v) {
                ("$ref", Value::String(r)) => out.push(r),
                _ => refs(v, out),
            }),
            Value::Array(a) => a.iter().for_each(|v| refs(v, out)),
            _ => {}
        }
    }
    let mut all = Vec::new();
    refs(&doc, &mut all);
    assert!(all.len() > 100, "{} references", all.len());
    for r in all {
        let name = r
            .strip_prefix("#/definitions/")
            .unwrap_or_else(|| panic!("{r} is not a v2 reference"));
        assert!(doc["definitions"].get(name).is_some(), "{r} has no definition");
    }
    let list = &doc["paths"]["/apis/apps/v1/namespaces/{namespace}/deployments"]["get"];
    assert_eq!(list["operationId"], "listAppsV1NamespacedDeployment");
    let create = &doc["paths"]["/apis/apps/v1/namespaces/{namespace}/deployments"]["post"];
    let body = create["parameters"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["in"] == "body")
        .unwrap();
    assert!(
        body["schema"]["$ref"].as_str().unwrap().ends_with("apps.v1.Deployment"),
        "{body}"
    );
    let widgets = "/apis/widgets.example.dev/v1/namespaces/{namespace}/widgets/{name}";
    assert_eq!(
        doc["paths"][widgets]["put"]["operationId"],
        "replaceWidgetsExampleDevV1NamespacedWidget"
    );
}

/// `resourceVersionMatch` and continue tokens: later pages read as of the first, or expire once
/// the store's history no longer reaches that revision (`keeps_history` false: a store that
/// keeps two changes), Exact reads a revision, NotOlderThan a revision the store has not reached
/// is 504, and Kubernetes' checks of the combination.
async fn lists_read_as_of_a_revision(api: Api, keeps_history: bool) {
    let path = "/api/v1/namespaces/ns/configmaps";
    for name in ["a", "b"] {
        let cm = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name}});
        assert_eq!(
            api.send("POST", path, "application/json", cm.to_string()).await.0,
            StatusCode::CREATED
        );
    }
    let (_, first) = api.get(&format!("{path}?limit=1")).await;
    let token = first["metadata"]["continue"].as_str().unwrap().to_string();
    let rv = first["metadata"]["resourceVersion"].as_str().unwrap().to_string();
    let (code, exact) = api
        .get(&format!("{path}?resourceVersion={rv}&resourceVersionMatch=Exact"))
        .await;
    assert_eq!(
        (code, exact["items"].as_array().map(Vec::len)),
        (StatusCode::OK, Some(2)),
        "{exact}"
    );
    // Three changes: one under the listed prefix, and two elsewhere that push the revision out of
    // a history of two.
    for (path, name) in [
        (path, "aa"),
        ("/api/v1/namespaces", "elsewhere-1"),
        ("/api/v1/namespaces", "elsewhere-2"),
    ] {
        let kind = if name == "aa" { "ConfigMap" } else { "Namespace" };
        let obj = json!({"apiVersion": "v1", "kind": kind, "metadata": {"name": name}});
        assert_eq!(
            api.send("POST", path, "application/json", obj.to_string()).await.0,
            StatusCode::CREATED
        );
    }

    let (code, next) = api.get(&format!("{path}?limit=1&continue={token}")).await;
    let (old, _) = api
        .get(&format!("{path}?resourceVersion={rv}&resourceVersionMatch=Exact"))
        .await;
    if keeps_history {
        assert_eq!(code, StatusCode::OK, "{next}");
        assert_eq!(
            next["items"][0]["metadata"]["name"], "b",
            "aa came later: not on this page"
        );
        assert_eq!(next["metadata"]["resourceVersion"], rv.as_str());
        assert_eq!(old, StatusCode::OK);
    } else {
        assert_eq!(
            (code, next["reason"].as_str()),
            (StatusCode::GONE, Some("Expired")),
            "{next}"
        );
        assert_eq!(old, StatusCode::GONE);
    }
    let ahead: u64 = rv.parse::<u64>().unwrap() + 1000;
    let (code, status) = api.get(&format!("{path}?resourceVersion={ahead}")).await;
    assert_eq!(code, StatusCode::GATEWAY_TIMEOUT, "{status}");
    assert!(
        status["message"]
            .as_str()
            .unwrap()
            .starts_with("Too large resource version"),
        "{status}"
    );

    for (query, code, message) in [
        (
            "resourceVersionMatch=Exact",
            422,
            "resourceVersionMatch is forbidden unless resourceVersion is provided",
        ),
        (
            "resourceVersion=0&resourceVersionMatch=Exact",
            422,
            "resourceVersionMatch \"exact\" is forbidden for resourceVersion \"0\"",
        ),
        (
            "resourceVersion=1&resourceVersionMatch=Newest",
            422,
            "Unsupported value: \"Newest\"",
        ),
        (
            &format!("continue={token}&resourceVersionMatch=Exact&resourceVersion=1"),
            422,
            "resourceVersionMatch is forbidden when continue is provided",
        ),
        (
            &format!("continue={token}&resourceVersion=1"),
            400,
            "specifying resource version is not allowed when using continue",
        ),
    ] {
        let (got, status) = api.get(&format!("{path}?{query}")).await;
        assert_eq!(got.as_u16(), code, "{query}: {status}");
        assert!(
            status["message"].as_str().unwrap().contains(message),
            "{query}: {status}"
        );
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn lists_read_as_of_a_revision_on_the_embedded_store() {
    lists_read_as_of_a_revision(Api::new().await, true).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn lists_as_of_a_revision_the_history_lost_expire() {
    let storage = kube_apiserver_storage::memory::MemoryStorage::with_history(2);
    lists_read_as_of_a_revision(Api::on(support::start_on(std::sync::Arc::new(storage))).await, false).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn lists_read_as_of_a_revision_on_etcd() {
    let cluster = support::etcd::start("list-revisions", 1);
    let storage = kube_apiserver_storage::etcd::EtcdStorage::new(cluster.endpoints()).unwrap();
    lists_read_as_of_a_revision(Api::on(support::start_on(std::sync::Arc::new(storage))).await, true).await;
}

/// Pods select on the fields Kubernetes indexes for them (`apis/src/core/v1/field_labels.rs`).
#[tokio::test(flavor = "multi_thread")]
async fn pods_select_on_their_field_labels() {
    let api = Api::new().await;
    let pods = "/api/v1/namespaces/ns/pods";
    for (name, node) in [("p1", "n1"), ("p2", "n2")] {
        let pod = json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name},
            "spec": {"nodeName": node, "containers": [{"name": "c", "image": "nginx"}]}});
        assert_eq!(
            api.send("POST", pods, "application/json", pod.to_string()).await.0,
            StatusCode::CREATED
        );
    }
    let (code, list) = api.get(&format!("{pods}?fieldSelector=spec.nodeName%3Dn1")).await;
    assert_eq!(code, StatusCode::OK, "{list}");
    let names: Vec<&Value> = list["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| &p["metadata"]["name"])
        .collect();
    assert_eq!(names, [&json!("p1")]);
    let (code, status) = api.get(&format!("{pods}?fieldSelector=spec.containers%3Dx")).await;
    assert_eq!(code, StatusCode::BAD_REQUEST, "{status}");
    assert!(
        status["message"].as_str().unwrap().contains("spec.containers"),
        "{status}"
    );
}
