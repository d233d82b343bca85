//! Validation on every write path: 422 Invalid with Kubernetes' Status (message, `details.name`,
//! `group`, `kind`, and one cause per field error) for the declarative rules, the hand-written
//! rules beside them, the label and annotation checks, and a custom kind's schema tags; and
//! ratcheting, which lets an object stored before a rule existed be updated.

use crate::support;

use std::sync::Arc;

use kube_apiserver_storage::Storage;
use kube_apiserver_storage::memory::MemoryStorage;
use reqwest::StatusCode;
use serde_json::{Value, json};
use support::api::Api;

const DEPLOYMENTS: &str = "/apis/apps/v1/namespaces/ns/deployments";

fn deployment(name: &str) -> Value {
    json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": name},
           "spec": {"selector": {"matchLabels": {"app": name}},
                    "template": {"metadata": {"labels": {"app": name}}, "spec": {"containers": [{"name": "c", "image": "i"}]}}}})
}

/// The causes of a Status as (field, message) pairs.
fn causes(status: &Value) -> Vec<(String, String)> {
    status["details"]["causes"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|c| {
            (
                c["field"].as_str().unwrap_or_default().to_string(),
                c["message"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect()
}

fn has(status: &Value, field: &str, message: &str) -> bool {
    causes(status).iter().any(|(f, m)| f == field && m == message)
}

#[tokio::test(flavor = "multi_thread")]
async fn an_invalid_deployment_is_refused_with_every_field_error() {
    let api = Api::new().await;
    let mut bad = deployment("bad");
    bad["spec"]["replicas"] = json!(-5);
    bad["spec"]["selector"] = json!({"matchLabels": {"app": "other"}});
    bad["spec"]["template"]["spec"]["containers"] = json!([{"name": "", "image": ""}, {"name": "Web_1", "image": "i"}]);
    let (code, status) = api.send("POST", DEPLOYMENTS, "application/json", bad.to_string()).await;
    assert_eq!(code, StatusCode::UNPROCESSABLE_ENTITY, "{status}");
    assert_eq!(status["reason"], "Invalid");
    assert_eq!(status["code"], 422);
    assert_eq!(status["details"]["name"], "bad");
    assert_eq!(status["details"]["group"], "apps");
    assert_eq!(status["details"]["kind"], "Deployment");
    let message = status["message"].as_str().unwrap();
    assert!(
        message.starts_with("Deployment.apps \"bad\" is invalid: ["),
        "{message}"
    );
    assert!(
        message.contains("spec.replicas: Invalid value: -5: must be greater than or equal to 0"),
        "{message}"
    );
    assert!(
        has(
            &status,
            "spec.replicas",
            "Invalid value: -5: must be greater than or equal to 0"
        ),
        "{status}"
    );
    assert!(
        has(&status, "spec.template.spec.containers[0].name", "Required value"),
        "{status}"
    );
    assert!(
        has(&status, "spec.template.spec.containers[0].image", "Required value"),
        "{status}"
    );
    assert!(
        causes(&status)
            .iter()
            .any(|(f, m)| f == "spec.template.spec.containers[1].name"
                && m.starts_with("Invalid value: \"Web_1\": a lowercase RFC 1123 label")),
        "{status}"
    );
    assert!(
        has(
            &status,
            "spec.template.metadata.labels",
            "Invalid value: {\"app\":\"bad\"}: `selector` does not match template `labels`"
        ),
        "{status}"
    );
    let reasons: Vec<&str> = status["details"]["causes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["reason"].as_str().unwrap())
        .collect();
    assert!(reasons.contains(&"FieldValueInvalid") && reasons.contains(&"FieldValueRequired"));
    assert_eq!(
        api.get(&format!("{DEPLOYMENTS}/bad")).await.0,
        StatusCode::NOT_FOUND,
        "nothing stored"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn every_write_path_validates() {
    let api = Api::new().await;
    let (code, _) = api
        .send("POST", DEPLOYMENTS, "application/json", deployment("d").to_string())
        .await;
    assert_eq!(code, StatusCode::CREATED);
    let one = format!("{DEPLOYMENTS}/d");
    let replicas = "spec.replicas";
    let expect = "Invalid value: -1: must be greater than or equal to 0";

    // A dry-run create is validated too.
    let mut bad = deployment("dry");
    bad["spec"]["replicas"] = json!(-1);
    let (code, status) = api
        .send(
            "POST",
            &format!("{DEPLOYMENTS}?dryRun=All"),
            "application/json",
            bad.to_string(),
        )
        .await;
    assert_eq!(code, StatusCode::UNPROCESSABLE_ENTITY, "{status}");

    // Update.
    let (_, mut current) = api.get(&one).await;
    current["spec"]["replicas"] = json!(-1);
    let (code, status) = api.send("PUT", &one, "application/json", current.to_string()).await;
    assert_eq!(code, StatusCode::UNPROCESSABLE_ENTITY, "{status}");
    assert!(has(&status, replicas, expect), "{status}");

    // Merge, strategic merge and JSON patches.
    for (content_type, patch) in [
        (
            "application/merge-patch+json",
            json!({"spec": {"replicas": -1}}).to_string(),
        ),
        (
            "application/strategic-merge-patch+json",
            json!({"spec": {"replicas": -1}}).to_string(),
        ),
        (
            "application/json-patch+json",
            json!([{"op": "replace", "path": "/spec/replicas", "value": -1}]).to_string(),
        ),
    ] {
        let (code, status) = api.send("PATCH", &one, content_type, patch).await;
        assert_eq!(code, StatusCode::UNPROCESSABLE_ENTITY, "{content_type}: {status}");
        assert!(has(&status, replicas, expect), "{content_type}: {status}");
    }

    // Server-side apply.
    let mut applied = deployment("d");
    applied["spec"]["replicas"] = json!(-1);
    let (code, status) = api
        .send(
            "PATCH",
            &format!("{one}?fieldManager=test&force=true"),
            "application/apply-patch+yaml",
            applied.to_string(),
        )
        .await;
    assert_eq!(code, StatusCode::UNPROCESSABLE_ENTITY, "{status}");

    // The scale subresource writes the same field.
    let scale = json!({"apiVersion": "autoscaling/v1", "kind": "Scale", "metadata": {"name": "d", "namespace": "ns"},
                       "spec": {"replicas": -1}});
    let (code, status) = api
        .send("PUT", &format!("{one}/scale"), "application/json", scale.to_string())
        .await;
    assert_eq!(code, StatusCode::UNPROCESSABLE_ENTITY, "{status}");

    // The selector of an apps/v1 Deployment cannot change.
    let (_, mut current) = api.get(&one).await;
    current["spec"]["selector"] = json!({"matchLabels": {"app": "d", "tier": "x"}});
    current["spec"]["template"]["metadata"]["labels"] = json!({"app": "d", "tier": "x"});
    let (code, status) = api.send("PUT", &one, "application/json", current.to_string()).await;
    assert_eq!(code, StatusCode::UNPROCESSABLE_ENTITY, "{status}");
    assert!(
        causes(&status)
            .iter()
            .any(|(f, m)| f == "spec.selector" && m.ends_with("field is immutable")),
        "{status}"
    );
    let (_, stored) = api.get(&one).await;
    assert_eq!(stored["spec"]["replicas"], 1, "no invalid write was stored");
}

#[tokio::test(flavor = "multi_thread")]
async fn labels_annotations_and_config_map_keys_are_checked() {
    let api = Api::new().await;
    let cm = json!({"apiVersion": "v1", "kind": "ConfigMap",
                    "metadata": {"name": "c", "labels": {"ok": "not ok!"}},
                    "data": {"bad key": "v"}});
    let (code, status) = api
        .send(
            "POST",
            "/api/v1/namespaces/ns/configmaps",
            "application/json",
            cm.to_string(),
        )
        .await;
    assert_eq!(code, StatusCode::UNPROCESSABLE_ENTITY, "{status}");
    assert!(
        status["message"]
            .as_str()
            .unwrap()
            .starts_with("ConfigMap \"c\" is invalid: ["),
        "{status}"
    );
    assert!(status["details"].get("group").is_none_or(|g| g == ""), "{status}");
    assert!(
        causes(&status).iter().any(|(f, m)| f == "metadata.labels"
            && m.starts_with("Invalid value: \"not ok!\": a valid label must be an empty string")),
        "{status}"
    );
    assert!(
        causes(&status).iter().any(|(f, m)| f == "data[bad key]"
            && m.starts_with("Invalid value: \"bad key\": a valid config key must consist")),
        "{status}"
    );
    let big = "x".repeat(300 * 1024);
    let cm = json!({"apiVersion": "v1", "kind": "ConfigMap",
                    "metadata": {"name": "c", "annotations": {"a": big}}});
    let (code, status) = api
        .send(
            "POST",
            "/api/v1/namespaces/ns/configmaps",
            "application/json",
            cm.to_string(),
        )
        .await;
    assert_eq!(code, StatusCode::UNPROCESSABLE_ENTITY, "{status}");
    assert!(
        has(
            &status,
            "metadata.annotations",
            "Too long: may not be more than 262144 bytes"
        ),
        "{status}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_widget_is_checked_as_its_crd_states() {
    let api = Api::new().await;
    let widget = json!({"apiVersion": "widgets.example.dev/v1", "kind": "Widget", "metadata": {"name": "w"},
                        "spec": {"replicas": -3, "image": "", "ports": [{"name": "http", "port": 70000}]}});
    let (code, status) = api
        .send(
            "POST",
            "/apis/widgets.example.dev/v1/namespaces/ns/widgets",
            "application/json",
            widget.to_string(),
        )
        .await;
    assert_eq!(code, StatusCode::UNPROCESSABLE_ENTITY, "{status}");
    assert!(
        has(
            &status,
            "spec.replicas",
            "Invalid value: -3: spec.replicas in body should be greater than or equal to 0"
        ),
        "{status}"
    );
    assert!(
        has(
            &status,
            "spec.image",
            "Invalid value: \"\": spec.image in body should be at least 1 chars long"
        ),
        "{status}"
    );
    assert!(
        has(
            &status,
            "spec.ports[0].port",
            "Invalid value: 70000: spec.ports[0].port in body should be less than or equal to 65535"
        ),
        "{status}"
    );
    // The ports are a list map keyed by name (`+listType=map`), as the CRD's schema says.
    let widget = json!({"apiVersion": "widgets.example.dev/v1", "kind": "Widget", "metadata": {"name": "w"},
                        "spec": {"image": "i", "ports": [{"name": "http", "port": 80}, {"name": "http", "port": 81}]}});
    let (code, status) = api
        .send(
            "POST",
            "/apis/widgets.example.dev/v1/namespaces/ns/widgets",
            "application/json",
            widget.to_string(),
        )
        .await;
    assert_eq!(code, StatusCode::UNPROCESSABLE_ENTITY, "{status}");
    assert!(
        has(&status, "spec.ports[1]", "Duplicate value: {\"name\":\"http\"}"),
        "{status}"
    );
}

/// Declarative rules ratchet: a value an older server stored passes an update that leaves it
/// alone. (A Deployment's replicas are checked by Kubernetes' hand-written validation, which
/// does not ratchet; the Widget's `+k8s:validation:minimum=0` is declarative.)
#[tokio::test(flavor = "multi_thread")]
async fn an_invalid_object_stored_before_the_rule_can_still_be_updated() {
    // Written straight into storage, as an object stored by an older server would be.
    let storage = Arc::new(MemoryStorage::default());
    let old = json!({"apiVersion": "widgets.example.dev/v1", "kind": "Widget",
        "metadata": {"name": "legacy", "namespace": "ns", "uid": "5b0c6f1e-0000-4000-8000-000000000001"},
        "spec": {"image": "i", "replicas": -5}});
    storage
        .create(
            "/registry/widgets.example.dev/widgets/ns/legacy",
            bytes::Bytes::from(serde_json::to_vec(&old).unwrap()),
        )
        .await
        .unwrap();
    let api = Api::on(support::start_on(storage)).await;
    let one = "/apis/widgets.example.dev/v1/namespaces/ns/widgets/legacy";
    let (code, status) = api
        .send(
            "PATCH",
            one,
            "application/merge-patch+json",
            json!({"metadata": {"labels": {"touched": "yes"}}}).to_string(),
        )
        .await;
    assert_eq!(
        code,
        StatusCode::OK,
        "an unchanged invalid value passes an update: {status}"
    );
    let (code, status) = api
        .send(
            "PATCH",
            one,
            "application/merge-patch+json",
            json!({"spec": {"replicas": -4}}).to_string(),
        )
        .await;
    assert_eq!(
        code,
        StatusCode::UNPROCESSABLE_ENTITY,
        "a changed one does not: {status}"
    );
    assert_eq!(status["details"]["causes"][0]["field"], "spec.replicas", "{status}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_missing_field_or_an_unknown_enum_value_is_a_field_error() {
    let api = Api::new().await;
    let mut no_selector = deployment("nosel");
    no_selector["spec"].as_object_mut().unwrap().remove("selector");
    let (code, status) = api
        .send("POST", DEPLOYMENTS, "application/json", no_selector.to_string())
        .await;
    assert_eq!(code, StatusCode::UNPROCESSABLE_ENTITY, "{status}");
    assert_eq!(
        status["message"],
        "Deployment.apps \"nosel\" is invalid: spec.selector: Required value"
    );
    assert_eq!(status["details"]["causes"][0]["reason"], "FieldValueRequired");
    let widget = json!({"apiVersion": "widgets.example.dev/v1", "kind": "Widget", "metadata": {"name": "w"},
                        "spec": {"image": "i", "size": "huge"}});
    let (code, status) = api
        .send(
            "POST",
            "/apis/widgets.example.dev/v1/namespaces/ns/widgets",
            "application/json",
            widget.to_string(),
        )
        .await;
    assert_eq!(code, StatusCode::UNPROCESSABLE_ENTITY, "{status}");
    assert_eq!(
        status["message"],
        "Widget.widgets.example.dev \"w\" is invalid: spec.size: Unsupported value: \"huge\": supported values: \"Large\", \"Medium\", \"Small\""
    );
    assert_eq!(status["details"]["causes"][0]["reason"], "FieldValueNotSupported");
}

/// An unknown strategy type is reported at the type, as kube-apiserver reports it.
#[tokio::test(flavor = "multi_thread")]
async fn an_unknown_deployment_strategy_is_reported_at_its_type() {
    let api = Api::new().await;
    let mut sideways = deployment("sideways");
    sideways["spec"]["strategy"] = json!({"type": "Sideways"});
    let (code, status) = api
        .send("POST", DEPLOYMENTS, "application/json", sideways.to_string())
        .await;
    assert_eq!(code, StatusCode::UNPROCESSABLE_ENTITY, "{status}");
    assert_eq!(
        status["message"],
        "Deployment.apps \"sideways\" is invalid: spec.strategy.type: Unsupported value: \"Sideways\": supported values: \"Recreate\", \"RollingUpdate\""
    );
    assert_eq!(
        causes(&status),
        [(
            "spec.strategy.type".to_string(),
            "Unsupported value: \"Sideways\": supported values: \"Recreate\", \"RollingUpdate\"".to_string()
        )]
    );
    assert_eq!(status["details"]["causes"][0]["reason"], "FieldValueNotSupported");
}

#[tokio::test(flavor = "multi_thread")]
async fn workloads_keep_their_selectors_and_fixed_fields() {
    let api = Api::new().await;
    let replicasets = "/apis/apps/v1/namespaces/ns/replicasets";
    let mut rs = deployment("rs");
    rs["kind"] = json!("ReplicaSet");
    rs["spec"]["selector"] = json!({});
    let (code, status) = api.send("POST", replicasets, "application/json", rs.to_string()).await;
    assert_eq!(code, StatusCode::UNPROCESSABLE_ENTITY, "{status}");
    assert!(
        has(
            &status,
            "spec.selector",
            "Invalid value: {}: empty selector is invalid for deployment"
        ),
        "{status}"
    );

    let statefulsets = "/apis/apps/v1/namespaces/ns/statefulsets";
    let mut sts = deployment("db");
    sts["kind"] = json!("StatefulSet");
    sts["spec"]["serviceName"] = json!("db");
    let (code, status) = api
        .send("POST", statefulsets, "application/json", sts.to_string())
        .await;
    assert_eq!(code, StatusCode::CREATED, "{status}");
    let one = format!("{statefulsets}/db");
    let (code, status) = api
        .send(
            "PATCH",
            &one,
            "application/merge-patch+json",
            json!({"spec": {"replicas": 5}}).to_string(),
        )
        .await;
    assert_eq!(code, StatusCode::OK, "replicas may change: {status}");
    let (code, status) = api
        .send(
            "PATCH",
            &one,
            "application/merge-patch+json",
            json!({"spec": {"serviceName": "other"}}).to_string(),
        )
        .await;
    assert_eq!(code, StatusCode::UNPROCESSABLE_ENTITY, "{status}");
    assert!(
        causes(&status)
            .iter()
            .any(|(f, m)| f == "spec" && m.starts_with("Forbidden: updates to statefulset spec for fields other than")),
        "{status}"
    );
}

/// A container's probes and lifecycle hooks, worded as Kubernetes' `validateHandler`,
/// `validateProbe` and `validateInitContainers` word them (k8s.io/kubernetes v1.36.3).
#[tokio::test(flavor = "multi_thread")]
async fn probes_and_hooks_are_checked_as_kubernetes_checks_them() {
    let api = Api::new().await;
    let mut bad = deployment("probes");
    let exec = json!({"command": ["true"]});
    bad["spec"]["template"]["spec"]["containers"] = json!([
        {"name": "a", "image": "i",
         "livenessProbe": {"exec": exec, "httpGet": {"port": 80}},
         "readinessProbe": {"initialDelaySeconds": -1},
         "startupProbe": {"tcpSocket": {"port": 0}, "successThreshold": 2},
         "lifecycle": {"preStop": {"sleep": {"seconds": 100}}, "postStart": {"exec": {"command": []}}}},
        {"name": "b", "image": "i",
         "readinessProbe": {"grpc": {"port": 9000}, "terminationGracePeriodSeconds": 5}},
    ]);
    bad["spec"]["template"]["spec"]["initContainers"] = json!([
        {"name": "init", "image": "i", "livenessProbe": {"exec": exec}},
        {"name": "sidecar", "image": "i", "restartPolicy": "Always", "livenessProbe": {"exec": exec}},
    ]);
    let (code, status) = api.send("POST", DEPLOYMENTS, "application/json", bad.to_string()).await;
    assert_eq!(code, StatusCode::UNPROCESSABLE_ENTITY, "{status}");
    let at = "spec.template.spec.containers";
    let want = [
        (format!("{at}[0].lifecycle.postStart.exec.command"), "Required value"),
        (
            format!("{at}[0].lifecycle.preStop.sleep"),
            "Invalid value: 100: must be non-negative and less than terminationGracePeriodSeconds (30)",
        ),
        (
            format!("{at}[0].livenessProbe.httpGet"),
            "Forbidden: may not specify more than 1 handler type",
        ),
        (
            format!("{at}[0].readinessProbe"),
            "Required value: must specify a handler type",
        ),
        (
            format!("{at}[0].readinessProbe.initialDelaySeconds"),
            "Invalid value: -1: must be greater than or equal to 0",
        ),
        (
            format!("{at}[0].startupProbe.tcpSocket.port"),
            "Invalid value: 0: must be between 1 and 65535, inclusive",
        ),
        (
            format!("{at}[0].startupProbe.successThreshold"),
            "Invalid value: 2: must be 1",
        ),
        (
            format!("{at}[1].readinessProbe.terminationGracePeriodSeconds"),
            "Invalid value: 5: must not be set for readinessProbes",
        ),
        (
            "spec.template.spec.initContainers[0].livenessProbe".into(),
            "Forbidden: may not be set for init containers without restartPolicy=Always",
        ),
    ];
    for (field, message) in &want {
        assert!(has(&status, field, message), "{field}: {message}\n{status}");
    }
    // Nothing else: the sidecar may probe, the second container's gRPC probe is fine.
    assert_eq!(causes(&status).len(), want.len(), "{status}");
}
