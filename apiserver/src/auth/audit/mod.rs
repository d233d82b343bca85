//! Auditing as kube-apiserver does it: after authentication, the policy (`--audit-policy-file`)
//! gives each request a level and the stages to leave out, and the log (`--audit-log-path`)
//! gets audit.k8s.io/v1 `Event`s: at `RequestReceived`, at `ResponseStarted` for watches, and at
//! `ResponseComplete`, with who asked (and whom they impersonated), from where, about which
//! object, the answer's status, and the request and response bodies at the levels that ask for
//! them. A request whose credentials are refused is recorded too, at `ResponseStarted`, as
//! kube-apiserver's failed-authentication audit records it. Every answer carries `Audit-Id`.

pub mod log;
pub mod policy;

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use axum::body::Body;
use axum::extract::connect_info::ConnectInfo;
use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::Response;
use futures::StreamExt;
use serde_json::{Value, json};

pub use log::{AuditLog, LogOptions};
pub use policy::{Level, Policy, Stage};

use super::{RequestInfo, UserInfo};

/// A server's auditing: its policy and its log.
#[derive(Debug)]
pub struct Audit {
    /// What is recorded of which request.
    pub policy: Policy,
    /// Where events go.
    pub log: AuditLog,
}

/// What the filters inside the audit one report back about a request: whom it impersonates
/// and what the authorizers decided.
#[derive(Clone, Default)]
pub struct Notes(Arc<Mutex<Noted>>);

#[derive(Clone, Default)]
struct Noted {
    impersonated: Option<UserInfo>,
    decision: Option<&'static str>,
}

impl Notes {
    /// Records that the request acts as `user`.
    pub fn impersonates(&self, user: &UserInfo) {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).impersonated = Some(user.clone());
    }

    /// Records the authorizers' decision (`allow` or `forbid`).
    pub fn decided(&self, allowed: bool) {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).decision = Some(if allowed { "allow" } else { "forbid" });
    }

    fn get(&self) -> Noted {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

/// Kubernetes' MicroTime: RFC 3339 with microseconds, UTC.
fn micro_time() -> String {
    k8s_openapi::jiff::Timestamp::now()
        .strftime("%Y-%m-%dT%H:%M:%S%.6fZ")
        .to_string()
}

/// What an event says about the request, whatever its stage.
struct Record {
    id: String,
    decision: policy::Decision,
    request_uri: String,
    verb: String,
    user: Option<UserInfo>,
    source_ips: Vec<String>,
    user_agent: String,
    object_ref: Option<Value>,
    received: String,
    request_object: Option<Value>,
}

fn without_managed_fields(mut v: Value) -> Value {
    if let Some(m) = v.get_mut("metadata").and_then(Value::as_object_mut) {
        m.remove("managedFields");
    }
    if let Some(items) = v.get_mut("items").and_then(Value::as_array_mut) {
        for item in items {
            if let Some(m) = item.get_mut("metadata").and_then(Value::as_object_mut) {
                m.remove("managedFields");
            }
        }
    }
    v
}

impl Record {
    fn event(&self, stage: Stage, notes: Option<&Notes>, status: Option<Value>, response: Option<Value>) -> Value {
        let noted = notes.map(Notes::get).unwrap_or_default();
        let mut e = json!({
            "kind": "Event",
            "apiVersion": "audit.k8s.io/v1",
            "level": self.decision.level.as_str(),
            "auditID": self.id,
            "stage": stage.as_str(),
            "requestURI": self.request_uri,
            "verb": self.verb,
            "user": self.user.as_ref().map(|u| json!(u)).unwrap_or_else(|| json!({})),
            "sourceIPs": self.source_ips,
            "userAgent": self.user_agent,
            "requestReceivedTimestamp": self.received,
            "stageTimestamp": micro_time(),
        });
        if let Some(decision) = noted.decision {
            e["annotations"] = json!({"authorization.k8s.io/decision": decision});
        }
        if let Some(user) = noted.impersonated {
            e["impersonatedUser"] = json!(user);
        }
        if let Some(object_ref) = &self.object_ref {
            e["objectRef"] = object_ref.clone();
        }
        if let Some(status) = status {
            e["responseStatus"] = status;
        }
        let omit = self.decision.omit_managed_fields;
        let shape = |v: Value| if omit { without_managed_fields(v) } else { v };
        if self.decision.level >= Level::Request
            && let Some(body) = &self.request_object
        {
            e["requestObject"] = shape(body.clone());
        }
        if self.decision.level >= Level::RequestResponse
            && let Some(body) = response
        {
            e["responseObject"] = shape(body);
        }
        e
    }
}

impl Audit {
    fn write(&self, event: &Value) {
        self.log.write(event.to_string().as_bytes());
    }

    /// Records a request whose credentials were refused.
    pub fn failed_authentication(&self, request: &Request) {
        let info = RequestInfo::new(request.method().as_str(), request.uri().path(), request.uri().query());
        let decision = self.policy.decide(None, &info);
        if !decision.records(Stage::ResponseStarted) {
            return;
        }
        let record = self.record(request, &info, None, decision);
        let status = json!({"metadata": {}, "status": "Failure", "message": "Unauthorized", "reason": "Unauthorized", "code": 401});
        self.write(&record.event(Stage::ResponseStarted, None, Some(status), None));
    }

    fn record(
        &self,
        request: &Request,
        info: &RequestInfo,
        user: Option<UserInfo>,
        decision: policy::Decision,
    ) -> Record {
        let header = |name: &str| {
            request
                .headers()
                .get(name)
                .and_then(|v| v.to_str().ok())
                .unwrap_or_default()
                .to_string()
        };
        // X-Forwarded-For first, then the peer, as kube-apiserver lists source IPs.
        let mut source_ips: Vec<String> = header("x-forwarded-for")
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect();
        if let Some(ConnectInfo(peer)) = request.extensions().get::<ConnectInfo<SocketAddr>>() {
            let ip = peer.ip().to_string();
            if !source_ips.contains(&ip) {
                source_ips.push(ip);
            }
        }
        let object_ref = info.resource_request.then(|| {
            let mut r = serde_json::Map::new();
            let mut put = |k: &str, v: &str| {
                if !v.is_empty() {
                    r.insert(k.into(), json!(v));
                }
            };
            put("resource", &info.resource);
            put("namespace", &info.namespace);
            put("name", &info.name);
            put("apiGroup", &info.api_group);
            put("apiVersion", &info.api_version);
            put("subresource", &info.subresource);
            Value::Object(r)
        });
        let uri = request
            .uri()
            .path_and_query()
            .map(|p| p.as_str().to_string())
            .unwrap_or_default();
        // A client's own Audit-ID is kept (kube-apiserver's), when it is a sane one.
        let given = header("audit-id");
        let id = if !given.is_empty() && given.len() <= 64 && given.chars().all(|c| c.is_ascii_graphic()) {
            given
        } else {
            uuid::Uuid::new_v4().to_string()
        };
        Record {
            id,
            decision,
            request_uri: uri,
            verb: info.verb.clone(),
            user,
            source_ips,
            user_agent: header("user-agent"),
            object_ref,
            received: micro_time(),
            request_object: None,
        }
    }
}

/// The JSON of a body: itself when it is JSON, its object in its own version when it is
/// Kubernetes protobuf (what kubectl's typed clients send and ask for), as kube-apiserver
/// records objects in events.
fn json_of(server: &crate::Server, bytes: &[u8]) -> Option<Value> {
    if let Ok(value) = serde_json::from_slice(bytes) {
        return Some(value);
    }
    if !runtime::protobuf::is_protobuf(bytes) {
        return None;
    }
    let envelope = runtime::protobuf::Unknown::decode(bytes).ok()?;
    let version = runtime::GroupVersion::parse_api_version(&envelope.api_version).ok()?;
    let codec = runtime::codec::Codec::new(server.versions.scheme());
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
pub async fn audit(State(server): State<Arc<crate::Server>>, mut request: Request, next: Next) -> Response {
    let Some(audit) = server.config.audit.clone() else {
        return next.run(request).await;
    };
    let info = RequestInfo::new(request.method().as_str(), request.uri().path(), request.uri().query());
    let user = super::user_of(request.extensions());
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
        let bytes = match axum::body::to_bytes(body, server.config.max_body_bytes).await {
            Ok(bytes) => bytes,
            Err(_) => {
                return axum::response::IntoResponse::into_response(crate::status::ApiError::too_large(
                    server.config.max_body_bytes,
                ));
            }
        };
        record.request_object = json_of(&server, &bytes);
        if record.object_ref.is_some() && info.name.is_empty() {
            let name = record
                .request_object
                .as_ref()
                .map(|o| crate::registry::meta::name(o).to_string());
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
                let parsed = json_of(&server, &bytes);
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
