//! The review resources a client asks the server about itself with: `SelfSubjectReview` (who am
//! I: `kubectl auth whoami`), `SelfSubjectAccessReview` (may I: `kubectl auth can-i`) and
//! `SelfSubjectRulesReview` (what may I in a namespace: `kubectl auth can-i --list`). Each is a
//! create that stores nothing and answers the object with its status filled.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use super::authorize::{Attributes, Decision};
use super::request_info::RequestInfo;
use super::{UserInfo, user_of};
use crate::Server;
use crate::status::ApiError;

/// A review answered as a created object.
pub(crate) fn created(review: Value) -> Response {
    let headers = [(http::header::CONTENT_TYPE, "application/json")];
    (http::StatusCode::CREATED, headers, review.to_string()).into_response()
}

/// The review in the request's body, JSON or protobuf.
pub(crate) async fn body(request: Request, kind: &str) -> Result<Value, ApiError> {
    let bytes = axum::body::to_bytes(request.into_body(), 3 * 1024 * 1024)
        .await
        .map_err(|e| ApiError::bad_request(e.to_string()))?;
    if let Some(raw) = super::proto::envelope(&bytes) {
        let raw = raw.map_err(ApiError::bad_request)?;
        return from_protobuf(&raw, kind).ok_or_else(|| ApiError::bad_request(format!("the body is not a {kind}")));
    }
    let review: Value = serde_json::from_slice(&bytes)
        .map_err(|e| ApiError::bad_request(format!("the body of a {kind} is not JSON: {e}")))?;
    if review.get("kind").and_then(Value::as_str).is_some_and(|k| k != kind) {
        return Err(ApiError::bad_request(format!("the body is not a {kind}")));
    }
    Ok(review)
}

/// `POST /apis/authentication.k8s.io/v1/selfsubjectreviews`.
pub async fn self_subject_review(request: Request) -> Response {
    let user = user_of(request.extensions());
    created(json!({
        "kind": "SelfSubjectReview",
        "apiVersion": "authentication.k8s.io/v1",
        "metadata": {"creationTimestamp": null},
        "status": {"userInfo": user},
    }))
}

/// `POST /apis/authorization.k8s.io/v1/selfsubjectaccessreviews`: whether the requester may do
/// what `spec.resourceAttributes` or `spec.nonResourceAttributes` says.
pub async fn self_subject_access_review(State(server): State<Arc<Server>>, request: Request) -> Response {
    let user = user_of(request.extensions());
    match body(request, "SelfSubjectAccessReview").await {
        Ok(review) => access_review(&server, review, "SelfSubjectAccessReview", &user, None).await,
        Err(e) => e.into_response(),
    }
}

/// `POST /apis/authorization.k8s.io/v1/subjectaccessreviews`: whether the user of
/// `spec.user`, `spec.groups`, `spec.uid` and `spec.extra` may do what the attributes say (what
/// webhooks and aggregated servers ask the API server).
pub async fn subject_access_review(State(server): State<Arc<Server>>, request: Request) -> Response {
    match body(request, "SubjectAccessReview").await {
        Ok(review) => {
            let subject = subject_of(&review["spec"]);
            access_review(&server, review, "SubjectAccessReview", &subject, None).await
        }
        Err(e) => e.into_response(),
    }
}

/// `POST /apis/authorization.k8s.io/v1/namespaces/{namespace}/localsubjectaccessreviews`: a
/// SubjectAccessReview confined to one namespace.
pub async fn local_subject_access_review(
    State(server): State<Arc<Server>>,
    axum::extract::Path(namespace): axum::extract::Path<String>,
    request: Request,
) -> Response {
    match body(request, "LocalSubjectAccessReview").await {
        Ok(review) => {
            let subject = subject_of(&review["spec"]);
            access_review(&server, review, "LocalSubjectAccessReview", &subject, Some(&namespace)).await
        }
        Err(e) => e.into_response(),
    }
}

/// The user a SubjectAccessReview asks about.
fn subject_of(spec: &Value) -> UserInfo {
    let strings = |v: &Value| -> Vec<String> {
        v.as_array()
            .map(|a| a.iter().filter_map(Value::as_str).map(str::to_string).collect())
            .unwrap_or_default()
    };
    UserInfo {
        username: spec["user"].as_str().unwrap_or_default().to_string(),
        uid: spec["uid"].as_str().unwrap_or_default().to_string(),
        groups: strings(&spec["groups"]),
        extra: spec["extra"]
            .as_object()
            .map(|m| m.iter().map(|(k, v)| (k.clone(), strings(v))).collect())
            .unwrap_or_default(),
    }
}

fn required(kind: &str, field: &str, message: &str) -> Response {
    let cause = crate::status::Cause {
        reason: "FieldValueRequired",
        message: format!("Required value: {message}"),
        field: field.into(),
    };
    ApiError::invalid("authorization.k8s.io", kind, "", vec![cause]).into_response()
}

/// Decides an access review of `kind` for `user` and answers it with its status. `namespace` is
/// a LocalSubjectAccessReview's, which the attributes must match.
async fn access_review(
    server: &Server,
    mut review: Value,
    kind: &str,
    user: &UserInfo,
    namespace: Option<&str>,
) -> Response {
    let spec = &review["spec"];
    let text = |v: &Value, k: &str| v.get(k).and_then(Value::as_str).unwrap_or_default().to_string();
    if kind != "SelfSubjectAccessReview" && user.username.is_empty() && user.groups.is_empty() {
        let cause = crate::status::Cause {
            reason: "FieldValueInvalid",
            message: "Invalid value: \"\": at least one of user or group must be specified".into(),
            field: "spec.user".into(),
        };
        return ApiError::invalid("authorization.k8s.io", kind, "", vec![cause]).into_response();
    }
    let asked = if let Some(r) = spec.get("resourceAttributes").filter(|r| r.is_object()) {
        let info = RequestInfo {
            resource_request: true,
            verb: text(r, "verb"),
            api_group: text(r, "group"),
            api_version: text(r, "version"),
            namespace: text(r, "namespace"),
            resource: text(r, "resource"),
            subresource: text(r, "subresource"),
            name: text(r, "name"),
            path: String::new(),
        };
        if let Some(namespace) = namespace
            && info.namespace != namespace
        {
            let cause = crate::status::Cause {
                reason: "FieldValueInvalid",
                message: format!("Invalid value: {:?}: must match metadata.namespace", info.namespace),
                field: "spec.resourceAttributes.namespace".into(),
            };
            return ApiError::invalid("authorization.k8s.io", kind, "", vec![cause]).into_response();
        }
        info
    } else if let Some(n) = spec.get("nonResourceAttributes").filter(|n| n.is_object()) {
        if namespace.is_some() {
            let cause = crate::status::Cause {
                reason: "FieldValueInvalid",
                message: "Invalid value: \"\": disallowed on this kind of request".into(),
                field: "spec.nonResourceAttributes".into(),
            };
            return ApiError::invalid("authorization.k8s.io", kind, "", vec![cause]).into_response();
        }
        RequestInfo {
            resource_request: false,
            verb: text(n, "verb"),
            path: text(n, "path"),
            ..RequestInfo::default()
        }
    } else {
        return required(
            kind,
            "spec.resourceAttributes",
            "exactly one of nonResourceAttributes or resourceAttributes must be specified",
        );
    };
    let decision = match &server.authorization {
        None => Decision::Allow,
        Some(authorization) => {
            authorization.ready().await;
            authorization.decide(&Attributes { user, request: &asked })
        }
    };
    let status = match decision {
        Decision::Allow => json!({"allowed": true}),
        Decision::Deny(why) => json!({"allowed": false, "denied": true, "reason": why}),
        Decision::NoOpinion(why) if why.is_empty() => json!({"allowed": false}),
        Decision::NoOpinion(why) => json!({"allowed": false, "reason": why}),
    };
    review["status"] = status;
    review["apiVersion"] = json!("authorization.k8s.io/v1");
    review["kind"] = json!(kind);
    let mut metadata = json!({"creationTimestamp": null});
    if let Some(namespace) = namespace {
        metadata["namespace"] = json!(namespace);
    }
    review["metadata"] = metadata;
    created(review)
}

/// `POST /apis/authorization.k8s.io/v1/selfsubjectrulesreviews`: every rule the requester holds
/// in `spec.namespace`, as RBAC grants them (incomplete when another mode decides).
pub async fn self_subject_rules_review(State(server): State<Arc<Server>>, request: Request) -> Response {
    let user = user_of(request.extensions());
    let mut review = match body(request, "SelfSubjectRulesReview").await {
        Ok(review) => review,
        Err(e) => return e.into_response(),
    };
    let namespace = review["spec"]["namespace"].as_str().unwrap_or_default().to_string();
    let masters = user.groups.iter().any(|g| g == super::SYSTEM_MASTERS);
    let policy = server.authorization.as_ref().and_then(|a| a.policy().cloned());
    let (mut resource_rules, mut non_resource_rules) = (Vec::new(), Vec::new());
    let incomplete = match &policy {
        Some(policy) if !masters => {
            policy.ready().await;
            for rule in policy.current().rules_for(&user, &namespace) {
                if rule.non_resource_urls.is_empty() {
                    let mut r = json!({"verbs": rule.verbs, "apiGroups": rule.api_groups, "resources": rule.resources});
                    if !rule.resource_names.is_empty() {
                        r["resourceNames"] = json!(rule.resource_names);
                    }
                    resource_rules.push(r);
                } else {
                    non_resource_rules.push(json!({"verbs": rule.verbs, "nonResourceURLs": rule.non_resource_urls}));
                }
            }
            false
        }
        _ => {
            // Everything is allowed: as RBAC states cluster-admin's rules.
            resource_rules.push(json!({"verbs": ["*"], "apiGroups": ["*"], "resources": ["*"]}));
            non_resource_rules.push(json!({"verbs": ["*"], "nonResourceURLs": ["*"]}));
            false
        }
    };
    review["status"] = json!({
        "resourceRules": resource_rules,
        "nonResourceRules": non_resource_rules,
        "incomplete": incomplete,
    });
    review["apiVersion"] = json!("authorization.k8s.io/v1");
    review["kind"] = json!("SelfSubjectRulesReview");
    review["metadata"] = json!({"creationTimestamp": null});
    created(review)
}

/// A review's protobuf message as its JSON (kubectl's typed client sends protobuf): the spec
/// fields the reviews read, by their numbers in k8s.io/api's generated.proto.
fn from_protobuf(raw: &[u8], kind: &str) -> Option<Value> {
    use super::proto::{Field, fields};
    let spec = fields(raw)?
        .into_iter()
        .find(|(n, _)| *n == 2)
        .and_then(|(_, f)| f.bytes())
        .unwrap_or_default();
    let object = |f: Field<'_>, names: &[&str]| -> Option<Value> {
        let mut out = serde_json::Map::new();
        for (n, value) in fields(f.bytes()?)? {
            if let Some(name) = names.get((n as usize).wrapping_sub(1)) {
                out.insert(name.to_string(), Value::String(value.text()));
            }
        }
        Some(Value::Object(out))
    };
    const RESOURCE: [&str; 7] = [
        "namespace",
        "verb",
        "group",
        "version",
        "resource",
        "subresource",
        "name",
    ];
    let access = matches!(
        kind,
        "SelfSubjectAccessReview" | "SubjectAccessReview" | "LocalSubjectAccessReview"
    );
    let subject = kind != "SelfSubjectAccessReview";
    let mut out = serde_json::Map::new();
    let mut groups = Vec::new();
    let mut extra = serde_json::Map::new();
    for (n, value) in fields(spec)? {
        match n {
            1 if access => {
                out.insert("resourceAttributes".into(), object(value, &RESOURCE)?);
            }
            2 if access => {
                out.insert("nonResourceAttributes".into(), object(value, &["path", "verb"])?);
            }
            3 if access && subject => {
                out.insert("user".into(), Value::String(value.text()));
            }
            4 if access && subject => groups.push(Value::String(value.text())),
            5 if access && subject => {
                // map<string, ExtraValue>: entries of key (1) and value (2, whose items are 1).
                let (mut key, mut items) = (String::new(), Vec::new());
                for (m, v) in fields(value.bytes()?)? {
                    match m {
                        1 => key = v.text(),
                        2 => items.extend(fields(v.bytes()?)?.into_iter().map(|(_, i)| Value::String(i.text()))),
                        _ => {}
                    }
                }
                extra.insert(key, Value::Array(items));
            }
            6 if access && subject => {
                out.insert("uid".into(), Value::String(value.text()));
            }
            1 if kind == "SelfSubjectRulesReview" => {
                out.insert("namespace".into(), Value::String(value.text()));
            }
            1 if kind == "TokenReview" => {
                out.insert("token".into(), Value::String(value.text()));
            }
            2 if kind == "TokenReview" => groups.push(Value::String(value.text())),
            1 if kind == "TokenRequest" => groups.push(Value::String(value.text())),
            3 if kind == "TokenRequest" => {
                out.insert(
                    "boundObjectRef".into(),
                    object(value, &["kind", "apiVersion", "name", "uid"])?,
                );
            }
            4 if kind == "TokenRequest" => {
                if let Field::Varint(seconds) = value {
                    out.insert("expirationSeconds".into(), json!(seconds as i64));
                }
            }
            _ => {}
        }
    }
    if !groups.is_empty() {
        let key = if matches!(kind, "TokenReview" | "TokenRequest") {
            "audiences"
        } else {
            "groups"
        };
        out.insert(key.into(), Value::Array(groups));
    }
    if !extra.is_empty() {
        out.insert("extra".into(), Value::Object(extra));
    }
    Some(json!({"kind": kind, "spec": out}))
}
