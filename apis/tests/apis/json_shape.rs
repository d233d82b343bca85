//! JSON shape of the v1 types: real-looking API server documents survive a deserialize/serialize
//! roundtrip unchanged, and serialize exactly as k8s-openapi's own types do. The apps/v1beta1 and
//! apps/v1beta2 documents (k8s-openapi has no types for these versions) must roundtrip unchanged.

use apis::apps::v1::Deployment;
use apis::apps::{v1beta1, v1beta2};
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
    let containers = &deployment
        .spec
        .as_ref()
        .unwrap()
        .template
        .spec
        .as_ref()
        .unwrap()
        .containers;
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
fn absent_value_fields_read_as_go_s_zero_values() {
    // DeploymentSpec.template, Container.name and ContainerPort.containerPort are values without
    // omitempty in Go: a document without them decodes to their zero values, as Go decodes it,
    // and validation says what is missing (`Required value`), as Kubernetes' does. The selector
    // is a pointer: absent is `None`.
    let mut doc = deployment_json();
    doc["spec"].as_object_mut().unwrap().remove("template");
    let spec = serde_json::from_value::<Deployment>(doc).unwrap().spec.unwrap();
    assert_eq!(spec.template, Default::default());
    let mut doc = deployment_json();
    doc["spec"].as_object_mut().unwrap().remove("selector");
    assert!(
        serde_json::from_value::<Deployment>(doc)
            .unwrap()
            .spec
            .unwrap()
            .selector
            .is_none()
    );

    let mut doc = deployment_json();
    doc["spec"]["template"]["spec"]["containers"][0]
        .as_object_mut()
        .unwrap()
        .remove("name");
    let spec = serde_json::from_value::<Deployment>(doc).unwrap().spec.unwrap();
    assert_eq!(spec.template.spec.unwrap().containers[0].name, "");

    let mut doc = pod_json();
    doc["spec"]["containers"][0]["ports"][0]
        .as_object_mut()
        .unwrap()
        .remove("containerPort");
    let pod = serde_json::from_value::<Pod>(doc).unwrap();
    assert_eq!(
        pod.spec.unwrap().containers[0].ports.as_ref().unwrap()[0].container_port,
        0
    );
}

fn v1beta1_deployment_json() -> Value {
    json!({
        "apiVersion": "apps/v1beta1",
        "kind": "Deployment",
        "metadata": {
            "name": "frontend",
            "namespace": "shop",
            "uid": "0b6f3a52-1c7e-11e9-9f3c-42010a800002",
            "resourceVersion": "190233",
            "generation": 5,
            "creationTimestamp": "2019-01-19T14:02:11Z",
            "labels": { "app": "frontend", "tier": "web" },
            "annotations": { "deployment.kubernetes.io/revision": "3" }
        },
        "spec": {
            "replicas": 2,
            "selector": { "matchLabels": { "app": "frontend", "tier": "web" } },
            "template": {
                "metadata": { "labels": { "app": "frontend", "tier": "web" } },
                "spec": {
                    "containers": [{
                        "name": "php-redis",
                        "image": "gcr.io/google-samples/gb-frontend:v4",
                        "ports": [{ "containerPort": 80, "protocol": "TCP" }],
                        "env": [{ "name": "GET_HOSTS_FROM", "value": "dns" }],
                        "resources": { "requests": { "cpu": "100m", "memory": "100Mi" } },
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
                "rollingUpdate": { "maxUnavailable": "25%", "maxSurge": "25%" }
            },
            "minReadySeconds": 5,
            "revisionHistoryLimit": 2,
            "rollbackTo": { "revision": 2 },
            "progressDeadlineSeconds": 600
        },
        "status": {
            "observedGeneration": 4,
            "replicas": 2,
            "updatedReplicas": 2,
            "readyReplicas": 2,
            "availableReplicas": 2,
            "conditions": [
                {
                    "type": "Available",
                    "status": "True",
                    "lastUpdateTime": "2019-01-19T14:02:40Z",
                    "lastTransitionTime": "2019-01-19T14:02:40Z",
                    "reason": "MinimumReplicasAvailable",
                    "message": "Deployment has minimum availability."
                },
                {
                    "type": "Progressing",
                    "status": "True",
                    "lastUpdateTime": "2019-01-20T08:15:02Z",
                    "lastTransitionTime": "2019-01-19T14:02:11Z",
                    "reason": "NewReplicaSetAvailable",
                    "message": "ReplicaSet \"frontend-5c548f4769\" has successfully progressed."
                }
            ],
            "collisionCount": 1
        }
    })
}

fn v1beta2_stateful_set_json() -> Value {
    // core::v1::Container does not model volumeMounts yet, so the template leaves them out. The
    // claim template carries apiVersion and kind, as the API server writes them (and as
    // k8s-openapi's PersistentVolumeClaim always serializes them).
    json!({
        "apiVersion": "apps/v1beta2",
        "kind": "StatefulSet",
        "metadata": {
            "name": "web",
            "namespace": "default",
            "uid": "6f1c4e0a-b2d1-11e8-8b4c-42010a800066",
            "resourceVersion": "88120",
            "generation": 2,
            "creationTimestamp": "2018-09-07T11:41:09Z",
            "labels": { "app": "nginx" }
        },
        "spec": {
            "replicas": 3,
            "selector": { "matchLabels": { "app": "nginx" } },
            "template": {
                "metadata": { "labels": { "app": "nginx" } },
                "spec": {
                    "containers": [{
                        "name": "nginx",
                        "image": "registry.k8s.io/nginx-slim:0.8",
                        "ports": [{ "name": "web", "containerPort": 80, "protocol": "TCP" }],
                        "resources": {},
                        "terminationMessagePath": "/dev/termination-log",
                        "terminationMessagePolicy": "File",
                        "imagePullPolicy": "IfNotPresent"
                    }],
                    "restartPolicy": "Always",
                    "terminationGracePeriodSeconds": 10,
                    "dnsPolicy": "ClusterFirst",
                    "schedulerName": "default-scheduler"
                }
            },
            "volumeClaimTemplates": [{
                "apiVersion": "v1",
                "kind": "PersistentVolumeClaim",
                "metadata": { "name": "www" },
                "spec": {
                    "accessModes": ["ReadWriteOnce"],
                    "resources": { "requests": { "storage": "1Gi" } },
                    "storageClassName": "standard",
                    "volumeMode": "Filesystem"
                },
                "status": { "phase": "Pending" }
            }],
            "serviceName": "nginx",
            "podManagementPolicy": "OrderedReady",
            "updateStrategy": {
                "type": "RollingUpdate",
                "rollingUpdate": { "partition": 0, "maxUnavailable": 1 }
            },
            "revisionHistoryLimit": 10,
            "persistentVolumeClaimRetentionPolicy": { "whenDeleted": "Retain", "whenScaled": "Delete" },
            "ordinals": { "start": 0 }
        },
        "status": {
            "observedGeneration": 2,
            "replicas": 3,
            "readyReplicas": 3,
            "currentReplicas": 3,
            "updatedReplicas": 3,
            "currentRevision": "web-6596ffb49b",
            "updateRevision": "web-6596ffb49b",
            "collisionCount": 0,
            "conditions": [{
                "type": "Healthy",
                "status": "True",
                "lastTransitionTime": "2018-09-07T11:42:01Z",
                "reason": "AllReplicasReady",
                "message": "all 3 replicas are ready"
            }],
            "availableReplicas": 3
        }
    })
}

#[test]
fn v1beta1_deployment_with_rollback_to_roundtrips() {
    let deployment: v1beta1::Deployment = assert_roundtrip(&v1beta1_deployment_json());
    let type_meta = deployment.type_meta.as_ref().expect("apiVersion and kind are read");
    assert_eq!(
        (type_meta.api_version.as_str(), type_meta.kind.as_str()),
        ("apps/v1beta1", "Deployment")
    );
    let spec = deployment.spec.as_ref().unwrap();
    assert_eq!(spec.rollback_to, Some(v1beta1::RollbackConfig { revision: Some(2) }));
    assert_eq!(spec.paused, None);
    assert_eq!(
        deployment.status.as_ref().unwrap().conditions.as_ref().unwrap().len(),
        2
    );

    // In apps/v1beta1 the Deployment selector is optional (defaulted from the template's labels).
    let mut doc = v1beta1_deployment_json();
    doc["spec"].as_object_mut().unwrap().remove("selector");
    let deployment: v1beta1::Deployment = assert_roundtrip(&doc);
    assert!(deployment.spec.unwrap().selector.is_none());
}

#[test]
fn v1beta2_stateful_set_roundtrips() {
    let doc = v1beta2_stateful_set_json();
    let stateful_set: v1beta2::StatefulSet = assert_roundtrip(&doc);
    let spec = stateful_set.spec.as_ref().unwrap();
    assert_eq!(spec.service_name, "nginx");
    let claims = spec.volume_claim_templates.as_ref().unwrap();
    assert_eq!(claims[0].metadata.name.as_deref(), Some("www"));
    assert_eq!(
        spec.persistent_volume_claim_retention_policy
            .as_ref()
            .unwrap()
            .when_scaled
            .as_deref(),
        Some("Delete")
    );
    assert_eq!(stateful_set.status.as_ref().unwrap().replicas, 3);

    // The selector is a pointer in Go: absent decodes, and validation requires it.
    let mut doc = v1beta2_stateful_set_json();
    doc["spec"].as_object_mut().unwrap().remove("selector");
    let decoded: v1beta2::StatefulSet = serde_json::from_value(doc).unwrap();
    assert!(decoded.spec.unwrap().selector.is_none());
}
