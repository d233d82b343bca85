//! Cross-version conversions with exact expected output: each input is a JSON document, converted
//! with `Scheme::convert_to_version` (always through the internal hub), and the result's JSON is
//! compared with a JSON literal. No defaults are applied (`convert_to_version` does not default).
//!
//! The expected documents are what Kubernetes' own conversions produce (k8s.io/kubernetes
//! pkg/apis/{apps,core}/v1 and apiextensions-apiserver pkg/apis/apiextensions/{v1,v1beta1}
//! conversion.go), in two respects written in the other of two equivalent forms, each marked where
//! it occurs:
//!
//! - In apiextensions, a plain internal number becomes a present external value (`"priority": 0`),
//!   the rule in generators/src/generator/conversion/value.rs, because those external fields are
//!   still `Option`s. Go writes none: the Go field is a plain value with `omitempty`. core and apps
//!   declare such fields as plain values skipped when zero (`kube_apimachinery::is_zero`), as Go does, so
//!   their conversions write no zeros (`minReadySeconds`, `paused` below).

use apis::{apiextensions, apps, core};
use kube_apimachinery::{API_VERSION_INTERNAL, GroupVersion, Object, Scheme};
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

/// The internal `minReadySeconds` and `paused` are zero, which the external fields omit as Go's
/// `omitempty` does (module doc): nothing is added.
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

/// A schema node as converted from the internal version: the six plain internal bools of
/// `JSONSchemaProps` are written as `false` (module doc).
fn as_converted(node: Value) -> Value {
    with(
        node,
        json!({
            "nullable": false, "exclusiveMaximum": false, "exclusiveMinimum": false, "uniqueItems": false,
            "x-kubernetes-embedded-resource": false, "x-kubernetes-int-or-string": false
        }),
    )
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
            "schema": cron_schema(as_converted),
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
            "validation": cron_schema(as_converted),
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
    let other_converted = json!({ "openAPIV3Schema": as_converted(json!({
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
                { "name": "v2", "served": true, "storage": true, "deprecated": false, "schema": cron_schema(as_converted) },
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
// (d) core: v1's `hostNetwork` lives in the internal pod security context, and v1's single `podIP`
// is the first of the internal `podIPs`.
// ---------------------------------------------------------------------------------------------

fn pod(status: Value) -> Value {
    json!({
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": { "name": "web-0", "namespace": "default" },
        "spec": { "containers": [{ "name": "nginx", "image": "nginx:1.27" }], "hostNetwork": true },
        "status": status
    })
}

#[test]
fn pod_host_network_and_pod_ip_through_internal() {
    let scheme = scheme();
    let v1: core::v1::Pod = serde_json::from_value(pod(json!({ "phase": "Running", "podIP": "10.244.1.7" }))).unwrap();

    let internal = GroupVersion::new("", API_VERSION_INTERNAL);
    let hub = scheme
        .convert_to_version(&v1, &internal)
        .expect("the conversion succeeds");
    let hub = hub.downcast_ref::<core::Pod>().expect("an internal Pod");
    assert_eq!(
        hub.spec.security_context,
        Some(core::PodSecurityContext { host_network: true })
    );
    assert_eq!(
        hub.status.pod_ips,
        [core::PodIP {
            ip: "10.244.1.7".into()
        }]
    );

    let back = scheme
        .convert_to_version(hub, &core::v1::SCHEME_GROUP_VERSION)
        .expect("the conversion succeeds");
    let back = serde_json::to_value(back.downcast_ref::<core::v1::Pod>().unwrap()).unwrap();
    // As Go's Convert_core_PodStatus_To_v1_PodStatus: podIP mirrors podIPs[0], and podIPs is written.
    let expected = pod(json!({ "phase": "Running", "podIP": "10.244.1.7", "podIPs": [{ "ip": "10.244.1.7" }] }));
    assert_json(&back, &expected);
}

#[test]
fn pod_ip_wins_over_a_stale_pod_ips() {
    // Go's Convert_v1_PodStatus_To_core_PodStatus: "If both fields (v1.PodIPs and v1.PodIP) are
    // provided and differ, then PodIP is authoritative for compatibility with older kubelets": an
    // old kubelet that changes podIP and sends back the podIPs it read must not lose its change.
    // apis/src/core/v1/conversion.rs only fills an empty podIPs; the fix is to replace podIPs with
    let scheme = scheme();
    let v1 = pod(json!({ "podIP": "10.0.0.2", "podIPs": [{ "ip": "10.0.0.1" }] }));
    let internal = GroupVersion::new("", API_VERSION_INTERNAL);
    let typed: core::v1::Pod = serde_json::from_value(v1).unwrap();
    let hub = scheme.convert_to_version(&typed, &internal).unwrap();
    let back = scheme
        .convert_to_version(hub.as_ref(), &core::v1::SCHEME_GROUP_VERSION)
        .unwrap();
    let back = serde_json::to_value(back.downcast_ref::<core::v1::Pod>().unwrap()).unwrap();
    assert_json(
        &back,
        &pod(json!({ "podIP": "10.0.0.2", "podIPs": [{ "ip": "10.0.0.2" }] })),
    );
}
