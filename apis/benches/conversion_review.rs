//! Benchmark: a CRD conversion webhook on the Scheme, `Codec::review` of a ConversionReview of
//! 100 widgets.example.dev/v1alpha1 Widgets to v1 (JSON value in, JSON value out: decode, convert
//! through the hub with the hand-written `paused` annotation, encode), as the API server sends it
//! when a list is read in the other version. Throughput is in objects per second. Run with
//! `cargo bench -p apis --bench conversion_review`.

use kube_apimachinery::codec::Codec;
use serde_json::{Value, json};

fn main() {
    divan::main();
}

/// A review of `n` Widgets with labels, an annotation, ports, limits and conditions.
fn review(n: usize) -> Value {
    let objects: Vec<Value> = (0..n)
        .map(|i| {
            json!({
                "apiVersion": "widgets.example.dev/v1alpha1",
                "kind": "Widget",
                "metadata": {
                    "name": format!("widget-{i}"),
                    "namespace": "production",
                    "uid": format!("5f0c3b8e-2d4a-4a51-9b0e-{i:012}"),
                    "resourceVersion": "48213",
                    "generation": 3,
                    "labels": { "app": "shop", "tier": "frontend" },
                    "annotations": { "widgets.example.dev/paused": "false" }
                },
                "spec": {
                    "replicas": 3,
                    "image": "example.dev/widget:2.4.1",
                    "size": "Large",
                    "selector": { "matchLabels": { "app": "shop" } },
                    "ports": [{ "name": "http", "port": 8080, "protocol": "TCP" }, { "name": "metrics", "port": 9090 }],
                    "limits": { "cpu": "2", "memory": "4Gi" }
                },
                "status": {
                    "observedGeneration": 3,
                    "replicas": 3,
                    "readyReplicas": 3,
                    "selector": "app=shop",
                    "conditions": [{
                        "type": "Ready", "status": "True", "reason": "AllReady", "message": "",
                        "lastTransitionTime": "2025-03-14T09:26:53Z"
                    }]
                }
            })
        })
        .collect();
    json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "ConversionReview",
        "request": { "uid": "6e1a6b3c", "desiredAPIVersion": "widgets.example.dev/v1", "objects": objects },
    })
}

#[divan::bench]
fn v1alpha1_to_v1_100_widgets(bencher: divan::Bencher) {
    let scheme = apis::scheme().expect("install succeeds");
    let request = review(100);
    let codec = Codec::new(&scheme);
    let answer = codec.review(&request);
    assert_eq!(answer["response"]["result"]["status"], "Success", "{answer}");
    bencher
        .counter(divan::counter::ItemsCount::new(100usize))
        .bench(|| codec.review(divan::black_box(&request)));
}
