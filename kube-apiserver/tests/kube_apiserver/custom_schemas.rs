//! Structural schemas at run time, over HTTP: a CRD that breaks Kubernetes' rules is refused with
//! its messages; a custom object is pruned (`fieldValidation` Strict a 400, Warn a warning),
//! defaulted, validated against its schema and CEL rules (transition rules on update) with 422s in
//! Kubernetes' words; a schema change applies to the next write while a watch stays open; the
//! kind's OpenAPI v3 document is served; strategic merge patch is refused as for any custom
//! resource. On the embedded store and on etcd.

use crate::support;

use std::sync::Arc;

use reqwest::StatusCode;
use serde_json::{Value, json};
use support::api::{Api, events};
use support::eventually;

const CRDS: &str = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
const GIZMOS: &str = "/apis/ex.com/v1/namespaces/ns/gizmos";

fn schema() -> Value {
    json!({"type": "object", "properties": {
        "spec": {"type": "object", "required": ["size"],
            "properties": {
                "size": {"type": "integer", "minimum": 1, "maximum": 10},
                "mode": {"type": "string", "enum": ["Fast", "Slow"], "default": "Slow"},
                "maxSize": {"type": "integer", "default": 10},
                "ports": {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"],
                    "items": {"type": "object", "required": ["name"], "properties": {
                        "name": {"type": "string"},
                        "protocol": {"type": "string", "default": "TCP"}}}},
                "extra": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}
            },
            "x-kubernetes-validations": [
                {"rule": "self.size <= self.maxSize", "message": "size may not exceed maxSize", "fieldPath": ".size"},
                {"rule": "self.mode == oldSelf.mode", "message": "mode is immutable", "reason": "FieldValueForbidden"}
            ]},
        "status": {"type": "object", "properties": {"ready": {"type": "boolean"}}}
    }})
}

fn gizmo_crd() -> Value {
    json!({
        "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "gizmos.ex.com"},
        "spec": {
            "group": "ex.com", "scope": "Namespaced",
            "names": {"plural": "gizmos", "singular": "gizmo", "kind": "Gizmo"},
            "versions": [{"name": "v1", "served": true, "storage": true,
                "schema": {"openAPIV3Schema": schema()}, "subresources": {"status": {}}}],
        },
    })
}

fn gizmo(name: &str, spec: Value) -> String {
    json!({"apiVersion": "ex.com/v1", "kind": "Gizmo", "metadata": {"name": name}, "spec": spec}).to_string()
}

fn causes(status: &Value) -> Vec<String> {
    status["details"]["causes"]
        .as_array()
        .map(|c| {
            c.iter()
                .map(|c| {
                    format!(
                        "{}: {}",
                        c["field"].as_str().unwrap_or(""),
                        c["message"].as_str().unwrap_or("")
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

/// A version as a Kubernetes error shows it (the schema and subresources held by the spec).
fn shown(name: &str) -> String {
    format!(
        "{{\"Name\":\"{name}\",\"Served\":true,\"Storage\":true,\"Deprecated\":false,\"DeprecationWarning\":null,\"Schema\":null,\"Subresources\":null,\"AdditionalPrinterColumns\":null,\"SelectableFields\":null}}"
    )
}

async fn crds_are_validated(api: &Api) {
    let mut two = gizmo_crd();
    let mut second = two["spec"]["versions"][0].clone();
    second["name"] = json!("v2");
    two["spec"]["versions"].as_array_mut().unwrap().push(second);
    two["spec"]["group"] = json!("ex");
    two["metadata"]["name"] = json!("gizmos.ex");
    let (code, refused) = api.send("POST", CRDS, "application/json", two.to_string()).await;
    assert_eq!(code, StatusCode::UNPROCESSABLE_ENTITY, "{refused}");
    assert_eq!(
        refused["message"],
        format!(
            "CustomResourceDefinition.apiextensions.k8s.io \"gizmos.ex\" is invalid: [spec.group: Invalid value: \"ex\": should be a domain with at least one dot, spec.versions: Invalid value: [{},{}]: must have exactly one version marked as storage version]",
            shown("v1"),
            shown("v2")
        )
    );
    let mut loose = gizmo_crd();
    loose["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]
        .as_object_mut()
        .unwrap()
        .remove("type");
    let (code, refused) = api.send("POST", CRDS, "application/json", loose.to_string()).await;
    assert_eq!(code, StatusCode::UNPROCESSABLE_ENTITY, "{refused}");
    assert_eq!(
        causes(&refused),
        [
            "spec.validation.openAPIV3Schema.properties[spec].type: Required value: must not be empty for specified object fields"
        ]
    );
    assert_eq!(
        api.get(&format!("{CRDS}/gizmos.ex.com")).await.0,
        StatusCode::NOT_FOUND,
        "nothing stored"
    );
}

async fn objects_follow_their_schema(api: Api) {
    crds_are_validated(&api).await;
    let (code, created) = api
        .send("POST", CRDS, "application/json", gizmo_crd().to_string())
        .await;
    assert_eq!(code, StatusCode::CREATED, "{created}");
    eventually("gizmos are served", || async {
        api.get(GIZMOS).await.0 == StatusCode::OK
    })
    .await;

    // Defaults fill what is missing, in list items too.
    let (code, a) = api
        .send(
            "POST",
            GIZMOS,
            "application/json",
            gizmo("a", json!({"size": 2, "ports": [{"name": "http"}]})),
        )
        .await;
    assert_eq!(code, StatusCode::CREATED, "{a}");
    assert_eq!(
        a["spec"],
        json!({"size": 2, "mode": "Slow", "maxSize": 10, "ports": [{"name": "http", "protocol": "TCP"}]})
    );

    // Unknown fields: dropped with a warning by default, a 400 under Strict, kept where preserved.
    let body = gizmo("b", json!({"size": 1, "colour": "red", "extra": {"any": {"thing": 1}}}));
    let warned = api
        .client
        .post(format!("{}{GIZMOS}", api.url))
        .header("content-type", "application/json")
        .body(body.clone())
        .send()
        .await
        .unwrap();
    let warning = warned.headers().get("warning").map(|w| w.to_str().unwrap().to_string());
    assert_eq!(warning.as_deref(), Some("299 - \"unknown field \\\"spec.colour\\\"\""));
    let b: Value = warned.json().await.unwrap();
    assert!(b["spec"].get("colour").is_none(), "{b}");
    assert_eq!(b["spec"]["extra"], json!({"any": {"thing": 1}}));
    let (code, strict) = api
        .send(
            "POST",
            &format!("{GIZMOS}?fieldValidation=Strict"),
            "application/json",
            body.replace("\"b\"", "\"c\""),
        )
        .await;
    assert_eq!(code, StatusCode::BAD_REQUEST, "{strict}");
    assert_eq!(
        strict["message"],
        "Gizmo in version \"v1\" cannot be handled as a Gizmo: strict decoding error: unknown field \"spec.colour\""
    );

    // A patch whose result has an unknown field: a warning under Warn, and under Strict the
    // 422 at `patch` that Kubernetes' patcher answers, showing the patched object.
    let warned = api
        .client
        .patch(format!("{}{GIZMOS}/b", api.url))
        .header("content-type", "application/merge-patch+json")
        .body(r#"{"spec":{"colour":"red"}}"#)
        .send()
        .await
        .unwrap();
    assert_eq!(warned.status(), StatusCode::OK);
    let warning = warned.headers().get("warning").map(|w| w.to_str().unwrap().to_string());
    assert_eq!(warning.as_deref(), Some("299 - \"unknown field \\\"spec.colour\\\"\""));
    let (code, strict) = api
        .send(
            "PATCH",
            &format!("{GIZMOS}/b?fieldValidation=Strict"),
            "application/merge-patch+json",
            r#"{"spec":{"colour":"red"}}"#.into(),
        )
        .await;
    assert_eq!(code, StatusCode::UNPROCESSABLE_ENTITY, "{strict}");
    let message = strict["message"].as_str().unwrap();
    assert!(
        message.starts_with(" \"\" is invalid: patch: Invalid value: \"{\\\"apiVersion\\\":"),
        "{message}"
    );
    assert!(
        message.ends_with("\": strict decoding error: unknown field \"spec.colour\""),
        "{message}"
    );
    assert_eq!(strict["details"]["causes"][0]["field"], "patch");

    // Schema and CEL errors are 422 with Kubernetes' causes.
    let (code, refused) = api
        .send(
            "POST",
            GIZMOS,
            "application/json",
            gizmo("d", json!({"size": 20, "mode": "Medium", "maxSize": 15})),
        )
        .await;
    assert_eq!(code, StatusCode::UNPROCESSABLE_ENTITY, "{refused}");
    assert_eq!(
        causes(&refused),
        [
            "spec.mode: Unsupported value: \"Medium\": supported values: \"Fast\", \"Slow\"",
            "spec.size: Invalid value: 20: spec.size in body should be less than or equal to 10",
            "<nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation",
        ]
    );
    let (code, refused) = api
        .send(
            "POST",
            GIZMOS,
            "application/json",
            gizmo("d", json!({"size": 9, "maxSize": 5})),
        )
        .await;
    assert_eq!(code, StatusCode::UNPROCESSABLE_ENTITY, "{refused}");
    assert_eq!(
        refused["message"],
        "Gizmo.ex.com \"d\" is invalid: spec.size: Invalid value: size may not exceed maxSize"
    );
    let (code, refused) = api
        .send("POST", GIZMOS, "application/json", gizmo("d", json!({"size": "big"})))
        .await;
    assert_eq!(code, StatusCode::UNPROCESSABLE_ENTITY, "{refused}");
    assert_eq!(
        causes(&refused),
        [
            "spec.size: Invalid value: \"string\": spec.size in body must be of type integer: \"string\"",
            "<nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation",
        ]
    );

    // A transition rule runs on update.
    let patch = json!({"spec": {"mode": "Fast"}}).to_string();
    let (code, refused) = api
        .send("PATCH", &format!("{GIZMOS}/a"), "application/merge-patch+json", patch)
        .await;
    assert_eq!(code, StatusCode::UNPROCESSABLE_ENTITY, "{refused}");
    assert_eq!(causes(&refused), ["spec: Forbidden: mode is immutable"]);
    let (code, _) = api
        .send(
            "PATCH",
            &format!("{GIZMOS}/a"),
            "application/strategic-merge-patch+json",
            "{}".into(),
        )
        .await;
    assert_eq!(code, StatusCode::UNSUPPORTED_MEDIA_TYPE);

    // The kind's OpenAPI document is served and names the schema's fields.
    let (code, doc) = api.get("/openapi/v3/apis/ex.com/v1").await;
    assert_eq!(code, StatusCode::OK);
    let kind = &doc["components"]["schemas"]["com.ex.v1.Gizmo"];
    assert_eq!(
        kind["properties"]["spec"]["properties"]["size"]["maximum"], 10,
        "{kind}"
    );
    assert_eq!(kind["x-kubernetes-group-version-kind"][0]["kind"], "Gizmo");
    assert!(doc["paths"]["/apis/ex.com/v1/namespaces/{namespace}/gizmos/{name}"]["get"].is_object());
    assert!(api.get("/openapi/v3").await.1["paths"]["apis/ex.com/v1"].is_object());
    let v2 = api.get("/openapi/v2").await.1;
    assert_eq!(
        v2["definitions"]["com.ex.v1.Gizmo"]["properties"]["spec"]["properties"]["size"]["maximum"],
        10
    );

    // A schema change while a watch is open: the watch stays, the next write meets the new rule,
    // and reads show the new default.
    let mut watch = api
        .watch(GIZMOS, a["metadata"]["resourceVersion"].as_str().unwrap())
        .await;
    let mut crd = api.get(&format!("{CRDS}/gizmos.ex.com")).await.1;
    let spec = &mut crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"];
    spec["size"]["maximum"] = json!(3);
    spec["label"] = json!({"type": "string", "default": "none"});
    let (code, updated) = api
        .send(
            "PUT",
            &format!("{CRDS}/gizmos.ex.com"),
            "application/json",
            crd.to_string(),
        )
        .await;
    assert_eq!(code, StatusCode::OK, "{updated}");
    eventually("the new schema applies", || async {
        let dry_run = format!("{GIZMOS}?dryRun=All");
        api.send("POST", &dry_run, "application/json", gizmo("e", json!({"size": 5})))
            .await
            .0
            == StatusCode::UNPROCESSABLE_ENTITY
    })
    .await;
    assert_eq!(
        api.get(&format!("{GIZMOS}/a")).await.1["spec"]["label"],
        "none",
        "defaulted on read"
    );
    let listed = api.get(GIZMOS).await.1;
    let a = listed["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["metadata"]["name"] == "a")
        .unwrap();
    assert_eq!(a["spec"]["label"], "none", "defaulted in lists too: {a}");
    let (code, _) = api
        .send("POST", GIZMOS, "application/json", gizmo("f", json!({"size": 3})))
        .await;
    assert_eq!(code, StatusCode::CREATED);
    let seen = events(&mut watch, 2).await;
    let names: Vec<&str> = seen
        .iter()
        .map(|e| e["object"]["metadata"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["b", "f"], "the watch outlived the schema change");
}

#[tokio::test(flavor = "multi_thread")]
async fn custom_objects_follow_their_schema_on_the_embedded_store() {
    objects_follow_their_schema(Api::new().await).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn custom_objects_follow_their_schema_on_etcd() {
    let cluster = support::etcd::start("crd-schemas", 1);
    let storage = kube_apiserver_storage::etcd::EtcdStorage::new(cluster.endpoints()).unwrap();
    objects_follow_their_schema(Api::on(support::start_on(Arc::new(storage))).await).await;
}

/// The compiled widget classes and the same CRD served at run time under another group refuse a
/// change of their immutable controller (a `+k8s:validation:cel` rule) with the same cause.
#[tokio::test(flavor = "multi_thread")]
async fn a_compiled_kind_and_its_crd_at_run_time_refuse_alike() {
    let api = Api::new().await;
    let mut crd: Value = serde_saphyr::from_str(include_str!(
        "../../../generated/crds/widgets.example.dev_widgetclasses.yaml"
    ))
    .unwrap();
    crd["metadata"] = json!({"name": "widgetclasses.widgets.bench.dev"});
    crd["spec"]["group"] = json!("widgets.bench.dev");
    crd["spec"]["versions"]
        .as_array_mut()
        .unwrap()
        .retain(|v| v["name"] == "v1");
    // The compiled kind's `+k8s:maxLength=63`, which its generated validation checks.
    crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"]["controller"]["maxLength"] =
        json!(63);
    let (code, created) = api.send("POST", CRDS, "application/json", crd.to_string()).await;
    assert_eq!(code, StatusCode::CREATED, "{created}");
    let runtime_classes = "/apis/widgets.bench.dev/v1/widgetclasses";
    eventually("the run-time classes are served", || async {
        api.get(runtime_classes).await.0 == StatusCode::OK
    })
    .await;
    let mut refusals = Vec::new();
    for group in ["widgets.example.dev", "widgets.bench.dev"] {
        let classes = format!("/apis/{group}/v1/widgetclasses");
        let class = json!({"apiVersion": format!("{group}/v1"), "kind": "WidgetClass",
                           "metadata": {"name": "fast"}, "spec": {"controller": "example.dev/a"}});
        let (code, created) = api.send("POST", &classes, "application/json", class.to_string()).await;
        assert_eq!(code, StatusCode::CREATED, "{created}");
        let patch = json!({"spec": {"controller": "example.dev/b"}}).to_string();
        let (code, refused) = api
            .send(
                "PATCH",
                &format!("{classes}/fast"),
                "application/merge-patch+json",
                patch,
            )
            .await;
        assert_eq!(code, StatusCode::UNPROCESSABLE_ENTITY, "{group}: {refused}");
        let mut found = causes(&refused);
        // A value too long: the schema's (or generated validation's) error blocks the rules,
        // which are reported as not checked.
        let patch = json!({"spec": {"controller": "x".repeat(64)}}).to_string();
        let (code, refused) = api
            .send(
                "PATCH",
                &format!("{classes}/fast"),
                "application/merge-patch+json",
                patch,
            )
            .await;
        assert_eq!(code, StatusCode::UNPROCESSABLE_ENTITY, "{group}: {refused}");
        found.extend(causes(&refused));
        refusals.push(found);
    }
    // Alike but for the length's unit: declarative validation counts characters where the
    // schema's maxLength counts bytes, as in Kubernetes.
    let expected = |unit: &str| {
        [
            "spec.controller: Invalid value: \"example.dev/b\": controller is immutable".to_string(),
            format!("spec.controller: Too long: may not be more than 63 {unit}"),
            "<nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation".to_string(),
        ]
    };
    assert_eq!(refusals[0], expected("characters"), "compiled");
    assert_eq!(refusals[1], expected("bytes"), "run-time");
}
