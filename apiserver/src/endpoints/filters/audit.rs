//! The audit filter: after authentication, before impersonation and authorization, each
//! request gets an `Audit-Id` and, at the level the policy gives it, its events in the log
//! (`crate::audit`): at `RequestReceived`, at `ResponseStarted` for watches, and at
//! `ResponseComplete`, with the request and response bodies at the levels that ask for them.

use std::sync::Arc;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::Response;
use futures::StreamExt;
use serde_json::{Value, json};

use super::Filters;
use crate::audit::{Level, Notes, Stage};
use crate::authentication::user_of;
use crate::convert::Versions;
use crate::meta;
use crate::status::ApiError;

/// The JSON of a body: itself when it is JSON, its object in its own version when it is
/// Kubernetes protobuf (what kubectl's typed clients send and ask for), as kube-apiserver
/// records objects in events.
fn json_of(versions: &Versions, bytes: &[u8]) -> Option<Value> {
    if let Ok(value) = serde_json::from_slice(bytes) {
        return Some(value);
    }
    if !kube_apimachinery::protobuf::is_protobuf(bytes) {
        return None;
    }
    let envelope = kube_apimachinery::protobuf::Unknown::decode(bytes).ok()?;
    let version = kube_apimachinery::GroupVersion::parse_api_version(&envelope.api_version).ok()?;
    let codec = kube_apimachinery::codec::Codec::new(versions.scheme());
    let object = codec.decode_to_version(bytes, &version).ok()?;
    codec.encode_value(object.as_ref(), &version).ok()
}

/// Runs `finish` when the body it is attached to is done or dropped.
struct OnDrop(Option<Box<dyn FnOnce() + Send>>);

impl Drop for OnDrop {
    fn drop(&mut self) {
        if let Some(finish) = self.0.take() {
            finish();
        }
    }
}

/// The middleware: after authentication, before impersonation and authorization.
pub async fn audit(State(filters): State<Arc<Filters>>, mut request: Request, next: Next) -> Response {
    let Some(audit) = filters.audit.clone() else {
        return next.run(request).await;
    };
    let info = super::request_info::of(&request);
    let user = user_of(request.extensions());
    let decision = audit.policy.decide(Some(&user), &info);
    let mut record = audit.record(&request, &info, Some(user), decision);
    let id = record.id.clone();
    if record.decision.level == Level::None {
        let mut response = next.run(request).await;
        set_audit_id(&mut response, &id);
        return response;
    }
    let notes = Notes::default();
    request.extensions_mut().insert(notes.clone());
    // The request's body, at the levels that record it.
    if record.decision.level >= Level::Request && matches!(info.verb.as_str(), "create" | "update" | "patch") {
        let (parts, body) = request.into_parts();
        let bytes = match axum::body::to_bytes(body, filters.max_body_bytes).await {
            Ok(bytes) => bytes,
            Err(_) => {
                return axum::response::IntoResponse::into_response(ApiError::too_large(filters.max_body_bytes));
            }
        };
        record.request_object = json_of(&filters.versions, &bytes);
        if record.object_ref.is_some() && info.name.is_empty() {
            let name = record.request_object.as_ref().map(|o| meta::name(o).to_string());
            if let (Some(r), Some(name)) = (record.object_ref.as_mut(), name.filter(|n| !n.is_empty())) {
                r["name"] = json!(name);
            }
        }
        request = Request::from_parts(parts, Body::from(bytes));
    }
    if record.decision.records(Stage::RequestReceived) {
        audit.write(&record.event(Stage::RequestReceived, None, None, None));
    }
    let response = next.run(request).await;
    let code = response.status().as_u16();
    let long_running = info.verb == "watch";
    if long_running {
        let status = json!({"metadata": {}, "code": code});
        if record.decision.records(Stage::ResponseStarted) {
            audit.write(&record.event(Stage::ResponseStarted, Some(&notes), Some(status.clone()), None));
        }
        let (mut parts, body) = response.into_parts();
        set_audit_id_headers(&mut parts.headers, &id);
        if !record.decision.records(Stage::ResponseComplete) {
            return Response::from_parts(parts, body);
        }
        let guard = OnDrop(Some(Box::new(move || {
            audit.write(&record.event(Stage::ResponseComplete, Some(&notes), Some(status), None));
        })));
        let stream = body.into_data_stream().map(move |chunk| {
            let _ = &guard;
            chunk
        });
        return Response::from_parts(parts, Body::from_stream(stream));
    }
    // Errors are read for their Status; bodies are read when the level records them.
    let wants_body = record.decision.level == Level::RequestResponse || code >= 400;
    let (mut parts, body) = response.into_parts();
    set_audit_id_headers(&mut parts.headers, &id);
    let (body, parsed) = if wants_body {
        match axum::body::to_bytes(body, usize::MAX).await {
            Ok(bytes) => {
                let parsed = json_of(&filters.versions, &bytes);
                (Body::from(bytes), parsed)
            }
            Err(_) => (Body::empty(), None),
        }
    } else {
        (body, None)
    };
    let mut status = json!({"metadata": {}, "code": code});
    if code >= 400
        && let Some(s) = parsed.as_ref().filter(|p| p["kind"] == "Status")
    {
        for key in ["status", "message", "reason", "details"] {
            if let Some(v) = s.get(key).filter(|v| !v.is_null()) {
                status[key] = v.clone();
            }
        }
    }
    if record.decision.records(Stage::ResponseComplete) {
        audit.write(&record.event(Stage::ResponseComplete, Some(&notes), Some(status), parsed));
    }
    Response::from_parts(parts, body)
}

fn set_audit_id(response: &mut Response, id: &str) {
    set_audit_id_headers(response.headers_mut(), id);
}

fn set_audit_id_headers(headers: &mut http::HeaderMap, id: &str) {
    if let Ok(v) = http::HeaderValue::from_str(id) {
        headers.insert("audit-id", v);
    }
}
