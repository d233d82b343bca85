//! Servers over HTTPS with authenticators, on either backend, and kubectl with a kubeconfig per
//! identity (client certificate or bearer token): what the authentication and authorization
//! tests share.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

use kube_apiserver::Authentication;
use kube_apiserver_storage::Storage;
use kube_apiserver_storage::memory::MemoryStorage;

use super::etcd::Cluster;
use super::kubectl::{Backend, KUBECTL};

/// A CA and a client certificate it signed for `user` in `group`, written as PEM files in `dir`
/// under `name`; the CA's file path is returned first.
pub fn client_ca(dir: &Path, name: &str, user: &str, group: &str) -> (PathBuf, PathBuf, PathBuf) {
    let mut ca = rcgen::CertificateParams::new(Vec::<String>::new()).unwrap();
    ca.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
    ca.distinguished_name
        .push(rcgen::DnType::CommonName, format!("{name}-ca"));
    let ca_key = rcgen::KeyPair::generate().unwrap();
    let ca_cert = ca.self_signed(&ca_key).unwrap();
    let mut client = rcgen::CertificateParams::new(Vec::<String>::new()).unwrap();
    client.distinguished_name.push(rcgen::DnType::CommonName, user);
    client.distinguished_name.push(rcgen::DnType::OrganizationName, group);
    client.extended_key_usages = vec![rcgen::ExtendedKeyUsagePurpose::ClientAuth];
    let client_key = rcgen::KeyPair::generate().unwrap();
    let client_cert = client.signed_by(&client_key, &ca_cert, &ca_key).unwrap();
    let write = |file: &str, text: String| {
        let path = dir.join(format!("{name}-{file}"));
        std::fs::write(&path, text).unwrap();
        path
    };
    (
        write("ca.crt", ca_cert.pem()),
        write("client.crt", client_cert.pem()),
        write("client.key", client_key.serialize_pem()),
    )
}

/// Serves a server with `authentication` over TLS on a free loopback port, on `backend`: its
/// URL, and the etcd it stores in (kept running while the caller holds it).
pub fn serve_tls(
    tls: Arc<rustls::ServerConfig>,
    authentication: Authentication,
    config: kube_apiserver::Config,
    backend: Backend,
) -> (String, Option<Cluster>) {
    let (storage, etcd): (Arc<dyn Storage>, _) = match backend {
        Backend::Memory => (Arc::new(MemoryStorage::default()), None),
        Backend::Etcd => {
            // Tests of one binary run at once: each server its own etcd.
            static SERVERS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
            let n = SERVERS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let cluster = super::etcd::start(&format!("identity-{}-{n}", env!("CARGO_CRATE_NAME")), 1);
            let storage = kube_apiserver_storage::etcd::EtcdStorage::new(cluster.endpoints()).unwrap();
            (Arc::new(storage), Some(cluster))
        }
    };
    let addr = super::on_own_runtime(move |listener| async move {
        let config = kube_apiserver::Config {
            authentication,
            ..config
        };
        let server = Arc::new(super::sample(storage, config));
        server.serve_tls(listener, tls, std::future::pending()).await.unwrap();
    });
    (format!("https://{addr}"), etcd)
}

/// kubectl with a kubeconfig that trusts `ca` and sends these credentials.
pub fn kubectl(dir: &Path, name: &str, server: &str, ca: &Path, credentials: &str) -> Command {
    let config = dir.join(format!("{name}.kubeconfig"));
    let text = format!(
        "apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n    server: {server}\n    certificate-authority: {}\n\
         users:\n- name: u\n  user:\n{credentials}\ncontexts:\n- name: x\n  context: {{cluster: c, user: u}}\ncurrent-context: x\n",
        ca.display()
    );
    std::fs::write(&config, text).unwrap();
    let mut c = Command::new(KUBECTL);
    c.env("KUBECONFIG", &config).env("HOME", dir);
    c
}

pub fn output(mut c: Command, args: &[&str]) -> (bool, String, String) {
    let out = c.args(args).output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A client that trusts only `ca` (the server's serving certificate).
pub fn https_client(ca: &Path) -> reqwest::Client {
    let pem = std::fs::read(ca).unwrap();
    reqwest::Client::builder()
        .tls_built_in_root_certs(false)
        .add_root_certificate(reqwest::Certificate::from_pem(&pem).unwrap())
        .build()
        .unwrap()
}
