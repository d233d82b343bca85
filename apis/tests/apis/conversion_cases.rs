//! Cross-version conversions with exact expected output: each input is a JSON document, converted
//! with `Scheme::convert_to_version` (always through the group's hub: apiextensions' internal
//! version, apps/v1 for the imported apps group), and the result's JSON is compared with a JSON
//! literal. No defaults are applied (`convert_to_version` does not default).
//!
//! The expected documents are what Kubernetes' own conversions produce (k8s.io/kubernetes
//! pkg/apis/apps/v1 and apiextensions-apiserver pkg/apis/apiextensions/{v1,v1beta1}
//! conversion.go), in one respect written in the other of two equivalent forms, marked where it
//! occurs: in apiextensions, a plain internal number becomes a present external value
//! (`"priority": 0`), the rule in generators/src/generator/conversion/value.rs, because that
//! external field is an `Option` not tagged `+k8s:zeroIsUnset`. Go writes none: the Go field is
//! a plain value with `omitempty`. (JSONSchemaProps' value bools are tagged, and are left out
//! when false, as Go leaves them out.) apps converts between external versions whose optional fields are `Option`s on
//! both sides, so an absent value stays absent (`minReadySeconds`, `paused` below).

use apis::{apiextensions, apps, autoscaling};
use kube_apimachinery::{GroupVersion, Object, Scheme};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

fn scheme() -> Scheme {
    apis::scheme().expect("install succeeds")
}

/// Reads `input` as an `In`, converts it to `target` and returns the result's JSON, which must be
/// an `Out`.
fn convert<In, Out>(scheme: &Scheme, input: &Value, target: &GroupVersion) -> Value
where
    In: Object + DeserializeOwned,
    Out: Object + Serialize,
{
    let typed: In = serde_json::from_value(input.clone()).expect("the input document deserializes");
    let out = scheme
        .convert_to_version(&typed, target)
        .expect("the conversion succeeds");
    let out = out.downcast_ref::<Out>().expect("the conversion gives the target type");
    serde_json::to_value(out).expect("API types serialize")
}

/// Asserts exact equality, printing both documents in full on failure.
#[track_caller]
fn assert_json(actual: &Value, expected: &Value) {
    assert!(
        actual == expected,
        "\nactual:\n{}\nexpected:\n{}",
        serde_json::to_string_pretty(actual).unwrap(),
        serde_json::to_string_pretty(expected).unwrap()
    );
}

/// `base` with the members of the object `extra` added (replacing members of the same name).
fn with(mut base: Value, extra: Value) -> Value {
    if let (Value::Object(base), Value::Object(extra)) = (&mut base, extra) {
        base.extend(extra);
    }
    base
}

// ---------------------------------------------------------------------------------------------
// (a) apps: spec.rollbackTo, which only v1beta1 has, and the deprecated.deployment.rollback.to
// annotation that carries it through v1 and v1beta2.
// ---------------------------------------------------------------------------------------------

/// A Deployment in `api_version` with `metadata` and `spec` members added.
fn deployment(api_version: &str, metadata: Value, spec: Value) -> Value {
    json!({
        "apiVersion": api_version,
        "kind": "Deployment",
        "metadata": with(json!({ "name": "web", "namespace": "default", "labels": { "app": "web" } }), metadata),
        "spec": with(json!({
            "replicas": 2,
            "selector": { "matchLabels": { "app": "web" } },
            "template": {
                "metadata": { "labels": { "app": "web" } },
                "spec": { "containers": [{ "name": "nginx", "image": "nginx:1.27" }] }
            }
        }), spec)
    })
}

/// Absent `minReadySeconds` and `paused` stay absent (module doc): nothing is added.
fn deployment_zero_scalars() -> Value {
    json!({})
}

/// v1beta1 `rollbackTo` -> `Mid` (v1 or v1beta2) -> v1beta1.
fn rollback_round_trip<Mid: Object + Serialize + DeserializeOwned>(mid: &GroupVersion) {
    let scheme = scheme();
    let v1beta1 = deployment("apps/v1beta1", json!({}), json!({ "rollbackTo": { "revision": 3 } }));

    let converted = convert::<apps::v1beta1::Deployment, Mid>(&scheme, &v1beta1, mid);
    let expected = deployment(
        &mid.to_string(),
        json!({ "annotations": { "deprecated.deployment.rollback.to": "3" } }),
        deployment_zero_scalars(),
    );
    assert_json(&converted, &expected);

    let back = convert::<Mid, apps::v1beta1::Deployment>(&scheme, &converted, &apps::v1beta1::SCHEME_GROUP_VERSION);
    let expected = deployment(
        "apps/v1beta1",
        // The rollback conversion removes the annotation map it emptied.
        json!({}),
        with(json!({ "rollbackTo": { "revision": 3 } }), deployment_zero_scalars()),
    );
    assert_json(&back, &expected);
}

#[test]
fn rollback_to_travels_as_an_annotation_through_v1() {
    rollback_round_trip::<apps::v1::Deployment>(&apps::v1::SCHEME_GROUP_VERSION);
}

#[test]
fn rollback_to_travels_as_an_annotation_through_v1beta2() {
    rollback_round_trip::<apps::v1beta2::Deployment>(&apps::v1beta2::SCHEME_GROUP_VERSION);
}

#[test]
fn a_rollback_annotation_that_is_no_integer_fails_the_conversion() {
    let scheme = scheme();
    let v1 = deployment(
        "apps/v1",
        json!({ "annotations": { "deprecated.deployment.rollback.to": "three" } }),
        json!({}),
    );
    let typed: apps::v1::Deployment = serde_json::from_value(v1).unwrap();
    let Err(err) = scheme.convert_to_version(&typed, &apps::v1beta1::SCHEME_GROUP_VERSION) else {
        panic!("the conversion should fail");
    };
    assert!(
        err.to_string()
            .contains("failed to parse annotation[deprecated.deployment.rollback.to]=three as int64"),
        "{err}"
    );
}

// ---------------------------------------------------------------------------------------------
// (b), (c) apiextensions: v1beta1's top-level validation, subresources and printer columns are
// per-version fields in v1; v1beta1's flat webhook configuration nests under conversion.webhook.
// ---------------------------------------------------------------------------------------------

/// A CRD in `api_version` with `spec` members added.
fn crd(api_version: &str, spec: Value) -> Value {
    json!({
        "apiVersion": api_version,
        "kind": "CustomResourceDefinition",
        "metadata": { "name": "crontabs.stable.example.com" },
        "spec": with(json!({
            "group": "stable.example.com",
            "names": { "plural": "crontabs", "singular": "crontab", "kind": "CronTab", "listKind": "CronTabList" },
            "scope": "Namespaced"
        }), spec)
    })
}

/// The CronTab schema; `node` writes each schema node.
fn cron_schema(node: fn(Value) -> Value) -> Value {
    json!({ "openAPIV3Schema": node(json!({
        "type": "object",
        "properties": { "spec": node(json!({
            "type": "object",
            "properties": {
                "cronSpec": node(json!({ "type": "string" })),
                "replicas": node(json!({ "type": "integer", "minimum": 1 }))
            }
        })) }
    })) })
}

/// A schema node as written by hand.
fn as_written(node: Value) -> Value {
    node
}

fn subresources() -> Value {
    json!({
        "status": {},
        "scale": {
            "specReplicasPath": ".spec.replicas",
            "statusReplicasPath": ".status.replicas",
            "labelSelectorPath": ".status.labelSelector"
        }
    })
}

/// The printer columns; `json_path` names the JSON path member (v1beta1 `JSONPath`, v1 `jsonPath`)
/// and `zero_priority` is the first column's priority member when converted (module doc).
fn columns(json_path: &str, zero_priority: Value) -> Value {
    json!([
        with(json!({ "name": "Spec", "type": "string", json_path: ".spec.cronSpec" }), zero_priority),
        {
            "name": "Replicas", "type": "integer", "description": "The desired replicas", "priority": 1,
            json_path: ".spec.replicas"
        }
    ])
}

#[test]
fn crd_top_level_fields_move_into_every_version_in_v1_and_back() {
    let scheme = scheme();
    let v1beta1 = crd(
        "apiextensions.k8s.io/v1beta1",
        json!({
            "version": "v1",
            "validation": cron_schema(as_written),
            "subresources": subresources(),
            "additionalPrinterColumns": columns("JSONPath", json!({})),
            "versions": [
                { "name": "v1", "served": true, "storage": true },
                { "name": "v1beta1", "served": true, "storage": false }
            ]
        }),
    );

    // Go's Convert_apiextensions_CustomResourceDefinitionSpec_To_v1_CustomResourceDefinitionSpec:
    // each top-level field is copied into every version; `version` has no v1 field.
    let v1 = convert::<apiextensions::v1beta1::CustomResourceDefinition, apiextensions::v1::CustomResourceDefinition>(
        &scheme,
        &v1beta1,
        &apiextensions::v1::SCHEME_GROUP_VERSION,
    );
    let version = |name: &str, storage: bool| {
        json!({
            "name": name, "served": true, "storage": storage,
            "deprecated": false, // The plain internal bool (module doc).
            "schema": cron_schema(as_written),
            "subresources": subresources(),
            "additionalPrinterColumns": columns("jsonPath", json!({ "priority": 0 }))
        })
    };
    let expected = crd(
        "apiextensions.k8s.io/v1",
        json!({ "versions": [version("v1", true), version("v1beta1", false)] }),
    );
    assert_json(&v1, &expected);

    // Go's Convert_v1_CustomResourceDefinitionSpec_To_apiextensions_CustomResourceDefinitionSpec:
    // `version` is the first version's name, and each per-version field that is the same in every
    // version moves back to the top level.
    let back = convert::<apiextensions::v1::CustomResourceDefinition, apiextensions::v1beta1::CustomResourceDefinition>(
        &scheme,
        &v1,
        &apiextensions::v1beta1::SCHEME_GROUP_VERSION,
    );
    let expected = crd(
        "apiextensions.k8s.io/v1beta1",
        json!({
            // v1's plain `false` stays explicit in v1beta1's pointer, as in Go.
            "preserveUnknownFields": false,
            "version": "v1",
            "validation": cron_schema(as_written),
            "subresources": subresources(),
            "additionalPrinterColumns": columns("JSONPath", json!({ "priority": 0 })),
            "versions": [
                { "name": "v1", "served": true, "storage": true, "deprecated": false },
                { "name": "v1beta1", "served": true, "storage": false, "deprecated": false }
            ]
        }),
    );
    assert_json(&back, &expected);
}

#[test]
fn crd_per_version_fields_that_differ_stay_per_version() {
    let scheme = scheme();
    let other_schema = json!({ "openAPIV3Schema": { "type": "object", "x-kubernetes-preserve-unknown-fields": true } });
    let v1 = crd(
        "apiextensions.k8s.io/v1",
        json!({ "versions": [
            { "name": "v2", "served": true, "storage": true, "schema": cron_schema(as_written), "subresources": subresources() },
            { "name": "v1", "served": true, "storage": false, "schema": other_schema, "subresources": subresources() }
        ] }),
    );
    // The subresources are the same in both versions and move to the top level; the schemas differ
    // and stay per version.
    let back = convert::<apiextensions::v1::CustomResourceDefinition, apiextensions::v1beta1::CustomResourceDefinition>(
        &scheme,
        &v1,
        &apiextensions::v1beta1::SCHEME_GROUP_VERSION,
    );
    let other_converted = json!({ "openAPIV3Schema": as_written(json!({
        "type": "object", "x-kubernetes-preserve-unknown-fields": true
    })) });
    let expected = crd(
        "apiextensions.k8s.io/v1beta1",
        json!({
            // v1's plain `false` stays explicit in v1beta1's pointer, as in Go.
            "preserveUnknownFields": false,
            "version": "v2",
            "subresources": subresources(),
            "versions": [
                { "name": "v2", "served": true, "storage": true, "deprecated": false, "schema": cron_schema(as_written) },
                { "name": "v1", "served": true, "storage": false, "deprecated": false, "schema": other_converted }
            ]
        }),
    );
    assert_json(&back, &expected);
}

#[test]
fn crd_webhook_client_config_nests_under_conversion_webhook_in_v1_and_back() {
    let scheme = scheme();
    let client_config = json!({
        "service": { "namespace": "crons", "name": "converter", "path": "/convert", "port": 443 },
        "caBundle": "Y2EtYnVuZGxl"
    });
    let versions = json!([{ "name": "v1", "served": true, "storage": true }]);
    let v1beta1 = crd(
        "apiextensions.k8s.io/v1beta1",
        json!({
            "version": "v1",
            "versions": versions,
            "conversion": {
                "strategy": "Webhook",
                "webhookClientConfig": client_config,
                "conversionReviewVersions": ["v1", "v1beta1"]
            }
        }),
    );

    let v1 = convert::<apiextensions::v1beta1::CustomResourceDefinition, apiextensions::v1::CustomResourceDefinition>(
        &scheme,
        &v1beta1,
        &apiextensions::v1::SCHEME_GROUP_VERSION,
    );
    let converted_versions = json!([{ "name": "v1", "served": true, "storage": true, "deprecated": false }]);
    let expected = crd(
        "apiextensions.k8s.io/v1",
        json!({
            "versions": converted_versions,
            "conversion": {
                "strategy": "Webhook",
                "webhook": { "clientConfig": client_config, "conversionReviewVersions": ["v1", "v1beta1"] }
            }
        }),
    );
    assert_json(&v1, &expected);

    let back = convert::<apiextensions::v1::CustomResourceDefinition, apiextensions::v1beta1::CustomResourceDefinition>(
        &scheme,
        &v1,
        &apiextensions::v1beta1::SCHEME_GROUP_VERSION,
    );
    let expected = crd(
        "apiextensions.k8s.io/v1beta1",
        json!({
            // v1's plain `false` stays explicit in v1beta1's pointer, as in Go.
            "preserveUnknownFields": false,
            "version": "v1",
            "versions": converted_versions,
            "conversion": {
                "strategy": "Webhook",
                "webhookClientConfig": client_config,
                "conversionReviewVersions": ["v1", "v1beta1"]
            }
        }),
    );
    assert_json(&back, &expected);
}

// ---------------------------------------------------------------------------------------------
// (d) autoscaling: v1's CPU target is v2's CPU metric; what v1 cannot say travels in annotations.
// ---------------------------------------------------------------------------------------------

fn hpa_v2(metrics: Value, status: Value) -> Value {
    json!({
        "apiVersion": "autoscaling/v2",
        "kind": "HorizontalPodAutoscaler",
        "metadata": { "name": "web", "namespace": "default" },
        "spec": {
            "scaleTargetRef": { "apiVersion": "apps/v1", "kind": "Deployment", "name": "web" },
            "minReplicas": 1,
            "maxReplicas": 5,
            "metrics": metrics
        },
        "status": status
    })
}

#[test]
fn hpa_cpu_target_is_the_v1_field_and_other_metrics_travel_in_an_annotation() {
    let scheme = scheme();
    let cpu = json!({ "type": "Resource", "resource": { "name": "cpu", "target": { "type": "Utilization", "averageUtilization": 60 } } });
    let pods = json!({ "type": "Pods", "pods": { "metric": { "name": "qps" }, "target": { "type": "AverageValue", "averageValue": "10" } } });
    let current = json!({ "type": "Resource", "resource": { "name": "cpu", "current": { "averageUtilization": 42 } } });
    let v2 = hpa_v2(
        json!([cpu, pods]),
        json!({ "currentReplicas": 2, "desiredReplicas": 3, "currentMetrics": [current] }),
    );
    let v1 = convert::<autoscaling::v2::HorizontalPodAutoscaler, autoscaling::v1::HorizontalPodAutoscaler>(
        &scheme,
        &v2,
        &autoscaling::v1::SCHEME_GROUP_VERSION,
    );
    assert_eq!(v1["spec"]["targetCPUUtilizationPercentage"], 60);
    assert_eq!(v1["status"]["currentCPUUtilizationPercentage"], 42);
    let annotations = &v1["metadata"]["annotations"];
    let other: Value =
        serde_json::from_str(annotations["autoscaling.alpha.kubernetes.io/metrics"].as_str().unwrap()).unwrap();
    assert_eq!(other, json!([pods]));
    let back = convert::<autoscaling::v1::HorizontalPodAutoscaler, autoscaling::v2::HorizontalPodAutoscaler>(
        &scheme,
        &v1,
        &autoscaling::v2::SCHEME_GROUP_VERSION,
    );
    assert_json(&back, &v2);
}

#[test]
fn a_v1_hpa_without_a_target_means_80_percent_cpu() {
    let scheme = scheme();
    let v1 = json!({
        "apiVersion": "autoscaling/v1",
        "kind": "HorizontalPodAutoscaler",
        "metadata": { "name": "web", "namespace": "default" },
        "spec": { "scaleTargetRef": { "kind": "Deployment", "name": "web" }, "maxReplicas": 3 }
    });
    let v2 = convert::<autoscaling::v1::HorizontalPodAutoscaler, autoscaling::v2::HorizontalPodAutoscaler>(
        &scheme,
        &v1,
        &autoscaling::v2::SCHEME_GROUP_VERSION,
    );
    assert_eq!(
        v2["spec"]["metrics"],
        json!([{ "type": "Resource", "resource": { "name": "cpu", "target": { "type": "Utilization", "averageUtilization": 80 } } }])
    );
    let mut broken = v1.clone();
    broken["metadata"]["annotations"] = json!({ "autoscaling.alpha.kubernetes.io/metrics": "[" });
    let typed: autoscaling::v1::HorizontalPodAutoscaler = serde_json::from_value(broken).unwrap();
    let err = scheme
        .convert_to_version(&typed, &autoscaling::v2::SCHEME_GROUP_VERSION)
        .unwrap_err();
    assert!(
        err.to_string()
            .contains("annotation autoscaling.alpha.kubernetes.io/metrics"),
        "{err}"
    );
}
