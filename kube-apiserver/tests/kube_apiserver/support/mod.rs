//! The sample API server ([`sample`]) on a loopback port for the tests: every
//! group of `apis` on the embedded store (or the storage given), on its own thread and runtime, so tests stay synchronous and run
//! clients as processes.

#![allow(dead_code)]

pub mod api;
pub mod etcd;
pub mod identity;
pub mod kubectl;
pub mod kubernetes;
pub mod schema_fill;

use std::net::SocketAddr;
use std::sync::Arc;

use kube_apiserver::Config;
use kube_apiserver_storage::memory::MemoryStorage;

/// A running server; it stops when the test process ends.
pub struct Running {
    /// `http://127.0.0.1:<port>`.
    pub url: String,
    /// The address.
    pub addr: SocketAddr,
}

/// Starts a server on the embedded store on a free loopback port.
pub fn start() -> Running {
    start_on(Arc::new(MemoryStorage::default()))
}

/// Starts a server over `storage` on a free loopback port.
pub fn start_on(storage: Arc<dyn kube_apiserver_storage::Storage>) -> Running {
    start_with(storage, Config::default())
}

/// Starts a server over `storage` with `config` on a free loopback port.
pub fn start_with(storage: Arc<dyn kube_apiserver_storage::Storage>, config: Config) -> Running {
    start_with_plugins(storage, config, &[])
}

/// Starts a server over `storage` with `config` and the admission `plugins` on a free loopback
/// port.
pub fn start_with_plugins(
    storage: Arc<dyn kube_apiserver_storage::Storage>,
    config: Config,
    plugins: &[kube_apiserver::Plugin],
) -> Running {
    let config = Config {
        enable_admission_plugins: plugins.to_vec(),
        ..config
    };
    serve_with(move || Arc::new(sample(storage, config)))
}

/// The sample server: every group of this repository's `apis` with kube-apiserver's policy and
/// the generated OpenAPI documents, over `storage`.
pub fn sample(storage: Arc<dyn kube_apiserver_storage::Storage>, config: Config) -> kube_generic_apiserver::Server {
    kube_apiserver::server(apis::scheme().unwrap(), storage, config).with_openapi(&generated::openapi_v3_documents())
}

/// Serves `server` on a free loopback port.
pub fn serve(server: Arc<kube_generic_apiserver::Server>) -> Running {
    serve_with(move || server)
}

/// Serves the server `make` builds (inside the server's runtime) on a free loopback port.
fn serve_with(make: impl FnOnce() -> Arc<kube_generic_apiserver::Server> + Send + 'static) -> Running {
    let addr = on_own_runtime(move |listener| async move {
        make().serve(listener, std::future::pending()).await.unwrap();
    });
    Running {
        url: format!("http://{addr}"),
        addr,
    }
}

/// Runs `serve` with a listener on a free loopback port, on a runtime of its own thread, so
/// that a test's blocking calls do not stall the server: the port's address.
pub fn on_own_runtime<F>(serve: impl FnOnce(tokio::net::TcpListener) -> F + Send + 'static) -> SocketAddr
where
    F: std::future::Future<Output = ()>,
{
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async move {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            tx.send(listener.local_addr().unwrap()).unwrap();
            serve(listener).await;
        });
    });
    rx.recv().unwrap()
}

/// Polls `check` every 50 ms for up to 10 s; fails the test saying `what` never held.
pub async fn eventually<F: std::future::Future<Output = bool>>(what: &str, check: impl Fn() -> F) {
    for _ in 0..200 {
        if check().await {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("never: {what}");
}
