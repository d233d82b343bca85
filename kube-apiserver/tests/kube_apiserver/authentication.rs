//! Authentication over HTTPS as kube-apiserver does it, judged by the real kubectl: a
//! self-signed serving certificate written to the cert dir, client certificates of the client
//! CA (CN the user, O the groups), static tokens, `kubectl auth whoami`, and 401s with
//! Kubernetes' Status for missing and wrong credentials; a certificate of another CA is refused
//! at the handshake; on both storage backends.

use crate::support;

use std::path::{Path, PathBuf};

use kube_apiserver::Authentication;
use kube_generic_apiserver::authentication::TokenFile;
use kube_generic_apiserver::server::tls::{TlsOptions, server_config};
use serde_json::Value;
use support::identity::{client_ca, https_client, kubectl, output, serve_tls};
use support::kubectl::Backend;

#[test]
fn kubectl_authenticates_with_certificates_and_tokens_on_the_embedded_store() {
    authenticates(Backend::Memory, "memory");
}

#[test]
fn kubectl_authenticates_with_certificates_and_tokens_on_etcd() {
    authenticates(Backend::Etcd, "etcd");
}

fn authenticates(backend: Backend, name: &str) {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("authentication-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let (client_ca_file, carol_crt, carol_key) = client_ca(&dir, "trusted", "carol", "admins");
    let (_, mallory_crt, mallory_key) = client_ca(&dir, "rogue", "mallory", "system:masters");
    let tokens = dir.join("tokens.csv");
    std::fs::write(&tokens, "s3cret,alice,1001,\"dev,ops\"\n").unwrap();

    let options = TlsOptions {
        cert_dir: dir.join("certs"),
        client_ca_file: Some(client_ca_file),
        ..TlsOptions::default()
    };
    let (tls, serving_cert) = server_config(&options).unwrap();
    assert_eq!(
        serving_cert,
        dir.join("certs/apiserver.crt"),
        "self-signed into the cert dir"
    );
    let authentication = Authentication {
        client_certificates: true,
        tokens: Some(TokenFile::read(&tokens).unwrap()),
        anonymous: false,
        ..Authentication::default()
    };
    let (server, _etcd) = serve_tls(tls, authentication, kube_apiserver::Config::default(), backend);

    // A static token: alice, her groups and system:authenticated.
    let alice = || kubectl(&dir, "alice", &server, &serving_cert, "    token: s3cret");
    let (ok, out, err) = output(alice(), &["auth", "whoami", "-o", "json"]);
    assert!(ok, "{err}");
    let review: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(review["status"]["userInfo"]["username"], "alice");
    assert_eq!(review["status"]["userInfo"]["uid"], "1001");
    assert_eq!(
        review["status"]["userInfo"]["groups"],
        serde_json::json!(["dev", "ops", "system:authenticated"])
    );
    let (ok, out, err) = output(alice(), &["create", "namespace", "team"]);
    assert!(ok && out.contains("namespace/team created"), "{out}{err}");

    // A client certificate of the client CA: CN and O.
    let carol = || {
        let credentials = format!(
            "    client-certificate: {}\n    client-key: {}",
            carol_crt.display(),
            carol_key.display()
        );
        kubectl(&dir, "carol", &server, &serving_cert, &credentials)
    };
    let (ok, out, err) = output(carol(), &["auth", "whoami"]);
    assert!(ok, "{err}");
    assert!(
        out.contains("carol") && out.contains("[admins system:authenticated]"),
        "{out}"
    );
    let (ok, out, err) = output(carol(), &["get", "namespaces", "-o", "name"]);
    assert!(ok && out.contains("namespace/team"), "{out}{err}");

    // A wrong token: 401 with Kubernetes' Status, as kubectl reports it, and nothing written.
    // (A kubeconfig without credentials makes kubectl prompt for a password; the request
    // without credentials is sent below.)
    let wrong = || kubectl(&dir, "wrong", &server, &serving_cert, "    token: guess");
    let (ok, _, err) = output(wrong(), &["create", "namespace", "intruder"]);
    assert!(
        !ok && err.contains("error: You must be logged in to the server (Unauthorized)"),
        "{err}"
    );
    let (ok, _, err) = output(wrong(), &["get", "namespaces"]);
    assert!(!ok && err.contains("Unauthorized"), "{err}");
    let (ok, out, _) = output(alice(), &["get", "namespaces", "-o", "name"]);
    assert!(ok && !out.contains("intruder"), "{out}");

    // A certificate from another CA is refused at the handshake, whatever it claims.
    let mallory = format!(
        "    client-certificate: {}\n    client-key: {}",
        mallory_crt.display(),
        mallory_key.display()
    );
    let (ok, _, err) = output(
        kubectl(&dir, "mallory", &server, &serving_cert, &mallory),
        &["get", "namespaces"],
    );
    // Under TLS 1.3 the client learns of it when it reads: kubectl says EOF, as with Go's server.
    assert!(!ok && (err.contains("EOF") || err.contains("certificate")), "{err}");

    // The Status of a 401, as a client library reads it.
    let raw = reqwest_status(&server, &serving_cert);
    assert_eq!(
        raw,
        serde_json::json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
                           "message": "Unauthorized", "reason": "Unauthorized", "code": 401})
    );
}

/// The body of an unauthenticated GET, trusting the serving certificate.
fn reqwest_status(server: &str, ca: &Path) -> Value {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let client = https_client(ca);
        let response = client.get(format!("{server}/api/v1/namespaces")).send().await.unwrap();
        assert_eq!(response.status(), reqwest::StatusCode::UNAUTHORIZED);
        response.json().await.unwrap()
    })
}

#[test]
fn rbac_decides_what_kubectl_may_do_on_the_embedded_store() {
    rbac_decides(Backend::Memory, "memory");
}

#[test]
fn rbac_decides_what_kubectl_may_do_on_etcd() {
    rbac_decides(Backend::Etcd, "etcd");
}

fn rbac_decides(backend: Backend, name: &str) {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("authorization-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let tokens = dir.join("tokens.csv");
    std::fs::write(&tokens, "alice-token,alice,1001\nroot-token,root,0,system:masters\n").unwrap();
    let options = TlsOptions {
        cert_dir: dir.join("certs"),
        ..TlsOptions::default()
    };
    let (tls, ca) = server_config(&options).unwrap();
    let authentication = Authentication {
        tokens: Some(TokenFile::read(&tokens).unwrap()),
        ..Authentication::default()
    };
    let config = kube_apiserver::Config {
        authorization_modes: vec![kube_apiserver::Mode::Rbac],
        ..kube_apiserver::Config::default()
    };
    let (server, _etcd) = serve_tls(tls, authentication, config, backend);
    let alice = |args: &[&str]| output(kubectl(&dir, "alice", &server, &ca, "    token: alice-token"), args);
    let root = |args: &[&str]| output(kubectl(&dir, "root", &server, &ca, "    token: root-token"), args);

    // system:masters may do everything, through the bootstrap cluster-admin binding too.
    for ns in ["t", "u"] {
        let (ok, _, err) = root(&["create", "namespace", ns]);
        assert!(ok, "{err}");
    }
    let (ok, _, err) = root(&["create", "deployment", "web", "--image=nginx", "-n", "t"]);
    assert!(ok, "{err}");
    let (ok, out, _) = root(&["get", "clusterroles", "-o", "name"]);
    assert!(
        ok && out.contains("clusterrole.rbac.authorization.k8s.io/view"),
        "{out}"
    );

    // alice holds nothing but the discovery and self-review roles every user has.
    let (ok, _, err) = alice(&["get", "deployments", "-n", "t"]);
    assert!(!ok, "{err}");
    assert!(
        err.contains("Error from server (Forbidden): deployments.apps is forbidden: User \"alice\" cannot list resource \"deployments\" in API group \"apps\" in the namespace \"t\""),
        "{err}"
    );
    let (ok, out, err) = alice(&["auth", "can-i", "list", "deployments", "-n", "t"]);
    assert!(!ok && out.trim() == "no", "{out}{err}");

    // A RoleBinding to the aggregated view role, written by kubectl's typed (protobuf) client.
    let (ok, _, err) = root(&[
        "create",
        "rolebinding",
        "alice-view",
        "--clusterrole=view",
        "--user=alice",
        "-n",
        "t",
    ]);
    assert!(ok, "{err}");
    let mut allowed = false;
    for _ in 0..100 {
        let (ok, out, _) = alice(&["auth", "can-i", "list", "deployments", "-n", "t"]);
        if ok && out.trim() == "yes" {
            allowed = true;
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    assert!(allowed, "the binding never took effect");
    let (ok, out, err) = alice(&["get", "deployments", "-n", "t", "-o", "name"]);
    assert!(ok && out.contains("deployment.apps/web"), "{out}{err}");
    let (ok, out, _) = alice(&["auth", "can-i", "delete", "deployments", "-n", "t"]);
    assert!(!ok && out.trim() == "no", "view does not delete: {out}");
    let (ok, _, err) = alice(&["get", "deployments", "-n", "u"]);
    assert!(
        !ok && err.contains("in the namespace \"u\""),
        "another namespace: {err}"
    );
    let (ok, _, err) = alice(&["get", "deployments", "-A"]);
    assert!(!ok && err.contains("at the cluster scope"), "all namespaces: {err}");
    let (ok, _, err) = alice(&["delete", "deployment", "web", "-n", "t"]);
    assert!(!ok && err.contains("cannot delete resource"), "{err}");
    let (ok, out, err) = alice(&["auth", "can-i", "--list", "-n", "t"]);
    assert!(
        ok && out.contains("deployments.apps") && out.contains("selfsubjectaccessreviews"),
        "{out}{err}"
    );
    // The refused delete wrote nothing.
    let (ok, out, _) = root(&["get", "deployments", "-n", "t", "-o", "name"]);
    assert!(ok && out.contains("deployment.apps/web"), "{out}");
}
