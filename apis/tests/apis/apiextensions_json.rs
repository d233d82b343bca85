//! JSON shape of apiextensions.k8s.io/v1 and v1beta1 and of autoscaling/v1: real-looking API server
//! documents survive a deserialize/serialize round trip unchanged, the hand-written JSON forms of
//! the `JSONSchemaPropsOr*` types read and write what Go's marshal.go does, and the groups are
//! installed with their kinds and version priorities.

// The CRD documents nest deeper than `json!`'s default recursion limit allows.

use std::collections::BTreeMap;

use apis::apiextensions::{self, v1, v1beta1};
use apis::autoscaling;
use kube_apimachinery::{GroupKind, GroupVersion, Object};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

/// Deserializes `doc` into `T`, serializes it back and asserts that nothing was lost or renamed.
fn assert_roundtrip<T: DeserializeOwned + Serialize>(doc: &Value) -> T {
    let typed: T = serde_json::from_value(doc.clone()).expect("document deserializes");
    let back = serde_json::to_value(&typed).expect("value serializes");
    assert_eq!(&back, doc, "roundtrip changed the document");
    // Through text too, as a client reads and writes it.
    let text = serde_json::to_string(doc).unwrap();
    let from_text: T = serde_json::from_str(&text).expect("text deserializes");
    assert_eq!(
        serde_json::to_value(&from_text).unwrap(),
        *doc,
        "text roundtrip changed the document"
    );
    typed
}

/// Asserts that k8s-openapi's type `K` reads our serialization of `doc` as it reads `doc` itself.
fn assert_k8s_openapi_agrees<K: DeserializeOwned + PartialEq + std::fmt::Debug>(doc: &Value, ours: &Value) {
    let theirs: K = serde_json::from_value(doc.clone()).expect("k8s-openapi deserializes the document");
    let theirs_of_ours: K = serde_json::from_value(ours.clone()).expect("k8s-openapi deserializes our output");
    assert_eq!(theirs_of_ours, theirs, "k8s-openapi reads our output differently");
}

const CA_BUNDLE: &str = "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUJzekNDQVZtZ0F3SUJBZ0lVYzJWeWRtbHVaeTFqWVE9PQotLS0tLUVORCBDRVJUSUZJQ0FURS0tLS0tCg==";

fn crd_v1_json() -> Value {
    json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {
            "name": "crontabs.stable.example.com",
            "uid": "0b5a4f3e-6c1d-4f7a-9d42-8e2c71a5b9d0",
            "resourceVersion": "90211",
            "generation": 3,
            "creationTimestamp": "2025-03-14T09:26:53Z",
            "annotations": { "controller-gen.kubebuilder.io/version": "v0.16.1" }
        },
        "spec": {
            "group": "stable.example.com",
            "names": {
                "plural": "crontabs",
                "singular": "crontab",
                "shortNames": ["ct"],
                "kind": "CronTab",
                "listKind": "CronTabList",
                "categories": ["all"]
            },
            "scope": "Namespaced",
            "versions": [
                {
                    "name": "v1",
                    "served": true,
                    "storage": true,
                    "schema": {
                        "openAPIV3Schema": {
                            "description": "CronTab is the Schema for the crontabs API.",
                            "type": "object",
                            "required": ["spec"],
                            "properties": {
                                "apiVersion": { "type": "string" },
                                "kind": { "type": "string" },
                                "metadata": { "type": "object" },
                                "spec": {
                                    "type": "object",
                                    "required": ["cronSpec", "image"],
                                    "x-kubernetes-validations": [
                                        {
                                            "rule": "self.minReplicas <= self.replicas",
                                            "message": "replicas must be at least minReplicas",
                                            "fieldPath": ".replicas",
                                            "reason": "FieldValueInvalid"
                                        },
                                        {
                                            "rule": "self.image == oldSelf.image || !oldSelf.hasValue()",
                                            "messageExpression": "'image is immutable, was ' + oldSelf.value().image",
                                            "optionalOldSelf": true
                                        }
                                    ],
                                    "properties": {
                                        "cronSpec": {
                                            "type": "string",
                                            "pattern": "^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$"
                                        },
                                        "image": { "type": "string", "minLength": 1, "maxLength": 253 },
                                        "replicas": {
                                            "type": "integer",
                                            "format": "int32",
                                            "default": 1,
                                            "minimum": 1,
                                            "maximum": 10
                                        },
                                        "minReplicas": { "type": "integer", "format": "int32", "default": 0, "minimum": 0 },
                                        "cpuFraction": { "type": "number", "minimum": 0.05, "maximum": 1, "multipleOf": 0.05 },
                                        "concurrencyPolicy": {
                                            "type": "string",
                                            "default": "Allow",
                                            "enum": ["Allow", "Forbid", "Replace"]
                                        },
                                        "suspend": { "type": "boolean", "nullable": true, "enum": [true, false, null] },
                                        "schedule": {
                                            "type": "object",
                                            "default": { "timeZone": "UTC", "startingDeadlineSeconds": 200 },
                                            "properties": {
                                                "timeZone": { "type": "string" },
                                                "startingDeadlineSeconds": { "type": "integer", "format": "int64" }
                                            }
                                        },
                                        "env": {
                                            "type": "array",
                                            "maxItems": 64,
                                            "x-kubernetes-list-type": "map",
                                            "x-kubernetes-list-map-keys": ["name"],
                                            "items": {
                                                "type": "object",
                                                "required": ["name"],
                                                "properties": {
                                                    "name": { "type": "string" },
                                                    "value": { "type": "string" }
                                                }
                                            }
                                        },
                                        "tags": {
                                            "type": "array",
                                            "uniqueItems": true,
                                            "x-kubernetes-list-type": "set",
                                            "items": { "type": "string" }
                                        },
                                        "labels": {
                                            "type": "object",
                                            "x-kubernetes-map-type": "granular",
                                            "additionalProperties": { "type": "string" }
                                        },
                                        "config": {
                                            "type": "object",
                                            "additionalProperties": false,
                                            "properties": { "retries": { "type": "integer" } }
                                        },
                                        "port": {
                                            "x-kubernetes-int-or-string": true,
                                            "anyOf": [{ "type": "integer" }, { "type": "string" }]
                                        },
                                        "jobTemplate": {
                                            "type": "object",
                                            "x-kubernetes-embedded-resource": true,
                                            "x-kubernetes-preserve-unknown-fields": true
                                        },
                                        "settings": {
                                            "type": "object",
                                            "x-kubernetes-map-type": "atomic",
                                            "x-kubernetes-preserve-unknown-fields": true
                                        }
                                    }
                                },
                                "status": {
                                    "type": "object",
                                    "properties": {
                                        "replicas": { "type": "integer" },
                                        "labelSelector": { "type": "string" },
                                        "lastScheduleTime": { "type": "string", "format": "date-time" }
                                    }
                                }
                            }
                        }
                    },
                    "subresources": {
                        "status": {},
                        "scale": {
                            "specReplicasPath": ".spec.replicas",
                            "statusReplicasPath": ".status.replicas",
                            "labelSelectorPath": ".status.labelSelector"
                        }
                    },
                    "additionalPrinterColumns": [
                        {
                            "name": "Spec",
                            "type": "string",
                            "description": "The cron spec defining the interval a CronJob is run",
                            "jsonPath": ".spec.cronSpec"
                        },
                        { "name": "Replicas", "type": "integer", "jsonPath": ".spec.replicas" },
                        { "name": "Image", "type": "string", "priority": 1, "jsonPath": ".spec.image" },
                        { "name": "Age", "type": "date", "jsonPath": ".metadata.creationTimestamp" }
                    ],
                    "selectableFields": [{ "jsonPath": ".spec.image" }]
                },
                {
                    "name": "v1beta1",
                    "served": true,
                    "storage": false,
                    "deprecated": true,
                    "deprecationWarning": "stable.example.com/v1beta1 CronTab is deprecated; use stable.example.com/v1 CronTab",
                    "schema": {
                        "openAPIV3Schema": { "type": "object", "x-kubernetes-preserve-unknown-fields": true }
                    },
                    "subresources": { "status": {} }
                }
            ],
            "conversion": {
                "strategy": "Webhook",
                "webhook": {
                    "clientConfig": {
                        "service": {
                            "namespace": "crontab-system",
                            "name": "crontab-webhook-service",
                            "path": "/convert",
                            "port": 443
                        },
                        "caBundle": CA_BUNDLE
                    },
                    "conversionReviewVersions": ["v1", "v1beta1"]
                }
            }
        },
        "status": {
            "conditions": [
                {
                    "type": "NamesAccepted",
                    "status": "True",
                    "lastTransitionTime": "2025-03-14T09:26:53Z",
                    "reason": "NoConflicts",
                    "message": "no conflicts found"
                },
                {
                    "type": "Established",
                    "status": "True",
                    "lastTransitionTime": "2025-03-14T09:26:53Z",
                    "reason": "InitialNamesAccepted",
                    "message": "the initial names have been accepted"
                }
            ],
            "acceptedNames": {
                "plural": "crontabs",
                "singular": "crontab",
                "shortNames": ["ct"],
                "kind": "CronTab",
                "listKind": "CronTabList",
                "categories": ["all"]
            },
            "storedVersions": ["v1"]
        }
    })
}

fn crd_v1beta1_json() -> Value {
    json!({
        "apiVersion": "apiextensions.k8s.io/v1beta1",
        "kind": "CustomResourceDefinition",
        "metadata": {
            "name": "widgets.example.io",
            "uid": "7c1e2d3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f",
            "resourceVersion": "512",
            "generation": 1,
            "creationTimestamp": "2020-06-01T12:00:00Z"
        },
        "spec": {
            "group": "example.io",
            "version": "v1alpha1",
            "names": { "plural": "widgets", "singular": "widget", "kind": "Widget", "listKind": "WidgetList" },
            "scope": "Cluster",
            "validation": {
                "openAPIV3Schema": {
                    "id": "https://example.io/schemas/widget",
                    "$schema": "http://json-schema.org/draft-04/schema#",
                    "title": "Widget",
                    "type": "object",
                    "definitions": {
                        "size": { "type": "number", "minimum": 0, "exclusiveMinimum": true, "multipleOf": 0.5 }
                    },
                    "properties": {
                        "spec": {
                            "type": "object",
                            "minProperties": 1,
                            "maxProperties": 8,
                            "properties": {
                                "size": { "$ref": "#/definitions/size" },
                                "pair": {
                                    "type": "array",
                                    "items": [{ "type": "string" }, { "type": "integer", "exclusiveMaximum": true, "maximum": 65536 }],
                                    "additionalItems": false,
                                    "minItems": 2
                                },
                                "extra": {
                                    "type": "array",
                                    "items": [{ "type": "string" }],
                                    "additionalItems": { "type": "boolean" }
                                },
                                "mode": {
                                    "oneOf": [{ "required": ["a"] }, { "required": ["b"] }],
                                    "allOf": [{ "minProperties": 1 }, { "maxProperties": 3 }],
                                    "not": { "required": ["c"] }
                                },
                                "creditCard": { "type": "string" },
                                "billingAddress": { "type": "string" },
                                "color": { "type": "string", "enum": ["red", "green"], "example": "red" }
                            },
                            "dependencies": {
                                "creditCard": ["billingAddress"],
                                "billingAddress": { "required": ["creditCard"] }
                            },
                            "patternProperties": { "^x-": { "type": "string" } },
                            "additionalProperties": true,
                            "externalDocs": { "description": "Widget docs", "url": "https://example.io/docs/widget" },
                            "example": { "size": 3, "color": "red" }
                        }
                    }
                }
            },
            "subresources": {
                "status": {},
                "scale": { "specReplicasPath": ".spec.size", "statusReplicasPath": ".status.size" }
            },
            "versions": [
                { "name": "v1alpha1", "served": true, "storage": true },
                { "name": "v1alpha2", "served": false, "storage": false }
            ],
            "additionalPrinterColumns": [
                { "name": "Size", "type": "number", "format": "float", "JSONPath": ".spec.size" },
                { "name": "Age", "type": "date", "JSONPath": ".metadata.creationTimestamp" }
            ],
            "conversion": {
                "strategy": "Webhook",
                "webhookClientConfig": { "url": "https://widgets.example.io/convert", "caBundle": CA_BUNDLE },
                "conversionReviewVersions": ["v1beta1"]
            },
            "preserveUnknownFields": false
        },
        "status": {
            "conditions": [
                {
                    "type": "Established",
                    "status": "True",
                    "lastTransitionTime": "2020-06-01T12:00:01Z",
                    "reason": "InitialNamesAccepted",
                    "message": "the initial names have been accepted"
                }
            ],
            "acceptedNames": { "plural": "widgets", "singular": "widget", "kind": "Widget", "listKind": "WidgetList" },
            "storedVersions": ["v1alpha1"]
        }
    })
}

fn scale_json() -> Value {
    json!({
        "apiVersion": "autoscaling/v1",
        "kind": "Scale",
        "metadata": {
            "name": "web",
            "namespace": "default",
            "uid": "5f0c3b8e-2d4a-4a51-9b0e-6f7d1c2e3a41",
            "resourceVersion": "48213",
            "creationTimestamp": "2025-03-14T09:26:53Z"
        },
        "spec": { "replicas": 3 },
        "status": { "replicas": 2, "selector": "app=web" }
    })
}

fn props<'a>(s: &'a v1::JSONSchemaProps, name: &str) -> &'a v1::JSONSchemaProps {
    &s.properties.as_ref().expect("properties")[name]
}

#[test]
fn v1_crd_roundtrips() {
    let doc = crd_v1_json();
    let crd: v1::CustomResourceDefinition = assert_roundtrip(&doc);
    assert_k8s_openapi_agrees::<
        k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition,
    >(&doc, &serde_json::to_value(&crd).unwrap());

    assert_eq!(crd.spec.versions.len(), 2);
    let v = &crd.spec.versions[0];
    let root = v.schema.as_ref().unwrap().open_api_v3_schema.as_ref().unwrap();
    let spec = props(root, "spec");
    assert_eq!(props(spec, "replicas").minimum, Some(1.0));
    assert_eq!(props(spec, "replicas").default, Some(v1::JSON(json!(1))));
    assert_eq!(
        props(spec, "concurrencyPolicy").enum_.as_deref(),
        Some(
            &[
                v1::JSON(json!("Allow")),
                v1::JSON(json!("Forbid")),
                v1::JSON(json!("Replace"))
            ][..]
        )
    );
    assert_eq!(props(spec, "suspend").enum_.as_ref().unwrap()[2], v1::JSON(Value::Null));
    let env = props(spec, "env");
    assert_eq!(env.x_list_type.as_deref(), Some("map"));
    let items = env.items.as_ref().unwrap();
    assert!(items.json_schemas.is_empty());
    assert_eq!(
        items.schema.as_ref().unwrap().required.as_deref(),
        Some(&["name".to_string()][..])
    );
    let labels = props(spec, "labels").additional_properties.as_ref().unwrap();
    assert!(labels.allows);
    assert_eq!(labels.schema.as_ref().unwrap().type_.as_deref(), Some("string"));
    let config = props(spec, "config").additional_properties.as_ref().unwrap();
    assert_eq!((config.allows, config.schema.is_none()), (false, true));
    assert_eq!(props(spec, "jobTemplate").x_preserve_unknown_fields, Some(true));
    assert_eq!(props(spec, "port").x_int_or_string, Some(true));
    assert_eq!(spec.x_validations.as_ref().unwrap()[1].optional_old_self, Some(true));
    let scale = v.subresources.as_ref().unwrap().scale.as_ref().unwrap();
    assert_eq!(scale.label_selector_path.as_deref(), Some(".status.labelSelector"));
    assert_eq!(v.additional_printer_columns.as_ref().unwrap()[2].priority, Some(1));
    assert_eq!(crd.spec.versions[1].deprecated, Some(true));

    let webhook = crd.spec.conversion.as_ref().unwrap().webhook.as_ref().unwrap();
    assert_eq!(webhook.conversion_review_versions, ["v1", "v1beta1"]);
    let client = webhook.client_config.as_ref().unwrap();
    assert_eq!(client.service.as_ref().unwrap().port, Some(443));
    assert!(
        client
            .ca_bundle
            .as_ref()
            .unwrap()
            .0
            .starts_with(b"-----BEGIN CERTIFICATE-----\n")
    );
    assert_eq!(crd.spec.preserve_unknown_fields, None);
    let status = crd.status.as_ref().unwrap();
    assert_eq!(status.stored_versions.as_deref(), Some(&["v1".to_string()][..]));
}

#[test]
fn v1beta1_crd_roundtrips() {
    let doc = crd_v1beta1_json();
    let crd: v1beta1::CustomResourceDefinition = assert_roundtrip(&doc);

    // The v1beta1 shape: top-level version, validation, subresources and columns; a flat webhook config.
    assert_eq!(crd.spec.version.as_deref(), Some("v1alpha1"));
    assert_eq!(crd.spec.preserve_unknown_fields, Some(false));
    let root = crd
        .spec
        .validation
        .as_ref()
        .unwrap()
        .open_api_v3_schema
        .as_ref()
        .unwrap();
    assert_eq!(root.schema.as_deref(), Some("http://json-schema.org/draft-04/schema#"));
    assert_eq!(root.definitions.as_ref().unwrap()["size"].multiple_of, Some(0.5));
    let spec = &root.properties.as_ref().unwrap()["spec"];
    let p = |n: &str| &spec.properties.as_ref().unwrap()[n];
    assert_eq!(p("size").ref_.as_deref(), Some("#/definitions/size"));
    let pair = p("pair");
    let tuple = pair.items.as_ref().unwrap();
    assert!(tuple.schema.is_none());
    assert_eq!(tuple.json_schemas.len(), 2);
    assert_eq!(tuple.json_schemas[1].maximum, Some(65536.0));
    let no_more = pair.additional_items.as_ref().unwrap();
    assert_eq!((no_more.allows, no_more.schema.is_none()), (false, true));
    let extra = p("extra").additional_items.as_ref().unwrap();
    assert!(extra.allows && extra.schema.is_some());
    assert_eq!(
        p("mode").not.as_ref().unwrap().required.as_deref(),
        Some(&["c".to_string()][..])
    );
    assert_eq!(p("mode").one_of.as_ref().unwrap().len(), 2);
    let deps = spec.dependencies.as_ref().unwrap();
    assert_eq!(deps["creditCard"].property, ["billingAddress"]);
    assert!(deps["creditCard"].schema.is_none());
    assert_eq!(
        deps["billingAddress"].schema.as_ref().unwrap().required.as_deref(),
        Some(&["creditCard".to_string()][..])
    );
    let additional = spec.additional_properties.as_ref().unwrap();
    assert_eq!((additional.allows, additional.schema.is_none()), (true, true));
    assert_eq!(spec.example, Some(v1beta1::JSON(json!({ "size": 3, "color": "red" }))));

    let columns = crd.spec.additional_printer_columns.as_ref().unwrap();
    assert_eq!(columns[0].json_path, ".spec.size");
    assert_eq!(
        crd.spec
            .subresources
            .as_ref()
            .unwrap()
            .scale
            .as_ref()
            .unwrap()
            .label_selector_path,
        None
    );
    let conversion = crd.spec.conversion.as_ref().unwrap();
    assert_eq!(
        conversion.webhook_client_config.as_ref().unwrap().url.as_deref(),
        Some("https://widgets.example.io/convert")
    );
    assert_eq!(
        conversion.conversion_review_versions.as_deref(),
        Some(&["v1beta1".to_string()][..])
    );
}

#[test]
fn the_versions_differ_where_kubernetes_differs() {
    // v1beta1 columns spell the path `JSONPath`, v1 columns `jsonPath`; each is required.
    let column = json!({ "name": "Age", "type": "date", "jsonPath": ".metadata.creationTimestamp" });
    assert!(serde_json::from_value::<v1::CustomResourceColumnDefinition>(column.clone()).is_ok());
    assert!(serde_json::from_value::<v1beta1::CustomResourceColumnDefinition>(column).is_err());

    // v1 nests the webhook client config under `webhook`; v1beta1 keeps it flat.
    let mut v1_doc = crd_v1_json();
    let v1_conversion = v1_doc["spec"]["conversion"].take();
    let as_v1beta1: v1beta1::CustomResourceConversion = serde_json::from_value(v1_conversion.clone()).unwrap();
    assert!(as_v1beta1.webhook_client_config.is_none());
    let as_v1: v1::CustomResourceConversion = serde_json::from_value(v1_conversion).unwrap();
    assert!(as_v1.webhook.unwrap().client_config.is_some());

    // v1 requires `versions` and has no top-level version, validation, subresources or columns.
    let minimal = json!({ "group": "g.io", "names": { "plural": "xs", "kind": "X" }, "scope": "Namespaced" });
    assert!(serde_json::from_value::<v1::CustomResourceDefinitionSpec>(minimal.clone()).is_err());
    let beta: v1beta1::CustomResourceDefinitionSpec = serde_json::from_value(minimal).unwrap();
    assert_eq!(beta.versions, None);
    assert_eq!(
        serde_json::to_value(&beta).unwrap()["names"],
        json!({ "plural": "xs", "kind": "X" })
    );
}

#[test]
fn schema_or_forms_follow_go() {
    // `items: []` reads as an empty value, which Go (and we) write back as null.
    let s: v1::JSONSchemaProps = serde_json::from_value(json!({ "type": "array", "items": [] })).unwrap();
    assert_eq!(
        serde_json::to_value(&s).unwrap(),
        json!({ "type": "array", "items": null })
    );
    // `additionalProperties` must be a bool or a schema.
    let err = serde_json::from_value::<v1beta1::JSONSchemaProps>(json!({ "additionalProperties": "yes" })).unwrap_err();
    assert!(err.to_string().contains("boolean or JSON schema expected"), "{err}");
    // Whole-number bounds stay whole numbers, as Go writes float64.
    let s: v1beta1::JSONSchemaProps =
        serde_json::from_value(json!({ "minimum": 0, "maximum": 1.5, "multipleOf": 2.0 })).unwrap();
    assert_eq!(
        serde_json::to_string(&s).unwrap(),
        r#"{"maximum":1.5,"minimum":0,"multipleOf":2}"#
    );
}

#[test]
fn crd_list_roundtrips() {
    let doc = json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinitionList",
        "metadata": { "resourceVersion": "90300" },
        "items": [crd_v1_json()]
    });
    let list: v1::CustomResourceDefinitionList = assert_roundtrip(&doc);
    assert_eq!(
        list.items[0].metadata.name.as_deref(),
        Some("crontabs.stable.example.com")
    );
}

#[test]
fn autoscaling_v1_scale_roundtrips() {
    let doc = scale_json();
    let scale: autoscaling::v1::Scale = assert_roundtrip(&doc);
    assert_eq!(scale.spec.as_ref().unwrap().replicas, Some(3));
    assert_eq!(scale.status.as_ref().unwrap().selector.as_deref(), Some("app=web"));
    let theirs: k8s_openapi::api::autoscaling::v1::Scale = serde_json::from_value(doc.clone()).unwrap();
    assert_eq!(
        serde_json::to_value(&theirs).unwrap(),
        doc,
        "k8s-openapi sees a different document"
    );
}

#[test]
fn deep_copies_are_independent() {
    let original: v1::CustomResourceDefinition = serde_json::from_value(crd_v1_json()).unwrap();
    let mut copy = original.clone();
    assert_eq!(copy, original);
    let root = copy.spec.versions[0]
        .schema
        .as_mut()
        .unwrap()
        .open_api_v3_schema
        .as_mut()
        .unwrap();
    let spec = root.properties.as_mut().unwrap().get_mut("spec").unwrap();
    spec.properties
        .as_mut()
        .unwrap()
        .get_mut("env")
        .unwrap()
        .items
        .as_mut()
        .unwrap()
        .json_schemas
        .push(Default::default());
    spec.additional_properties = Some(v1::JSONSchemaPropsOrBool {
        allows: false,
        schema: None,
    });
    assert_ne!(copy, original);
    assert_eq!(serde_json::to_value(&original).unwrap(), crd_v1_json());

    let mut target: v1::CustomResourceDefinition = Default::default();
    target.clone_from(&original);
    assert_eq!(target, original);

    let boxed = original.deep_copy_object();
    assert_eq!(boxed.downcast_ref::<v1::CustomResourceDefinition>(), Some(&original));

    let beta: v1beta1::CustomResourceDefinition = serde_json::from_value(crd_v1beta1_json()).unwrap();
    let mut beta_copy = beta.clone();
    beta_copy.clone_from(&beta);
    assert_eq!(beta_copy, beta);
}

#[test]
fn internal_types_mirror_the_go_internal_package() {
    // The internal CRD keeps Go's internal shape: flat conversion webhook config, top-level version
    // fields, a non-pointer service port and `interface{}` JSON values.
    let crd = apiextensions::CustomResourceDefinition {
        spec: apiextensions::CustomResourceDefinitionSpec {
            group: "stable.example.com".into(),
            version: "v1".into(),
            preserve_unknown_fields: Some(false),
            conversion: Some(apiextensions::CustomResourceConversion {
                strategy: "Webhook".into(),
                webhook_client_config: Some(apiextensions::WebhookClientConfig {
                    service: Some(apiextensions::ServiceReference {
                        namespace: "ns".into(),
                        name: "svc".into(),
                        path: None,
                        port: 443,
                    }),
                    ..Default::default()
                }),
                conversion_review_versions: vec!["v1".into()],
            }),
            validation: Some(apiextensions::CustomResourceValidation {
                open_api_v3_schema: Some(apiextensions::JSONSchemaProps {
                    type_: "object".into(),
                    default: Some(apiextensions::JSON(json!({ "a": 1 }))),
                    properties: BTreeMap::from([(
                        "a".to_string(),
                        apiextensions::JSONSchemaProps {
                            enum_: vec![apiextensions::JSON(json!(1)), apiextensions::JSON(json!(2))],
                            ..Default::default()
                        },
                    )]),
                    additional_properties: Some(apiextensions::JSONSchemaPropsOrBool {
                        allows: true,
                        schema: None,
                    }),
                    ..Default::default()
                }),
            }),
            ..Default::default()
        },
        ..Default::default()
    };
    let copy = crd.clone();
    assert_eq!(copy, crd);
    let boxed = crd.deep_copy_object();
    assert_eq!(
        boxed.downcast_ref::<apiextensions::CustomResourceDefinition>(),
        Some(&crd)
    );
    let scale = autoscaling::v1::Scale {
        status: Some(autoscaling::v1::ScaleStatus {
            replicas: 2,
            selector: Some("app=web".into()),
        }),
        ..Default::default()
    };
    assert_eq!(scale.clone(), scale);
}

#[test]
fn groups_are_installed_with_their_kinds_and_priorities() {
    let scheme = apis::scheme().expect("install succeeds");
    let crd_kinds = ["CustomResourceDefinition", "CustomResourceDefinitionList"];
    for version in ["__internal", "v1", "v1beta1"] {
        let gv = GroupVersion::new("apiextensions.k8s.io", version);
        assert_eq!(
            scheme.known_types(&gv).into_keys().collect::<Vec<_>>(),
            crd_kinds,
            "{gv}"
        );
    }
    let (v1, v1beta1) = (
        GroupVersion::new("apiextensions.k8s.io", "v1"),
        GroupVersion::new("apiextensions.k8s.io", "v1beta1"),
    );
    assert_eq!(
        scheme.prioritized_versions_for_group("apiextensions.k8s.io"),
        [v1.clone(), v1beta1.clone()]
    );
    assert_eq!(
        scheme.versions_for_group_kind(&GroupKind::new("apiextensions.k8s.io", "CustomResourceDefinition")),
        [v1.clone(), v1beta1]
    );
    let obj = scheme.new_object(&v1.with_kind("CustomResourceDefinition")).unwrap();
    assert!(obj.downcast_ref::<v1::CustomResourceDefinition>().is_some());
    let obj = scheme
        .new_object(&GroupVersion::new("autoscaling", "v1").with_kind("Scale"))
        .unwrap();
    assert!(obj.downcast_ref::<autoscaling::v1::Scale>().is_some());
}

#[test]
fn crds_are_cluster_scoped_kube_resources() {
    use kube_core::Resource;
    fn cluster<K: k8s_openapi::Resource<Scope = k8s_openapi::ClusterResourceScope>>() {}
    cluster::<v1::CustomResourceDefinition>();
    cluster::<v1beta1::CustomResourceDefinition>();
    assert_eq!(
        v1::CustomResourceDefinition::url_path(&(), None),
        "/apis/apiextensions.k8s.io/v1/customresourcedefinitions"
    );
    assert_eq!(
        v1beta1::CustomResourceDefinition::api_version(&()),
        "apiextensions.k8s.io/v1beta1"
    );
    assert_eq!(
        <v1::CustomResourceDefinition as k8s_openapi::ListableResource>::LIST_KIND,
        "CustomResourceDefinitionList"
    );
    assert_eq!(autoscaling::v1::Scale::api_version(&()), "autoscaling/v1");
    assert_eq!(autoscaling::v1::Scale::kind(&()), "Scale");
}

/// Deep-copy properties over random values from `kube_apimachinery::testing::fill`, as `deepcopy_external.rs`
/// checks them for the other external kinds: a copy equals the original and serializes the same;
/// `clone_from` into another value equals `clone`; `deep_copy_object` gives an equal value.
fn check_deep_copy<T>(seed: u64, other_seed: u64) -> Result<(), proptest::test_runner::TestCaseError>
where
    T: Object + Clone + PartialEq + std::fmt::Debug + Serialize + DeserializeOwned,
{
    use proptest::prelude::*;
    let original: T = kube_apimachinery::testing::fill(seed).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let other: T = kube_apimachinery::testing::fill(other_seed).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let copy = original.clone();
    prop_assert_eq!(&copy, &original);
    prop_assert_eq!(
        serde_json::to_value(&copy).unwrap(),
        serde_json::to_value(&original).unwrap()
    );
    let mut target = other.clone();
    target.clone_from(&original);
    prop_assert_eq!(&target, &original);
    let boxed = original.deep_copy_object();
    prop_assert_eq!(boxed.downcast_ref::<T>(), Some(&original));
    Ok(())
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(32))]
    #[test]
    fn deep_copy_properties(seed in proptest::prelude::any::<u64>(), other in proptest::prelude::any::<u64>()) {
        check_deep_copy::<v1::CustomResourceDefinition>(seed, other)?;
        check_deep_copy::<v1::CustomResourceDefinitionList>(seed, other)?;
        check_deep_copy::<v1beta1::CustomResourceDefinition>(seed, other)?;
        check_deep_copy::<v1beta1::CustomResourceDefinitionList>(seed, other)?;
        check_deep_copy::<autoscaling::v1::Scale>(seed, other)?;
    }
}
