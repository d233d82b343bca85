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

use axum::extract::Request;
use axum::extract::connect_info::ConnectInfo;
use serde_json::{Value, json};

pub use log::{AuditLog, LogOptions};
pub use policy::{Level, Policy, Stage};

use crate::authentication::UserInfo;
use crate::request::RequestInfo;

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
pub struct Record {
    /// The audit id (the client's own `Audit-ID` when sane).
    pub id: String,
    /// The policy's level and omitted stages for the request.
    pub decision: policy::Decision,
    request_uri: String,
    verb: String,
    user: Option<UserInfo>,
    source_ips: Vec<String>,
    user_agent: String,
    /// What the request is about, for a resource request.
    pub object_ref: Option<Value>,
    received: String,
    /// The request's body, at the levels that record it.
    pub request_object: Option<Value>,
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
    /// The event of `stage`.
    pub fn event(&self, stage: Stage, notes: Option<&Notes>, status: Option<Value>, response: Option<Value>) -> Value {
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
    /// Writes one event to the log.
    pub fn write(&self, event: &Value) {
        self.log.write(event.to_string().as_bytes());
    }

    /// Records a request whose credentials were refused.
    pub fn failed_authentication(&self, request: &Request, info: &RequestInfo) {
        let decision = self.policy.decide(None, info);
        if !decision.records(Stage::ResponseStarted) {
            return;
        }
        let record = self.record(request, info, None, decision);
        let status = json!({"metadata": {}, "status": "Failure", "message": "Unauthorized", "reason": "Unauthorized", "code": 401});
        self.write(&record.event(Stage::ResponseStarted, None, Some(status), None));
    }

    /// What the events of `request` say whatever their stage.
    pub fn record(
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
