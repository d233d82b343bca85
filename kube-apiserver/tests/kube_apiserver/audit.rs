//! The audit log of a kubectl session: every line an audit.k8s.io/v1 Event, at the level the
//! policy's first matching rule gives (bodies at Request and RequestResponse, none at
//! Metadata, nothing for rules of level None), stages left out as the policy says, the
//! authenticated user beside the one impersonated, refused credentials recorded, and an
//! `Audit-Id` on every answer.

use crate::support;

use std::path::PathBuf;
use std::sync::Arc;

use kube_apiserver::Authentication;
use kube_generic_apiserver::audit::{Audit, AuditLog, LogOptions, Policy};
use kube_generic_apiserver::authentication::TokenFile;
use kube_generic_apiserver::server::tls::{TlsOptions, server_config};
use serde_json::Value;
use support::identity::{https_client, kubectl, output, serve_tls};
use support::kubectl::Backend;

const POLICY: &str = r#"
apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: ["RequestReceived"]
rules:
# Discovery and the OpenAPI documents are noise.
- level: None
  nonResourceURLs: ["/api*", "/apis*", "/openapi*", "/version"]
- level: RequestResponse
  resources:
  - group: ""
    resources: ["configmaps"]
- level: Request
  verbs: ["create"]
  resources:
  - group: "apps"
- level: Metadata
"#;

#[test]
fn a_kubectl_session_is_audited_as_the_policy_asks() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("audit");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let tokens = dir.join("tokens.csv");
    std::fs::write(&tokens, "root-token,root,0,system:masters\n").unwrap();
    let (tls, ca) = server_config(&TlsOptions {
        cert_dir: dir.join("certs"),
        ..TlsOptions::default()
    })
    .unwrap();
    let log_path = dir.join("logs/audit.log");
    let audit = Audit {
        policy: Policy::parse(POLICY).unwrap(),
        log: AuditLog::new(LogOptions {
            path: log_path.clone(),
            ..LogOptions::default()
        })
        .unwrap(),
    };
    let config = kube_apiserver::Config {
        generic: kube_generic_apiserver::Config {
            audit: Some(Arc::new(audit)),
            ..Default::default()
        },
        ..kube_apiserver::Config::default()
    };
    let authentication = Authentication {
        tokens: Some(TokenFile::read(&tokens).unwrap()),
        ..Authentication::default()
    };
    let (server, _etcd) = serve_tls(tls, authentication, config, Backend::Memory);
    let root = |args: &[&str]| {
        let (ok, out, err) = output(kubectl(&dir, "root", &server, &ca, "    token: root-token"), args);
        assert!(ok, "{err}");
        out
    };
    root(&["create", "namespace", "t"]);
    root(&["create", "configmap", "settings", "--from-literal=a=1", "-n", "t"]);
    root(&["create", "deployment", "web", "--image=nginx", "-n", "t"]);
    root(&["get", "deployments", "-n", "t"]);
    root(&["--as=alice", "--as-group=dev", "get", "configmaps", "-n", "t"]);
    // A wrong token, past discovery (which the policy does not record).
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let audit_id = rt.block_on(async {
        let client = https_client(&ca);
        let response = client
            .get(format!("{server}/api/v1/namespaces"))
            .bearer_auth("wrong")
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 401);
        let ok = client
            .get(format!("{server}/api/v1/namespaces"))
            .bearer_auth("root-token")
            .header("Audit-ID", "my-own-id")
            .send()
            .await
            .unwrap();
        ok.headers()["audit-id"].to_str().unwrap().to_string()
    });
    assert_eq!(audit_id, "my-own-id", "a client's Audit-ID is kept");

    let text = std::fs::read_to_string(&log_path).unwrap();
    let events: Vec<Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert!(!events.is_empty());
    for e in &events {
        assert_eq!(e["kind"], "Event", "{e}");
        assert_eq!(e["apiVersion"], "audit.k8s.io/v1");
        assert_ne!(e["stage"], "RequestReceived", "omitted by the policy: {e}");
        let id = e["auditID"].as_str().unwrap();
        assert!(id.len() == 36 || id == "my-own-id", "{e}");
        assert!(
            e["requestReceivedTimestamp"]
                .as_str()
                .is_some_and(|t| t.len() == 27 && t.ends_with('Z')),
            "MicroTime: {e}"
        );
        let uri = e["requestURI"].as_str().unwrap();
        assert!(
            uri.starts_with("/api/v1/namespaces") || uri.starts_with("/apis/apps/v1/namespaces"),
            "discovery is level None: {uri}"
        );
    }
    let find = |verb: &str, resource: &str| -> Vec<&Value> {
        events
            .iter()
            .filter(|e| e["verb"] == verb && e["objectRef"]["resource"] == resource)
            .collect()
    };

    // RequestResponse: both bodies.
    let created = find("create", "configmaps");
    assert_eq!(created.len(), 1, "{created:?}");
    let cm = created[0];
    assert_eq!(cm["level"], "RequestResponse");
    assert_eq!(cm["stage"], "ResponseComplete");
    assert_eq!(cm["user"]["username"], "root");
    assert_eq!(cm["objectRef"]["namespace"], "t");
    assert_eq!(cm["objectRef"]["name"], "settings");
    assert_eq!(cm["objectRef"]["apiVersion"], "v1");
    assert_eq!(cm["responseStatus"]["code"], 201);
    assert_eq!(cm["requestObject"]["data"]["a"], "1");
    assert_eq!(cm["responseObject"]["metadata"]["name"], "settings");
    assert!(cm["responseObject"]["metadata"]["uid"].is_string());
    assert_eq!(cm["sourceIPs"], serde_json::json!(["127.0.0.1"]));
    assert!(cm["userAgent"].as_str().unwrap().starts_with("kubectl"));
    assert_eq!(cm["annotations"]["authorization.k8s.io/decision"], "allow");

    // Request: the request's body only (kubectl's create deployment sends JSON).
    let deployment = find("create", "deployments");
    assert_eq!(deployment[0]["level"], "Request");
    assert_eq!(deployment[0]["objectRef"]["apiGroup"], "apps");
    assert_eq!(deployment[0]["requestObject"]["kind"], "Deployment");
    assert!(deployment[0].get("responseObject").is_none());

    // Metadata: no bodies.
    let listed = find("list", "deployments");
    assert_eq!(listed[0]["level"], "Metadata");
    assert!(listed[0].get("requestObject").is_none() && listed[0].get("responseObject").is_none());
    assert_eq!(
        listed[0]["responseStatus"],
        serde_json::json!({"metadata": {}, "code": 200})
    );

    // Impersonation: the authenticated user, and whom they acted as.
    let acting = find("list", "configmaps");
    assert_eq!(acting[0]["user"]["username"], "root");
    assert_eq!(acting[0]["impersonatedUser"]["username"], "alice");
    assert_eq!(
        acting[0]["impersonatedUser"]["groups"],
        serde_json::json!(["dev", "system:authenticated"])
    );

    // Refused credentials: recorded with the Status kubectl got.
    let refused: Vec<&Value> = events.iter().filter(|e| e["responseStatus"]["code"] == 401).collect();
    assert!(!refused.is_empty(), "the refused token is audited");
    assert_eq!(refused[0]["stage"], "ResponseStarted");
    assert_eq!(refused[0]["responseStatus"]["reason"], "Unauthorized");
    assert_eq!(refused[0]["user"], serde_json::json!({}));
}
