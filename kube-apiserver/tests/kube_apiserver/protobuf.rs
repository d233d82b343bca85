//! Protobuf on the wire (what client-go's typed clients speak): a protobuf body is decoded,
//! defaulted and stored like JSON; a client that prefers protobuf gets objects and lists in
//! protobuf, and JSON for what has no protobuf form (a Status); a body that is not what its path
//! or envelope says is a 400 and stores nothing. kubectl's own protobuf requests are in
//! tests/kubectl.rs.

use crate::support;

use apis::apps;
use kube_apimachinery::codec::Codec;
use kube_apimachinery::protobuf::{CONTENT_TYPE, Unknown, encode_message};
use kube_apimachinery::{GroupVersion, Scheme};
use reqwest::StatusCode;
use serde_json::{Value, json};
use support::api::Api;

const ACCEPT: &str = "application/vnd.kubernetes.protobuf,application/json";

fn scheme() -> Scheme {
    apis::scheme().unwrap()
}

/// A Deployment's protobuf body.
fn deployment_body(scheme: &Scheme, name: &str) -> Vec<u8> {
    let codec = Codec::new(scheme);
    let manifest = json!({
        "apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": name},
        "spec": {"selector": {"matchLabels": {"app": name}}, "template": {"metadata": {"labels": {"app": name}},
            "spec": {"containers": [{"name": "web", "image": "nginx:1.27"}]}}}
    });
    let obj = codec.decode(manifest.to_string().as_bytes()).unwrap();
    codec
        .encode_protobuf(obj.as_ref(), &GroupVersion::new("apps", "v1"))
        .unwrap()
}

async fn post(api: &Api, path: &str, body: Vec<u8>) -> reqwest::Response {
    api.client
        .post(format!("{}{path}", api.url))
        .header("content-type", CONTENT_TYPE)
        .header("accept", ACCEPT)
        .body(body)
        .send()
        .await
        .unwrap()
}

fn content_type(r: &reqwest::Response) -> String {
    r.headers()["content-type"].to_str().unwrap().to_string()
}

#[tokio::test(flavor = "multi_thread")]
async fn protobuf_bodies_in_and_out() {
    let api = Api::new().await;
    let scheme = scheme();
    let codec = Codec::new(&scheme);
    let path = "/apis/apps/v1/namespaces/ns/deployments";

    let created = post(&api, path, deployment_body(&scheme, "web")).await;
    assert_eq!(created.status(), StatusCode::CREATED);
    assert_eq!(content_type(&created), CONTENT_TYPE);
    let obj = codec.decode(&created.bytes().await.unwrap()).unwrap();
    let json = codec
        .encode_value(obj.as_ref(), &GroupVersion::new("apps", "v1"))
        .unwrap();
    assert_eq!(json["metadata"]["namespace"], "ns");
    assert_eq!(json["metadata"]["generation"], 1);
    assert!(json["metadata"]["uid"].as_str().is_some_and(|u| !u.is_empty()));
    assert_eq!(json["spec"]["replicas"], 1, "defaulted on the way in");

    // The same object read as JSON: what protobuf stored is what JSON shows.
    let (code, read) = api.get(&format!("{path}/web")).await;
    assert_eq!(code, StatusCode::OK);
    assert_eq!(read["spec"], json["spec"]);

    // A list in protobuf.
    let list = api
        .client
        .get(format!("{}{path}", api.url))
        .header("accept", ACCEPT)
        .send()
        .await
        .unwrap();
    assert_eq!(content_type(&list), CONTENT_TYPE);
    let envelope = Unknown::decode(&list.bytes().await.unwrap()).unwrap();
    assert_eq!(
        (envelope.api_version.as_str(), envelope.kind.as_str()),
        ("apps/v1", "DeploymentList")
    );
    let items: apps::v1::DeploymentList = envelope.object().unwrap();
    assert_eq!(items.items.len(), 1);
    assert_eq!(items.items[0].metadata.name.as_deref(), Some("web"));

    // Lists are written from the stored bytes; a field selector takes the path through values.
    // Both write the same bytes, pages included.
    post(&api, path, deployment_body(&scheme, "api")).await;
    let body = |query: &'static str| {
        let request = api
            .client
            .get(format!("{}{path}{query}", api.url))
            .header("accept", ACCEPT);
        async move { request.send().await.unwrap().bytes().await.unwrap() }
    };
    let from_bytes = body("").await;
    let through_values = body("?fieldSelector=metadata.namespace%3Dns").await;
    assert_eq!(from_bytes, through_values);
    let items: apps::v1::DeploymentList = Unknown::decode(&from_bytes).unwrap().object().unwrap();
    assert_eq!(items.items.len(), 2);
    assert!(items.items.iter().all(|d| d.metadata.resource_version.is_some()));
    // A GET is written from the stored bytes too: the same object as the parsed path writes,
    // which `pretty` (indented) still takes, in JSON and in protobuf.
    let plain = api.client.get(format!("{}{path}/api", api.url)).send().await.unwrap();
    let plain = plain.bytes().await.unwrap();
    let pretty = api
        .client
        .get(format!("{}{path}/api?pretty=true", api.url))
        .send()
        .await
        .unwrap();
    let parsed: Value = serde_json::from_slice(&pretty.bytes().await.unwrap()).unwrap();
    assert_eq!(plain, serde_json::to_vec(&parsed).unwrap(), "byte for byte");
    let proto = body("/api").await;
    let obj = codec.decode(&proto).unwrap();
    let from_proto = codec
        .encode_value(obj.as_ref(), &GroupVersion::new("apps", "v1"))
        .unwrap();
    assert_eq!(from_proto, parsed);
    let page = Unknown::decode(&body("?limit=1").await).unwrap();
    let page: apps::v1::DeploymentList = page.object().unwrap();
    assert_eq!(page.items.len(), 1);
    let meta = page.metadata;
    assert!(
        meta.continue_.is_some() && meta.remaining_item_count == Some(1),
        "{meta:?}"
    );

    // A Status has no protobuf form here: a client that also accepts JSON gets JSON.
    let missing = api
        .client
        .get(format!("{}{path}/nope", api.url))
        .header("accept", ACCEPT)
        .send()
        .await
        .unwrap();
    assert_eq!(missing.status(), StatusCode::NOT_FOUND);
    assert_eq!(content_type(&missing), "application/json");
    let status: Value = missing.json().await.unwrap();
    assert_eq!(status["reason"], "NotFound");
}

#[tokio::test(flavor = "multi_thread")]
async fn bad_protobuf_bodies_are_400_and_store_nothing() {
    let api = Api::new().await;
    let scheme = scheme();
    let path = "/apis/apps/v1/namespaces/ns/deployments";
    let wrap = |api_version: &str, kind: &str, raw: Vec<u8>| {
        Unknown {
            api_version: api_version.into(),
            kind: kind.into(),
            raw,
        }
        .encode()
    };
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        (
            "a kind of another resource",
            wrap("v1", "ConfigMap", encode_message(&apis::core::v1::ConfigMap::default())),
            "do not match",
        ),
        ("garbage after the magic", b"k8s\0\xff\xff\xff".to_vec(), "protobuf"),
        (
            "a message cut short",
            wrap(
                "apps/v1",
                "Deployment",
                deployment_body(&scheme, "cut")[20..40].to_vec(),
            ),
            "malformed protobuf",
        ),
        (
            "a name that is not DNS-1123",
            deployment_body(&scheme, "Not_Valid"),
            "Not_Valid",
        ),
    ];
    for (what, body, message) in cases {
        let r = post(&api, path, body).await;
        let code = r.status();
        let status: Value = r.json().await.unwrap();
        assert!(
            code == StatusCode::BAD_REQUEST || code == StatusCode::UNPROCESSABLE_ENTITY,
            "{what}: {code} {status}"
        );
        assert!(
            status["message"].as_str().unwrap_or("").contains(message),
            "{what}: {status}"
        );
    }
    let (_, list) = api.get(path).await;
    assert_eq!(list["items"], json!([]), "nothing stored");
    // An object decoded from protobuf carries the envelope's kind, as one from JSON does.
    let obj = Codec::new(&scheme).decode(&deployment_body(&scheme, "x")).unwrap();
    assert_eq!(obj.group_version_kind().unwrap().kind, "Deployment");
}

/// client-go's typed clients send DeleteOptions as protobuf: a stale precondition is a 409, a
/// current one deletes, and a body of another kind is a 400.
#[tokio::test(flavor = "multi_thread")]
async fn protobuf_delete_options() {
    use k8s_openapi::apimachinery::pkg::apis::meta::v1::{DeleteOptions, Preconditions};
    let api = Api::new().await;
    let scheme = scheme();
    let path = "/apis/apps/v1/namespaces/ns/deployments";
    let created = post(&api, path, deployment_body(&scheme, "gone")).await;
    assert_eq!(created.status(), StatusCode::CREATED);
    let (_, read) = api.get(&format!("{path}/gone")).await;
    let rv = read["metadata"]["resourceVersion"].as_str().unwrap().to_string();
    let options = |rv: &str| {
        let options = DeleteOptions {
            preconditions: Some(Preconditions {
                resource_version: Some(rv.into()),
                uid: None,
            }),
            ..Default::default()
        };
        Unknown::wrap("apps/v1", "DeleteOptions", &options).encode()
    };
    let delete = |body: Vec<u8>| {
        api.client
            .delete(format!("{}{path}/gone", api.url))
            .header("content-type", CONTENT_TYPE)
            .header("accept", ACCEPT)
            .body(body)
            .send()
    };
    let stale = delete(options("1")).await.unwrap();
    assert_eq!(stale.status(), StatusCode::CONFLICT);
    let wrong = delete(Unknown::wrap("apps/v1", "Deployment", &apps::v1::Deployment::default()).encode())
        .await
        .unwrap();
    assert_eq!(wrong.status(), StatusCode::BAD_REQUEST);
    let deleted = delete(options(&rv)).await.unwrap();
    assert_eq!(deleted.status(), StatusCode::OK);
    assert_eq!(content_type(&deleted), CONTENT_TYPE, "a Success Status, in protobuf");
    let envelope = Unknown::decode(&deleted.bytes().await.unwrap()).unwrap();
    assert_eq!(
        (envelope.api_version.as_str(), envelope.kind.as_str()),
        ("v1", "Status")
    );
    let status: k8s_openapi::apimachinery::pkg::apis::meta::v1::Status = envelope.object().unwrap();
    assert_eq!(status.status.as_deref(), Some("Success"));
    let details = status.details.unwrap();
    assert_eq!(
        (
            details.name.as_deref(),
            details.group.as_deref(),
            details.kind.as_deref()
        ),
        (Some("gone"), Some("apps"), Some("deployments"))
    );
    assert_eq!(api.get(&format!("{path}/gone")).await.0, StatusCode::NOT_FOUND);
}
