//! How requests reach the server: the table of fixed paths (health, version, discovery, OpenAPI)
//! and the non-resource handlers the server was given, beside the resource paths the registry
//! serves, under the filters and tower's layers.
//! Every request but a watch passes load shedding at `--max-requests-inflight` (429 with
//! Retry-After) and the request timeout (504), as kube-apiserver's max-in-flight and timeout
//! filters exempt long-running requests; every request is logged.

use std::sync::Arc;
use std::time::Instant;

use axum::Router;
use axum::body::to_bytes;
use axum::error_handling::HandleErrorLayer;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{MethodRouter, get};
use serde_json::json;
use tower::util::BoxCloneSyncService;
use tower::{BoxError, ServiceBuilder, ServiceExt};

use super::Config;
use crate::endpoints::filters::{self, Filters};
use crate::endpoints::respond::json_response;
use crate::endpoints::{Api, discovery, openapi};
use crate::request::parse_bool;
use crate::status::ApiError;

/// The router: watches go straight to the routes, everything else through the limits; the
/// filters around both.
pub fn router(api: Arc<Api>, filters: Arc<Filters>, config: &Config, handlers: &[(String, MethodRouter)]) -> Router {
    let routes = routes(api, handlers);
    let limited = ServiceBuilder::new()
        .layer(HandleErrorLayer::new(|e: BoxError| async move { refused(&e) }))
        .load_shed()
        .concurrency_limit(config.max_requests_inflight.max(1))
        .timeout(config.request_timeout)
        .service(routes.clone());
    let limited = BoxCloneSyncService::new(limited);
    let (max_body_bytes, request_timeout) = (config.max_body_bytes, config.request_timeout);
    let router = Router::new().fallback(move |req: Request| {
        let (routes, limited) = (routes.clone(), limited.clone());
        async move {
            let started = Instant::now();
            let (method, uri) = (req.method().clone(), req.uri().clone());
            let agent = header(req.headers(), "user-agent").to_string();
            let response = if is_long_running(&req) {
                routes.oneshot(req).await.unwrap_or_else(|never| match never {})
            } else {
                // The body is read before a permit is taken, under the request's time, so that
                // clients sending slowly hold no permit others need, and are cut at the timeout.
                match read_body(max_body_bytes, request_timeout, req).await {
                    Ok(req) => limited.oneshot(req).await.unwrap_or_else(|never| match never {}),
                    Err(refused) => refused,
                }
            };
            tracing::info!(
                method = %method,
                path = %uri,
                status = response.status().as_u16(),
                latency_ms = started.elapsed().as_secs_f64() * 1000.0,
                user_agent = %agent,
                "request"
            );
            response
        }
    });
    // The request's facts are read first, then who sent it: authentication comes before
    // everything but panic recovery, as in kube-apiserver's chain, so a request no one is
    // known to have sent takes no permit and reads no body. Audit and impersonation sit between
    // authentication and authorization: an event names the authenticated user (and whom they
    // impersonate); the authenticated user must be allowed to act as the one the headers name,
    // and then that one is authorized.
    let router = router
        .layer(axum::middleware::from_fn_with_state(
            filters.clone(),
            filters::authorization::authorize,
        ))
        .layer(axum::middleware::from_fn_with_state(
            filters.clone(),
            filters::impersonation::impersonation,
        ))
        .layer(axum::middleware::from_fn_with_state(
            filters.clone(),
            filters::audit::audit,
        ))
        .layer(axum::middleware::from_fn_with_state(
            filters,
            filters::authentication::authenticate,
        ))
        .layer(axum::middleware::from_fn(filters::request_info::request_info));
    // A panic in any handler is a 500 for that request, not a connection closed without an answer
    // (kube-apiserver's panic recovery filter).
    router.layer(tower_http::catch_panic::CatchPanicLayer::custom(panicked))
}

/// The answer to a request whose handler panicked.
fn panicked(_: Box<dyn std::any::Any + Send + 'static>) -> Response {
    tracing::error!("a request handler panicked");
    ApiError::internal("This request caused apiserver to panic. Look in the logs for details.").into_response()
}

/// The paths the server answers itself, each with its handler, and the handlers the server
/// was given; the rest are resources.
fn routes(api: Arc<Api>, handlers: &[(String, MethodRouter)]) -> Router {
    let mut router = Router::new();
    let table: [(&str, MethodRouter<Arc<Api>>); 10] = [
        ("/healthz", get(ok)),
        ("/readyz", get(readyz)),
        ("/livez", get(ok)),
        ("/version", get(version)),
        ("/api", get(discovery::api_root)),
        ("/apis", get(discovery::apis_root)),
        ("/api/{version}", get(discovery::core_resources)),
        ("/apis/{group}", get(discovery::group)),
        ("/apis/{group}/{version}", get(discovery::group_resources)),
        ("/openapi/v3", get(openapi::v3_index)),
    ];
    for (path, handler) in table {
        // Kubernetes serves each of them with a trailing slash too (`/api/v1/`).
        router = router.route(path, handler.clone()).route(&format!("{path}/"), handler);
    }
    let mut router = router
        .route("/openapi/v2", get(openapi::v2_document))
        .route("/openapi/v3/{*key}", get(openapi::v3_document))
        .fallback(crate::endpoints::resource)
        .with_state(api);
    for (path, handler) in handlers {
        router = router.route(path, handler.clone());
    }
    router
}

/// Watches are long-running: they hold their connection for as long as the client wants.
fn is_long_running(req: &Request) -> bool {
    req.uri().path().contains("/watch/")
        || req.uri().query().is_some_and(|q| {
            q.split('&')
                .any(|p| p.strip_prefix("watch=").and_then(parse_bool) == Some(true))
        })
}

/// What a layer answers when it refuses a request.
fn refused(e: &BoxError) -> Response {
    if e.is::<tower::load_shed::error::Overloaded>() {
        ApiError::too_many_requests(1).into_response()
    } else if e.is::<tower::timeout::error::Elapsed>() {
        ApiError::timeout("the request did not complete within the allowed duration").into_response()
    } else {
        ApiError::internal(e.to_string()).into_response()
    }
}

fn header<'a>(headers: &'a HeaderMap, name: &str) -> &'a str {
    headers.get(name).and_then(|v| v.to_str().ok()).unwrap_or("")
}

async fn ok() -> Response {
    (StatusCode::OK, "ok").into_response()
}

/// Ready when the storage answers (kube-apiserver's etcd readiness check): a server whose etcd
/// is gone takes no traffic from a load balancer.
async fn readyz(State(api): State<Arc<Api>>) -> Response {
    let registry = api.registrar.registry();
    let Some(resource) = registry
        .installed
        .resources
        .values()
        .flatten()
        .find(|r| r.storage.watcher().is_some())
    else {
        return ok().await;
    };
    let answered = match resource.storage.watcher() {
        Some(w) => tokio::time::timeout(std::time::Duration::from_secs(2), w.revision()).await,
        None => return ok().await,
    };
    match answered {
        Ok(Ok(_)) => ok().await,
        _ => (
            StatusCode::INTERNAL_SERVER_ERROR,
            "[+]ping ok\n[-]etcd failed: reason withheld\nreadyz check failed\n",
        )
            .into_response(),
    }
}

async fn version(State(api): State<Arc<Api>>) -> Response {
    let (major, minor) = api.version;
    json_response(json!({
        "major": major.to_string(), "minor": minor.to_string(),
        "gitVersion": format!("v{major}.{minor}.0"), "gitCommit": "", "gitTreeState": "clean",
        "buildDate": "", "goVersion": "", "compiler": "rustc", "platform": "linux/amd64",
    }))
}

/// The request with its body read, before anything can fail, so that an error answer never
/// leaves a body unread on a connection the client will reuse; one declared larger than the
/// limit is refused unread, and the connection closed; one not sent within the request timeout
/// is 504, and the connection closed.
async fn read_body(limit: usize, timeout: std::time::Duration, req: Request) -> Result<Request, Response> {
    if !matches!(
        *req.method(),
        Method::POST | Method::PUT | Method::PATCH | Method::DELETE
    ) {
        return Ok(req);
    }
    let close = |mut r: Response| {
        r.headers_mut()
            .insert("connection", axum::http::HeaderValue::from_static("close"));
        r
    };
    let declared = header(req.headers(), "content-length").parse::<usize>().ok();
    if declared.is_some_and(|l| l > limit) {
        return Err(close(ApiError::too_large(limit).into_response()));
    }
    let (parts, body) = req.into_parts();
    match tokio::time::timeout(timeout, to_bytes(body, limit)).await {
        Ok(Ok(bytes)) => Ok(Request::from_parts(parts, axum::body::Body::from(bytes))),
        Ok(Err(_)) => Err(ApiError::too_large(limit).into_response()),
        Err(_) => Err(close(
            ApiError::timeout("the request did not complete within the allowed duration").into_response(),
        )),
    }
}
