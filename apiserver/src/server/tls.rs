//! The server's TLS, with kube-apiserver's flags: the serving certificate of `--tls-cert-file`
//! and `--tls-private-key-file`, or without them a self-signed one written to `--cert-dir` on
//! first start (`apiserver.crt`, `apiserver.key`) for the loopback names and addresses, reused
//! after; and with `--client-ca-file`, client certificates verified against that CA when a
//! client presents one (a request without one goes on to the other authenticators).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use rustls::server::WebPkiClientVerifier;

/// What the TLS flags say.
#[derive(Clone, Debug, Default)]
pub struct TlsOptions {
    /// `--tls-cert-file`: the serving certificate, then any intermediates, PEM.
    pub cert_file: Option<PathBuf>,
    /// `--tls-private-key-file`: its key, PEM.
    pub key_file: Option<PathBuf>,
    /// `--cert-dir`: where a self-signed certificate is kept when no files are given.
    pub cert_dir: PathBuf,
    /// `--client-ca-file`: the CAs client certificates must chain to, PEM.
    pub client_ca_file: Option<PathBuf>,
}

/// The names a self-signed serving certificate is valid for: loopback, and the in-cluster
/// names kube-apiserver adds.
const SELF_SIGNED_NAMES: &[&str] = &[
    "localhost",
    "127.0.0.1",
    "::1",
    "kubernetes",
    "kubernetes.default",
    "kubernetes.default.svc",
];

/// The rustls configuration the flags describe, and the serving certificate's files.
pub fn server_config(options: &TlsOptions) -> Result<(Arc<rustls::ServerConfig>, PathBuf), String> {
    let (cert_file, key_file) = match (&options.cert_file, &options.key_file) {
        (Some(cert), Some(key)) => (cert.clone(), key.clone()),
        (None, None) => self_signed(&options.cert_dir)?,
        _ => return Err("--tls-cert-file and --tls-private-key-file are given together".into()),
    };
    let chain: Vec<CertificateDer<'static>> = CertificateDer::pem_file_iter(&cert_file)
        .and_then(|certs| certs.collect())
        .map_err(|e| format!("{}: {e}", cert_file.display()))?;
    if chain.is_empty() {
        return Err(format!("{}: no certificate in the file", cert_file.display()));
    }
    let key = PrivateKeyDer::from_pem_file(&key_file).map_err(|e| format!("{}: {e}", key_file.display()))?;
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let builder = rustls::ServerConfig::builder_with_provider(provider.clone())
        .with_safe_default_protocol_versions()
        .map_err(|e| e.to_string())?;
    let builder = match &options.client_ca_file {
        Some(ca_file) => {
            let mut roots = rustls::RootCertStore::empty();
            let cas: Vec<CertificateDer<'static>> = CertificateDer::pem_file_iter(ca_file)
                .and_then(|certs| certs.collect())
                .map_err(|e| format!("{}: {e}", ca_file.display()))?;
            for ca in cas {
                roots.add(ca).map_err(|e| format!("{}: {e}", ca_file.display()))?;
            }
            if roots.is_empty() {
                return Err(format!("{}: no certificate in the file", ca_file.display()));
            }
            let verifier = WebPkiClientVerifier::builder_with_provider(Arc::new(roots), provider)
                .allow_unauthenticated()
                .build()
                .map_err(|e| format!("{}: {e}", ca_file.display()))?;
            builder.with_client_cert_verifier(verifier)
        }
        None => builder.with_no_client_auth(),
    };
    let mut config = builder
        .with_single_cert(chain, key)
        .map_err(|e| format!("{}: {e}", key_file.display()))?;
    // The server speaks HTTP/1.1 only.
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok((Arc::new(config), cert_file))
}

/// The self-signed certificate in `dir`, made on first use.
fn self_signed(dir: &Path) -> Result<(PathBuf, PathBuf), String> {
    let cert_file = dir.join("apiserver.crt");
    let key_file = dir.join("apiserver.key");
    if cert_file.exists() && key_file.exists() {
        return Ok((cert_file, key_file));
    }
    std::fs::create_dir_all(dir).map_err(|e| format!("--cert-dir {}: {e}", dir.display()))?;
    let names: Vec<String> = SELF_SIGNED_NAMES.iter().map(|n| n.to_string()).collect();
    let mut params = rcgen::CertificateParams::new(names).map_err(|e| e.to_string())?;
    params
        .distinguished_name
        .push(rcgen::DnType::CommonName, format!("localhost@{}", seconds_now()));
    let key = rcgen::KeyPair::generate().map_err(|e| e.to_string())?;
    let cert = params.self_signed(&key).map_err(|e| e.to_string())?;
    write_private(&key_file, key.serialize_pem().as_bytes())?;
    std::fs::write(&cert_file, cert.pem()).map_err(|e| format!("{}: {e}", cert_file.display()))?;
    tracing::info!(cert = %cert_file.display(), "wrote a self-signed serving certificate");
    Ok((cert_file, key_file))
}

/// The seconds since the epoch, which kube-apiserver puts in a self-signed certificate's name.
fn seconds_now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// Writes a key readable by its owner only.
fn write_private(path: &Path, bytes: &[u8]) -> Result<(), String> {
    use std::io::Write;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut file = options.open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    file.write_all(bytes).map_err(|e| format!("{}: {e}", path.display()))
}
