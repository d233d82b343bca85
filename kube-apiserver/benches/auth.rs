//! What authentication and authorization cost a request, beside the request itself: each
//! authenticator on its own (a static token, a client certificate, a ServiceAccount JWT with
//! its account looked up), RBAC's decision for a user bound through an aggregated role, and a
//! GET of the 3.8 KB Deployment on the embedded store over plain loopback HTTP (no credentials)
//! and over HTTPS with a token and RBAC. Run with `cargo bench -p kube-apiserver --bench auth`.

use std::sync::{Arc, LazyLock};
use std::time::{Duration, SystemTime};

use divan::Bencher;
use kube_apiserver::serviceaccount::ServiceAccountTokens;
use kube_apiserver::{Authentication, Mode};
use kube_apiserver_storage::memory::MemoryStorage;
use kube_generic_apiserver::authentication::{Credentials, PeerCertificates, TokenFile, UserInfo};
use kube_generic_apiserver::authorization::{Attributes, Decision};
use kube_generic_apiserver::request::RequestInfo;
use kube_generic_apiserver::server::tls::{TlsOptions, server_config};
use serde_json::{Value, json};

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    divan::main();
}

const DEPLOYMENT: &str = include_str!("deployment.json");

/// A server with RBAC, one Deployment in `t`, alice bound to `view` there, and the service
/// account `t/builder`; served over plain HTTP and over HTTPS with tokens.
struct Served {
    rt: tokio::runtime::Runtime,
    server: Arc<kube_generic_apiserver::Server>,
    plain: String,
    secure: String,
    plain_client: reqwest::Client,
    secure_client: reqwest::Client,
    /// A ServiceAccount token of `t/builder`.
    jwt: String,
    /// alice's client certificate, as the TLS layer hands it over.
    certificate: PeerCertificates,
}

static SERVED: LazyLock<Served> = LazyLock::new(|| {
    let dir = std::env::temp_dir().join(format!("auth-bench-{}", std::process::id()));
    let tokens = TokenFile::parse("alice-token,alice,1\n").unwrap();
    let issuer = Arc::new(ServiceAccountTokens::generated("https://issuer.bench"));
    let authentication = Authentication {
        tokens: Some(tokens),
        client_certificates: true,
        ..Authentication::default()
    };
    let (tls, ca) = server_config(&TlsOptions {
        cert_dir: dir.join("certs"),
        ..TlsOptions::default()
    })
    .unwrap();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let config = kube_apiserver::Config {
        generic: kube_generic_apiserver::Config {
            max_requests_inflight: 10_000,
            ..Default::default()
        },
        authorization_modes: vec![Mode::Rbac],
        authentication,
        service_account_tokens: Some(issuer.clone()),
        ..kube_apiserver::Config::default()
    };
    let plain_client = reqwest::Client::new();
    let (server, plain, secure) = rt.block_on(async {
        let server = kube_apiserver::server(apis::scheme().unwrap(), Arc::new(MemoryStorage::default()), config)
            .with_openapi(&generated::openapi_v3_documents());
        let server = Arc::new(server);
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let plain = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(server.clone().serve(listener, std::future::pending()));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let secure = format!("https://{}", listener.local_addr().unwrap());
        tokio::spawn(server.clone().serve_tls(listener, tls, std::future::pending()));
        let post = |path: &str, body: Value| {
            let request = plain_client.post(format!("{plain}{path}")).json(&body);
            async move {
                let r = request.send().await.unwrap();
                assert!(r.status().is_success(), "{}", r.text().await.unwrap());
            }
        };
        post("/api/v1/namespaces", json!({"metadata": {"name": "t"}})).await;
        let mut deployment: Value = serde_json::from_str(DEPLOYMENT).unwrap();
        deployment["metadata"]["name"] = json!("web");
        post("/apis/apps/v1/namespaces/t/deployments", deployment).await;
        post(
            "/api/v1/namespaces/t/serviceaccounts",
            json!({"metadata": {"name": "builder"}}),
        )
        .await;
        post(
            "/apis/rbac.authorization.k8s.io/v1/namespaces/t/rolebindings",
            json!({"metadata": {"name": "alice-view"},
                   "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": "view"},
                   "subjects": [{"kind": "User", "apiGroup": "rbac.authorization.k8s.io", "name": "alice"}]}),
        )
        .await;
        (server, plain, secure)
    });
    let secure_client = reqwest::Client::builder()
        .tls_built_in_root_certs(false)
        .add_root_certificate(reqwest::Certificate::from_pem(&std::fs::read(&ca).unwrap()).unwrap())
        .build()
        .unwrap();
    let uid = rt.block_on(async {
        let account: Value = plain_client
            .get(format!("{plain}/api/v1/namespaces/t/serviceaccounts/builder"))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        account["metadata"]["uid"].as_str().unwrap().to_string()
    });
    let hour = Duration::from_secs(3600);
    let (jwt, _) = issuer
        .issue("t", "builder", &uid, &[], hour, SystemTime::now())
        .unwrap();
    let mut params = rcgen::CertificateParams::new(Vec::<String>::new()).unwrap();
    params.distinguished_name.push(rcgen::DnType::CommonName, "alice");
    params.distinguished_name.push(rcgen::DnType::OrganizationName, "dev");
    let key = rcgen::KeyPair::generate().unwrap();
    let cert = params.self_signed(&key).unwrap();
    let certificate = PeerCertificates(Arc::new(vec![cert.der().clone()]));
    // The policy is read through a watch: wait until alice's binding counts.
    let served = Served {
        rt,
        server,
        plain,
        secure,
        plain_client,
        secure_client,
        jwt,
        certificate,
    };
    for _ in 0..100 {
        if decide(&served, &alice()) == Decision::Allow {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(decide(&served, &alice()), Decision::Allow);
    served
});

fn alice() -> UserInfo {
    UserInfo {
        username: "alice".into(),
        groups: vec!["system:authenticated".into()],
        ..UserInfo::default()
    }
}

const PATH: &str = "/apis/apps/v1/namespaces/t/deployments/web";

fn decide(s: &Served, user: &UserInfo) -> Decision {
    let request = RequestInfo::new("GET", PATH, None);
    let authorization = s.server.authorization().unwrap();
    authorization.decide(&Attributes {
        user,
        request: &request,
    })
}

/// Each authenticator on its own, the SA path with its account's lookup in the store.
#[divan::bench(args = ["token", "certificate", "service_account"])]
fn authenticate(b: Bencher, path: &str) {
    let s = &*SERVED;
    let mut headers = http::HeaderMap::new();
    let certificate = match path {
        "token" => {
            headers.insert("authorization", "Bearer alice-token".parse().unwrap());
            None
        }
        "service_account" => {
            headers.insert("authorization", format!("Bearer {}", s.jwt).parse().unwrap());
            None
        }
        _ => Some(&s.certificate),
    };
    let authenticator = s.server.authenticator().unwrap();
    b.bench(|| {
        let credentials = Credentials {
            headers: &headers,
            certificates: certificate,
        };
        s.rt.block_on(authenticator.authenticate(&credentials))
            .unwrap()
            .unwrap()
    });
}

/// RBAC's decision for alice's GET: the request read from its path, then her rules (view,
/// aggregated from the roles labelled for it) searched.
#[divan::bench]
fn authorize_rbac(b: Bencher) {
    let s = &*SERVED;
    let user = alice();
    b.bench(|| {
        let request = RequestInfo::new("GET", PATH, None);
        let authorization = s.server.authorization().unwrap();
        assert_eq!(
            authorization.decide(&Attributes {
                user: &user,
                request: &request
            }),
            Decision::Allow
        );
    });
}

/// The whole GET: plain loopback HTTP (the loopback user, no credentials), and HTTPS with a
/// token and RBAC (one kept-alive TLS connection).
#[divan::bench(args = ["plain", "https_token_rbac"])]
fn get_deployment(b: Bencher, how: &str) {
    let s = &*SERVED;
    let (client, url, token) = match how {
        "plain" => (&s.plain_client, format!("{}{PATH}", s.plain), None),
        _ => (&s.secure_client, format!("{}{PATH}", s.secure), Some("alice-token")),
    };
    b.bench(|| {
        s.rt.block_on(async {
            let mut request = client.get(&url);
            if let Some(token) = token {
                request = request.bearer_auth(token);
            }
            let response = request.send().await.unwrap();
            assert!(response.status().is_success());
            response.bytes().await.unwrap()
        })
    });
}
