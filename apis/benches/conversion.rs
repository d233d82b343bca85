//! Benchmark: `Scheme::convert_to_version` of an apps/v1 Deployment with a realistic pod template
//! (three containers with env, ports, resources; labels and annotations) to apps/v1beta2, which goes
//! through the internal version, and each half alone: v1 -> internal and internal -> v1beta2.
//! Throughput is in objects per second. Run with `cargo bench -p apis --bench conversion`.

use apis::apps;
use kube_apimachinery::{API_VERSION_INTERNAL, GroupVersion, Object, Scheme};
use serde_json::json;

fn main() {
    divan::main();
}

/// A Deployment as an API server returns it: metadata with labels and annotations, three containers.
fn deployment() -> apps::v1::Deployment {
    let container = |name: &str, image: &str, port: i32, cpu: &str, memory: &str| {
        json!({
            "name": name,
            "image": image,
            "args": ["--port", port.to_string(), "--log-level=info"],
            "ports": [
                { "name": "http", "containerPort": port, "protocol": "TCP" },
                { "name": "metrics", "containerPort": port + 1000, "protocol": "TCP" }
            ],
            "env": [
                { "name": "MODE", "value": "production" },
                { "name": "REGION", "value": "eu-west-1" },
                { "name": "LOG_FORMAT", "value": "json" },
                { "name": "CACHE_SIZE", "value": "256" }
            ],
            "resources": {
                "limits": { "cpu": cpu, "memory": memory },
                "requests": { "cpu": "100m", "memory": "64Mi" }
            },
            "terminationMessagePath": "/dev/termination-log",
            "terminationMessagePolicy": "File",
            "imagePullPolicy": "IfNotPresent"
        })
    };
    let labels = json!({ "app": "shop", "tier": "frontend", "app.kubernetes.io/version": "2.4.1" });
    let doc = json!({
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {
            "name": "shop",
            "namespace": "production",
            "uid": "5f0c3b8e-2d4a-4a51-9b0e-6f7d1c2e3a41",
            "resourceVersion": "48213",
            "generation": 7,
            "creationTimestamp": "2025-03-14T09:26:53Z",
            "labels": labels,
            "annotations": {
                "deployment.kubernetes.io/revision": "7",
                "kubectl.kubernetes.io/restartedAt": "2025-03-20T11:02:17Z"
            }
        },
        "spec": {
            "replicas": 3,
            "selector": { "matchLabels": { "app": "shop", "tier": "frontend" } },
            "template": {
                "metadata": {
                    "labels": labels,
                    "annotations": { "prometheus.io/scrape": "true", "prometheus.io/port": "9080" }
                },
                "spec": {
                    "containers": [
                        container("web", "registry.example.com/shop/web:2.4.1", 8080, "1", "512Mi"),
                        container("sidecar", "registry.example.com/envoy:1.31", 9901, "500m", "256Mi"),
                        container("logger", "registry.example.com/fluent-bit:3.1", 2020, "200m", "128Mi")
                    ],
                    "restartPolicy": "Always",
                    "terminationGracePeriodSeconds": 30,
                    "dnsPolicy": "ClusterFirst",
                    "serviceAccountName": "shop",
                    "schedulerName": "default-scheduler"
                }
            },
            "strategy": { "type": "RollingUpdate", "rollingUpdate": { "maxUnavailable": "25%", "maxSurge": "25%" } },
            "revisionHistoryLimit": 10,
            "progressDeadlineSeconds": 600
        },
        "status": {
            "observedGeneration": 7,
            "replicas": 3,
            "updatedReplicas": 3,
            "readyReplicas": 3,
            "availableReplicas": 3
        }
    });
    serde_json::from_value(doc).expect("the benchmark Deployment deserializes")
}

fn scheme() -> Scheme {
    apis::scheme().expect("install succeeds")
}

fn internal() -> GroupVersion {
    GroupVersion::new("apps", API_VERSION_INTERNAL)
}

/// v1 -> internal -> v1beta2, as one `convert_to_version` call.
#[divan::bench]
fn v1_to_v1beta2(bencher: divan::Bencher) {
    let (scheme, d) = (scheme(), deployment());
    bencher.counter(divan::counter::ItemsCount::new(1usize)).bench(|| {
        scheme
            .convert_to_version(divan::black_box(&d), &apps::v1beta2::SCHEME_GROUP_VERSION)
            .unwrap()
    });
}

/// The first half: v1 -> internal.
#[divan::bench]
fn v1_to_internal(bencher: divan::Bencher) {
    let (scheme, d, internal) = (scheme(), deployment(), internal());
    bencher
        .counter(divan::counter::ItemsCount::new(1usize))
        .bench(|| scheme.convert_to_version(divan::black_box(&d), &internal).unwrap());
}

/// The second half: internal -> v1beta2.
#[divan::bench]
fn internal_to_v1beta2(bencher: divan::Bencher) {
    let scheme = scheme();
    let hub: Box<dyn Object> = scheme.convert_to_version(&deployment(), &internal()).unwrap();
    bencher.counter(divan::counter::ItemsCount::new(1usize)).bench(|| {
        scheme
            .convert_to_version(divan::black_box(hub.as_ref()), &apps::v1beta2::SCHEME_GROUP_VERSION)
            .unwrap()
    });
}
