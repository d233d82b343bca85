//! ServiceAccount tokens, impersonation and RBAC's escalation check as kube-apiserver has them,
//! judged by the real kubectl on both storage backends: `kubectl create token` issues a token
//! that authenticates as the service account and is authorized by its bindings; TokenReview and
//! SubjectAccessReview answer for others; `--as` needs the `impersonate` verb; no one grants
//! what they do not hold; hostile tokens get 401 and write nothing.

use crate::support;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use kube_apiserver::Authentication;
use kube_apiserver::serviceaccount::ServiceAccountTokens;
use kube_generic_apiserver::authentication::TokenFile;
use kube_generic_apiserver::server::tls::{TlsOptions, server_config};
use serde_json::{Value, json};
use support::identity::{https_client, kubectl, output, serve_tls};
use support::kubectl::Backend;

const ISSUER: &str = "https://kubernetes.default.svc.cluster.local";

/// One request with a bearer token, trusting the serving certificate: status and body.
fn call(server: &str, ca: &Path, token: &str, method: &str, path: &str, body: Option<Value>) -> (u16, Value) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let client = https_client(ca);
        let mut request = client
            .request(method.parse().unwrap(), format!("{server}{path}"))
            .bearer_auth(token);
        if let Some(body) = body {
            request = request.json(&body);
        }
        let response = request.send().await.unwrap();
        let status = response.status().as_u16();
        (status, response.json().await.unwrap_or(Value::Null))
    })
}

/// Retries `check` for up to 5 s: RBAC reads bindings through a watch.
fn eventually(what: &str, check: impl Fn() -> bool) {
    for _ in 0..100 {
        if check() {
            return;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    panic!("{what} never held");
}

fn scenario(backend: Backend, name: &str) {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("service-accounts-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let tokens = dir.join("tokens.csv");
    std::fs::write(
        &tokens,
        "alice-token,alice,1001,dev\nroot-token,root,0,system:masters\n",
    )
    .unwrap();
    let (tls, ca) = server_config(&TlsOptions {
        cert_dir: dir.join("certs"),
        ..TlsOptions::default()
    })
    .unwrap();
    let issuer = Arc::new(ServiceAccountTokens::generated(ISSUER));
    let authentication = Authentication {
        tokens: Some(TokenFile::read(&tokens).unwrap()),
        // Successes are kept a second (kube-apiserver: 10 s), so a deleted account's token
        // ends soon enough for the test to see it.
        token_cache_ttl: Duration::from_secs(1),
        ..Authentication::default()
    };
    let config = kube_apiserver::Config {
        authorization_modes: vec![kube_apiserver::Mode::Rbac],
        service_account_tokens: Some(issuer.clone()),
        ..kube_apiserver::Config::default()
    };
    let (server, _etcd) = serve_tls(tls, authentication, config, backend);
    let as_token = |who: &str, token: &str, args: &[&str]| {
        output(kubectl(&dir, who, &server, &ca, &format!("    token: {token}")), args)
    };
    let root = |args: &[&str]| as_token("root", "root-token", args);
    let alice = |args: &[&str]| as_token("alice", "alice-token", args);
    let ok = |(ok, out, err): (bool, String, String)| {
        assert!(ok, "{err}");
        out
    };

    ok(root(&["create", "namespace", "t"]));
    ok(root(&["create", "serviceaccount", "builder", "-n", "t"]));
    ok(root(&[
        "create",
        "rolebinding",
        "builder-view",
        "--clusterrole=view",
        "--serviceaccount=t:builder",
        "-n",
        "t",
    ]));
    ok(root(&[
        "create",
        "configmap",
        "settings",
        "--from-literal=a=1",
        "-n",
        "t",
    ]));

    // TokenRequest through kubectl's typed (protobuf) client.
    let (refused, _, err) = root(&["create", "token", "builder", "-n", "t", "--duration=5m"]);
    assert!(
        !refused && err.contains("may not specify a duration less than 10 minutes"),
        "{err}"
    );
    let (missing, _, err) = root(&["create", "token", "nobody", "-n", "t"]);
    assert!(
        !missing && err.contains("serviceaccounts \"nobody\" not found"),
        "{err}"
    );
    let token = ok(root(&["create", "token", "builder", "-n", "t"])).trim().to_string();
    let builder = |args: &[&str]| as_token("builder", &token, args);
    let whoami: Value = serde_json::from_str(&ok(builder(&["auth", "whoami", "-o", "json"]))).unwrap();
    let user = &whoami["status"]["userInfo"];
    assert_eq!(user["username"], "system:serviceaccount:t:builder");
    assert_eq!(
        user["groups"],
        json!([
            "system:serviceaccounts",
            "system:serviceaccounts:t",
            "system:authenticated"
        ])
    );
    eventually("the service account's binding", || {
        builder(&["get", "configmaps", "-n", "t"]).0
    });
    let (created, _, err) = builder(&["create", "configmap", "x", "-n", "t"]);
    assert!(!created, "view does not create");
    assert!(
        err.contains(
            "configmaps is forbidden: User \"system:serviceaccount:t:builder\" cannot create resource \"configmaps\" in API group \"\" in the namespace \"t\""
        ),
        "{err}"
    );

    // TokenReview and SubjectAccessReview, asked by root for others.
    let review = |token: &str, audiences: &[&str]| {
        let body = json!({"apiVersion": "authentication.k8s.io/v1", "kind": "TokenReview",
            "spec": {"token": token, "audiences": audiences}});
        call(
            &server,
            &ca,
            "root-token",
            "POST",
            "/apis/authentication.k8s.io/v1/tokenreviews",
            Some(body),
        )
    };
    let (code, answer) = review(&token, &[]);
    assert_eq!(code, 201, "{answer}");
    assert_eq!(answer["status"]["authenticated"], true);
    assert_eq!(answer["status"]["user"]["username"], "system:serviceaccount:t:builder");
    assert_eq!(answer["status"]["audiences"], json!([ISSUER]));
    let (_, answer) = review(&token, &["https://vault.example"]);
    assert_eq!(answer["status"]["authenticated"], Value::Null, "{answer}");
    assert_eq!(
        answer["status"]["error"],
        format!(
            "[invalid bearer token, token audiences [\"{ISSUER}\"] is invalid for the target audiences [\"https://vault.example\"]]"
        )
    );
    let (_, answer) = review("alice-token", &[]);
    assert_eq!(answer["status"]["user"]["username"], "alice");
    let access = |user: &str, verb: &str| {
        let body = json!({"apiVersion": "authorization.k8s.io/v1", "kind": "SubjectAccessReview",
            "spec": {"user": user, "groups": ["system:serviceaccounts"],
                     "resourceAttributes": {"verb": verb, "resource": "configmaps", "namespace": "t"}}});
        let (code, answer) = call(
            &server,
            &ca,
            "root-token",
            "POST",
            "/apis/authorization.k8s.io/v1/subjectaccessreviews",
            Some(body),
        );
        assert_eq!(code, 201, "{answer}");
        answer["status"]["allowed"].as_bool().unwrap()
    };
    assert!(access("system:serviceaccount:t:builder", "list"));
    assert!(!access("system:serviceaccount:t:builder", "delete"));
    let (code, _) = call(
        &server,
        &ca,
        "alice-token",
        "POST",
        "/apis/authorization.k8s.io/v1/subjectaccessreviews",
        Some(json!({"kind": "SubjectAccessReview", "spec": {"user": "root"}})),
    );
    assert_eq!(code, 403, "alice may not ask about others");

    // Impersonation needs the `impersonate` verb on what is impersonated.
    let (acted, _, err) = alice(&["--as=system:serviceaccount:t:builder", "get", "configmaps", "-n", "t"]);
    assert!(!acted);
    assert!(
        err.contains(
            "serviceaccounts \"builder\" is forbidden: User \"alice\" cannot impersonate resource \"serviceaccounts\" in API group \"\" in the namespace \"t\""
        ),
        "{err}"
    );
    let (acted, _, err) = alice(&["--as=root", "--as-group=system:masters", "get", "namespaces"]);
    assert!(!acted && err.contains("cannot impersonate resource \"users\""), "{err}");
    ok(root(&[
        "create",
        "clusterrole",
        "impersonate-builders",
        "--verb=impersonate",
        "--resource=serviceaccounts",
        "--resource-name=builder",
    ]));
    ok(root(&[
        "create",
        "clusterrolebinding",
        "alice-impersonates",
        "--clusterrole=impersonate-builders",
        "--user=alice",
    ]));
    eventually("alice's impersonation", || {
        alice(&["--as=system:serviceaccount:t:builder", "get", "configmaps", "-n", "t"]).0
    });
    let acting: Value = serde_json::from_str(&ok(alice(&[
        "--as=system:serviceaccount:t:builder",
        "auth",
        "whoami",
        "-o",
        "json",
    ])))
    .unwrap();
    assert_eq!(
        acting["status"]["userInfo"]["username"],
        "system:serviceaccount:t:builder"
    );
    let (acted, _, err) = alice(&[
        "--as=system:serviceaccount:t:builder",
        "--as-group=system:masters",
        "get",
        "ns",
    ]);
    assert!(
        !acted && err.contains("cannot impersonate resource \"groups\""),
        "{err}"
    );

    // Escalation: alice may write roles and bindings in t, and holds only configmap reads.
    ok(root(&[
        "create",
        "role",
        "rbac-writer",
        "--verb=create,update,patch,get,list",
        "--resource=roles.rbac.authorization.k8s.io,rolebindings.rbac.authorization.k8s.io,configmaps",
        "-n",
        "t",
    ]));
    ok(root(&[
        "create",
        "rolebinding",
        "alice-rbac",
        "--role=rbac-writer",
        "--user=alice",
        "-n",
        "t",
    ]));
    eventually("alice's role writes", || {
        alice(&[
            "create",
            "role",
            "cm-reader",
            "--verb=get",
            "--resource=configmaps",
            "-n",
            "t",
        ])
        .0
    });
    let (granted, _, err) = alice(&[
        "create",
        "role",
        "pod-reader",
        "--verb=get",
        "--resource=pods",
        "-n",
        "t",
    ]);
    assert!(!granted);
    assert!(
        err.contains(
            "roles.rbac.authorization.k8s.io \"pod-reader\" is forbidden: user \"alice\" (groups=[\"dev\" \"system:authenticated\"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[\"\"], Resources:[\"pods\"], Verbs:[\"get\"]}"
        ),
        "{err}"
    );
    let (bound, _, err) = alice(&[
        "create",
        "rolebinding",
        "alice-admin",
        "--clusterrole=admin",
        "--user=alice",
        "-n",
        "t",
    ]);
    assert!(!bound);
    assert!(
        err.contains("rolebindings.rbac.authorization.k8s.io \"alice-admin\" is forbidden: user \"alice\""),
        "{err}"
    );
    // A patch that widens her own role meets the same check.
    let (patched, _, err) = alice(&[
        "patch",
        "role",
        "cm-reader",
        "-n",
        "t",
        "--type=json",
        "-p",
        r#"[{"op":"add","path":"/rules/-","value":{"apiGroups":[""],"resources":["secrets"],"verbs":["list"]}}]"#,
    ]);
    assert!(!patched && err.contains("not currently held"), "{err}");
    // A role she holds all of she may bind.
    ok(alice(&[
        "create",
        "rolebinding",
        "dev-cm",
        "--role=cm-reader",
        "--group=dev",
        "-n",
        "t",
    ]));
    let names = ok(root(&["get", "roles,rolebindings", "-n", "t", "-o", "name"]));
    assert!(names.contains("role.rbac.authorization.k8s.io/cm-reader"), "{names}");
    assert!(
        !names.contains("pod-reader") && !names.contains("alice-admin"),
        "{names}"
    );
    let rules = ok(root(&[
        "get",
        "role",
        "cm-reader",
        "-n",
        "t",
        "-o",
        "jsonpath={.rules}",
    ]));
    assert!(!rules.contains("secrets"), "the refused patch wrote nothing: {rules}");

    // Hostile tokens: each 401 with Kubernetes' Status, and nothing written.
    let hour = Duration::from_secs(3600);
    let uid = ok(root(&[
        "get",
        "sa",
        "builder",
        "-n",
        "t",
        "-o",
        "jsonpath={.metadata.uid}",
    ]));
    let past = SystemTime::now() - 2 * hour;
    let (expired, _) = issuer.issue("t", "builder", &uid, &[], hour, past).unwrap();
    let forger = ServiceAccountTokens::generated(ISSUER);
    let (forged, _) = forger
        .issue("t", "builder", &uid, &[], hour, SystemTime::now())
        .unwrap();
    let (elsewhere, _) = issuer
        .issue(
            "t",
            "builder",
            &uid,
            &["https://vault.example".into()],
            hour,
            SystemTime::now(),
        )
        .unwrap();
    let write = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "hostile"}});
    for hostile in [expired.as_str(), &forged, &elsewhere, "a.b.c", "not-a-token"] {
        let (code, status) = call(
            &server,
            &ca,
            hostile,
            "POST",
            "/api/v1/namespaces/t/configmaps",
            Some(write.clone()),
        );
        assert_eq!(code, 401, "{hostile}: {status}");
        assert_eq!(status["reason"], "Unauthorized");
        assert_eq!(status["message"], "Unauthorized");
    }
    // Deleting the service account ends its tokens.
    ok(root(&["delete", "serviceaccount", "builder", "-n", "t"]));
    eventually("a deleted account's token refused", || {
        call(&server, &ca, &token, "GET", "/api/v1/namespaces/t/configmaps", None).0 == 401
    });
    let names = ok(root(&["get", "configmaps", "-n", "t", "-o", "name"]));
    assert!(!names.contains("hostile") && !names.contains("configmap/x"), "{names}");
}

#[test]
fn service_accounts_impersonation_and_escalation_on_the_embedded_store() {
    scenario(Backend::Memory, "memory");
}

#[test]
fn service_accounts_impersonation_and_escalation_on_etcd() {
    scenario(Backend::Etcd, "etcd");
}
