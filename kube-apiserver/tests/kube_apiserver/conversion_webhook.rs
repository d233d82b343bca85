//! `Webhook` conversion of a run-time CRD: a server that does not compile the widgets serves their
//! generated CRD with `conversion.strategy: Webhook`, pointed at a webhook on loopback over TLS
//! (a certificate made for the run, trusted through `caBundle`) that answers with the generated
//! `Codec::review`. A widget created in v1alpha1 is stored in v1 with its paused annotation
//! turned into `spec.paused`, read back in v1alpha1 through the webhook, and listed in either
//! version; a webhook that fails is a 500 in Kubernetes' words.

use crate::support;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use base64::Engine;
use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use kube_apiserver::Config;
use kube_apiserver_storage::memory::MemoryStorage;
use reqwest::StatusCode;
use serde_json::{Value, json};
use support::api::Api;
use support::eventually;

const CRD: &str = include_str!("../../../generated/crds/widgets.example.dev_widgets.yaml");
const WIDGETS: &str = "/apis/widgets.example.dev/v1/namespaces/ns/widgets";
const WIDGETS_V1ALPHA1: &str = "/apis/widgets.example.dev/v1alpha1/namespaces/ns/widgets";

/// Serves `Codec::review` over TLS on a loopback port of its own runtime; the port, the
/// certificate (PEM) and the count of reviews answered. A review asking for `fail/v1` is refused.
fn webhook() -> (u16, String, Arc<AtomicUsize>) {
    let cert = rcgen::generate_simple_self_signed(vec!["127.0.0.1".to_string(), "localhost".to_string()]).unwrap();
    let pem = cert.cert.pem();
    let key = rustls::pki_types::PrivateKeyDer::Pkcs8(cert.key_pair.serialize_der().into());
    let config = rustls::ServerConfig::builder_with_provider(Arc::new(rustls::crypto::ring::default_provider()))
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(vec![cert.cert.der().clone()], key)
        .unwrap();
    let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(config));
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    listener.set_nonblocking(true).unwrap();
    let answered = Arc::new(AtomicUsize::new(0));
    let count = answered.clone();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::from_std(listener).unwrap();
            let scheme = Arc::new(apis::scheme().unwrap());
            loop {
                let (tcp, _) = listener.accept().await.unwrap();
                let (acceptor, scheme, count) = (acceptor.clone(), scheme.clone(), count.clone());
                tokio::spawn(async move {
                    let Ok(tls) = acceptor.accept(tcp).await else { return };
                    let service = hyper::service::service_fn(move |request: hyper::Request<hyper::body::Incoming>| {
                        let (scheme, count) = (scheme.clone(), count.clone());
                        async move {
                            let body = request.into_body().collect().await.unwrap().to_bytes();
                            let review: Value = serde_json::from_slice(&body).unwrap();
                            count.fetch_add(1, Ordering::SeqCst);
                            let answer = if review["request"]["desiredAPIVersion"] == "widgets.example.dev/v1alpha1"
                                && review["request"]["objects"][0]["metadata"]["name"] == "doomed"
                            {
                                json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "ConversionReview",
                                       "response": {"uid": review["request"]["uid"],
                                                    "result": {"status": "Failure", "message": "doomed cannot go back"}}})
                            } else {
                                kube_apimachinery::codec::Codec::new(&scheme).review(&review)
                            };
                            Ok::<_, std::convert::Infallible>(hyper::Response::new(Full::new(Bytes::from(answer.to_string()))))
                        }
                    });
                    let _ = hyper::server::conn::http1::Builder::new()
                        .serve_connection(hyper_util::rt::TokioIo::new(tls), service)
                        .await;
                });
            }
        });
    });
    (port, pem, answered)
}

/// A server of every group but the widgets, which come as a run-time CRD.
async fn server_without_widgets() -> Api {
    let mut scheme = kube_apimachinery::Scheme::new();
    apis::install_kubernetes(&mut scheme).unwrap();
    let server = Arc::new(kube_apiserver::server(
        scheme,
        Arc::new(MemoryStorage::default()),
        Config::default(),
    ));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(server.serve(listener, std::future::pending()));
    Api::on(support::Running {
        url: format!("http://{addr}"),
        addr,
    })
    .await
}

#[tokio::test(flavor = "multi_thread")]
async fn webhook_conversion_through_the_generated_review() {
    let (port, pem, answered) = webhook();
    let api = server_without_widgets().await;
    let mut crd: Value = serde_saphyr::from_str(CRD).unwrap();
    crd["spec"]["conversion"]["webhook"]["clientConfig"] = json!({
        "url": format!("https://127.0.0.1:{port}/convert"),
        "caBundle": base64::engine::general_purpose::STANDARD.encode(&pem),
    });
    let crds = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
    let (code, created) = api.send("POST", crds, "application/json", crd.to_string()).await;
    assert_eq!(code, StatusCode::CREATED, "{created}");
    eventually("widgets are served", || async {
        api.get(WIDGETS).await.0 == StatusCode::OK
    })
    .await;

    // Created in v1alpha1: the webhook turns the paused annotation into v1's spec.paused.
    let widget = json!({"apiVersion": "widgets.example.dev/v1alpha1", "kind": "Widget",
        "metadata": {"name": "shop", "annotations": {"widgets.example.dev/paused": "true"}},
        "spec": {"replicas": 3, "image": "example.dev/widget:2.4.1", "size": "Large",
                 "selector": {"matchLabels": {"app": "shop"}}}});
    let (code, created) = api
        .send("POST", WIDGETS_V1ALPHA1, "application/json", widget.to_string())
        .await;
    assert_eq!(code, StatusCode::CREATED, "{created}");
    assert_eq!(created["apiVersion"], "widgets.example.dev/v1alpha1", "{created}");
    assert_eq!(created["metadata"]["annotations"]["widgets.example.dev/paused"], "true");
    let (_, stored) = api.get(&format!("{WIDGETS}/shop")).await;
    assert_eq!(stored["apiVersion"], "widgets.example.dev/v1");
    assert_eq!(stored["spec"]["paused"], true, "{stored}");
    assert!(answered.load(Ordering::SeqCst) >= 2, "the webhook converted both ways");

    // Lists in either version; a list is converted in one review.
    let second = widget.to_string().replace("\"shop\"", "\"shop-2\"");
    api.send("POST", WIDGETS_V1ALPHA1, "application/json", second).await;
    let before = answered.load(Ordering::SeqCst);
    let (code, list) = api.get(WIDGETS_V1ALPHA1).await;
    assert_eq!(answered.load(Ordering::SeqCst), before + 1, "one review for the list");
    assert_eq!(list["items"].as_array().unwrap().len(), 2);
    assert_eq!(code, StatusCode::OK, "{list}");
    assert_eq!(list["apiVersion"], "widgets.example.dev/v1alpha1");
    assert_eq!(
        list["items"][0]["metadata"]["annotations"]["widgets.example.dev/paused"],
        "true"
    );

    // A webhook that refuses: 500 without a reason, in Kubernetes' words.
    let mut doomed = stored.clone();
    doomed["metadata"] = json!({"name": "doomed"});
    let (code, _) = api.send("POST", WIDGETS, "application/json", doomed.to_string()).await;
    assert_eq!(code, StatusCode::CREATED);
    let (code, refused) = api.get(&format!("{WIDGETS_V1ALPHA1}/doomed")).await;
    assert_eq!(code, StatusCode::INTERNAL_SERVER_ERROR, "{refused}");
    assert!(
        refused.get("reason").is_none(),
        "an unknown reason is omitted: {refused}"
    );
    assert_eq!(
        refused["message"],
        "conversion webhook for widgets.example.dev/v1, Kind=Widget failed: doomed cannot go back"
    );
}
