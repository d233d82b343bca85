//! JSON shape of the v1 types: real-looking API server documents survive a deserialize/serialize
//! roundtrip unchanged, and serialize exactly as k8s-openapi's own types do.

use apis::apps::v1::Deployment;
use apis::core::v1::{ConfigMap, Pod};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

/// Deserializes `doc` into `T`, serializes it back and asserts that nothing was lost or renamed.
fn assert_roundtrip<T: DeserializeOwned + Serialize>(doc: &Value) -> T {
    let typed: T = serde_json::from_value(doc.clone()).expect("document deserializes");
    let back = serde_json::to_value(&typed).expect("value serializes");
    assert_eq!(&back, doc, "roundtrip changed the document");
    typed
}

/// Asserts that k8s-openapi's type `K` serializes `doc` to the same JSON as ours.
fn assert_same_as_k8s_openapi<K: DeserializeOwned + Serialize>(doc: &Value) {
    let theirs: K = serde_json::from_value(doc.clone()).expect("k8s-openapi deserializes");
    assert_eq!(
        &serde_json::to_value(&theirs).unwrap(),
        doc,
        "k8s-openapi sees a different document"
    );
}

fn deployment_json() -> Value {
    json!({
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {
            "name": "web",
            "namespace": "default",
            "uid": "5f0c3b8e-2d4a-4a51-9b0e-6f7d1c2e3a41",
            "resourceVersion": "48213",
            "generation": 3,
            "creationTimestamp": "2025-03-14T09:26:53Z",
            "labels": { "app": "web" },
            "annotations": { "deployment.kubernetes.io/revision": "2" }
        },
        "spec": {
            "replicas": 3,
            "selector": { "matchLabels": { "app": "web" } },
            "template": {
                "metadata": { "labels": { "app": "web" } },
                "spec": {
                    "containers": [{
                        "name": "nginx",
                        "image": "nginx:1.27",
                        "args": ["-g", "daemon off;"],
                        "ports": [{ "name": "http", "containerPort": 80, "protocol": "TCP" }],
                        "env": [{ "name": "MODE", "value": "prod" }],
                        "resources": {
                            "limits": { "cpu": "500m", "memory": "128Mi" },
                            "requests": { "cpu": "250m", "memory": "64Mi" }
                        },
                        "terminationMessagePath": "/dev/termination-log",
                        "terminationMessagePolicy": "File",
                        "imagePullPolicy": "IfNotPresent"
                    }],
                    "restartPolicy": "Always",
                    "terminationGracePeriodSeconds": 30,
                    "dnsPolicy": "ClusterFirst",
                    "schedulerName": "default-scheduler"
                }
            },
            "strategy": {
                "type": "RollingUpdate",
                "rollingUpdate": { "maxUnavailable": "25%", "maxSurge": 1 }
            },
            "revisionHistoryLimit": 10,
            "progressDeadlineSeconds": 600
        },
        "status": {
            "observedGeneration": 3,
            "replicas": 3,
            "updatedReplicas": 3,
            "readyReplicas": 3,
            "availableReplicas": 3,
            "terminatingReplicas": 0,
            "conditions": [{
                "type": "Available",
                "status": "True",
                "lastUpdateTime": "2025-03-14T09:27:05Z",
                "lastTransitionTime": "2025-03-14T09:27:05Z",
                "reason": "MinimumReplicasAvailable",
                "message": "Deployment has minimum availability."
            }]
        }
    })
}

fn pod_json() -> Value {
    json!({
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {
            "name": "web-7d4b9c8f6d-x2k9q",
            "generateName": "web-7d4b9c8f6d-",
            "namespace": "default",
            "labels": { "app": "web", "pod-template-hash": "7d4b9c8f6d" }
        },
        "spec": {
            "initContainers": [{
                "name": "init",
                "image": "busybox:1.36",
                "command": ["sh", "-c", "true"],
                "resources": {}
            }],
            "containers": [{
                "name": "nginx",
                "image": "nginx:1.27",
                "workingDir": "/srv",
                "ports": [{ "containerPort": 80, "hostPort": 8080, "hostIP": "0.0.0.0", "protocol": "TCP" }],
                "resources": { "requests": { "cpu": "250m" } },
                "imagePullPolicy": "IfNotPresent"
            }],
            "restartPolicy": "Always",
            "terminationGracePeriodSeconds": 30,
            "activeDeadlineSeconds": 3600,
            "dnsPolicy": "ClusterFirst",
            "nodeSelector": { "kubernetes.io/os": "linux" },
            "serviceAccountName": "default",
            "automountServiceAccountToken": false,
            "nodeName": "node-1",
            "hostNetwork": false,
            "imagePullSecrets": [{ "name": "registry-creds" }],
            "schedulerName": "default-scheduler",
            "priorityClassName": "system-cluster-critical",
            "priority": 2000000000
        },
        "status": {
            "phase": "Running",
            "conditions": [
                { "type": "PodScheduled", "status": "True", "lastProbeTime": null, "lastTransitionTime": "2025-03-14T09:26:54Z" },
                { "type": "Ready", "status": "True", "observedGeneration": 1, "lastTransitionTime": "2025-03-14T09:27:04Z" }
            ],
            "hostIP": "10.0.0.12",
            "podIP": "10.244.1.7",
            "podIPs": [{ "ip": "10.244.1.7" }, { "ip": "fd00:10:244:1::7" }],
            "startTime": "2025-03-14T09:26:54Z"
        }
    })
}

fn config_map_json() -> Value {
    json!({
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": { "name": "settings", "namespace": "default" },
        "immutable": true,
        "data": { "app.properties": "mode=prod\nlevel=info\n", "empty": "" },
        "binaryData": { "logo.png": "iVBORw0KGgo=" }
    })
}

#[test]
fn deployment_roundtrips_and_matches_k8s_openapi() {
    let doc = deployment_json();
    let deployment: Deployment = assert_roundtrip(&doc);
    assert_same_as_k8s_openapi::<k8s_openapi::api::apps::v1::Deployment>(&doc);

    let type_meta = deployment.type_meta.as_ref().expect("apiVersion and kind are read");
    assert_eq!(
        (type_meta.api_version.as_str(), type_meta.kind.as_str()),
        ("apps/v1", "Deployment")
    );
    let containers = &deployment.spec.template.spec.as_ref().unwrap().containers;
    assert_eq!(containers.len(), 1);
    assert_eq!(containers[0].ports.as_ref().unwrap()[0].container_port, 80);
}

#[test]
fn pod_roundtrips_and_matches_k8s_openapi() {
    // `lastProbeTime: null` is what the API server writes for a zero time; like k8s-openapi we read
    // it as absent, so the comparison document leaves it out.
    let mut expected = pod_json();
    expected["status"]["conditions"][0]
        .as_object_mut()
        .unwrap()
        .remove("lastProbeTime");

    let pod: Pod = serde_json::from_value(pod_json()).expect("pod deserializes");
    assert_eq!(serde_json::to_value(&pod).unwrap(), expected);
    assert_roundtrip::<Pod>(&expected);
    assert_same_as_k8s_openapi::<k8s_openapi::api::core::v1::Pod>(&expected);

    let status = pod.status.as_ref().unwrap();
    assert_eq!(status.pod_ip.as_deref(), Some("10.244.1.7"));
    assert_eq!(status.conditions.as_ref().unwrap()[0].last_probe_time, None);
}

#[test]
fn config_map_roundtrips_and_matches_k8s_openapi() {
    let doc = config_map_json();
    let config_map: ConfigMap = assert_roundtrip(&doc);
    assert_same_as_k8s_openapi::<k8s_openapi::api::core::v1::ConfigMap>(&doc);

    let logo = &config_map.binary_data.as_ref().unwrap()["logo.png"];
    assert_eq!(logo.0, b"\x89PNG\r\n\x1a\n");
}

#[test]
fn type_meta_is_optional_and_omitted_when_absent() {
    let doc = json!({ "metadata": { "name": "settings" }, "data": { "k": "v" } });
    let config_map: ConfigMap = assert_roundtrip(&doc);
    assert!(config_map.type_meta.is_none());
}

#[test]
fn required_fields_are_required() {
    // DeploymentSpec.selector and .template, Container.name and ContainerPort.containerPort have
    // neither omitempty nor +optional in Go, so a document without them is rejected.
    let mut doc = deployment_json();
    doc["spec"].as_object_mut().unwrap().remove("selector");
    assert!(serde_json::from_value::<Deployment>(doc).is_err());

    let mut doc = deployment_json();
    doc["spec"]["template"]["spec"]["containers"][0]
        .as_object_mut()
        .unwrap()
        .remove("name");
    assert!(serde_json::from_value::<Deployment>(doc).is_err());

    let mut doc = pod_json();
    doc["spec"]["containers"][0]["ports"][0]
        .as_object_mut()
        .unwrap()
        .remove("containerPort");
    assert!(serde_json::from_value::<Pod>(doc).is_err());
}
