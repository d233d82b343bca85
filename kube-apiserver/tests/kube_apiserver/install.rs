//! The server as a library another server is built on: resources installed into a running server
//! with a storage and a strategy the caller chose, served from the next request on (routes,
//! discovery, OpenAPI paths), and removed again, as k8s.io/apiserver's `InstallAPIGroup` and
//! apiextensions-apiserver's handler add and drop custom resources while the server runs.

use crate::support;

use std::sync::Arc;

use kube_apimachinery::{GroupVersion, RestMapping};
use kube_apiserver_storage::memory::MemoryStorage;
use kube_generic_apiserver::registry::generic::{self, Resources};
use kube_generic_apiserver::registry::strategy::Strategy;
use kube_generic_apiserver::status::Cause;
use kube_generic_apiserver::{Config, Server};
use reqwest::StatusCode;
use serde_json::{Value, json};
use support::api::Api;

/// A caller's strategy: the generic one, plus a label on every object it creates.
struct Labelled(Arc<dyn Strategy>);

impl Strategy for Labelled {
    fn prepare_for_create(&self, obj: &mut Value) {
        self.0.prepare_for_create(obj);
        obj["metadata"]["labels"]["installed-by"] = json!("test");
    }
    fn prepare_for_update(&self, new: &mut Value, old: &Value) {
        self.0.prepare_for_update(new, old)
    }
    fn prepare_for_status_update(&self, new: &mut Value, old: &Value) {
        self.0.prepare_for_status_update(new, old)
    }
    fn validate(&self, obj: &Value) -> Vec<Cause> {
        self.0.validate(obj)
    }
}

/// An empty server of `apis`' kinds on a free loopback port, and the handle to change it.
fn start() -> (Arc<Server>, support::Running) {
    let server = Arc::new(
        Server::empty(apis::scheme().unwrap(), Config::default()).with_openapi(&generated::openapi_v3_documents()),
    );
    (server.clone(), support::serve(server))
}

#[tokio::test(flavor = "multi_thread")]
async fn a_resource_installed_into_a_running_server_is_served_until_removed() {
    let (server, running) = start();
    let api = Api::bare(running);
    let configmaps = "/api/v1/namespaces/t/configmaps";
    assert_eq!(
        api.get(configmaps).await.0,
        StatusCode::NOT_FOUND,
        "nothing installed yet"
    );
    assert_eq!(api.get("/api/v1").await.0, StatusCode::NOT_FOUND);

    // ConfigMaps of v1 with the caller's strategy, over the caller's storage.
    let labelled = |m: &RestMapping| -> Arc<dyn Strategy> { Arc::new(Labelled(generic::strategy(m))) };
    let storage = Arc::new(MemoryStorage::default());
    let resources = Resources::new(server.scheme(), storage, &labelled);
    let info = resources
        .resources
        .into_iter()
        .find(|r| r.mapping.group.is_empty() && r.mapping.version == "v1" && r.mapping.resource == "configmaps")
        .unwrap();
    server.install(info);

    let cm = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a"}, "data": {"k": "v"}});
    let (code, created) = api.send("POST", configmaps, "application/json", cm.to_string()).await;
    assert_eq!(code, StatusCode::CREATED, "{created}");
    assert_eq!(
        created["metadata"]["labels"]["installed-by"], "test",
        "the caller's strategy ran"
    );
    let (code, read) = api.get(&format!("{configmaps}/a")).await;
    assert_eq!((code, &read["data"]["k"]), (StatusCode::OK, &json!("v")));
    let (code, discovery) = api.get("/api/v1").await;
    assert_eq!(code, StatusCode::OK);
    let names: Vec<&str> = discovery["resources"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|r| r["name"].as_str())
        .collect();
    assert_eq!(names, ["configmaps"], "discovery lists exactly what is installed");
    let (_, openapi) = api.get("/openapi/v3/api/v1").await;
    assert!(
        openapi["paths"]["/api/v1/namespaces/{namespace}/configmaps/{name}"].is_object(),
        "the OpenAPI document has the new paths"
    );

    assert!(server.uninstall(&GroupVersion::new("", "v1"), "configmaps"));
    assert!(
        !server.uninstall(&GroupVersion::new("", "v1"), "configmaps"),
        "removed once"
    );
    assert_eq!(api.get(&format!("{configmaps}/a")).await.0, StatusCode::NOT_FOUND);
    assert_eq!(api.get("/api/v1").await.0, StatusCode::NOT_FOUND);
    let (_, openapi) = api.get("/openapi/v3/api/v1").await;
    assert!(openapi["paths"]["/api/v1/namespaces/{namespace}/configmaps/{name}"].is_null());
}
