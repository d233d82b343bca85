//! The real kubectl's generators against the sample server, as against a cluster without nodes:
//! `create secret generic|tls|docker-registry`, `create service clusterip|nodeport`, `create
//! job|cronjob|ingress|poddisruptionbudget|priorityclass|quota|role|rolebinding|token`,
//! `expose deployment` and `auth can-i`, each read back with what the server adds.

use crate::support;

use std::sync::Arc;

use base64::Engine;
use serde_json::{Value, json};

use kube_apiserver::Config;
use kube_apiserver::serviceaccount::ServiceAccountTokens;
use support::kubectl::Kubectl;

fn get(k: &Kubectl, what: &[&str]) -> Value {
    let mut args = vec!["get"];
    args.extend_from_slice(what);
    args.extend_from_slice(&["-o", "json"]);
    serde_json::from_str(&k.ok(&args)).unwrap()
}

fn decoded(v: &Value) -> String {
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(v.as_str().unwrap())
        .unwrap();
    String::from_utf8(bytes).unwrap()
}

#[test]
fn kubectl_create_generators_work_as_against_a_cluster() {
    let config = Config {
        service_account_tokens: Some(Arc::new(ServiceAccountTokens::generated(
            "https://kubernetes.default.svc.cluster.local",
        ))),
        ..Config::default()
    };
    let k = Kubectl::with("create", config);

    // Secrets of three types.
    k.ok(&[
        "create",
        "secret",
        "generic",
        "creds",
        "--from-literal=user=admin",
        "--from-literal=pass=s3cret",
    ]);
    let creds = get(&k, &["secret", "creds"]);
    assert_eq!(creds["type"], "Opaque");
    assert_eq!(decoded(&creds["data"]["user"]), "admin");
    let cert = rcgen::generate_simple_self_signed(vec!["example.com".to_string()]).unwrap();
    let crt = k.file("tls.crt", &cert.cert.pem());
    let key = k.file("tls.key", &cert.key_pair.serialize_pem());
    k.ok(&["create", "secret", "tls", "site", "--cert", &crt, "--key", &key]);
    let site = get(&k, &["secret", "site"]);
    assert_eq!(site["type"], "kubernetes.io/tls");
    assert_eq!(decoded(&site["data"]["tls.crt"]), cert.cert.pem());
    k.ok(&[
        "create",
        "secret",
        "docker-registry",
        "pull",
        "--docker-server=registry.example.com",
        "--docker-username=u",
        "--docker-password=p",
    ]);
    let pull = get(&k, &["secret", "pull"]);
    assert_eq!(pull["type"], "kubernetes.io/dockerconfigjson");
    let config: Value = serde_json::from_str(&decoded(&pull["data"][".dockerconfigjson"])).unwrap();
    assert_eq!(config["auths"]["registry.example.com"]["username"], "u");

    // Services: an address from the range, a node port asked for, a headless one.
    k.ok(&["create", "service", "clusterip", "web", "--tcp=80:8080"]);
    let web = get(&k, &["service", "web"]);
    assert!(
        web["spec"]["clusterIP"].as_str().unwrap().starts_with("10.0.0."),
        "{web}"
    );
    assert_eq!(web["spec"]["selector"], json!({"app": "web"}));
    assert_eq!(web["spec"]["ports"][0]["targetPort"], 8080);
    k.ok(&[
        "create",
        "service",
        "nodeport",
        "np",
        "--tcp=80:8080",
        "--node-port=30123",
    ]);
    assert_eq!(get(&k, &["service", "np"])["spec"]["ports"][0]["nodePort"], 30123);
    k.ok(&["create", "service", "clusterip", "headless", "--clusterip=None"]);
    assert_eq!(get(&k, &["service", "headless"])["spec"]["clusterIPs"], json!(["None"]));
    let listed = k.ok(&["get", "services"]);
    assert!(
        listed
            .lines()
            .any(|l| l.starts_with("kubernetes ") && l.contains("10.0.0.1")),
        "{listed}"
    );

    // A Job gets its selector, a CronJob its schedule checked.
    k.ok(&[
        "create",
        "job",
        "pi",
        "--image=perl:5.34",
        "--",
        "perl",
        "-e",
        "print 1",
    ]);
    let pi = get(&k, &["job", "pi"]);
    let uid = pi["metadata"]["uid"].as_str().unwrap();
    assert_eq!(
        pi["spec"]["selector"]["matchLabels"]["batch.kubernetes.io/controller-uid"],
        uid
    );
    k.ok(&["create", "cronjob", "tick", "--image=busybox", "--schedule=*/1 * * * *"]);
    assert_eq!(get(&k, &["cronjob", "tick"])["spec"]["concurrencyPolicy"], "Allow");
    let bad = k.run(&["create", "cronjob", "tock", "--image=busybox", "--schedule=61 * * * *"]);
    let stderr = String::from_utf8_lossy(&bad.stderr);
    assert!(
        !bad.status.success() && stderr.contains("end of range (61) above maximum (59)"),
        "{stderr}"
    );

    // The rest of the generators the issue names.
    k.ok(&["create", "ingress", "site", "--rule=foo.com/bar=svc1:8080"]);
    let ingress = get(&k, &["ingress", "site"]);
    assert_eq!(ingress["spec"]["rules"][0]["host"], "foo.com");
    k.ok(&[
        "create",
        "poddisruptionbudget",
        "pdb",
        "--selector=app=web",
        "--min-available=1",
    ]);
    assert_eq!(get(&k, &["pdb", "pdb"])["spec"]["minAvailable"], 1);
    k.ok(&["create", "priorityclass", "high", "--value=1000", "--description=high"]);
    assert_eq!(get(&k, &["priorityclass", "high"])["value"], 1000);
    k.ok(&["create", "quota", "q", "--hard=cpu=1,pods=2"]);
    assert_eq!(
        get(&k, &["quota", "q"])["spec"]["hard"],
        json!({"cpu": "1", "pods": "2"})
    );
    k.ok(&["create", "role", "reader", "--verb=get,list", "--resource=pods"]);
    k.ok(&["create", "rolebinding", "reads", "--role=reader", "--user=jane"]);
    assert_eq!(get(&k, &["rolebinding", "reads"])["subjects"][0]["name"], "jane");
    k.ok(&["create", "serviceaccount", "robot"]);
    let token = k.ok(&["create", "token", "robot"]);
    assert_eq!(token.trim().split('.').count(), 3, "{token}");

    // expose reads the Deployment's selector and ports.
    k.ok(&["create", "deployment", "app", "--image=nginx", "--port=8080"]);
    k.ok(&["expose", "deployment", "app", "--port=80", "--target-port=8080"]);
    let app = get(&k, &["service", "app"]);
    assert_eq!(app["spec"]["selector"], json!({"app": "app"}));
    assert_eq!(app["spec"]["ports"][0]["port"], 80);
    assert!(
        app["spec"]["clusterIP"].as_str().unwrap().starts_with("10.0.0."),
        "{app}"
    );

    assert_eq!(k.ok(&["auth", "can-i", "create", "pods"]).trim(), "yes");
}
