//! `sample-apiserver`: serves every group of this repository's `apis` crate (k8s.io/sample-apiserver
//! in Rust) with kube-apiserver's policy and flags (`kube_apiserver::options::Options`), on the
//! embedded store or on etcd with `--etcd-servers`. It serves HTTPS on
//! `--bind-address:--secure-port`, and plain HTTP only on loopback and only when asked
//! (`--listen`, for tests and the quick start); it refuses to start where anyone beyond loopback
//! could reach it unauthenticated.

use std::net::SocketAddr;
use std::sync::Arc;

use clap::Parser;

/// An API server for the `apis` crate's groups (core, apps, autoscaling, apiextensions, rbac,
/// widgets).
#[derive(Parser, Debug)]
#[command(version, about)]
struct Args {
    /// Plain HTTP on this loopback address, every request served as a `system:masters` user (for
    /// tests and the quick start). Without it the server serves HTTPS only.
    #[arg(long)]
    listen: Option<SocketAddr>,
    /// kube-apiserver's flags.
    #[command(flatten)]
    options: kube_apiserver::options::Options,
    /// Log filter (`info`, `debug`, `kube_generic_apiserver=debug`), as RUST_LOG reads it.
    #[arg(long, default_value = "info")]
    log: String,
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

async fn run(args: Args) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::new(&args.log))
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .init();
    let secure = args.options.secure_serving(args.listen)?;
    let storage = args.options.etcd.storage().await?;
    let config = args.options.config()?;
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
    if let Some((address, tls)) = secure {
        let listener = tokio::net::TcpListener::bind(address).await?;
        // Tests start the server on port 0 and read the chosen address from these lines.
        eprintln!("listening on https://{}", listener.local_addr()?);
        serving.spawn(server.clone().serve_tls(listener, tls, until_stopped()));
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
