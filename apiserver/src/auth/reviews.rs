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
use super::user_of;
use crate::Server;
use crate::status::ApiError;

/// A review answered as a created object.
fn created(review: Value) -> Response {
    let headers = [(http::header::CONTENT_TYPE, "application/json")];
    (http::StatusCode::CREATED, headers, review.to_string()).into_response()
}

/// The review in the request's body.
async fn body(request: Request, kind: &str) -> Result<Value, ApiError> {
    let bytes = axum::body::to_bytes(request.into_body(), 3 * 1024 * 1024)
        .await
        .map_err(|e| ApiError::bad_request(e.to_string()))?;
    if runtime::protobuf::is_protobuf(&bytes) {
        let envelope = runtime::protobuf::Unknown::decode(&bytes).map_err(|e| ApiError::bad_request(e.to_string()))?;
        return from_protobuf(&envelope.raw, kind)
            .ok_or_else(|| ApiError::bad_request(format!("the body is not a {kind}")));
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
    let mut review = match body(request, "SelfSubjectAccessReview").await {
        Ok(review) => review,
        Err(e) => return e.into_response(),
    };
    let spec = &review["spec"];
    let text = |v: &Value, k: &str| v.get(k).and_then(Value::as_str).unwrap_or_default().to_string();
    let asked = if let Some(r) = spec.get("resourceAttributes").filter(|r| r.is_object()) {
        RequestInfo {
            resource_request: true,
            verb: text(r, "verb"),
            api_group: text(r, "group"),
            api_version: text(r, "version"),
            namespace: text(r, "namespace"),
            resource: text(r, "resource"),
            subresource: text(r, "subresource"),
            name: text(r, "name"),
            path: String::new(),
        }
    } else if let Some(n) = spec.get("nonResourceAttributes").filter(|n| n.is_object()) {
        RequestInfo {
            resource_request: false,
            verb: text(n, "verb"),
            path: text(n, "path"),
            ..RequestInfo::default()
        }
    } else {
        let cause = crate::status::Cause {
            reason: "FieldValueRequired",
            message: "Required value: exactly one of nonResourceAttributes or resourceAttributes must be specified"
                .into(),
            field: "spec.resourceAttributes".into(),
        };
        return ApiError::invalid("authorization.k8s.io", "SelfSubjectAccessReview", "", vec![cause]).into_response();
    };
    let decision = match &server.authorization {
        None => Decision::Allow,
        Some(authorization) => {
            authorization.ready().await;
            authorization.decide(&Attributes {
                user: &user,
                request: &asked,
            })
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
    review["kind"] = json!("SelfSubjectAccessReview");
    review["metadata"] = json!({"creationTimestamp": null});
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
    let spec = fields(raw)?
        .into_iter()
        .find(|(n, _)| *n == 2)
        .map(|(_, b)| b)
        .unwrap_or_default();
    let text = |b: &[u8]| Value::String(String::from_utf8_lossy(b).into_owned());
    let object = |b: &[u8], names: &[&str]| -> Option<Value> {
        let mut out = serde_json::Map::new();
        for (n, value) in fields(b)? {
            if let Some(name) = names.get(n as usize - 1).filter(|_| n >= 1) {
                out.insert(name.to_string(), text(value));
            }
        }
        Some(Value::Object(out))
    };
    let mut out = serde_json::Map::new();
    for (n, value) in fields(spec)? {
        match (kind, n) {
            ("SelfSubjectAccessReview", 1) => {
                let names = [
                    "namespace",
                    "verb",
                    "group",
                    "version",
                    "resource",
                    "subresource",
                    "name",
                ];
                out.insert("resourceAttributes".into(), object(value, &names)?);
            }
            ("SelfSubjectAccessReview", 2) => {
                out.insert("nonResourceAttributes".into(), object(value, &["path", "verb"])?);
            }
            ("SelfSubjectRulesReview", 1) => {
                out.insert("namespace".into(), text(value));
            }
            _ => {}
        }
    }
    Some(json!({"kind": kind, "spec": out}))
}

/// The length-delimited fields of a message, by number; other wire types are skipped.
fn fields(mut buf: &[u8]) -> Option<Vec<(u32, &[u8])>> {
    fn varint(buf: &mut &[u8]) -> Option<u64> {
        let mut value = 0u64;
        for shift in (0..64).step_by(7) {
            let (&byte, rest) = buf.split_first()?;
            *buf = rest;
            value |= u64::from(byte & 0x7f) << shift;
            if byte & 0x80 == 0 {
                return Some(value);
            }
        }
        None
    }
    let mut out = Vec::new();
    while !buf.is_empty() {
        let key = varint(&mut buf)?;
        let number = u32::try_from(key >> 3).ok()?;
        match key & 7 {
            0 => {
                varint(&mut buf)?;
            }
            1 => buf = buf.get(8..)?,
            5 => buf = buf.get(4..)?,
            2 => {
                let len = usize::try_from(varint(&mut buf)?).ok()?;
                let (field, rest) = (buf.get(..len)?, buf.get(len..)?);
                out.push((number, field));
                buf = rest;
            }
            _ => return None,
        }
    }
    Some(out)
}
