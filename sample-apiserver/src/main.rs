//! `sample-apiserver`: serves every group of this repository's `apis` crate (k8s.io/sample-apiserver
//! in Rust) on the embedded store, or on etcd with `--etcd-servers`. It serves HTTPS on
//! `--bind-address:--secure-port` with kube-apiserver's TLS and authentication flags, and plain
//! HTTP only on loopback and only when asked (`--listen`, for tests and the quick start); it
//! refuses to start where anyone beyond loopback could reach it unauthenticated.

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use clap::Parser;
use kube_apiserver::serviceaccount::ServiceAccountTokens;
use kube_apiserver::{Authentication, Config, Mode, Plugin};
use kube_apiserver_storage::Storage;
use kube_apiserver_storage::etcd::{EtcdStorage, EtcdTls};
use kube_apiserver_storage::memory::{DEFAULT_HISTORY, MemoryStorage};
use kube_generic_apiserver::audit::{Audit, AuditLog, LogOptions, Policy};
use kube_generic_apiserver::authentication::TokenFile;
use kube_generic_apiserver::server::tls::TlsOptions;

/// An API server for the `apis` crate's groups (core, apps, autoscaling, apiextensions, widgets).
#[derive(Parser, Debug)]
#[command(version, about)]
struct Args {
    /// Plain HTTP on this loopback address, every request served as a `system:masters` user (for
    /// tests and the quick start). Without it the server serves HTTPS only.
    #[arg(long)]
    listen: Option<SocketAddr>,
    /// The address of the HTTPS port.
    #[arg(long, default_value = "0.0.0.0")]
    bind_address: IpAddr,
    /// The HTTPS port: 6443 unless `--listen` is given, when HTTPS is served only if asked.
    #[arg(long)]
    secure_port: Option<u16>,
    /// The serving certificate (then any intermediates), PEM; without it and its key a
    /// self-signed one is written to `--cert-dir`.
    #[arg(long)]
    tls_cert_file: Option<PathBuf>,
    /// The serving certificate's key, PEM.
    #[arg(long)]
    tls_private_key_file: Option<PathBuf>,
    /// Where a self-signed serving certificate is kept.
    #[arg(long, default_value = "apiserver.local.config/certificates")]
    cert_dir: PathBuf,
    /// CAs whose client certificates are users (CN the name, O the groups), PEM.
    #[arg(long)]
    client_ca_file: Option<PathBuf>,
    /// Static bearer tokens, one `token,user,uid,"group1,group2"` line each.
    #[arg(long)]
    token_auth_file: Option<PathBuf>,
    /// Authorizers, in order, comma-separated: AlwaysAllow (the default) or RBAC (roles and
    /// bindings; the bootstrap roles are created at start). `system:masters` may always.
    #[arg(long, value_delimiter = ',', default_value = "AlwaysAllow")]
    authorization_mode: Vec<Mode>,
    /// The issuer of ServiceAccount tokens (the first signs; all are accepted); repeatable.
    #[arg(long, default_value = kube_apiserver::serviceaccount::DEFAULT_ISSUER)]
    service_account_issuer: Vec<String>,
    /// The private key (PKCS#8 PEM, RSA or ECDSA) that signs ServiceAccount tokens; without it
    /// and without `--service-account-key-file`, one is generated into `--cert-dir` as `sa.key`.
    #[arg(long)]
    service_account_signing_key_file: Option<PathBuf>,
    /// PEM keys (public, or private whose public half is used) that ServiceAccount tokens are
    /// verified with; repeatable. The signing key's public half when not given.
    #[arg(long)]
    service_account_key_file: Vec<PathBuf>,
    /// The audiences API tokens are for, comma-separated; the first issuer when not given.
    #[arg(long, value_delimiter = ',')]
    api_audiences: Vec<String>,
    /// The audit policy (audit.k8s.io/v1 Policy, YAML or JSON): which requests are recorded, at
    /// which level. Nothing is audited without it.
    #[arg(long)]
    audit_policy_file: Option<PathBuf>,
    /// Where audit events are written, one JSON line each (`-`: standard output).
    #[arg(long)]
    audit_log_path: Option<PathBuf>,
    /// Megabytes the audit log grows to before it is rotated (0: 100, as kube-apiserver's
    /// log writer takes it).
    #[arg(long, default_value_t = 0)]
    audit_log_maxsize: u64,
    /// Rotated audit logs kept (0: all).
    #[arg(long, default_value_t = 0)]
    audit_log_maxbackup: usize,
    /// Days rotated audit logs are kept (0: whatever their age).
    #[arg(long, default_value_t = 0)]
    audit_log_maxage: u64,
    /// Whether requests without credentials are served as `system:anonymous`.
    #[arg(long, default_value_t = false, action = clap::ArgAction::Set)]
    anonymous_auth: bool,
    /// etcd 3.4 client URLs, comma-separated (`http://127.0.0.1:2379,...`); without it objects live
    /// in the embedded store and are gone when the server stops.
    #[arg(long, value_delimiter = ',')]
    etcd_servers: Vec<String>,
    /// PEM CA certificates that sign the etcd members' serving certificates, for `https://`
    /// `--etcd-servers`.
    #[arg(long)]
    etcd_cafile: Option<PathBuf>,
    /// PEM client certificate the server shows etcd (with `--etcd-keyfile`), for an etcd run with
    /// `--client-cert-auth`.
    #[arg(long, requires = "etcd_keyfile")]
    etcd_certfile: Option<PathBuf>,
    /// PEM private key of `--etcd-certfile`.
    #[arg(long, requires = "etcd_certfile")]
    etcd_keyfile: Option<PathBuf>,
    /// Events the embedded store keeps for watches that start in the past; older ones get 410 Gone.
    #[arg(long, default_value_t = DEFAULT_HISTORY)]
    watch_history: usize,
    /// How long an Event is kept after its last write (a Go duration, as kube-apiserver's flag:
    /// `1h`, `90m`, `1h0m0s`, `30s`).
    #[arg(long, default_value = "1h", value_parser = go_duration)]
    event_ttl: Duration,
    /// Largest request body accepted, in bytes (larger ones get 413).
    #[arg(long, default_value_t = 3 * 1024 * 1024)]
    max_body_bytes: usize,
    /// Seconds a request other than a watch may take before it gets 504.
    #[arg(long, default_value_t = 60)]
    request_timeout: u64,
    /// Requests served at once, watches excepted; the next one gets 429 with Retry-After.
    #[arg(long, default_value_t = 400)]
    max_requests_inflight: usize,
    /// Admission plugins to enable beyond the defaults (NamespaceLifecycle), comma-separated
    /// (AlwaysPullImages).
    #[arg(long, value_delimiter = ',', value_parser = str::parse::<Plugin>)]
    enable_admission_plugins: Vec<Plugin>,
    /// Default admission plugins to turn off, comma-separated (NamespaceLifecycle).
    #[arg(long, value_delimiter = ',', value_parser = str::parse::<Plugin>)]
    disable_admission_plugins: Vec<Plugin>,
    /// Feature gates, comma-separated `Gate=true|false`, which validation's `+k8s:ifEnabled` and
    /// `+k8s:ifDisabled` rules read (kube-apiserver's flag).
    #[arg(long, value_delimiter = ',', value_parser = feature_gate)]
    feature_gates: Vec<(String, bool)>,
    /// Whether the garbage collector runs: owner references delete, orphan or wait for
    /// dependents (kube-controller-manager's flag; `--enable-garbage-collector=false` turns it off).
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set)]
    enable_garbage_collector: bool,
    /// Log filter (`info`, `debug`, `apiserver=debug`), as RUST_LOG reads it.
    #[arg(long, default_value = "info")]
    log: String,
}

/// One `Gate=true|false` of `--feature-gates`.
fn feature_gate(s: &str) -> Result<(String, bool), String> {
    let (gate, value) = s
        .split_once('=')
        .ok_or_else(|| format!("{s:?}: a feature gate is written `Gate=true` or `Gate=false`"))?;
    let on = value
        .parse::<bool>()
        .map_err(|_| format!("{s:?}: the value of a feature gate is true or false"))?;
    Ok((gate.to_string(), on))
}

/// A duration as Go's `time.ParseDuration` reads one: numbers with units h, m, s, ms, us or ns,
/// one after another (`1h30m`, `1.5h`).
fn go_duration(s: &str) -> Result<Duration, String> {
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

/// mimalloc: a request allocates many small values, which glibc's malloc serves with a visible
/// share of the request time (a tenth of a 1k-object list, measured with perf).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[tokio::main]
async fn main() -> std::process::ExitCode {
    match run(Args::parse()).await {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}

async fn run(args: Args) -> Result<(), Box<dyn std::error::Error>> {
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::new(&args.log))
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .init();
    let service_accounts = Arc::new(service_account_tokens(&args)?);
    let secure = secure_serving(&args)?;
    let storage: Arc<dyn Storage> = if args.etcd_servers.is_empty() {
        Arc::new(MemoryStorage::with_history(args.watch_history))
    } else {
        let etcd = EtcdStorage::with_tls(args.etcd_servers.clone(), etcd_tls(&args)?)?;
        // Fail at start, not at the first request, when etcd cannot be reached.
        etcd.revision().await?;
        tracing::info!(endpoints = ?args.etcd_servers, "storing in etcd");
        Arc::new(etcd)
    };
    let config = Config {
        generic: kube_generic_apiserver::Config {
            max_body_bytes: args.max_body_bytes,
            request_timeout: Duration::from_secs(args.request_timeout),
            max_requests_inflight: args.max_requests_inflight,
            feature_gates: args.feature_gates.iter().cloned().collect(),
            audit: audit(&args)?,
            ..kube_generic_apiserver::Config::default()
        },
        garbage_collection: args.enable_garbage_collector,
        authorization_modes: args.authorization_mode.clone(),
        authentication: secure.as_ref().map(|s| s.authentication.clone()).unwrap_or_default(),
        service_account_tokens: Some(service_accounts),
        event_ttl: args.event_ttl,
        enable_admission_plugins: args.enable_admission_plugins.clone(),
        disable_admission_plugins: args.disable_admission_plugins.clone(),
    };
    let server =
        kube_apiserver::server(apis::scheme()?, storage, config).with_openapi(&generated::openapi_v3_documents());
    let server = Arc::new(server);
    // One shutdown signal for every listener.
    let (stop, stopped) = tokio::sync::watch::channel(false);
    tokio::spawn(async move {
        shutdown().await;
        let _ = stop.send(true);
    });
    let until_stopped = move || {
        let mut stopped = stopped.clone();
        async move {
            let _ = stopped.wait_for(|s| *s).await;
        }
    };
    let mut serving = tokio::task::JoinSet::new();
    if let Some(secure) = secure {
        let listener = tokio::net::TcpListener::bind(secure.address).await?;
        // Tests start the server on port 0 and read the chosen address from these lines.
        eprintln!("listening on https://{}", listener.local_addr()?);
        serving.spawn(server.clone().serve_tls(listener, secure.tls, until_stopped()));
    }
    if let Some(address) = args.listen {
        let listener = tokio::net::TcpListener::bind(address).await?;
        eprintln!("listening on http://{}", listener.local_addr()?);
        serving.spawn(server.clone().serve(listener, until_stopped()));
    }
    while let Some(done) = serving.join_next().await {
        done??;
    }
    Ok(())
}

/// An HTTPS listener: its address, TLS and authentication flags.
struct Secure {
    address: SocketAddr,
    tls: Arc<rustls::ServerConfig>,
    authentication: Authentication,
}

/// The HTTPS listener the flags ask for; an error where the flags would expose the server to
/// anyone beyond loopback.
fn secure_serving(args: &Args) -> Result<Option<Secure>, Box<dyn std::error::Error>> {
    if let Some(listen) = args.listen
        && !listen.ip().is_loopback()
    {
        return Err(format!(
            "--listen {listen}: plain HTTP has no authentication and is served on loopback only; \
             beyond loopback use --bind-address and --secure-port with an authenticator \
             (--client-ca-file, --token-auth-file)"
        )
        .into());
    }
    let port = match (args.secure_port, args.listen) {
        (Some(port), _) => port,
        (None, None) => 6443,
        (None, Some(_)) => return Ok(None),
    };
    let tokens = match &args.token_auth_file {
        Some(path) => Some(TokenFile::read(path)?),
        None => None,
    };
    let authentication = Authentication {
        client_certificates: args.client_ca_file.is_some(),
        tokens,
        anonymous: args.anonymous_auth,
        ..Authentication::default()
    };
    let authenticates = authentication.client_certificates || authentication.tokens.is_some();
    // Under AlwaysAllow every authenticated user may do everything, so beyond loopback anonymous
    // requests are refused unless RBAC alone decides.
    let open = args.anonymous_auth && args.authorization_mode.contains(&Mode::AlwaysAllow);
    if !args.bind_address.is_loopback() && (!authenticates || open) {
        return Err(format!(
            "--bind-address {}: beyond loopback every request must be authenticated; give \
             --client-ca-file or --token-auth-file without --anonymous-auth=true (or --bind-address 127.0.0.1)",
            args.bind_address
        )
        .into());
    }
    let options = TlsOptions {
        cert_file: args.tls_cert_file.clone(),
        key_file: args.tls_private_key_file.clone(),
        cert_dir: args.cert_dir.clone(),
        client_ca_file: args.client_ca_file.clone(),
    };
    let (tls, _) = kube_generic_apiserver::server::tls::server_config(&options)?;
    Ok(Some(Secure {
        address: SocketAddr::new(args.bind_address, port),
        tls,
        authentication,
    }))
}

/// The ServiceAccount token issuer of the flags: the signing key given, else verification only
/// when keys are given, else a P-256 key generated into `--cert-dir` on first start (as the
/// serving certificate is), so that `kubectl create token` works out of the box.
fn service_account_tokens(args: &Args) -> Result<ServiceAccountTokens, Box<dyn std::error::Error>> {
    let read = |path: &PathBuf| std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()));
    let signing = match (
        &args.service_account_signing_key_file,
        args.service_account_key_file.is_empty(),
    ) {
        (Some(path), _) => Some(read(path)?),
        (None, false) => None,
        (None, true) => {
            let path = args.cert_dir.join("sa.key");
            if !path.exists() {
                std::fs::create_dir_all(&args.cert_dir)?;
                write_private(&path, &kube_apiserver::serviceaccount::generate_key_pem())?;
            }
            Some(read(&path)?)
        }
    };
    let keys = args
        .service_account_key_file
        .iter()
        .map(read)
        .collect::<Result<Vec<_>, _>>()?;
    Ok(ServiceAccountTokens::new(
        args.service_account_issuer.clone(),
        args.api_audiences.clone(),
        signing.as_deref(),
        &keys,
    )?)
}

/// The auditing of `--audit-policy-file` and `--audit-log-path`: none unless both are given (a
/// policy without a log, or a log without a policy, records nothing, as in kube-apiserver).
fn audit(args: &Args) -> Result<Option<Arc<Audit>>, Box<dyn std::error::Error>> {
    let (Some(policy), Some(path)) = (&args.audit_policy_file, &args.audit_log_path) else {
        if args.audit_policy_file.is_some() != args.audit_log_path.is_some() {
            tracing::warn!("auditing needs both --audit-policy-file and --audit-log-path; nothing is audited");
        }
        return Ok(None);
    };
    let policy = Policy::read(policy).map_err(|e| format!("--audit-policy-file: {e}"))?;
    const MEGABYTE: u64 = 1024 * 1024;
    let log = AuditLog::new(LogOptions {
        path: path.clone(),
        max_size: if args.audit_log_maxsize == 0 {
            100
        } else {
            args.audit_log_maxsize
        } * MEGABYTE,
        max_backups: args.audit_log_maxbackup,
        max_age: (args.audit_log_maxage > 0).then(|| Duration::from_secs(args.audit_log_maxage * 24 * 3600)),
    })
    .map_err(|e| format!("--audit-log-path {}: {e}", path.display()))?;
    Ok(Some(Arc::new(Audit { policy, log })))
}

/// Writes a private key readable by its owner only.
fn write_private(path: &std::path::Path, text: &str) -> std::io::Result<()> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)?;
    file.write_all(text.as_bytes())
}

/// Resolves on Ctrl-C or SIGTERM; the server then finishes the requests in flight.
async fn shutdown() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        if let Ok(mut s) = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            s.recv().await;
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = term => {},
    }
    tracing::info!("shutting down: finishing requests in flight");
}

/// The CA and client certificate of `--etcd-cafile`, `--etcd-certfile` and `--etcd-keyfile`.
fn etcd_tls(args: &Args) -> Result<Option<EtcdTls>, String> {
    let read = |path: &PathBuf| std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()));
    let Some(ca) = &args.etcd_cafile else {
        return Ok(None);
    };
    let identity = match (&args.etcd_certfile, &args.etcd_keyfile) {
        (Some(cert), Some(key)) => Some((read(cert)?, read(key)?)),
        _ => None,
    };
    Ok(Some(EtcdTls {
        ca: read(ca)?,
        identity,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn etcd_tls_files_are_read_and_a_certificate_needs_its_key() {
        let dir = std::env::temp_dir().join(format!("sample-apiserver-etcd-tls-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for (file, text) in [("ca.crt", "CA"), ("client.crt", "CERT"), ("client.key", "KEY")] {
            std::fs::write(dir.join(file), text).unwrap();
        }
        let path = |file: &str| dir.join(file).to_str().unwrap().to_string();
        let parse = |extra: &[String]| {
            let mut argv = vec![
                "sample-apiserver".to_string(),
                "--etcd-servers=https://127.0.0.1:2379".into(),
            ];
            argv.extend_from_slice(extra);
            Args::try_parse_from(argv)
        };
        let args = parse(&[
            format!("--etcd-cafile={}", path("ca.crt")),
            format!("--etcd-certfile={}", path("client.crt")),
            format!("--etcd-keyfile={}", path("client.key")),
        ])
        .unwrap();
        let tls = etcd_tls(&args).unwrap().unwrap();
        assert_eq!(tls.ca, b"CA");
        assert_eq!(tls.identity, Some((b"CERT".to_vec(), b"KEY".to_vec())));
        assert!(etcd_tls(&parse(&[]).unwrap()).unwrap().is_none());
        assert!(
            parse(&[format!("--etcd-certfile={}", path("client.crt"))]).is_err(),
            "a certificate without its key"
        );
        let missing = parse(&[format!("--etcd-cafile={}", path("none.crt"))]).unwrap();
        assert!(etcd_tls(&missing).unwrap_err().contains("none.crt"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn feature_gates_are_read_as_kube_apiserver_writes_them() {
        let args = Args::try_parse_from(["sample-apiserver", "--feature-gates=A=true,B=false"]).unwrap();
        assert_eq!(args.feature_gates, [("A".to_string(), true), ("B".to_string(), false)]);
        assert!(Args::try_parse_from(["sample-apiserver", "--feature-gates=A"]).is_err());
        assert!(Args::try_parse_from(["sample-apiserver", "--feature-gates=A=yes"]).is_err());
    }

    #[test]
    fn a_service_account_key_is_generated_once_into_the_cert_dir() {
        let dir = std::env::temp_dir().join(format!("sample-apiserver-sa-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let dir_arg = dir.to_str().unwrap();
        let args = Args::try_parse_from(["sample-apiserver", "--cert-dir", dir_arg]).unwrap();
        let first = service_account_tokens(&args).unwrap();
        let key = std::fs::read_to_string(dir.join("sa.key")).unwrap();
        let second = service_account_tokens(&args).unwrap();
        assert_eq!(
            std::fs::read_to_string(dir.join("sa.key")).unwrap(),
            key,
            "kept across starts"
        );
        let now = std::time::SystemTime::now();
        let hour = Duration::from_secs(3600);
        let (token, _) = first.issue("t", "a", "u", &[], hour, now).unwrap();
        assert!(matches!(
            second.check(&token, &[], now),
            kube_apiserver::serviceaccount::Checked::Valid(..)
        ));
        let mode =
            std::os::unix::fs::PermissionsExt::mode(&std::fs::metadata(dir.join("sa.key")).unwrap().permissions());
        assert_eq!(mode & 0o777, 0o600);
        // A verify-only server generates nothing and cannot issue.
        let public = dir.join("other.pub");
        std::fs::write(&public, include_str!("../../kube-apiserver/tests/data/sa-rsa.pub")).unwrap();
        let other = dir.join("elsewhere");
        let args = Args::try_parse_from([
            "sample-apiserver",
            "--cert-dir",
            other.to_str().unwrap(),
            "--service-account-key-file",
            public.to_str().unwrap(),
        ])
        .unwrap();
        assert!(!service_account_tokens(&args).unwrap().signs());
        assert!(!other.exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn nothing_is_served_beyond_loopback_without_authentication() {
        let refused = |args: &[&str]| {
            let args = Args::try_parse_from(std::iter::once("sample-apiserver").chain(args.iter().copied())).unwrap();
            secure_serving(&args).err().map(|e| e.to_string())
        };
        let why = refused(&["--listen", "0.0.0.0:8080"]).unwrap();
        assert!(
            why.starts_with("--listen 0.0.0.0:8080: plain HTTP has no authentication"),
            "{why}"
        );
        // The default: HTTPS on 0.0.0.0:6443, which needs an authenticator.
        let why = refused(&[]).unwrap();
        assert!(why.contains("--client-ca-file or --token-auth-file"), "{why}");
        let tokens = std::env::temp_dir().join("sample-apiserver-tokens.csv");
        std::fs::write(&tokens, "t,u,1\n").unwrap();
        let tokens = tokens.to_str().unwrap();
        assert!(refused(&["--token-auth-file", tokens, "--anonymous-auth=true"]).is_some());
        // Plain loopback HTTP alone serves no HTTPS.
        let args = Args::try_parse_from(["sample-apiserver", "--listen", "127.0.0.1:8080"]).unwrap();
        assert!(secure_serving(&args).unwrap().is_none());
    }

    #[test]
    fn event_ttls_read_as_go_durations() {
        let ttl = |s: &str| go_duration(s).map(|d| d.as_millis());
        assert_eq!(ttl("1h"), Ok(3_600_000));
        assert_eq!(ttl("1h0m0s"), Ok(3_600_000));
        assert_eq!(ttl("1h30m"), Ok(5_400_000));
        assert_eq!(ttl("1.5h"), Ok(5_400_000));
        assert_eq!(ttl("2s"), Ok(2_000));
        assert_eq!(ttl("250ms"), Ok(250));
        assert_eq!(ttl("0"), Ok(0));
        for bad in ["", "h", "10", "1d", "1h x"] {
            assert!(go_duration(bad).is_err(), "{bad:?}");
        }
        let args = Args::try_parse_from(["sample-apiserver", "--event-ttl", "90m"]).unwrap();
        assert_eq!(args.event_ttl, Duration::from_secs(5400));
    }
}
