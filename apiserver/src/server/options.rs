//! Reusable command-line flag groups (k8s.io/apiserver's `pkg/server/options`), as clap `Args`
//! that a server's binary flattens into its own, with kube-apiserver's flag names: serving over
//! TLS, the limits and feature gates of a run, audit, and the storage backend (etcd, or the
//! embedded store without `--etcd-servers`). Each turns into what the server is configured with.

use std::net::IpAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use kube_apiserver_storage::Storage;
use kube_apiserver_storage::etcd::{EtcdStorage, EtcdTls};
use kube_apiserver_storage::memory::{DEFAULT_HISTORY, MemoryStorage};

use super::Config;
use super::tls::TlsOptions;
use crate::audit::{Audit, AuditLog, LogOptions, Policy};

/// Why flags cannot be turned into what they configure.
pub type Error = Box<dyn std::error::Error + Send + Sync>;

/// Serving over TLS: where, and with which certificate.
#[derive(clap::Args, Clone, Debug)]
pub struct SecureServingOptions {
    /// The address of the HTTPS port.
    #[arg(long, default_value = "0.0.0.0")]
    pub bind_address: IpAddr,
    /// The HTTPS port (6443 unless the binary serves something else by default).
    #[arg(long)]
    pub secure_port: Option<u16>,
    /// The serving certificate (then any intermediates), PEM; without it and its key a
    /// self-signed one is written to `--cert-dir`.
    #[arg(long)]
    pub tls_cert_file: Option<PathBuf>,
    /// The serving certificate's key, PEM.
    #[arg(long)]
    pub tls_private_key_file: Option<PathBuf>,
    /// Where a self-signed serving certificate is kept.
    #[arg(long, default_value = "apiserver.local.config/certificates")]
    pub cert_dir: PathBuf,
}

impl SecureServingOptions {
    /// The TLS the flags ask for, verifying client certificates against `client_ca_file`.
    pub fn tls(&self, client_ca_file: Option<PathBuf>) -> TlsOptions {
        TlsOptions {
            cert_file: self.tls_cert_file.clone(),
            key_file: self.tls_private_key_file.clone(),
            cert_dir: self.cert_dir.clone(),
            client_ca_file,
        }
    }
}

/// The limits of a run and its feature gates.
#[derive(clap::Args, Clone, Debug)]
pub struct ServerRunOptions {
    /// Largest request body accepted, in bytes (larger ones get 413).
    #[arg(long, default_value_t = 3 * 1024 * 1024)]
    pub max_body_bytes: usize,
    /// Seconds a request other than a watch may take before it gets 504.
    #[arg(long, default_value_t = 60)]
    pub request_timeout: u64,
    /// Requests served at once, watches excepted; the next one gets 429 with Retry-After.
    #[arg(long, default_value_t = 400)]
    pub max_requests_inflight: usize,
    /// Feature gates, comma-separated `Gate=true|false`, which validation's `+k8s:ifEnabled` and
    /// `+k8s:ifDisabled` rules read.
    #[arg(long, value_delimiter = ',', value_parser = feature_gate)]
    pub feature_gates: Vec<(String, bool)>,
}

impl ServerRunOptions {
    /// `config` with these limits and gates.
    pub fn apply(&self, config: Config) -> Config {
        Config {
            max_body_bytes: self.max_body_bytes,
            request_timeout: Duration::from_secs(self.request_timeout),
            max_requests_inflight: self.max_requests_inflight,
            feature_gates: self.feature_gates.iter().cloned().collect(),
            ..config
        }
    }
}

/// One `Gate=true|false` of `--feature-gates`.
pub fn feature_gate(s: &str) -> Result<(String, bool), String> {
    let (gate, value) = s
        .split_once('=')
        .ok_or_else(|| format!("{s:?}: a feature gate is written `Gate=true` or `Gate=false`"))?;
    let on = value
        .parse::<bool>()
        .map_err(|_| format!("{s:?}: the value of a feature gate is true or false"))?;
    Ok((gate.to_string(), on))
}

/// A duration as Go's `time.ParseDuration` reads one: numbers with units h, m, s, ms, us or ns,
/// one after another (`1h30m`, `1.5h`), as kube-apiserver's duration flags take them.
pub fn go_duration(s: &str) -> Result<Duration, String> {
    let bad = || format!("{s:?}: give a duration such as 1h, 30m or 1h0m0s");
    let mut rest = s.trim();
    match rest {
        "0" => return Ok(Duration::ZERO),
        "" => return Err(bad()),
        _ => {}
    }
    let mut total = 0f64;
    while !rest.is_empty() {
        let digits = rest.find(|c: char| !(c.is_ascii_digit() || c == '.')).ok_or_else(bad)?;
        let number: f64 = rest[..digits].parse().map_err(|_| bad())?;
        let unit_len = rest[digits..]
            .find(|c: char| c.is_ascii_digit())
            .unwrap_or(rest.len() - digits);
        let seconds = match &rest[digits..digits + unit_len] {
            "h" => 3600.0,
            "m" => 60.0,
            "s" => 1.0,
            "ms" => 1e-3,
            "us" | "µs" => 1e-6,
            "ns" => 1e-9,
            _ => return Err(bad()),
        };
        total += number * seconds;
        rest = &rest[digits + unit_len..];
    }
    Ok(Duration::from_secs_f64(total))
}

/// Auditing: the policy, and the log events go to.
#[derive(clap::Args, Clone, Debug)]
pub struct AuditOptions {
    /// The audit policy (audit.k8s.io/v1 Policy, YAML or JSON): which requests are recorded, at
    /// which level. Nothing is audited without it.
    #[arg(long)]
    pub audit_policy_file: Option<PathBuf>,
    /// Where audit events are written, one JSON line each (`-`: standard output).
    #[arg(long)]
    pub audit_log_path: Option<PathBuf>,
    /// Megabytes the audit log grows to before it is rotated (0: 100, as kube-apiserver's
    /// log writer takes it).
    #[arg(long, default_value_t = 0)]
    pub audit_log_maxsize: u64,
    /// Rotated audit logs kept (0: all).
    #[arg(long, default_value_t = 0)]
    pub audit_log_maxbackup: usize,
    /// Days rotated audit logs are kept (0: whatever their age).
    #[arg(long, default_value_t = 0)]
    pub audit_log_maxage: u64,
}

impl AuditOptions {
    /// The auditing the flags ask for: none unless both the policy and the log are given (a
    /// policy without a log, or a log without a policy, records nothing, as in kube-apiserver).
    pub fn audit(&self) -> Result<Option<Arc<Audit>>, Error> {
        let (Some(policy), Some(path)) = (&self.audit_policy_file, &self.audit_log_path) else {
            if self.audit_policy_file.is_some() != self.audit_log_path.is_some() {
                tracing::warn!("auditing needs both --audit-policy-file and --audit-log-path; nothing is audited");
            }
            return Ok(None);
        };
        let policy = Policy::read(policy).map_err(|e| format!("--audit-policy-file: {e}"))?;
        const MEGABYTE: u64 = 1024 * 1024;
        let max_size = match self.audit_log_maxsize {
            0 => 100,
            n => n,
        };
        let log = AuditLog::new(LogOptions {
            path: path.clone(),
            max_size: max_size * MEGABYTE,
            max_backups: self.audit_log_maxbackup,
            max_age: (self.audit_log_maxage > 0).then(|| Duration::from_secs(self.audit_log_maxage * 24 * 3600)),
        })
        .map_err(|e| format!("--audit-log-path {}: {e}", path.display()))?;
        Ok(Some(Arc::new(Audit { policy, log })))
    }
}

/// The storage backend: etcd, or the embedded store.
#[derive(clap::Args, Clone, Debug)]
pub struct EtcdOptions {
    /// etcd 3.4 client URLs, comma-separated (`http://127.0.0.1:2379,...`); without it objects live
    /// in the embedded store and are gone when the server stops.
    #[arg(long, value_delimiter = ',')]
    pub etcd_servers: Vec<String>,
    /// PEM CA certificates that sign the etcd members' serving certificates, for `https://`
    /// `--etcd-servers`.
    #[arg(long)]
    pub etcd_cafile: Option<PathBuf>,
    /// PEM client certificate the server shows etcd (with `--etcd-keyfile`), for an etcd run with
    /// `--client-cert-auth`.
    #[arg(long, requires = "etcd_keyfile")]
    pub etcd_certfile: Option<PathBuf>,
    /// PEM private key of `--etcd-certfile`.
    #[arg(long, requires = "etcd_certfile")]
    pub etcd_keyfile: Option<PathBuf>,
    /// Events the embedded store keeps for watches that start in the past; older ones get 410 Gone.
    #[arg(long, default_value_t = DEFAULT_HISTORY)]
    pub watch_history: usize,
}

impl EtcdOptions {
    /// The CA and client certificate of `--etcd-cafile`, `--etcd-certfile` and `--etcd-keyfile`.
    pub fn tls(&self) -> Result<Option<EtcdTls>, String> {
        let read = |path: &PathBuf| std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()));
        let Some(ca) = &self.etcd_cafile else {
            return Ok(None);
        };
        let identity = match (&self.etcd_certfile, &self.etcd_keyfile) {
            (Some(cert), Some(key)) => Some((read(cert)?, read(key)?)),
            _ => None,
        };
        Ok(Some(EtcdTls {
            ca: read(ca)?,
            identity,
        }))
    }

    /// The storage the flags ask for; etcd is reached once first, so that a server fails at start,
    /// not at its first request, when etcd cannot be reached.
    pub async fn storage(&self) -> Result<Arc<dyn Storage>, Error> {
        if self.etcd_servers.is_empty() {
            return Ok(Arc::new(MemoryStorage::with_history(self.watch_history)));
        }
        let etcd = EtcdStorage::with_tls(self.etcd_servers.clone(), self.tls()?)?;
        etcd.revision().await?;
        tracing::info!(endpoints = ?self.etcd_servers, "storing in etcd");
        Ok(Arc::new(etcd))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser, Debug)]
    struct Flags {
        #[command(flatten)]
        run: ServerRunOptions,
        #[command(flatten)]
        etcd: EtcdOptions,
    }

    fn parse(args: &[&str]) -> Result<Flags, clap::Error> {
        Flags::try_parse_from(std::iter::once("server").chain(args.iter().copied()))
    }

    #[test]
    fn feature_gates_are_read_as_kube_apiserver_writes_them() {
        let flags = parse(&["--feature-gates=A=true,B=false"]).unwrap();
        assert_eq!(
            flags.run.feature_gates,
            [("A".to_string(), true), ("B".to_string(), false)]
        );
        assert!(parse(&["--feature-gates=A"]).is_err());
        assert!(parse(&["--feature-gates=A=yes"]).is_err());
        let config = flags.run.apply(Config::default());
        assert_eq!(config.feature_gates.get("A"), Some(&true));
    }

    #[test]
    fn durations_read_as_go_writes_them() {
        let ms = |s: &str| go_duration(s).map(|d| d.as_millis());
        assert_eq!(ms("1h"), Ok(3_600_000));
        assert_eq!(ms("1h0m0s"), Ok(3_600_000));
        assert_eq!(ms("1h30m"), Ok(5_400_000));
        assert_eq!(ms("1.5h"), Ok(5_400_000));
        assert_eq!(ms("2s"), Ok(2_000));
        assert_eq!(ms("250ms"), Ok(250));
        assert_eq!(ms("0"), Ok(0));
        for bad in ["", "h", "10", "1d", "1h x"] {
            assert!(go_duration(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn etcd_tls_files_are_read_and_a_certificate_needs_its_key() {
        let dir = std::env::temp_dir().join(format!("etcd-options-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for (file, text) in [("ca.crt", "CA"), ("client.crt", "CERT"), ("client.key", "KEY")] {
            std::fs::write(dir.join(file), text).unwrap();
        }
        let path = |file: &str| dir.join(file).to_str().unwrap().to_string();
        let with = |extra: &[String]| {
            let mut args = vec!["--etcd-servers=https://127.0.0.1:2379".to_string()];
            args.extend_from_slice(extra);
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            parse(&args)
        };
        let flags = with(&[
            format!("--etcd-cafile={}", path("ca.crt")),
            format!("--etcd-certfile={}", path("client.crt")),
            format!("--etcd-keyfile={}", path("client.key")),
        ])
        .unwrap();
        let tls = flags.etcd.tls().unwrap().unwrap();
        assert_eq!(tls.ca, b"CA");
        assert_eq!(tls.identity, Some((b"CERT".to_vec(), b"KEY".to_vec())));
        assert!(with(&[]).unwrap().etcd.tls().unwrap().is_none());
        assert!(
            with(&[format!("--etcd-certfile={}", path("client.crt"))]).is_err(),
            "a certificate without its key"
        );
        let missing = with(&[format!("--etcd-cafile={}", path("none.crt"))]).unwrap();
        assert!(missing.etcd.tls().unwrap_err().contains("none.crt"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
