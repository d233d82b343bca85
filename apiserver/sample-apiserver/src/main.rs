//! `sample-apiserver`: serves every group of this repository's `apis` crate (k8s.io/sample-apiserver
//! in Rust) on the embedded store, or on etcd with `--etcd-servers`. Authentication is out of
//! scope, so it listens on loopback unless told otherwise, and says loudly when it is.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use apiserver::Config;
use apiserver::storage::Storage;
use apiserver::storage::etcd::EtcdStorage;
use apiserver::storage::memory::{DEFAULT_HISTORY, MemoryStorage};
use clap::Parser;
use sample_apiserver::admission::Plugin;

/// An API server for the `apis` crate's groups (core, apps, autoscaling, apiextensions, widgets).
#[derive(Parser, Debug)]
#[command(version, about)]
struct Args {
    /// Address to listen on. Anything but loopback exposes an unauthenticated API.
    #[arg(long, default_value = "127.0.0.1:8080")]
    listen: SocketAddr,
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
    if !args.listen.ip().is_loopback() {
        tracing::warn!(
            listen = %args.listen,
            "LISTENING BEYOND LOOPBACK: this server has no authentication or authorization; anyone who can reach it can read and change every object"
        );
    }
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
        ..Config::default()
    };
    let server = Arc::new(sample_apiserver::server(
        storage,
        config,
        &args.enable_admission_plugins,
    )?);
    let listener = tokio::net::TcpListener::bind(args.listen).await?;
    // Tests start the server on port 0 and read the chosen address from this line.
    eprintln!("listening on http://{}", listener.local_addr()?);
    server.serve(listener, shutdown()).await?;
    Ok(())
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
}
