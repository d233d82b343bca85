//! The server's connections, as kube-apiserver's HTTP server keeps them: HTTP/1.1 through hyper,
//! a connection that sends no complete request head within the idle timeout closed (an idle
//! keep-alive connection, a client that opens many and sends nothing, a request head sent a byte
//! at a time), and a shutdown that ends every watch and lets the requests in flight finish
//! within a deadline, as kube-apiserver ends watches when it stops. Over TLS the handshake runs
//! in the connection's own task under the same timeout, and the client certificate chain it
//! verified goes with each request of the connection.

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use tower::ServiceExt;

use crate::authentication::{Authenticator, PeerCertificates};
use crate::endpoints::filters::authentication::ListenerAuthentication;
use crate::server::Server;

/// Serves `server` on `listener` until `shutdown` resolves; then ends the watches, stops
/// accepting, and waits up to the configured shutdown timeout for the requests in flight.
pub async fn serve(
    server: Arc<Server>,
    listener: tokio::net::TcpListener,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    serve_with(server, listener, None, shutdown).await
}

/// [`serve`] over TLS with `tls`, every request authenticated by `authentication` (a plain
/// listener's requests are the loopback user's).
pub async fn serve_tls(
    server: Arc<Server>,
    listener: tokio::net::TcpListener,
    tls: Arc<rustls::ServerConfig>,
    authentication: Arc<dyn Authenticator>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let secure = (tokio_rustls::TlsAcceptor::from(tls), authentication);
    serve_with(server, listener, Some(secure), shutdown).await
}

async fn serve_with(
    server: Arc<Server>,
    listener: tokio::net::TcpListener,
    secure: Option<(tokio_rustls::TlsAcceptor, Arc<dyn Authenticator>)>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let config = server.config.clone();
    // What every client expects to find is there before the first connection is taken.
    server.bootstrap().await;
    let router = server.clone().router();
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .keep_alive(true)
        .header_read_timeout(config.idle_timeout);
    let graceful = GracefulShutdown::new();
    tokio::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                // Out of descriptors or a connection reset before it was accepted: the listener
                // itself is fine, so keep accepting.
                Err(e) => {
                    tracing::warn!(error = %e, "accepting a connection failed");
                    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let _ = stream.set_nodelay(true);
        let router = router.clone();
        let authentication = secure.as_ref().map(|(_, a)| ListenerAuthentication(a.clone()));
        let service = move |certificates: Option<PeerCertificates>| {
            hyper::service::service_fn(move |mut req: hyper::Request<Incoming>| {
                req.extensions_mut().insert(ConnectInfo::<SocketAddr>(peer));
                if let Some(certificates) = &certificates {
                    req.extensions_mut().insert(certificates.clone());
                }
                if let Some(authentication) = &authentication {
                    req.extensions_mut().insert(authentication.clone());
                }
                router.clone().oneshot(req.map(axum::body::Body::new))
            })
        };
        match &secure {
            None => {
                let connection = graceful.watch(http.serve_connection(TokioIo::new(stream), service(None)));
                tokio::spawn(async move {
                    if let Err(e) = connection.await {
                        tracing::debug!(error = %e, peer = %peer, "connection ended");
                    }
                });
            }
            Some((acceptor, _)) => {
                // The handshake runs in the connection's task: a slow client holds up no one.
                let handshake = tokio::time::timeout(config.idle_timeout, acceptor.accept(stream));
                let (http, watcher) = (http.clone(), graceful.watcher());
                tokio::spawn(async move {
                    let stream = match handshake.await {
                        Ok(Ok(stream)) => stream,
                        Ok(Err(e)) => return tracing::debug!(error = %e, peer = %peer, "TLS handshake failed"),
                        Err(_) => return tracing::debug!(peer = %peer, "TLS handshake timed out"),
                    };
                    let certificates = stream.get_ref().1.peer_certificates().map(|chain| {
                        PeerCertificates(Arc::new(chain.iter().map(|c| c.clone().into_owned()).collect()))
                    });
                    let connection = watcher.watch(http.serve_connection(TokioIo::new(stream), service(certificates)));
                    if let Err(e) = connection.await {
                        tracing::debug!(error = %e, peer = %peer, "connection ended");
                    }
                });
            }
        }
    }
    // Watches end first: they would otherwise keep their connections open for up to their
    // timeout, and the process with them.
    server.stop_watches();
    if tokio::time::timeout(config.shutdown_timeout, graceful.shutdown())
        .await
        .is_err()
    {
        tracing::warn!(
            timeout_s = config.shutdown_timeout.as_secs(),
            "requests still in flight at the shutdown deadline were cut"
        );
    }
    Ok(())
}
