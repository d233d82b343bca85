//! What real clients and a hostile tester found answered differently from kube-apiserver, one
//! test per finding, each asserting Kubernetes' status code, reason and message: delete answers
//! and options, apply conflicts, list counts, the published OpenAPI, metadata-only views, JSON
//! patch limits, forged continue tokens, empty path segments and panics.

use crate::support;

use reqwest::{Client, StatusCode};
use serde_json::{Value, json};
use support::api::Api;

const CMS: &str = "/api/v1/namespaces/ns/configmaps";

fn cm(name: &str) -> String {
    json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name}, "data": {"k": "v"}}).to_string()
}

async fn create(api: &Api, path: &str, body: String) -> Value {
    let (code, created) = api.send("POST", path, "application/json", body).await;
    assert_eq!(code, StatusCode::CREATED, "{created}");
    created
}

/// A DELETE answers a Success Status naming what went (the core group omitted), except for kinds
/// whose storage returns the deleted object (pods) and objects finalizers keep; a namespace's
/// deletion answers 200 with the namespace, Terminating.
#[tokio::test(flavor = "multi_thread")]
async fn deletes_answer_as_kubernetes_does() {
    let api = Api::new().await;
    let created = create(&api, CMS, cm("a")).await;
    let (code, status) = api
        .send("DELETE", &format!("{CMS}/a"), "application/json", String::new())
        .await;
    assert_eq!(code, StatusCode::OK, "{status}");
    assert_eq!(
        status,
        json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Success",
               "details": {"name": "a", "kind": "configmaps", "uid": created["metadata"]["uid"]}})
    );

    let deployments = "/apis/apps/v1/namespaces/ns/deployments";
    let d = json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "d"},
                   "spec": {"selector": {"matchLabels": {"a": "b"}}, "template": {"metadata": {"labels": {"a": "b"}},
                   "spec": {"containers": [{"name": "c", "image": "i"}]}}}});
    create(&api, deployments, d.to_string()).await;
    let (_, status) = api.send("DELETE", &format!("{deployments}/d"), "", String::new()).await;
    assert_eq!(status["details"]["group"], "apps");

    let pods = "/api/v1/namespaces/ns/pods";
    let pod = json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"},
                     "spec": {"containers": [{"name": "c", "image": "i"}]}});
    create(&api, pods, pod.to_string()).await;
    let (code, deleted) = api.send("DELETE", &format!("{pods}/p"), "", String::new()).await;
    assert_eq!((code, &deleted["kind"]), (StatusCode::OK, &json!("Pod")), "{deleted}");

    let held = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "held", "finalizers": ["x/y"]}});
    create(&api, CMS, held.to_string()).await;
    let (code, kept) = api.send("DELETE", &format!("{CMS}/held"), "", String::new()).await;
    assert_eq!(code, StatusCode::OK);
    assert!(kept["metadata"]["deletionTimestamp"].is_string(), "{kept}");
    let orphan = json!({"orphanDependents": false}).to_string();
    let (code, _) = api
        .send("DELETE", &format!("{CMS}/held"), "application/json", orphan)
        .await;
    assert_eq!(code, StatusCode::ACCEPTED, "kept, with dependents to delete first");

    let ns = json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "gone"}});
    create(&api, "/api/v1/namespaces", ns.to_string()).await;
    let (code, marked) = api.send("DELETE", "/api/v1/namespaces/gone", "", String::new()).await;
    assert_eq!(
        (code, &marked["status"]["phase"]),
        (StatusCode::OK, &json!("Terminating"))
    );
}

/// `DeleteOptions` in the body count: a dry run deletes nothing (how `kubectl delete
/// --dry-run=server` and client-go send it), and a bad propagation policy is 422 in either place.
#[tokio::test(flavor = "multi_thread")]
async fn delete_options_in_the_body_are_honoured_and_checked() {
    let api = Api::new().await;
    create(&api, CMS, cm("keep")).await;
    let dry = json!({"kind": "DeleteOptions", "apiVersion": "v1", "dryRun": ["All"]}).to_string();
    let (code, _) = api
        .send("DELETE", &format!("{CMS}/keep"), "application/json", dry.clone())
        .await;
    assert_eq!(code, StatusCode::OK);
    assert_eq!(
        api.get(&format!("{CMS}/keep")).await.0,
        StatusCode::OK,
        "a dry run deletes nothing"
    );
    let (code, _) = api.send("DELETE", CMS, "application/json", dry).await;
    assert_eq!(code, StatusCode::OK);
    assert_eq!(
        api.get(&format!("{CMS}/keep")).await.0,
        StatusCode::OK,
        "nor does a dry-run collection delete"
    );

    let expected = "DeleteOptions.meta.k8s.io \"\" is invalid: propagationPolicy: Unsupported value: \"Bogus\": supported values: \"Foreground\", \"Background\", \"Orphan\", \"nil\"";
    let (code, status) = api
        .send(
            "DELETE",
            &format!("{CMS}/keep?propagationPolicy=Bogus"),
            "",
            String::new(),
        )
        .await;
    assert_eq!(
        (code, status["message"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some(expected))
    );
    let body = json!({"propagationPolicy": "Bogus"}).to_string();
    let (code, status) = api
        .send("DELETE", &format!("{CMS}/keep"), "application/json", body)
        .await;
    assert_eq!(
        (code, status["message"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some(expected))
    );
    assert_eq!(status["details"]["causes"][0]["field"], "propagationPolicy");
    assert_eq!(api.get(&format!("{CMS}/keep")).await.0, StatusCode::OK);
}

/// A server-side apply conflict lists each conflicting field as a cause.
#[tokio::test(flavor = "multi_thread")]
async fn apply_conflicts_list_their_fields() {
    let api = Api::new().await;
    let applied = |value: &str| {
        json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "shared"}, "data": {"shared": value}})
            .to_string()
    };
    let apply = "application/apply-patch+yaml";
    let (code, _) = api
        .send(
            "PATCH",
            &format!("{CMS}/shared?fieldManager=kubectl"),
            apply,
            applied("a"),
        )
        .await;
    assert_eq!(code, StatusCode::CREATED);
    let (code, status) = api
        .send(
            "PATCH",
            &format!("{CMS}/shared?fieldManager=other"),
            apply,
            applied("b"),
        )
        .await;
    assert_eq!(code, StatusCode::CONFLICT, "{status}");
    assert_eq!(
        status["details"]["causes"],
        json!([{"reason": "FieldManagerConflict", "message": "conflict with \"kubectl\"", "field": ".data.shared"}])
    );
    assert_eq!(
        status["message"],
        "Apply failed with 1 conflict: conflict with \"kubectl\": .data.shared"
    );
}

/// A server on a one-member etcd cluster of its own (kept running while the cluster lives).
async fn on_etcd(name: &str) -> (Api, support::etcd::Cluster) {
    let cluster = support::etcd::start(name, 1);
    let storage = kube_apiserver_storage::etcd::EtcdStorage::new(cluster.endpoints()).unwrap();
    (Api::on(support::start_on(std::sync::Arc::new(storage))).await, cluster)
}

#[tokio::test(flavor = "multi_thread")]
async fn paginated_lists_count_what_remains_on_the_embedded_store() {
    paginated_lists_count_what_remains(Api::new().await).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn paginated_lists_count_what_remains_on_etcd() {
    let (api, _cluster) = on_etcd("remaining").await;
    paginated_lists_count_what_remains(api).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn forged_continue_tokens_read_nothing_else_on_the_embedded_store() {
    forged_continue_tokens_read_nothing_else(Api::new().await).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn forged_continue_tokens_read_nothing_else_on_etcd() {
    let (api, _cluster) = on_etcd("continue").await;
    forged_continue_tokens_read_nothing_else(api).await;
}

/// A page of an unfiltered list says how many objects remain; a filtered one cannot know.
async fn paginated_lists_count_what_remains(api: Api) {
    for i in 0..5 {
        create(&api, CMS, cm(&format!("c{i}"))).await;
    }
    let (_, page) = api.get(&format!("{CMS}?limit=2")).await;
    assert_eq!(page["metadata"]["remainingItemCount"], 3, "{page}");
    let token = page["metadata"]["continue"].as_str().unwrap().to_string();
    let (_, next) = api.get(&format!("{CMS}?limit=2&continue={token}")).await;
    assert_eq!(next["metadata"]["remainingItemCount"], 1);
    let (_, filtered) = api.get(&format!("{CMS}?limit=2&labelSelector=a%21%3Db")).await;
    assert!(filtered["metadata"].get("remainingItemCount").is_none(), "{filtered}");
    let (_, all) = api.get(CMS).await;
    assert!(all["metadata"].get("remainingItemCount").is_none());
}

/// A continue token only continues the list it came from: a forged one naming another
/// namespace's keys reads nothing of it; one that is not a token is 400, not a panic.
async fn forged_continue_tokens_read_nothing_else(api: Api) {
    let other = json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "aaa"}});
    create(&api, "/api/v1/namespaces", other.to_string()).await;
    create(&api, "/api/v1/namespaces/aaa/configmaps", cm("secret")).await;
    let hex = |s: &str| s.bytes().map(|b| format!("{b:02x}")).collect::<String>();
    for forged in ["10//registry/configmaps/aaa/", "10/../aaa/", "10/"] {
        let (code, page) = api.get(&format!("{CMS}?limit=50&continue={}", hex(forged))).await;
        let names: Vec<&Value> = page["items"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|i| &i["metadata"]["name"])
            .collect();
        assert!(!names.contains(&&json!("secret")), "{forged}: {code} {page}");
    }
    let (code, status) = api.get(&format!("{CMS}?continue=a%C3%A9b")).await;
    assert_eq!(
        (code, status["reason"].as_str()),
        (StatusCode::BAD_REQUEST, Some("BadRequest"))
    );
}

/// An empty path segment names nothing (404), and namespaces are not deleted as a collection
/// (405, and discovery does not offer it).
#[tokio::test(flavor = "multi_thread")]
async fn paths_name_exactly_what_they_say() {
    let api = Api::new().await;
    let ns = json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "configmaps"}});
    create(&api, "/api/v1/namespaces", ns.to_string()).await;
    let (code, _) = api
        .send("DELETE", "/api/v1/namespaces//configmaps", "", String::new())
        .await;
    assert_eq!(code, StatusCode::NOT_FOUND);
    assert_eq!(api.get("/api/v1/namespaces//configmaps").await.0, StatusCode::NOT_FOUND);
    assert_eq!(
        api.get("/api/v1/namespaces/configmaps").await.0,
        StatusCode::OK,
        "still there"
    );

    let (code, status) = api.send("DELETE", "/api/v1/namespaces", "", String::new()).await;
    assert_eq!(code, StatusCode::METHOD_NOT_ALLOWED, "{status}");
    assert_eq!(status["details"], json!({"kind": "namespaces"}), "no empty group");
    assert_eq!(api.get("/api/v1/namespaces/ns").await.0, StatusCode::OK);
    let (_, discovery) = api.get("/api/v1").await;
    let namespaces = discovery["resources"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == "namespaces")
        .unwrap();
    assert!(
        !namespaces["verbs"]
            .as_array()
            .unwrap()
            .contains(&json!("deletecollection"))
    );
    let finalize = discovery["resources"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == "namespaces/finalize");
    assert_eq!(finalize.map(|f| &f["verbs"]), Some(&json!(["update"])));
}

/// `PUT namespaces/{name}/finalize` replaces the namespace's finalizers and nothing else.
#[tokio::test(flavor = "multi_thread")]
async fn a_namespace_is_finalized_through_its_subresource() {
    let api = Api::new().await;
    let (_, ns) = api.get("/api/v1/namespaces/ns").await;
    let mut body = ns.clone();
    body["spec"] = json!({"finalizers": ["example.com/hold"]});
    body["metadata"]["labels"] = json!({"ignored": "yes"});
    let (code, finalized) = api
        .send(
            "PUT",
            "/api/v1/namespaces/ns/finalize",
            "application/json",
            body.to_string(),
        )
        .await;
    assert_eq!(code, StatusCode::OK, "{finalized}");
    assert_eq!(finalized["spec"]["finalizers"], json!(["example.com/hold"]));
    assert_eq!(
        finalized["metadata"]["labels"],
        json!({"kubernetes.io/metadata.name": "ns"}),
        "only the finalizers change"
    );
}

/// `?pretty=true` indents; the published OpenAPI carries Kubernetes' query parameters and the
/// group-versions' discovery paths.
#[tokio::test(flavor = "multi_thread")]
async fn the_openapi_and_pretty_output_are_kubernetes() {
    let api = Api::new().await;
    let text = api
        .client
        .get(format!("{}/api/v1/namespaces/ns?pretty=true", api.url))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(text.starts_with("{\n  \""), "{text}");

    let (_, v2) = api.get("/openapi/v2").await;
    let paths = v2["paths"].as_object().unwrap();
    for root in ["/api/v1/", "/apis/apps/v1/"] {
        assert!(paths[root]["get"]["operationId"].is_string(), "{root}");
    }
    assert_eq!(paths["/apis/apps/v1/"]["get"]["operationId"], "getAppsV1APIResources");
    let names = |op: &Value| -> Vec<String> {
        op["parameters"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["name"].as_str().unwrap().to_string())
            .collect()
    };
    let mut operations = 0;
    for (path, item) in paths.iter().filter(|(p, _)| p.contains("{name}") || p.ends_with('s')) {
        for (method, op) in item.as_object().unwrap() {
            operations += 1;
            assert!(names(op).contains(&"pretty".to_string()), "{method} {path}");
        }
    }
    assert!(operations > 100, "{operations}");
    let delete = &paths["/apis/apps/v1/namespaces/{namespace}/deployments/{name}"]["delete"];
    for p in ["gracePeriodSeconds", "orphanDependents", "propagationPolicy", "dryRun"] {
        assert!(names(delete).contains(&p.to_string()), "{p}");
    }
    assert_eq!(
        paths["/api/v1/namespaces/{name}/finalize"]["put"]["operationId"],
        "replaceCoreV1NamespaceFinalize"
    );
}

/// `as=PartialObjectMetadata(List)`: metadata only, for one object, a list and a watch, as
/// client-go's metadata client and kube-rs' `metadata_watcher` ask.
#[tokio::test(flavor = "multi_thread")]
async fn metadata_only_views_are_served() {
    let api = Api::new().await;
    create(&api, CMS, cm("m")).await;
    let get = |path: String, accept: &'static str| {
        let client = api.client.clone();
        async move {
            let r = client.get(path).header("accept", accept).send().await.unwrap();
            (r.status(), r.json::<Value>().await.unwrap())
        }
    };
    let one = "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1";
    let many = "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1";
    let (code, obj) = get(format!("{}{CMS}/m", api.url), one).await;
    assert_eq!(code, StatusCode::OK);
    assert_eq!(
        (&obj["kind"], &obj["apiVersion"]),
        (&json!("PartialObjectMetadata"), &json!("meta.k8s.io/v1"))
    );
    assert_eq!(obj["metadata"]["name"], "m");
    assert!(obj.get("data").is_none());
    let (_, list) = get(format!("{}{CMS}", api.url), many).await;
    assert_eq!(list["kind"], "PartialObjectMetadataList");
    assert_eq!(list["items"][0]["metadata"]["name"], "m");
    assert!(list["items"][0].get("data").is_none());
    assert_eq!(
        get(format!("{}{CMS}", api.url), one).await.0,
        StatusCode::NOT_ACCEPTABLE
    );

    // kube-rs: the metadata calls and the metadata watcher a Controller's `owns` runs on.
    use futures::StreamExt;
    let client = kube::Client::try_from(kube::Config::new(api.url.parse().unwrap())).unwrap();
    let cms: kube::Api<apis::core::v1::ConfigMap> = kube::Api::namespaced(client, "ns");
    let listed = cms.list_metadata(&Default::default()).await.unwrap();
    assert_eq!(listed.items.len(), 1);
    assert_eq!(cms.get_metadata("m").await.unwrap().metadata.name.as_deref(), Some("m"));
    // `Api<PartialObjectMeta<K>>` asks for metadata only on every call, the watch too.
    let metadata: kube::Api<kube::core::PartialObjectMeta<apis::core::v1::ConfigMap>> =
        kube::Api::namespaced(cms.clone().into_client(), "ns");
    let stream = kube::runtime::watcher(metadata, Default::default());
    let mut stream = std::pin::pin!(kube::runtime::WatchStreamExt::applied_objects(stream));
    create(&api, CMS, cm("n")).await;
    let mut seen = Vec::new();
    while seen.len() < 2 {
        let next = tokio::time::timeout(std::time::Duration::from_secs(10), stream.next()).await;
        let obj = next.expect("an event within 10 s").unwrap().unwrap();
        seen.push(obj.metadata.name.unwrap());
    }
    seen.sort();
    assert_eq!(seen, ["m", "n"]);
}

/// JSON patches: a `test` of null passes on a missing path (kube-runtime's finalizer helper),
/// copies of copies stop at three times the body limit, and more than 10,000 operations is 413.
#[tokio::test(flavor = "multi_thread")]
async fn json_patches_behave_and_are_bounded() {
    let api = Api::new().await;
    create(&api, CMS, cm("p")).await;
    let patch = "application/json-patch+json";
    let add = json!([{"op": "test", "path": "/metadata/finalizers", "value": null},
                     {"op": "add", "path": "/metadata/finalizers", "value": ["example.com/f"]}]);
    let (code, patched) = api.send("PATCH", &format!("{CMS}/p"), patch, add.to_string()).await;
    assert_eq!(code, StatusCode::OK, "{patched}");
    assert_eq!(patched["metadata"]["finalizers"], json!(["example.com/f"]));

    let mut bomb = vec![json!({"op": "add", "path": "/data/b", "value": "x".repeat(1024)})];
    for i in 0..24 {
        bomb.push(json!({"op": "copy", "from": "/data", "path": format!("/metadata/annotations~1c{i}")}));
        bomb.push(json!({"op": "add", "path": "/metadata/annotations", "value": {}}));
        bomb.push(json!({"op": "copy", "from": "/metadata", "path": format!("/data/m{i}")}));
    }
    let (code, status) = api
        .send("PATCH", &format!("{CMS}/p"), patch, json!(bomb).to_string())
        .await;
    assert_eq!(code, StatusCode::UNPROCESSABLE_ENTITY, "{status}");
    assert!(
        status["message"]
            .as_str()
            .unwrap()
            .contains("accumulated size increase of copy"),
        "{status}"
    );

    let many = vec![json!({"op": "test", "path": "/metadata/name", "value": "p"}); 40_000];
    let (code, status) = api
        .send("PATCH", &format!("{CMS}/p"), patch, json!(many).to_string())
        .await;
    assert_eq!(code, StatusCode::PAYLOAD_TOO_LARGE, "{status}");
    assert_eq!(
        status["message"],
        "Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 40000"
    );
}

/// A generated name cut inside a multibyte character is a 422 for the name, not a panic.
#[tokio::test(flavor = "multi_thread")]
async fn hostile_names_get_answers() {
    let api = Api::new().await;
    let body = json!({"apiVersion": "v1", "kind": "ConfigMap",
                      "metadata": {"generateName": format!("{}\u{e9}-", "a".repeat(57))}});
    let (code, status) = api.send("POST", CMS, "application/json", body.to_string()).await;
    assert_eq!(
        (code, status["reason"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("Invalid")),
        "{status}"
    );
}

/// A connection that sends no request within the idle timeout is closed; clients sending their
/// bodies slowly hold no permit others need.
#[tokio::test(flavor = "multi_thread")]
async fn slow_and_idle_clients_do_not_lock_others_out() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let server = support::start_with(
        std::sync::Arc::new(kube_apiserver_storage::memory::MemoryStorage::default()),
        kube_apiserver::Config {
            generic: kube_generic_apiserver::Config {
                max_requests_inflight: 2,
                idle_timeout: std::time::Duration::from_millis(500),
                request_timeout: std::time::Duration::from_secs(5),
                ..Default::default()
            },
            ..Default::default()
        },
    );
    let host = server.url.trim_start_matches("http://").to_string();
    let mut slow = Vec::new();
    for _ in 0..4 {
        let mut s = tokio::net::TcpStream::connect(&host).await.unwrap();
        let head = "POST /api/v1/namespaces HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{";
        s.write_all(head.as_bytes()).await.unwrap();
        slow.push(s);
    }
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    for _ in 0..3 {
        let r = Client::new()
            .get(format!("{}/api/v1/namespaces", server.url))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), StatusCode::OK, "four slow bodies hold none of two permits");
    }
    let mut idle = tokio::net::TcpStream::connect(&host).await.unwrap();
    let mut buf = [0u8; 64];
    let read = tokio::time::timeout(std::time::Duration::from_secs(5), idle.read(&mut buf)).await;
    assert!(
        matches!(read, Ok(Ok(0)) | Ok(Err(_))),
        "an idle connection is closed: {read:?}"
    );
    // The slow bodies are cut at the request timeout: 504 Timeout.
    let mut answer = vec![0u8; 4096];
    let n = tokio::time::timeout(std::time::Duration::from_secs(10), slow[0].read(&mut answer))
        .await
        .unwrap()
        .unwrap();
    let answer = String::from_utf8_lossy(&answer[..n]);
    assert!(answer.starts_with("HTTP/1.1 504"), "{answer}");
}

/// Stopping the server ends its watches, so it exits promptly with one open.
#[tokio::test(flavor = "multi_thread")]
async fn shutdown_ends_open_watches() {
    let storage = std::sync::Arc::new(kube_apiserver_storage::memory::MemoryStorage::default());
    let server = std::sync::Arc::new(support::sample(storage, Default::default()));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let serving = tokio::spawn(server.serve(listener, async move {
        let _ = stopped.await;
    }));
    let mut watch = Client::new()
        .get(format!("{url}/api/v1/namespaces?watch=true"))
        .send()
        .await
        .unwrap();
    assert_eq!(watch.status(), StatusCode::OK);
    stop.send(()).unwrap();
    let ended = tokio::time::timeout(std::time::Duration::from_secs(5), serving).await;
    assert!(
        matches!(ended, Ok(Ok(Ok(())))),
        "the server stopped within 5 s: {ended:?}"
    );
    // What the watch sent before (the system namespaces' ADDED events), then its end.
    let rest = tokio::time::timeout(std::time::Duration::from_secs(5), async {
        loop {
            match watch.chunk().await {
                Ok(Some(_)) => continue,
                end => return end,
            }
        }
    })
    .await;
    assert!(matches!(rest, Ok(Ok(None)) | Ok(Err(_))), "the watch ended: {rest:?}");
}

/// ObjectMeta is validated as apimachinery validates it: finalizer names, owner references,
/// managedFields entries, field managers, generateName.
#[tokio::test(flavor = "multi_thread")]
async fn object_meta_is_validated_as_kubernetes_does() {
    let api = Api::new().await;
    let refused = |metadata: Value, field: &'static str| {
        let body = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": metadata}).to_string();
        let api = &api;
        async move {
            let (code, status) = api.send("POST", CMS, "application/json", body).await;
            assert_eq!(code, StatusCode::UNPROCESSABLE_ENTITY, "{status}");
            let fields: Vec<&str> = status["details"]["causes"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c["field"].as_str().unwrap())
                .collect();
            assert!(fields.contains(&field), "{field} in {status}");
            status
        }
    };
    let status = refused(json!({"name": "f", "finalizers": ["cleanup"]}), "metadata.finalizers").await;
    assert!(
        status["message"]
            .as_str()
            .unwrap()
            .contains("name is neither a standard finalizer name nor is it fully qualified")
    );
    refused(
        json!({"name": "o", "ownerReferences": [{"apiVersion": "v1", "kind": "ConfigMap", "name": "x"}]}),
        "metadata.ownerReferences.uid",
    )
    .await;
    refused(
        json!({"name": "m", "managedFields": [{"manager": "m", "operation": "Bogus", "fieldsType": "FieldsV1"}]}),
        "metadata.managedFields[0].operation",
    )
    .await;
    refused(json!({"generateName": "a".repeat(300)}), "metadata.generateName").await;
    let manager = "m".repeat(129);
    let (code, status) = api
        .send(
            "POST",
            &format!("{CMS}?fieldManager={manager}"),
            "application/json",
            cm("fm"),
        )
        .await;
    assert_eq!(code, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        status["message"],
        "CreateOptions.meta.k8s.io \"\" is invalid: fieldManager: Too long: may not be more than 128 bytes"
    );
    let (code, _) = api
        .send(
            "POST",
            CMS,
            "application/json",
            json!({"apiVersion": "v1", "kind": "ConfigMap",
            "metadata": {"name": "ok", "finalizers": ["example.com/f", "orphan"]}})
            .to_string(),
        )
        .await;
    assert_eq!(code, StatusCode::CREATED, "qualified and standard finalizers are fine");
}

/// Paths and methods Kubernetes does not route are 404 and 405; an update names the object it
/// replaces (another uid: 409; another namespace: 400); resourceVersion "0" is unconditional.
#[tokio::test(flavor = "multi_thread")]
async fn updates_and_routes_are_kubernetes() {
    let api = Api::new().await;
    let created = create(&api, CMS, cm("u")).await;
    assert_eq!(
        api.send("PUT", CMS, "application/json", cm("u")).await.0,
        StatusCode::METHOD_NOT_ALLOWED
    );
    assert_eq!(
        api.send("PATCH", CMS, "application/merge-patch+json", "{}".into())
            .await
            .0,
        StatusCode::METHOD_NOT_ALLOWED
    );
    let (code, status) = api.send("POST", &format!("{CMS}/u"), "application/json", cm("u")).await;
    assert_eq!(
        (code, &status["reason"]),
        (StatusCode::METHOD_NOT_ALLOWED, &json!("MethodNotAllowed"))
    );
    assert_eq!(
        api.get("/apis/apiextensions.k8s.io/v1/namespaces/ns/customresourcedefinitions")
            .await
            .0,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        api.get("/api/v1/namespaces/ns/namespaces").await.0,
        StatusCode::NOT_FOUND
    );

    let mut other = created.clone();
    other["metadata"]["uid"] = json!("00000000-0000-0000-0000-000000000000");
    let (code, status) = api
        .send("PUT", &format!("{CMS}/u"), "application/json", other.to_string())
        .await;
    assert_eq!(code, StatusCode::CONFLICT, "{status}");
    assert!(
        status["message"]
            .as_str()
            .unwrap()
            .contains("Precondition failed: UID in precondition")
    );

    let mut unconditional = created.clone();
    unconditional["metadata"]["resourceVersion"] = json!("0");
    unconditional["data"] = json!({"k": "w"});
    let (code, updated) = api
        .send(
            "PUT",
            &format!("{CMS}/u"),
            "application/json",
            unconditional.to_string(),
        )
        .await;
    assert_eq!(
        (code, &updated["data"]["k"]),
        (StatusCode::OK, &json!("w")),
        "{updated}"
    );

    let moved = json!({"metadata": {"namespace": "elsewhere"}}).to_string();
    let (code, status) = api
        .send("PATCH", &format!("{CMS}/u"), "application/merge-patch+json", moved)
        .await;
    assert_eq!(code, StatusCode::BAD_REQUEST, "{status}");
    assert_eq!(
        status["message"],
        "the namespace of the object (elsewhere) does not match the namespace on the request (ns)"
    );
    let applied = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "u", "namespace": "elsewhere"}});
    let (code, _) = api
        .send(
            "PATCH",
            &format!("{CMS}/u?fieldManager=m"),
            "application/apply-patch+yaml",
            applied.to_string(),
        )
        .await;
    assert_eq!(code, StatusCode::BAD_REQUEST);
}

/// An object being deleted takes no new finalizer; `default` is not deleted; repeated JSON keys
/// are an error under Strict and a warning otherwise.
#[tokio::test(flavor = "multi_thread")]
async fn deletion_and_decoding_edges_are_kubernetes() {
    let api = Api::new().await;
    let held =
        json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "h", "finalizers": ["example.com/a"]}});
    create(&api, CMS, held.to_string()).await;
    api.send("DELETE", &format!("{CMS}/h"), "", String::new()).await;
    let add = json!({"metadata": {"finalizers": ["example.com/a", "example.com/b"]}}).to_string();
    let (code, status) = api
        .send("PATCH", &format!("{CMS}/h"), "application/merge-patch+json", add)
        .await;
    assert_eq!(code, StatusCode::UNPROCESSABLE_ENTITY, "{status}");
    assert_eq!(status["details"]["causes"][0]["field"], "metadata.finalizers");
    assert!(status["message"].as_str().unwrap().contains(
        "no new finalizers can be added if the object is being deleted, found new finalizers []string{\"example.com/b\"}"
    ));

    let (code, status) = api
        .send("DELETE", "/api/v1/namespaces/default", "", String::new())
        .await;
    assert_eq!(code, StatusCode::FORBIDDEN);
    assert_eq!(
        status["message"],
        "namespaces \"default\" is forbidden: this namespace may not be deleted"
    );

    let twice = r#"{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"d"},"data":{"k":"1","k":"2"}}"#;
    let (code, status) = api
        .send(
            "POST",
            &format!("{CMS}?fieldValidation=Strict"),
            "application/json",
            twice.into(),
        )
        .await;
    assert_eq!(code, StatusCode::BAD_REQUEST);
    assert_eq!(status["message"], "strict decoding error: duplicate field \"data.k\"");
    let r = api
        .client
        .post(format!("{}{CMS}", api.url))
        .header("content-type", "application/json")
        .body(twice)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::CREATED);
    assert_eq!(r.headers()["warning"], "299 - \"duplicate field \\\"data.k\\\"\"");
}

/// On etcd: readiness follows etcd, etcd's own refusals reach the client in etcd's words without
/// its address, and a namespace left Terminating by a restart finishes going.
#[tokio::test(flavor = "multi_thread")]
async fn etcd_failures_and_restarts_are_answered_as_kubernetes_does() {
    let mut cluster = support::etcd::start("answers", 1);
    let storage = std::sync::Arc::new(kube_apiserver_storage::etcd::EtcdStorage::new(cluster.endpoints()).unwrap());
    let api = Api::on(support::start_on(storage.clone())).await;
    assert_eq!(api.get("/readyz").await.0, StatusCode::OK);

    // etcd refuses requests over 1.5 MiB; the server's own limit is 3 MiB.
    // (A ConfigMap is refused at 1 MiB before it reaches etcd; a Pod's arguments are not.)
    let big = json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "big"},
                     "spec": {"containers": [{"name": "c", "image": "i", "args": ["x".repeat(2 * 1024 * 1024)]}]}});
    let (code, status) = api
        .send(
            "POST",
            "/api/v1/namespaces/ns/pods",
            "application/json",
            big.to_string(),
        )
        .await;
    assert_eq!(code, StatusCode::INTERNAL_SERVER_ERROR, "{status}");
    // Over etcd's JSON gateway the refusal is gRPC's message limit (2 MiB after base64), which
    // comes before etcd's own `request is too large`; either way it is etcd's words.
    let message = status["message"].as_str().unwrap();
    assert!(
        message.contains("larger than max") || message.contains("too large"),
        "{message}"
    );
    assert!(status.get("reason").is_none(), "an unknown reason is omitted: {status}");
    assert!(
        !status.to_string().contains("127.0.0.1"),
        "no internal address: {status}"
    );

    // A namespace marked Terminating before a restart: the next server finishes it.
    let ns = json!({"apiVersion": "v1", "kind": "Namespace",
                    "metadata": {"name": "doomed", "uid": "u", "deletionTimestamp": "2026-01-01T00:00:00Z"},
                    "spec": {"finalizers": ["kubernetes"]}, "status": {"phase": "Terminating"}});
    kube_apiserver_storage::Storage::create(&*storage, "/registry/namespaces/doomed", ns.to_string().into())
        .await
        .unwrap();
    let restarted = Api::bare(support::start_on(storage.clone()));
    let mut gone = false;
    for _ in 0..50 {
        if restarted.get("/api/v1/namespaces/doomed").await.0 == StatusCode::NOT_FOUND {
            gone = true;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert!(gone, "the Terminating namespace finished going after the restart");

    for member in &mut cluster.members {
        member.kill();
    }
    let (code, body) = api.get("/readyz").await;
    assert_eq!(code, StatusCode::INTERNAL_SERVER_ERROR, "{body}");
    assert!(body.as_str().unwrap().contains("[-]etcd failed"), "{body}");
}
