//! Custom resources defined at run time: a CustomResourceDefinition created over HTTP is named,
//! established and served (every served version, status and scale, printer columns, short names,
//! categories, selectable fields, watch), an update takes effect without a restart, a second CRD
//! claiming a taken name is refused as the naming controller refuses it, owner references and
//! namespace deletion reach custom objects, and deleting the CRD deletes its objects and stops
//! serving them; on the embedded store and on etcd.

use crate::support;

use std::sync::Arc;

use reqwest::StatusCode;
use serde_json::{Value, json};
use support::api::{Api, events};
use support::eventually;

const CRDS: &str = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
const FOOS: &str = "/apis/ex.com/v1/namespaces/ns/foos";

/// `foos.ex.com`: v1 (stored) and v1beta1, with status, scale, columns and a selectable field.
fn foo_crd() -> Value {
    let schema = json!({"openAPIV3Schema": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}});
    let version = |name: &str, storage: bool| {
        json!({
            "name": name, "served": true, "storage": storage, "schema": schema,
            "subresources": {"status": {}, "scale": {
                "specReplicasPath": ".spec.replicas", "statusReplicasPath": ".status.replicas"}},
            "additionalPrinterColumns": [{"name": "Color", "type": "string", "jsonPath": ".spec.color"}],
            "selectableFields": [{"jsonPath": ".spec.color"}],
        })
    };
    json!({
        "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "foos.ex.com"},
        "spec": {
            "group": "ex.com", "scope": "Namespaced",
            "names": {"plural": "foos", "singular": "foo", "kind": "Foo", "shortNames": ["fo"], "categories": ["all"]},
            "versions": [version("v1", true), version("v1beta1", false)],
        },
    })
}

fn foo(name: &str, color: &str) -> String {
    json!({"apiVersion": "ex.com/v1", "kind": "Foo", "metadata": {"name": name},
           "spec": {"color": color, "replicas": 1}})
    .to_string()
}

fn condition<'a>(crd: &'a Value, kind: &str) -> Option<&'a Value> {
    crd["status"]["conditions"]
        .as_array()?
        .iter()
        .find(|c| c["type"] == kind)
}

async fn established(api: &Api, name: &str) -> Value {
    let path = format!("{CRDS}/{name}");
    eventually("the CRD is established", || async {
        let crd = api.get(&path).await.1;
        condition(&crd, "Established").is_some_and(|c| c["status"] == "True")
    })
    .await;
    api.get(&path).await.1
}

async fn custom_resources_are_served_at_run_time(api: Api) {
    // Before the CRD, nothing is served.
    assert_eq!(api.get(FOOS).await.0, StatusCode::NOT_FOUND);
    let (code, created) = api.send("POST", CRDS, "application/json", foo_crd().to_string()).await;
    assert_eq!(code, StatusCode::CREATED, "{created}");
    let crd = established(&api, "foos.ex.com").await;
    let accepted = condition(&crd, "NamesAccepted").unwrap();
    assert_eq!(
        (accepted["status"].as_str(), accepted["reason"].as_str()),
        (Some("True"), Some("NoConflicts"))
    );
    assert_eq!(crd["status"]["acceptedNames"]["listKind"], "FooList");
    assert_eq!(crd["status"]["storedVersions"], json!(["v1"]));

    // Discovery: the group, its versions by priority, the resource with its names and verbs.
    let group = api.get("/apis/ex.com").await.1;
    assert_eq!(group["preferredVersion"]["version"], "v1", "{group}");
    assert_eq!(group["versions"][1]["version"], "v1beta1");
    let resources = api.get("/apis/ex.com/v1").await.1;
    let names: Vec<&str> = resources["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["foos", "foos/scale", "foos/status"]);
    assert_eq!(resources["resources"][0]["shortNames"], json!(["fo"]));
    assert_eq!(resources["resources"][0]["categories"], json!(["all"]));
    assert_eq!(resources["resources"][0]["kind"], "Foo");

    // Aggregated discovery carries the group too, versions by priority.
    let aggregated = api
        .get_as(
            "/apis",
            "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList",
        )
        .await;
    let ex = aggregated["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["metadata"]["name"] == "ex.com")
        .expect("ex.com in aggregated discovery");
    assert_eq!(ex["versions"][0]["version"], "v1", "{ex}");
    assert_eq!(ex["versions"][0]["resources"][0]["resource"], "foos", "{ex}");
    assert_eq!(ex["versions"][0]["resources"][0]["shortNames"], json!(["fo"]), "{ex}");

    // CRUD in the storage version, reads in the other.
    let (code, a) = api.send("POST", FOOS, "application/json", foo("a", "red")).await;
    assert_eq!(code, StatusCode::CREATED, "{a}");
    assert_eq!(a["metadata"]["generation"], 1);
    api.send("POST", FOOS, "application/json", foo("b", "blue")).await;
    let (code, beta) = api.get("/apis/ex.com/v1beta1/namespaces/ns/foos/a").await;
    assert_eq!(
        (code, beta["apiVersion"].as_str()),
        (StatusCode::OK, Some("ex.com/v1beta1"))
    );
    let wrong = foo("c", "red").replace("ex.com/v1", "ex.com/v1beta1");
    let (code, refused) = api.send("POST", FOOS, "application/json", wrong).await;
    assert_eq!(code, StatusCode::BAD_REQUEST, "{refused}");
    assert_eq!(
        refused["message"],
        "the API version in the data (ex.com/v1beta1) does not match the expected API version (ex.com/v1)"
    );
    let (code, _) = api
        .send("POST", FOOS, "application/vnd.kubernetes.protobuf", "k8s\0".into())
        .await;
    assert_eq!(code, StatusCode::UNSUPPORTED_MEDIA_TYPE);

    // A watch sees what follows; a merge patch bumps the generation, a status write does not.
    let mut watch = api
        .watch(FOOS, a["metadata"]["resourceVersion"].as_str().unwrap())
        .await;
    let patch = json!({"spec": {"color": "green"}}).to_string();
    let (code, patched) = api
        .send("PATCH", &format!("{FOOS}/a"), "application/merge-patch+json", patch)
        .await;
    assert_eq!(
        (code, patched["metadata"]["generation"].as_i64()),
        (StatusCode::OK, Some(2)),
        "{patched}"
    );
    let mut status = patched.clone();
    status["status"] = json!({"replicas": 1});
    status["spec"]["color"] = json!("ignored");
    let (code, written) = api
        .send(
            "PUT",
            &format!("{FOOS}/a/status"),
            "application/json",
            status.to_string(),
        )
        .await;
    assert_eq!(code, StatusCode::OK, "{written}");
    assert_eq!(
        (
            written["spec"]["color"].as_str(),
            written["status"]["replicas"].as_i64()
        ),
        (Some("green"), Some(1))
    );
    assert_eq!(written["metadata"]["generation"], 2);
    let seen = events(&mut watch, 3).await;
    let kinds: Vec<&str> = seen.iter().map(|e| e["type"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["ADDED", "MODIFIED", "MODIFIED"], "b, the patch, the status");

    // Scale reads and writes the CRD's replica paths.
    let (code, scale) = api.get(&format!("{FOOS}/a/scale")).await;
    assert_eq!(
        (code, scale["kind"].as_str()),
        (StatusCode::OK, Some("Scale")),
        "{scale}"
    );
    assert_eq!(
        (scale["spec"]["replicas"].as_i64(), scale["status"]["replicas"].as_i64()),
        (Some(1), Some(1))
    );
    let mut scale = scale;
    scale["spec"]["replicas"] = json!(3);
    let (code, _) = api
        .send("PUT", &format!("{FOOS}/a/scale"), "application/json", scale.to_string())
        .await;
    assert_eq!(code, StatusCode::OK);
    assert_eq!(api.get(&format!("{FOOS}/a")).await.1["spec"]["replicas"], 3);

    // Server-side apply: a manager owns what it applied; another manager's change conflicts.
    let applied = "apiVersion: ex.com/v1\nkind: Foo\nmetadata:\n  name: applied\nspec:\n  color: teal\n";
    let (code, created) = api
        .send(
            "PATCH",
            &format!("{FOOS}/applied?fieldManager=first"),
            "application/apply-patch+yaml",
            applied.into(),
        )
        .await;
    assert_eq!(code, StatusCode::CREATED, "{created}");
    assert_eq!(created["metadata"]["managedFields"][0]["manager"], "first");
    let (code, conflict) = api
        .send(
            "PATCH",
            &format!("{FOOS}/applied?fieldManager=second"),
            "application/apply-patch+yaml",
            applied.replace("teal", "navy"),
        )
        .await;
    assert_eq!(code, StatusCode::CONFLICT, "{conflict}");
    assert_eq!(conflict["details"]["causes"][0]["field"], ".spec.color", "{conflict}");

    // Selectable fields select; other fields are refused.
    let (_, blue) = api.get(&format!("{FOOS}?fieldSelector=spec.color%3Dblue")).await;
    let selected: Vec<&str> = blue["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["metadata"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(selected, ["b"], "{blue}");
    assert_eq!(
        api.get(&format!("{FOOS}?fieldSelector=spec.size%3D1")).await.0,
        StatusCode::BAD_REQUEST
    );

    // A Table shows the printer columns.
    let table = api.get_as(FOOS, "application/json;as=Table;v=v1;g=meta.k8s.io").await;
    let headers: Vec<&str> = table["columnDefinitions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert!(headers.contains(&"Color"), "{headers:?}");

    // A second CRD claiming the kind is refused its names and not served.
    let mut bars = foo_crd();
    bars["metadata"]["name"] = json!("bars.ex.com");
    bars["spec"]["names"] = json!({"plural": "bars", "singular": "bar", "kind": "Foo"});
    api.send("POST", CRDS, "application/json", bars.to_string()).await;
    eventually("the conflict is reported", || async {
        let crd = api.get(&format!("{CRDS}/bars.ex.com")).await.1;
        condition(&crd, "NamesAccepted").is_some_and(|c| {
            c["status"] == "False" && c["reason"] == "KindConflict" && c["message"] == "\"Foo\" is already in use"
        })
    })
    .await;
    assert_eq!(
        api.get("/apis/ex.com/v1/namespaces/ns/bars").await.0,
        StatusCode::NOT_FOUND
    );

    // An update takes effect without a restart: a new served version.
    let mut crd = api.get(&format!("{CRDS}/foos.ex.com")).await.1;
    let mut v2 = crd["spec"]["versions"][0].clone();
    v2["name"] = json!("v2");
    v2["storage"] = json!(false);
    crd["spec"]["versions"].as_array_mut().unwrap().push(v2);
    let (code, _) = api
        .send(
            "PUT",
            &format!("{CRDS}/foos.ex.com"),
            "application/json",
            crd.to_string(),
        )
        .await;
    assert_eq!(code, StatusCode::OK);
    eventually("v2 is served", || async {
        api.get("/apis/ex.com/v2/namespaces/ns/foos/a").await.1["apiVersion"] == "ex.com/v2"
    })
    .await;
    assert_eq!(api.get("/apis/ex.com").await.1["preferredVersion"]["version"], "v2");

    // Owner references reach custom objects: a Foo owned by a ConfigMap goes with it.
    let (_, owner) = api
        .send(
            "POST",
            "/api/v1/namespaces/ns/configmaps",
            "application/json",
            json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "owner"}}).to_string(),
        )
        .await;
    let mut owned: Value = serde_json::from_str(&foo("owned", "red")).unwrap();
    owned["metadata"]["ownerReferences"] = json!([{"apiVersion": "v1", "kind": "ConfigMap",
        "name": "owner", "uid": owner["metadata"]["uid"]}]);
    api.send("POST", FOOS, "application/json", owned.to_string()).await;
    api.send(
        "DELETE",
        "/api/v1/namespaces/ns/configmaps/owner",
        "application/json",
        String::new(),
    )
    .await;
    eventually("the owned Foo is collected", || async {
        api.get(&format!("{FOOS}/owned")).await.0 == StatusCode::NOT_FOUND
    })
    .await;

    // Deleting a namespace deletes the custom objects in it.
    let ns = json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "gone"}});
    api.send("POST", "/api/v1/namespaces", "application/json", ns.to_string())
        .await;
    let in_gone = "/apis/ex.com/v1/namespaces/gone/foos";
    assert_eq!(
        api.send("POST", in_gone, "application/json", foo("x", "red")).await.0,
        StatusCode::CREATED
    );
    api.send("DELETE", "/api/v1/namespaces/gone", "application/json", String::new())
        .await;
    eventually("the namespace goes with its Foo", || async {
        api.get("/api/v1/namespaces/gone").await.0 == StatusCode::NOT_FOUND
    })
    .await;

    // Deleting the CRD marks it Terminating, deletes its objects, then it goes. (The refused
    // CRD goes first, or it would take the freed names.)
    api.send(
        "DELETE",
        &format!("{CRDS}/bars.ex.com"),
        "application/json",
        String::new(),
    )
    .await;
    let (code, deleting) = api
        .send(
            "DELETE",
            &format!("{CRDS}/foos.ex.com"),
            "application/json",
            String::new(),
        )
        .await;
    assert_eq!(code, StatusCode::OK, "{deleting}");
    assert!(deleting["metadata"]["deletionTimestamp"].is_string());
    eventually("the CRD goes", || async {
        api.get(&format!("{CRDS}/foos.ex.com")).await.0 == StatusCode::NOT_FOUND
    })
    .await;
    assert_eq!(api.get(FOOS).await.0, StatusCode::NOT_FOUND, "no longer served");
    // Created again, it starts empty: the objects were deleted, not hidden.
    api.send("POST", CRDS, "application/json", foo_crd().to_string()).await;
    established(&api, "foos.ex.com").await;
    eventually("served again", || async { api.get(FOOS).await.0 == StatusCode::OK }).await;
    assert_eq!(api.get(FOOS).await.1["items"], json!([]));
}

/// A cluster-scoped CRD is served without namespaces.
async fn cluster_scoped_crds_are_served(api: Api) {
    let mut crd = foo_crd();
    crd["metadata"]["name"] = json!("globals.ex.com");
    crd["spec"]["scope"] = json!("Cluster");
    crd["spec"]["names"] = json!({"plural": "globals", "kind": "Global"});
    api.send("POST", CRDS, "application/json", crd.to_string()).await;
    established(&api, "globals.ex.com").await;
    let global = json!({"apiVersion": "ex.com/v1", "kind": "Global", "metadata": {"name": "g"}});
    let (code, created) = api
        .send(
            "POST",
            "/apis/ex.com/v1/globals",
            "application/json",
            global.to_string(),
        )
        .await;
    assert_eq!(code, StatusCode::CREATED, "{created}");
    assert!(created["metadata"].get("namespace").is_none());
    assert_eq!(api.get("/apis/ex.com/v1/globals/g").await.0, StatusCode::OK);
}

#[tokio::test(flavor = "multi_thread")]
async fn custom_resources_are_served_at_run_time_on_the_embedded_store() {
    custom_resources_are_served_at_run_time(Api::new().await).await;
    cluster_scoped_crds_are_served(Api::new().await).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn custom_resources_are_served_at_run_time_on_etcd() {
    let cluster = support::etcd::start("crds", 1);
    let storage = kube_apiserver_storage::etcd::EtcdStorage::new(cluster.endpoints()).unwrap();
    let api = Api::on(support::start_on(Arc::new(storage))).await;
    custom_resources_are_served_at_run_time(api).await;
}
