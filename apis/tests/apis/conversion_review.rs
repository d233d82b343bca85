//! The widgets CRD's conversion webhook, served by `Codec::review` over the generated conversions:
//! what the API server does with it. A stored v1 Widget read as v1alpha1 and written back as v1
//! comes back unchanged (v1's `paused` survives v1alpha1 in its annotation, and the annotation
//! does not leak into v1), every random Widget survives the same trip, and a review the webhook
//! cannot answer fails as a whole with the reason.

use apis::widgets::{v1, v1alpha1};
use kube_apimachinery::codec::Codec;
use serde_json::{Value, json};

fn review(desired: &str, objects: Vec<Value>) -> Value {
    json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "ConversionReview",
        "request": { "uid": "6e1a6b3c", "desiredAPIVersion": desired, "objects": objects },
    })
}

/// The converted objects of a successful review.
fn converted(scheme: &kube_apimachinery::Scheme, desired: &str, objects: Vec<Value>) -> Vec<Value> {
    let answer = Codec::new(scheme).review(&review(desired, objects));
    let response = &answer["response"];
    assert_eq!(response["uid"], "6e1a6b3c");
    assert_eq!(response["result"]["status"], "Success", "{response}");
    response["convertedObjects"].as_array().unwrap().clone()
}

#[test]
fn paused_survives_a_trip_through_v1alpha1() {
    let scheme = apis::scheme().unwrap();
    let stored = json!({
        "apiVersion": "widgets.example.dev/v1",
        "kind": "Widget",
        "metadata": { "name": "w", "namespace": "default", "uid": "u1", "resourceVersion": "7" },
        "spec": { "image": "example.dev/widget:1", "paused": true, "replicas": 2, "size": "Large" },
    });
    let alpha = converted(&scheme, "widgets.example.dev/v1alpha1", vec![stored.clone()]);
    assert_eq!(alpha[0]["apiVersion"], "widgets.example.dev/v1alpha1");
    assert_eq!(alpha[0]["metadata"]["annotations"][v1alpha1::PAUSED_ANNOTATION], "true");
    assert!(alpha[0]["spec"].get("paused").is_none());
    let back = converted(&scheme, "widgets.example.dev/v1", alpha);
    assert_eq!(back[0]["spec"]["paused"], true);
    assert!(back[0]["metadata"].get("annotations").is_none(), "{}", back[0]);
    assert_eq!(back[0]["metadata"]["resourceVersion"], "7", "metadata is kept as it is");
}

#[test]
fn random_widgets_survive_the_webhook_round_trip() {
    let scheme = apis::scheme().unwrap();
    for seed in 0..64 {
        let mut w: v1::Widget = kube_apimachinery::testing::fill(seed).unwrap();
        // The API server never stores `annotations: {}`: Go's omitempty drops the empty map.
        if w.metadata.annotations.as_ref().is_some_and(|a| a.is_empty()) {
            w.metadata.annotations = None;
        }
        let mut stored = serde_json::to_value(&w).unwrap();
        stored["apiVersion"] = "widgets.example.dev/v1".into();
        stored["kind"] = "Widget".into();
        // What the server stores is already defaulted: the same review to v1 gives that form.
        let expected = converted(&scheme, "widgets.example.dev/v1", vec![stored]);
        let alpha = converted(&scheme, "widgets.example.dev/v1alpha1", expected.clone());
        let back = converted(&scheme, "widgets.example.dev/v1", alpha);
        assert_eq!(back, expected, "seed {seed}");
    }
}

#[test]
fn a_review_that_cannot_be_answered_fails_whole() {
    let scheme = apis::scheme().unwrap();
    let good = json!({ "apiVersion": "widgets.example.dev/v1alpha1", "kind": "Widget", "metadata": { "name": "a" } });
    let bad = json!({
        "apiVersion": "widgets.example.dev/v1alpha1",
        "kind": "Widget",
        "metadata": { "name": "b", "annotations": { v1alpha1::PAUSED_ANNOTATION: "maybe" } },
    });
    let answer = Codec::new(&scheme).review(&review("widgets.example.dev/v1", vec![good, bad]));
    let response = &answer["response"];
    assert_eq!(response["result"]["status"], "Failure");
    assert!(response.get("convertedObjects").is_none());
    assert_eq!(
        response["result"]["message"],
        "object 2 (widgets.example.dev/v1alpha1 Widget): converting widgets.example.dev/v1alpha1, Kind=Widget to widgets.example.dev/__internal: annotation[widgets.example.dev/paused]=maybe is neither true nor false"
    );
}
