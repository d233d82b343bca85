//! The server over HTTP with a plain client: Status codes and messages for bad input, optimistic
//! concurrency, status subresource semantics, and concurrent writers and watchers.

use crate::support;

use reqwest::{Client, StatusCode};
use serde_json::{Value, json};
use support::api::Api;

const DEPLOYMENTS: &str = "/apis/apps/v1/namespaces/ns/deployments";

fn deployment(name: &str) -> Value {
    json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": name},
           "spec": {"selector": {"matchLabels": {"app": name}},
                    "template": {"metadata": {"labels": {"app": name}}, "spec": {"containers": [{"name": "c", "image": "i"}]}}}})
}

#[tokio::test(flavor = "multi_thread")]
async fn bad_input_gets_the_right_status_and_stores_nothing() {
    let api = Api::new().await;
    let (strict, put_other, garbage, bad_continue) = (
        format!("{DEPLOYMENTS}?fieldValidation=Strict"),
        format!("{DEPLOYMENTS}/other"),
        format!("{DEPLOYMENTS}?watch=true&resourceVersion=garbage"),
        format!("{DEPLOYMENTS}?continue=zzzz"),
    );
    let cases: Vec<(&str, &str, &str, String, u16, &str)> = vec![
        (
            "POST",
            DEPLOYMENTS,
            "application/json",
            "{not json".into(),
            400,
            "json parse error",
        ),
        (
            "POST",
            DEPLOYMENTS,
            "application/yaml",
            "a: [b".into(),
            400,
            "error converting YAML",
        ),
        (
            "POST",
            DEPLOYMENTS,
            "application/json",
            json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "x"}}).to_string(),
            400,
            "do not match",
        ),
        (
            "POST",
            DEPLOYMENTS,
            "application/json",
            json!({"apiVersion": "apps/v9", "kind": "Deployment", "metadata": {"name": "x"}}).to_string(),
            400,
            "apps/v9",
        ),
        (
            "POST",
            DEPLOYMENTS,
            "application/json",
            json!({"apiVersion": "apps/v1", "kind": "Gadget", "metadata": {"name": "x"}}).to_string(),
            400,
            "do not match",
        ),
        (
            "POST",
            DEPLOYMENTS,
            "application/json",
            {
                let mut d = deployment("Bad_Name");
                d["metadata"]["name"] = json!("Bad_Name");
                d.to_string()
            },
            422,
            "metadata.name: Invalid value: \"Bad_Name\"",
        ),
        (
            "POST",
            DEPLOYMENTS,
            "application/json",
            {
                let mut d = deployment("x");
                d["metadata"]["namespace"] = json!("other");
                d.to_string()
            },
            400,
            "does not match the namespace",
        ),
        (
            "POST",
            &strict,
            "application/json",
            {
                let mut d = deployment("x");
                d["spec"]["bogus"] = json!(1);
                d.to_string()
            },
            400,
            "unknown field \"spec.bogus\"",
        ),
        (
            "POST",
            DEPLOYMENTS,
            "text/plain",
            deployment("x").to_string(),
            415,
            "unknown format",
        ),
        (
            "POST",
            "/apis/apps/v1/namespaces/missing/deployments",
            "application/json",
            deployment("x").to_string(),
            404,
            "namespaces \"missing\" not found",
        ),
        (
            "PUT",
            &put_other,
            "application/json",
            deployment("x").to_string(),
            400,
            "does not match the name on the URL",
        ),
        (
            "GET",
            &garbage,
            "application/json",
            String::new(),
            400,
            "invalid resource version",
        ),
        (
            "GET",
            &bad_continue,
            "application/json",
            String::new(),
            400,
            "continue key is not valid",
        ),
        (
            "GET",
            "/apis/apps/v1/namespaces/ns/gizmos",
            "application/json",
            String::new(),
            404,
            "could not find the requested resource",
        ),
    ];
    // A patch that does not apply is Invalid, and a patch of an unknown type is refused.
    let (code, _) = api
        .send("POST", DEPLOYMENTS, "application/json", deployment("p").to_string())
        .await;
    assert_eq!(code, StatusCode::CREATED);
    let path_p = format!("{DEPLOYMENTS}/p");
    let (code, status) = api
        .send(
            "PATCH",
            &path_p,
            "application/json-patch+json",
            r#"[{"op":"remove","path":"/spec/none"}]"#.into(),
        )
        .await;
    assert_eq!(
        (code.as_u16(), status["reason"].as_str()),
        (422, Some("Invalid")),
        "{status}"
    );
    let (code, _) = api.send("PATCH", &path_p, "text/plain", "{}".into()).await;
    assert_eq!(code.as_u16(), 415);
    let (code, _) = api.send("DELETE", &path_p, "application/json", String::new()).await;
    assert_eq!(code, StatusCode::OK);
    for (method, path, content_type, body, code, message) in cases {
        let (got, status) = api.send(method, path, content_type, body).await;
        assert_eq!(got.as_u16(), code, "{method} {path}: {status}");
        assert_eq!(status["kind"], "Status", "{status}");
        assert_eq!(status["code"], code);
        let text = status["message"].as_str().unwrap_or("");
        assert!(text.contains(message), "{method} {path}: {text:?} lacks {message:?}");
    }
    // An oversized body is refused from its Content-Length, before it is read.
    let head = format!(
        "POST {DEPLOYMENTS} HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n",
        4 * 1024 * 1024
    );
    let mut tcp = tokio::net::TcpStream::connect(api.url.trim_start_matches("http://"))
        .await
        .unwrap();
    tokio::io::AsyncWriteExt::write_all(&mut tcp, head.as_bytes())
        .await
        .unwrap();
    let mut answer = String::new();
    let mut buf = vec![0; 4096];
    while !answer.contains("\"code\":413") {
        let n = tokio::io::AsyncReadExt::read(&mut tcp, &mut buf).await.unwrap();
        if n == 0 {
            break;
        }
        answer.push_str(&String::from_utf8_lossy(&buf[..n]));
    }
    assert!(
        answer.starts_with("HTTP/1.1 413") && answer.contains("larger than 3145728 bytes"),
        "{answer}"
    );
    let (_, list) = api.get(DEPLOYMENTS).await;
    assert_eq!(list["items"], json!([]), "nothing was stored");
    let (code, _) = api.get(&format!("{DEPLOYMENTS}?limit=100000")).await;
    assert_eq!(code, StatusCode::OK, "a huge limit is capped, not refused");
}

#[tokio::test(flavor = "multi_thread")]
async fn updates_are_optimistic_and_status_is_its_own_subresource() {
    let api = Api::new().await;
    let (code, created) = api
        .send("POST", DEPLOYMENTS, "application/json", deployment("web").to_string())
        .await;
    assert_eq!(code, StatusCode::CREATED);
    let mut stale = created.clone();
    stale["spec"]["replicas"] = json!(5);
    stale["status"] = json!({"replicas": 9});
    let (code, updated) = api
        .send(
            "PUT",
            &format!("{DEPLOYMENTS}/web"),
            "application/json",
            stale.to_string(),
        )
        .await;
    assert_eq!(code, StatusCode::OK, "{updated}");
    assert_eq!(updated["metadata"]["generation"], 2);
    assert!(
        updated["status"].get("replicas").is_none(),
        "a plain update ignores status: {updated}"
    );
    let (code, conflict) = api
        .send(
            "PUT",
            &format!("{DEPLOYMENTS}/web"),
            "application/json",
            stale.to_string(),
        )
        .await;
    assert_eq!(
        (code, conflict["reason"].as_str()),
        (StatusCode::CONFLICT, Some("Conflict"))
    );
    let mut status = updated.clone();
    status["status"] = json!({"replicas": 7});
    status["spec"]["replicas"] = json!(1);
    let (code, after) = api
        .send(
            "PUT",
            &format!("{DEPLOYMENTS}/web/status"),
            "application/json",
            status.to_string(),
        )
        .await;
    assert_eq!(code, StatusCode::OK, "{after}");
    assert_eq!(
        (after["status"]["replicas"].clone(), after["spec"]["replicas"].clone()),
        (json!(7), json!(5))
    );
    assert_eq!(
        after["metadata"]["generation"], 2,
        "a status update is not a spec change"
    );
    // generateName, dry run, and no apps/v1beta1.
    let mut generated = deployment("");
    generated["metadata"] = json!({"generateName": "web-"});
    let (_, g) = api
        .send("POST", DEPLOYMENTS, "application/json", generated.to_string())
        .await;
    assert!(g["metadata"]["name"].as_str().unwrap().starts_with("web-"), "{g}");
    let (code, _) = api
        .send(
            "POST",
            &format!("{DEPLOYMENTS}?dryRun=All"),
            "application/json",
            deployment("dry").to_string(),
        )
        .await;
    assert_eq!(code, StatusCode::CREATED);
    assert_eq!(
        api.get(&format!("{DEPLOYMENTS}/dry")).await.0,
        StatusCode::NOT_FOUND,
        "a dry run stores nothing"
    );
    // apps/v1beta1 is not served, as Kubernetes stopped serving it in 1.16.
    let mut old = deployment("old");
    old["apiVersion"] = json!("apps/v1beta1");
    let (code, _) = api
        .send(
            "POST",
            "/apis/apps/v1beta1/namespaces/ns/deployments",
            "application/json",
            old.to_string(),
        )
        .await;
    assert_eq!(code, StatusCode::NOT_FOUND);
}

#[tokio::test(flavor = "multi_thread")]
async fn concurrent_writers_lose_no_update() {
    let api = std::sync::Arc::new(Api::new().await);
    let mut cm = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "counter"}, "data": {"n": "0"}});
    let path = "/api/v1/namespaces/ns/configmaps";
    assert_eq!(
        api.send("POST", path, "application/json", cm.to_string()).await.0,
        StatusCode::CREATED
    );
    let (writers, each) = (8, 10);
    let mut tasks = Vec::new();
    for _ in 0..writers {
        let api = api.clone();
        tasks.push(tokio::spawn(async move {
            let mut conflicts = 0;
            for _ in 0..each {
                loop {
                    let (_, mut current) = api.get(&format!("{path}/counter")).await;
                    let n: u64 = current["data"]["n"].as_str().unwrap().parse().unwrap();
                    current["data"]["n"] = json!((n + 1).to_string());
                    let (code, _) = api
                        .send(
                            "PUT",
                            &format!("{path}/counter"),
                            "application/json",
                            current.to_string(),
                        )
                        .await;
                    if code == StatusCode::OK {
                        break;
                    }
                    assert_eq!(code, StatusCode::CONFLICT);
                    conflicts += 1;
                }
            }
            conflicts
        }));
    }
    let mut conflicts = 0;
    for t in tasks {
        conflicts += t.await.unwrap();
    }
    cm = api.get(&format!("{path}/counter")).await.1;
    assert_eq!(
        cm["data"]["n"],
        json!((writers * each).to_string()),
        "after {conflicts} conflicts"
    );
}

/// K watchers of one object each see all N changes, in resourceVersion order, exactly once. On
/// etcd (`etcd` is a member's client URL) all of them share one etcd watch, the watch cache's
/// (which the garbage collector, watching every resource, may have opened already).
async fn watchers_see_every_change_once_in_order(api: Api, etcd: Option<String>) {
    let path = "/api/v1/namespaces/ns/configmaps";
    let cm = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}, "data": {"n": "0"}});
    let (_, created) = api.send("POST", path, "application/json", cm.to_string()).await;
    let start = created["metadata"]["resourceVersion"].as_str().unwrap().to_string();
    let (watchers, changes) = (5, 40);
    let etcd_watches = async |etcd: &str| -> u64 {
        let metrics = api.client.get(format!("{etcd}/metrics")).send().await.unwrap();
        let metrics = metrics.text().await.unwrap();
        metrics
            .lines()
            .find_map(|l| l.strip_prefix("etcd_debugging_mvcc_watcher_total "))
            .expect("etcd reports its watchers")
            .parse()
            .unwrap()
    };
    // The server's own watches (its bootstrap's, started as it settles, later on a loaded
    // machine) come first: the count is read once it has held for two seconds.
    let before = match &etcd {
        Some(etcd) => {
            let (mut last, mut held) = (etcd_watches(etcd).await, 0);
            for _ in 0..60 {
                tokio::time::sleep(std::time::Duration::from_millis(500)).await;
                let now = etcd_watches(etcd).await;
                held = if now == last { held + 1 } else { 0 };
                last = now;
                if held == 4 {
                    break;
                }
            }
            last
        }
        None => 0,
    };
    let mut streams = Vec::new();
    for _ in 0..watchers {
        let url = format!("{}{path}?watch=true&resourceVersion={start}", api.url);
        streams.push(api.client.get(url).send().await.unwrap());
    }
    if let Some(etcd) = &etcd {
        let added = etcd_watches(etcd).await - before;
        assert!(added <= 1, "{added} etcd watches more for {watchers} clients");
    }
    let mut current = created;
    for i in 1..=changes {
        current["data"]["n"] = json!(i.to_string());
        let (code, updated) = api
            .send("PUT", &format!("{path}/c"), "application/json", current.to_string())
            .await;
        assert_eq!(code, StatusCode::OK);
        current = updated;
    }
    for mut stream in streams {
        let mut seen: Vec<(u64, String)> = Vec::new();
        for event in support::api::events(&mut stream, changes).await {
            assert_eq!(event["type"], "MODIFIED", "{event}");
            let rv = event["object"]["metadata"]["resourceVersion"]
                .as_str()
                .unwrap()
                .parse()
                .unwrap();
            seen.push((rv, event["object"]["data"]["n"].as_str().unwrap().to_string()));
        }
        let values: Vec<String> = seen.iter().map(|(_, n)| n.clone()).collect();
        let expected: Vec<String> = (1..=changes).map(|i| i.to_string()).collect();
        assert_eq!(values, expected, "every change once, in order");
        assert!(seen.windows(2).all(|w| w[0].0 < w[1].0), "resourceVersions increase");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn watchers_see_every_change_on_the_embedded_store() {
    watchers_see_every_change_once_in_order(Api::new().await, None).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn watchers_see_every_change_on_etcd() {
    let cluster = support::etcd::start("watchers", 1);
    let storage = kube_apiserver_storage::etcd::EtcdStorage::new(cluster.endpoints()).unwrap();
    let api = Api::on(support::start_on(std::sync::Arc::new(storage))).await;
    watchers_see_every_change_once_in_order(api, Some(cluster.endpoints()[0].clone())).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn deleting_a_namespace_removes_its_objects_and_refuses_new_ones() {
    let api = Api::new().await;
    let ns = json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "doomed"}});
    assert_eq!(
        api.send("POST", "/api/v1/namespaces", "application/json", ns.to_string())
            .await
            .0,
        StatusCode::CREATED
    );
    let cms = "/api/v1/namespaces/doomed/configmaps";
    let plain = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "plain"}});
    let held = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "held", "finalizers": ["example.dev/hold"]}});
    for cm in [plain, held] {
        assert_eq!(
            api.send("POST", cms, "application/json", cm.to_string()).await.0,
            StatusCode::CREATED
        );
    }
    let (code, marked) = api
        .send("DELETE", "/api/v1/namespaces/doomed", "application/json", String::new())
        .await;
    assert_eq!(code, StatusCode::OK, "{marked}");
    assert_eq!(marked["status"]["phase"], "Terminating");
    // NamespaceLifecycle refuses new content while the namespace terminates.
    let late = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "late"}});
    let (code, refused) = api.send("POST", cms, "application/json", late.to_string()).await;
    assert_eq!(
        (code, refused["reason"].as_str()),
        (StatusCode::FORBIDDEN, Some("Forbidden")),
        "{refused}"
    );
    assert!(
        refused["message"]
            .as_str()
            .unwrap()
            .contains("because it is being terminated")
    );
    // The plain object goes; the one with a finalizer is marked and holds the namespace.
    let wait_for = |path: String, want: StatusCode| {
        let api = &api;
        async move {
            for _ in 0..50 {
                if api.get(&path).await.0 == want {
                    return true;
                }
                tokio::time::sleep(std::time::Duration::from_millis(100)).await;
            }
            false
        }
    };
    assert!(wait_for(format!("{cms}/plain"), StatusCode::NOT_FOUND).await);
    let (_, held) = api.get(&format!("{cms}/held")).await;
    assert!(held["metadata"]["deletionTimestamp"].is_string(), "{held}");
    assert_eq!(
        api.get("/api/v1/namespaces/doomed").await.0,
        StatusCode::OK,
        "held by a finalizer"
    );
    // Removing the finalizer lets the object, then the namespace, go.
    let release = json!({"metadata": {"finalizers": null}});
    let (code, _) = api
        .send(
            "PATCH",
            &format!("{cms}/held"),
            "application/merge-patch+json",
            release.to_string(),
        )
        .await;
    assert_eq!(code, StatusCode::OK);
    assert!(wait_for(format!("{cms}/held"), StatusCode::NOT_FOUND).await);
    assert!(wait_for("/api/v1/namespaces/doomed".into(), StatusCode::NOT_FOUND).await);
}

/// An admission plugin that holds every namespace create for two seconds: a request that keeps
/// its permit while the server works on it.
struct SlowCreates;

#[async_trait::async_trait]
impl kube_generic_apiserver::admission::Validating for SlowCreates {
    async fn validate(
        &self,
        a: &kube_generic_apiserver::admission::Attributes<'_>,
        _obj: &Value,
    ) -> Result<(), kube_generic_apiserver::ApiError> {
        if a.mapping.resource == "namespaces" {
            tokio::time::sleep(std::time::Duration::from_secs(2)).await;
        }
        Ok(())
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_saturated_server_answers_429_with_retry_after() {
    let storage = std::sync::Arc::new(kube_apiserver_storage::memory::MemoryStorage::default());
    let config = kube_apiserver::Config {
        generic: kube_generic_apiserver::Config {
            max_requests_inflight: 1,
            ..Default::default()
        },
        ..Default::default()
    };
    let server = support::sample(storage, config).with_validating(std::sync::Arc::new(SlowCreates));
    let server = support::serve(std::sync::Arc::new(server));
    // A create the server works on for two seconds holds the one permit.
    let ns = json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "slow"}});
    let held = tokio::spawn(
        Client::new()
            .post(format!("{}/api/v1/namespaces", server.url))
            .json(&ns)
            .send(),
    );
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    let busy = Client::new()
        .get(format!("{}/api/v1/namespaces", server.url))
        .send()
        .await
        .unwrap();
    assert_eq!(busy.status(), StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(busy.headers()["retry-after"], "1");
    let status: Value = busy.json().await.unwrap();
    assert_eq!(status["reason"], "TooManyRequests");
    assert_eq!(held.await.unwrap().unwrap().status(), StatusCode::CREATED);
    let after = Client::new()
        .get(format!("{}/api/v1/namespaces", server.url))
        .send()
        .await
        .unwrap();
    assert_eq!(
        after.status(),
        StatusCode::OK,
        "the permit is back once the slow request ends"
    );
}

/// A POST whose body never finishes: its connection, open.
async fn unfinished_request(url: &str) -> tokio::net::TcpStream {
    let mut slow = tokio::net::TcpStream::connect(url.trim_start_matches("http://"))
        .await
        .unwrap();
    let head =
        "POST /api/v1/namespaces HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{";
    tokio::io::AsyncWriteExt::write_all(&mut slow, head.as_bytes())
        .await
        .unwrap();
    slow
}

/// A request that does not complete within `request_timeout` (here its body never ends) is
/// answered 504 Timeout, as kube-apiserver's timeout filter answers; watches are exempt.
#[tokio::test(flavor = "multi_thread")]
async fn a_request_over_its_time_answers_504() {
    let server = support::start_with(
        std::sync::Arc::new(kube_apiserver_storage::memory::MemoryStorage::default()),
        kube_apiserver::Config {
            generic: kube_generic_apiserver::Config {
                request_timeout: std::time::Duration::from_millis(300),
                ..Default::default()
            },
            ..Default::default()
        },
    );
    let mut slow = unfinished_request(&server.url).await;
    let mut answer = vec![0u8; 4096];
    let n = tokio::time::timeout(
        std::time::Duration::from_secs(5),
        tokio::io::AsyncReadExt::read(&mut slow, &mut answer),
    )
    .await
    .expect("answered before the client gave up")
    .unwrap();
    let answer = String::from_utf8_lossy(&answer[..n]);
    assert!(answer.starts_with("HTTP/1.1 504"), "{answer}");
    assert!(answer.contains("\"reason\":\"Timeout\""), "{answer}");

    // A watch outlives the timeout.
    let mut watch = Client::new()
        .get(format!(
            "{}/api/v1/namespaces?watch=true&fieldSelector=metadata.name%3Dlate",
            server.url
        ))
        .send()
        .await
        .unwrap();
    assert_eq!(watch.status(), StatusCode::OK);
    let ns = json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "late"}});
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    Client::new()
        .post(format!("{}/api/v1/namespaces", server.url))
        .json(&ns)
        .send()
        .await
        .unwrap();
    let events = support::api::events(&mut watch, 1).await;
    assert_eq!(events[0]["object"]["metadata"]["name"], "late");
}

#[tokio::test(flavor = "multi_thread")]
async fn aggregated_discovery_lists_every_group_in_one_document() {
    let api = Api::new().await;
    let accept = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json";
    let r = api
        .client
        .get(format!("{}/apis", api.url))
        .header("accept", accept)
        .send()
        .await
        .unwrap();
    assert_eq!(
        r.headers()["content-type"],
        "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList"
    );
    let doc: Value = r.json().await.unwrap();
    assert_eq!(
        (doc["kind"].as_str(), doc["apiVersion"].as_str()),
        (Some("APIGroupDiscoveryList"), Some("apidiscovery.k8s.io/v2"))
    );
    let apps = doc["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["metadata"]["name"] == "apps")
        .expect("apps");
    let versions: Vec<&str> = apps["versions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["version"].as_str().unwrap())
        .collect();
    assert_eq!(versions, ["v1"], "apps/v1beta1 and v1beta2 are no longer served");
    let deployments = apps["versions"][0]["resources"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["resource"] == "deployments")
        .unwrap();
    assert_eq!(deployments["scope"], "Namespaced");
    assert_eq!(deployments["shortNames"], json!(["deploy"]));
    let subs: Vec<&str> = deployments["subresources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["subresource"].as_str().unwrap())
        .collect();
    assert_eq!(subs, ["status", "scale"]);
    assert_eq!(
        deployments["subresources"][1]["responseKind"],
        json!({"group": "autoscaling", "version": "v1", "kind": "Scale"})
    );
    // `/api` holds the core group alone; a client that does not ask gets the legacy documents.
    let r = api
        .client
        .get(format!("{}/api", api.url))
        .header("accept", accept)
        .send()
        .await
        .unwrap();
    let core: Value = r.json().await.unwrap();
    assert_eq!(core["items"][0]["metadata"]["name"], "");
    let (_, legacy) = api.get("/apis").await;
    assert_eq!(legacy["kind"], "APIGroupList");
}

#[tokio::test(flavor = "multi_thread")]
async fn conversion_reviews_are_answered_from_the_scheme() {
    let api = Api::new().await;
    let widget = json!({"apiVersion": "widgets.example.dev/v1", "kind": "Widget",
        "metadata": {"name": "w", "namespace": "ns"}, "spec": {"image": "i", "paused": true, "replicas": 2, "size": "Large"}});
    let review = json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "ConversionReview",
        "request": {"uid": "u-1", "desiredAPIVersion": "widgets.example.dev/v1alpha1", "objects": [widget]}});
    let (code, answer) = api
        .send("POST", "/convert", "application/json", review.to_string())
        .await;
    assert_eq!(code, StatusCode::OK);
    let response = &answer["response"];
    assert_eq!(
        (response["uid"].as_str(), response["result"]["status"].as_str()),
        (Some("u-1"), Some("Success"))
    );
    let converted = &response["convertedObjects"][0];
    assert_eq!(converted["apiVersion"], "widgets.example.dev/v1alpha1");
    assert_eq!(
        converted["metadata"]["annotations"]["widgets.example.dev/paused"],
        "true"
    );
    let (code, _) = api.send("POST", "/convert", "application/json", "{".into()).await;
    assert_eq!(code, StatusCode::BAD_REQUEST);
}

/// A watch that asks for Tables (`kubectl get -w`) gets each object as a Table of its one row,
/// with the kind's columns (a Deployment's READY, UP-TO-DATE, AVAILABLE), for every event type.
#[tokio::test(flavor = "multi_thread")]
async fn a_watch_that_asks_for_tables_gets_rows() {
    let api = Api::new().await;
    let (_, list) = api.get(DEPLOYMENTS).await;
    let from = list["metadata"]["resourceVersion"].as_str().unwrap().to_string();
    let mut stream = api
        .client
        .get(format!("{}{DEPLOYMENTS}?watch=true&resourceVersion={from}", api.url))
        .header(
            "accept",
            "application/json;as=Table;v=v1;g=meta.k8s.io,application/json",
        )
        .send()
        .await
        .unwrap();
    let (code, _) = api
        .send("POST", DEPLOYMENTS, "application/json", deployment("t").to_string())
        .await;
    assert_eq!(code, StatusCode::CREATED);
    let (code, _) = api
        .send("DELETE", &format!("{DEPLOYMENTS}/t"), "application/json", String::new())
        .await;
    assert_eq!(code, StatusCode::OK);
    let events = support::api::events(&mut stream, 2).await;
    let types: Vec<&str> = events.iter().map(|e| e["type"].as_str().unwrap()).collect();
    assert_eq!(types, ["ADDED", "DELETED"]);
    for event in &events {
        let table = &event["object"];
        assert_eq!(table["kind"], "Table", "{event}");
        let columns: Vec<&str> = table["columnDefinitions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["name"].as_str().unwrap())
            .collect();
        assert_eq!(
            columns[..4],
            ["Name", "Ready", "Up-to-date", "Available"],
            "{columns:?}"
        );
        assert_eq!(table["rows"].as_array().unwrap().len(), 1);
        assert_eq!(table["rows"][0]["cells"][0], "t");
        assert_eq!(table["rows"][0]["object"]["kind"], "PartialObjectMetadata");
        assert!(table["metadata"]["resourceVersion"].is_string());
    }
}

/// Writes that are not applies record who changed what: a plain update claims the object but
/// not its status (which it cannot change), a `/status` update only the status, in an entry
/// marked `subresource: status`, as Kubernetes records them.
#[tokio::test(flavor = "multi_thread")]
async fn status_writes_are_recorded_as_the_status_subresource_s() {
    let api = Api::new().await;
    let (code, created) = api
        .send(
            "POST",
            &format!("{DEPLOYMENTS}?fieldManager=creator"),
            "application/json",
            deployment("owned").to_string(),
        )
        .await;
    assert_eq!(code, StatusCode::CREATED, "{created}");
    let mut update = created.clone();
    update["spec"]["replicas"] = json!(4);
    update["status"] = json!({"replicas": 9});
    let url = format!("{DEPLOYMENTS}/owned?fieldManager=scaler");
    let (code, updated) = api.send("PUT", &url, "application/json", update.to_string()).await;
    assert_eq!(code, StatusCode::OK, "{updated}");
    let mut status = updated.clone();
    status["status"] = json!({"replicas": 4, "readyReplicas": 4});
    let url = format!("{DEPLOYMENTS}/owned/status?fieldManager=controller");
    let (code, after) = api.send("PUT", &url, "application/json", status.to_string()).await;
    assert_eq!(code, StatusCode::OK, "{after}");
    let entries = after["metadata"]["managedFields"].as_array().unwrap();
    let entry = |manager: &str| {
        entries
            .iter()
            .find(|e| e["manager"] == manager)
            .cloned()
            .unwrap_or_default()
    };
    let scaler = entry("scaler");
    assert_eq!(scaler["fieldsV1"], json!({"f:spec": {"f:replicas": {}}}), "{entries:?}");
    assert!(scaler.get("subresource").is_none());
    let controller = entry("controller");
    assert_eq!(controller["subresource"], "status", "{entries:?}");
    assert_eq!(
        controller["fieldsV1"],
        json!({"f:status": {"f:readyReplicas": {}, "f:replicas": {}}})
    );
    assert!(entry("creator")["fieldsV1"].get("f:status").is_none());
    // What the store keeps is what the response said.
    let (_, stored) = api.get(&format!("{DEPLOYMENTS}/owned")).await;
    assert_eq!(stored["metadata"]["managedFields"], after["metadata"]["managedFields"]);
}

/// A `/scale` write moves the object's replicas to its writer, as Kubernetes' scale handler
/// does: on the Deployment in an entry marked `subresource: scale` in apps/v1, and the Scale shows
/// its owner of `spec.replicas`.
#[tokio::test(flavor = "multi_thread")]
async fn scale_writes_move_the_replicas_to_their_writer() {
    let api = Api::new().await;
    let mut d = deployment("scaled");
    d["spec"]["replicas"] = json!(2);
    let url = format!("{DEPLOYMENTS}?fieldManager=creator");
    let (code, _) = api.send("POST", &url, "application/json", d.to_string()).await;
    assert_eq!(code, StatusCode::CREATED);
    let (_, scale) = api.get(&format!("{DEPLOYMENTS}/scaled/scale")).await;
    assert_eq!(scale["metadata"]["managedFields"][0]["manager"], "creator", "{scale}");
    let mut next = scale.clone();
    next["spec"]["replicas"] = json!(5);
    next["metadata"].as_object_mut().unwrap().remove("managedFields");
    let url = format!("{DEPLOYMENTS}/scaled/scale?fieldManager=scaler");
    let (code, scaled) = api.send("PUT", &url, "application/json", next.to_string()).await;
    assert_eq!(code, StatusCode::OK, "{scaled}");
    let owners: Vec<&Value> = scaled["metadata"]["managedFields"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| &e["manager"])
        .collect();
    assert_eq!(owners, [&json!("scaler")], "{scaled}");
    let (_, stored) = api.get(&format!("{DEPLOYMENTS}/scaled")).await;
    let entries = stored["metadata"]["managedFields"].as_array().unwrap();
    let scaler = entries
        .iter()
        .find(|e| e["manager"] == "scaler")
        .expect("the scaler's entry");
    assert_eq!(
        (scaler["subresource"].as_str(), scaler["apiVersion"].as_str()),
        (Some("scale"), Some("apps/v1"))
    );
    assert_eq!(scaler["fieldsV1"], json!({"f:spec": {"f:replicas": {}}}));
    let creator = entries.iter().find(|e| e["manager"] == "creator").unwrap();
    assert!(creator["fieldsV1"]["f:spec"].get("f:replicas").is_none(), "{creator}");
    assert!(creator["fieldsV1"]["f:spec"].get("f:template").is_some());
}

/// A delete whose `preconditions.uid` names another object (one deleted and created again under
/// the same name) deletes nothing: 409 Conflict in kube-apiserver's words.
#[tokio::test(flavor = "multi_thread")]
async fn a_delete_with_another_uid_deletes_nothing() {
    let api = Api::new().await;
    let cms = "/api/v1/namespaces/ns/configmaps";
    let cm = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "pc"}, "data": {"k": "v"}});
    let (code, created) = api.send("POST", cms, "application/json", cm.to_string()).await;
    assert_eq!(code, StatusCode::CREATED);
    let uid = created["metadata"]["uid"].as_str().unwrap().to_string();
    let wrong = json!({"preconditions": {"uid": "00000000-0000-0000-0000-000000000000"}});
    let (code, status) = api
        .send("DELETE", &format!("{cms}/pc"), "application/json", wrong.to_string())
        .await;
    assert_eq!(code, StatusCode::CONFLICT, "{status}");
    assert_eq!(status["reason"], "Conflict");
    assert_eq!(
        status["message"],
        format!(
            "Operation cannot be fulfilled on configmaps \"pc\": Precondition failed: UID in precondition: 00000000-0000-0000-0000-000000000000, UID in object meta: {uid}"
        )
    );
    assert_eq!(
        api.get(&format!("{cms}/pc")).await.0,
        StatusCode::OK,
        "the object is still there"
    );
    let right = json!({"preconditions": {"uid": uid}});
    let (code, _) = api
        .send("DELETE", &format!("{cms}/pc"), "application/json", right.to_string())
        .await;
    assert_eq!(code, StatusCode::OK);
    assert_eq!(api.get(&format!("{cms}/pc")).await.0, StatusCode::NOT_FOUND);
}
