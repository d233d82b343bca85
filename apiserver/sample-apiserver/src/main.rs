//! `sample-apiserver`: serves every group of this repository's `apis` crate (k8s.io/sample-apiserver
//! in Rust) on the embedded store, or on etcd with `--etcd-servers`. It serves HTTPS on
//! `--bind-address:--secure-port` with kube-apiserver's TLS and authentication flags, and plain
//! HTTP only on loopback and only when asked (`--listen`, for tests and the quick start); it
//! refuses to start where anyone beyond loopback could reach it unauthenticated.

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use apiserver::Config;
use apiserver::auth::tls::TlsOptions;
use apiserver::auth::{Authentication, TokenFile};
use apiserver::storage::Storage;
use apiserver::storage::etcd::EtcdStorage;
use apiserver::storage::memory::{DEFAULT_HISTORY, MemoryStorage};
use clap::Parser;
use sample_apiserver::admission::Plugin;

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
    authorization_mode: Vec<apiserver::auth::authorize::Mode>,
    /// Whether requests without credentials are served as `system:anonymous`.
    #[arg(long, default_value_t = false, action = clap::ArgAction::Set)]
    anonymous_auth: bool,
    /// etcd 3.4 client URLs, comma-separated (`http://127.0.0.1:2379,...`); without it objects live
    /// in the embedded store and are gone when the server stops.
    #[arg(long, value_delimiter = ',')]
    etcd_servers: Vec<String>,
    /// Events the embedded store keeps for watches that start in the past; older ones get 410 Gone.
    #[arg(long, default_value_t = DEFAULT_HISTORY)]
    watch_history: usize,
    /// Largest request body accepted, in bytes (larger ones get 413).
    #[arg(long, default_value_t = 3 * 1024 * 1024)]
    max_body_bytes: usize,
    /// Seconds a request other than a watch may take before it gets 504.
    #[arg(long, default_value_t = 60)]
    request_timeout: u64,
    /// Requests served at once, watches excepted; the next one gets 429 with Retry-After.
    #[arg(long, default_value_t = 400)]
    max_requests_inflight: usize,
    /// Admission plugins to enable beyond NamespaceLifecycle, comma-separated (AlwaysPullImages).
    #[arg(long, value_delimiter = ',', value_parser = str::parse::<Plugin>)]
    enable_admission_plugins: Vec<Plugin>,
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
    let secure = secure_serving(&args)?;
    let storage: Arc<dyn Storage> = if args.etcd_servers.is_empty() {
        Arc::new(MemoryStorage::with_history(args.watch_history))
    } else {
        let etcd = EtcdStorage::new(args.etcd_servers.clone())?;
        // Fail at start, not at the first request, when etcd cannot be reached.
        etcd.revision().await?;
        tracing::info!(endpoints = ?args.etcd_servers, "storing in etcd");
        Arc::new(etcd)
    };
    let config = Config {
        max_body_bytes: args.max_body_bytes,
        request_timeout: Duration::from_secs(args.request_timeout),
        max_requests_inflight: args.max_requests_inflight,
        feature_gates: args.feature_gates.iter().cloned().collect(),
        garbage_collection: args.enable_garbage_collector,
        authorization_modes: args.authorization_mode.clone(),
        ..Config::default()
    };
    let server = Arc::new(sample_apiserver::server(
        storage,
        config,
        &args.enable_admission_plugins,
    )?);
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
    if let Some((address, tls, authentication)) = secure {
        let listener = tokio::net::TcpListener::bind(address).await?;
        // Tests start the server on port 0 and read the chosen address from these lines.
        eprintln!("listening on https://{}", listener.local_addr()?);
        serving.spawn(server.clone().serve_tls(listener, tls, authentication, until_stopped()));
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

/// An HTTPS listener: its address, TLS and authenticators.
type Secure = (SocketAddr, Arc<rustls::ServerConfig>, Arc<Authentication>);

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
    };
    let authenticates = authentication.client_certificates || authentication.tokens.is_some();
    // Under AlwaysAllow every authenticated user may do everything, so beyond loopback anonymous
    // requests are refused unless RBAC alone decides.
    let open = args.anonymous_auth
        && args
            .authorization_mode
            .contains(&apiserver::auth::authorize::Mode::AlwaysAllow);
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
    let (tls, _) = apiserver::auth::tls::server_config(&options)?;
    Ok(Some((
        SocketAddr::new(args.bind_address, port),
        tls,
        Arc::new(authentication),
    )))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn feature_gates_are_read_as_kube_apiserver_writes_them() {
        let args = Args::try_parse_from(["sample-apiserver", "--feature-gates=A=true,B=false"]).unwrap();
        assert_eq!(args.feature_gates, [("A".to_string(), true), ("B".to_string(), false)]);
        assert!(Args::try_parse_from(["sample-apiserver", "--feature-gates=A"]).is_err());
        assert!(Args::try_parse_from(["sample-apiserver", "--feature-gates=A=yes"]).is_err());
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
}
