//! Every verb against a set of roles, over HTTPS with a bearer token per user: the answer is
//! allowed or 403 exactly as the expectation table says (Kubernetes' bootstrap view, edit and
//! admin, a role limited to one name, and no role at all), and a refused list or watch carries
//! no object, only the Status.

use crate::support;

use std::path::PathBuf;

use kube_apiserver::Authentication;
use kube_apiserver::Mode;
use kube_generic_apiserver::authentication::TokenFile;
use kube_generic_apiserver::server::tls::{TlsOptions, server_config};
use serde_json::{Value, json};
use support::identity::{https_client, serve_tls};
use support::kubectl::Backend;

/// The users, each bound in namespace `t` as its name says (`none` to nothing).
const USERS: [&str; 5] = ["view", "edit", "admin", "named", "none"];
/// The verbs asked, in the table's column order.
const VERBS: [&str; 8] = [
    "get",
    "list",
    "watch",
    "create",
    "update",
    "patch",
    "delete",
    "deletecollection",
];

/// Whether each user may do each verb (in `VERBS` order) on configmaps in `t`: `y` allowed.
const CONFIGMAPS: [(&str, &str); 5] = [
    ("view", "yyynnnnn"),
    ("edit", "yyyyyyyy"),
    ("admin", "yyyyyyyy"),
    ("named", "ynnnyyyn"),
    ("none", "nnnnnnnn"),
];
/// The same for roles in `t` (only admin manages RBAC in a namespace).
const ROLES: [(&str, &str); 5] = [
    ("view", "nnnnnnnn"),
    ("edit", "nnnnnnnn"),
    ("admin", "yyyyyyyy"),
    ("named", "nnnnnnnn"),
    ("none", "nnnnnnnn"),
];

/// The request for `verb` on `collection` (the object `name` for the verbs that name one): a
/// method, a path and a body.
fn request(verb: &str, collection: &str, name: &str, object: &Value) -> (&'static str, String, Option<Value>) {
    let item = format!("{collection}/{name}");
    match verb {
        "get" => ("GET", item, None),
        "list" => ("GET", collection.to_string(), None),
        "watch" => ("GET", format!("{collection}?watch=true&timeoutSeconds=1"), None),
        "create" => ("POST", collection.to_string(), Some(object.clone())),
        "update" => ("PUT", item, Some(object.clone())),
        "patch" => ("PATCH", item, Some(json!({"metadata": {"labels": {"touched": "yes"}}}))),
        "delete" => ("DELETE", item, None),
        "deletecollection" => ("DELETE", format!("{collection}?labelSelector=doomed%3Dyes"), None),
        other => panic!("{other}"),
    }
}

#[test]
fn every_verb_is_decided_as_the_table_says() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("authorization-matrix");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let tokens: String = USERS
        .iter()
        .map(|u| format!("{u}-token,{u},{u}\n"))
        .chain(["root-token,root,0,system:masters\n".to_string()])
        .collect();
    let token_file = dir.join("tokens.csv");
    std::fs::write(&token_file, tokens).unwrap();
    let (tls, ca) = server_config(&TlsOptions {
        cert_dir: dir.join("certs"),
        ..TlsOptions::default()
    })
    .unwrap();
    let authentication = Authentication {
        tokens: Some(TokenFile::read(&token_file).unwrap()),
        ..Authentication::default()
    };
    let config = kube_apiserver::Config {
        authorization_modes: vec![Mode::Rbac],
        ..kube_apiserver::Config::default()
    };
    let (server, _etcd) = serve_tls(tls, authentication, config, Backend::Memory);
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let client = https_client(&ca);
    let send = |token: &str, method: &str, path: &str, body: Option<Value>| {
        let mut r = client
            .request(method.parse().unwrap(), format!("{server}{path}"))
            .bearer_auth(token);
        if let Some(body) = body {
            let content_type = if method == "PATCH" {
                "application/merge-patch+json"
            } else {
                "application/json"
            };
            r = r.header("content-type", content_type).body(body.to_string());
        }
        rt.block_on(async {
            let response = r.send().await.unwrap();
            let code = response.status().as_u16();
            (code, response.text().await.unwrap())
        })
    };
    let root = |method: &str, path: &str, body: Value| {
        let (code, text) = send("root-token", method, path, Some(body));
        assert!(code < 300, "{path}: {code} {text}");
    };
    root("POST", "/api/v1/namespaces", json!({"metadata": {"name": "t"}}));
    let binding = |user: &str, kind: &str, role: &str| {
        json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "RoleBinding",
            "metadata": {"name": user}, "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": kind, "name": role},
            "subjects": [{"kind": "User", "apiGroup": "rbac.authorization.k8s.io", "name": user}]})
    };
    let bindings = "/apis/rbac.authorization.k8s.io/v1/namespaces/t/rolebindings";
    for user in ["view", "edit", "admin"] {
        root("POST", bindings, binding(user, "ClusterRole", user));
    }
    root(
        "POST",
        "/apis/rbac.authorization.k8s.io/v1/namespaces/t/roles",
        json!({"metadata": {"name": "one-configmap"},
               "rules": [{"apiGroups": [""], "resources": ["configmaps"], "verbs": ["*"], "resourceNames": ["secret-sauce"]}]}),
    );
    // `named` may do anything to the one configmap by name: what names an object (get,
    // update, patch, delete), not what addresses the collection (list, watch, create,
    // deletecollection), as RBAC's resourceNames mean.
    root("POST", bindings, binding("named", "Role", "one-configmap"));

    let configmap = |name: &str| {
        json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name, "labels": {"doomed": "no"}},
               "data": {"recipe": "SECRET-CONTENT"}})
    };
    let role = |name: &str| {
        json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role", "metadata": {"name": name},
               "rules": [{"apiGroups": [""], "resources": ["configmaps"], "verbs": ["get"]}]})
    };
    // Wait for the bindings to be read.
    for _ in 0..100 {
        if send("admin-token", "GET", "/api/v1/namespaces/t/configmaps", None).0 == 200 {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }

    let mut mismatches = Vec::new();
    for (resource, table, collection) in [
        ("configmaps", CONFIGMAPS, "/api/v1/namespaces/t/configmaps"),
        ("roles", ROLES, "/apis/rbac.authorization.k8s.io/v1/namespaces/t/roles"),
    ] {
        let make = |name: &str| {
            if resource == "roles" {
                role(name)
            } else {
                configmap(name)
            }
        };
        for (user, expected) in table {
            // Each user acts on an object of its own (named acts on the one it may touch), which
            // root recreates before every verb.
            let name = if user == "named" {
                "secret-sauce".to_string()
            } else {
                format!("{user}-x")
            };
            for (verb, allowed) in VERBS.iter().zip(expected.chars()) {
                let item = format!("{collection}/{name}");
                let _ = send("root-token", "DELETE", &item, None);
                if *verb != "create" {
                    root("POST", collection, make(&name));
                }
                let (method, path, body) = request(verb, collection, &name, &make(&name));
                let (code, text) = send(&format!("{user}-token"), method, &path, body);
                let was_allowed = code != 403;
                if was_allowed != (allowed == 'y') {
                    mismatches.push(format!("{user} {verb} {resource}: {code} {text}"));
                }
                if code == 403 {
                    let status: Value = serde_json::from_str(&text).unwrap();
                    assert_eq!(status["kind"], "Status", "{text}");
                    assert_eq!(status["reason"], "Forbidden");
                    assert!(
                        !text.contains("SECRET-CONTENT") && !text.contains("\"items\""),
                        "a refused {verb} leaks nothing: {text}"
                    );
                    let expected_message = format!("User \"{user}\" cannot {verb} resource \"{resource}\"");
                    assert!(
                        status["message"].as_str().unwrap().contains(&expected_message),
                        "{text}"
                    );
                }
            }
        }
    }
    assert!(
        mismatches.is_empty(),
        "decisions differ from the table:\n{}",
        mismatches.join("\n")
    );
}
