//! How requests reach the server: the table of fixed paths (health, version, discovery, OpenAPI,
//! the conversion webhook) beside the resource paths the registry serves, under tower's layers.
//! Every request but a watch passes load shedding at `--max-requests-inflight` (429 with
//! Retry-After) and the request timeout (504), as kube-apiserver's max-in-flight and timeout
//! filters exempt long-running requests; every request is logged.

use std::sync::Arc;
use std::time::Instant;

use axum::Router;
use axum::body::to_bytes;
use axum::error_handling::HandleErrorLayer;
use axum::extract::{Path, Request, State};
use axum::http::{HeaderMap, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::{MethodRouter, get, post};
use bytes::Bytes;
use runtime::GroupVersion;
use serde_json::{Value, json};
use tower::util::BoxCloneSyncService;
use tower::{BoxError, ServiceBuilder, ServiceExt};

use crate::handlers::{self, Call};
use crate::query::Params;
use crate::respond::Negotiated;
use crate::server::Server;
use crate::status::ApiError;
use crate::{discovery, request, watch};

type Shared = Arc<Server>;

/// The router: watches go straight to the routes, everything else through the limits.
pub fn router(server: Shared) -> Router {
    let routes = routes(server.clone());
    let limited = ServiceBuilder::new()
        .layer(HandleErrorLayer::new(|e: BoxError| async move { refused(&e) }))
        .load_shed()
        .concurrency_limit(server.config.max_requests_inflight.max(1))
        .timeout(server.config.request_timeout)
        .service(routes.clone());
    let limited = BoxCloneSyncService::new(limited);
    let authorizing = server.clone();
    let router = Router::new().fallback(move |req: Request| {
        let (routes, limited, server) = (routes.clone(), limited.clone(), server.clone());
        async move {
            let started = Instant::now();
            let (method, uri) = (req.method().clone(), req.uri().clone());
            let agent = header(req.headers(), "user-agent").to_string();
            let response = if is_long_running(&req) {
                routes.oneshot(req).await.unwrap_or_else(|never| match never {})
            } else {
                // The body is read before a permit is taken, under the request's time, so that
                // clients sending slowly hold no permit others need, and are cut at the timeout.
                match read_body(&server, req).await {
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
    // Authentication comes before everything but panic recovery, as in kube-apiserver's chain:
    // a request no one is known to have sent takes no permit and reads no body.
    // Audit and impersonation sit between the two, as in kube-apiserver's chain: an event
    // names the authenticated user (and whom they impersonate); the authenticated user must be
    // allowed to act as the one the headers name, and then that one is authorized.
    let router = router
        .layer(axum::middleware::from_fn_with_state(
            authorizing.clone(),
            crate::auth::authorize,
        ))
        .layer(axum::middleware::from_fn_with_state(
            authorizing.clone(),
            crate::auth::impersonation::impersonation,
        ))
        .layer(axum::middleware::from_fn_with_state(
            authorizing.clone(),
            crate::auth::audit::audit,
        ))
        .layer(axum::middleware::from_fn_with_state(
            authorizing,
            crate::auth::authenticate,
        ));
    // A panic in any handler is a 500 for that request, not a connection closed without an answer
    // (kube-apiserver's panic recovery filter).
    router.layer(tower_http::catch_panic::CatchPanicLayer::custom(panicked))
}

/// The answer to a request whose handler panicked.
fn panicked(_: Box<dyn std::any::Any + Send + 'static>) -> Response {
    tracing::error!("a request handler panicked");
    ApiError::internal("This request caused apiserver to panic. Look in the logs for details.").into_response()
}

/// The paths the server answers itself, each with its handler; the rest are resources.
fn routes(server: Shared) -> Router {
    let mut router = Router::new();
    let table: [(&str, MethodRouter<Shared>); 10] = [
        ("/healthz", get(ok)),
        ("/readyz", get(readyz)),
        ("/livez", get(ok)),
        ("/version", get(version)),
        ("/api", get(api_root)),
        ("/apis", get(apis_root)),
        ("/api/{version}", get(core_resources)),
        ("/apis/{group}", get(group)),
        ("/apis/{group}/{version}", get(group_resources)),
        ("/openapi/v3", get(openapi_v3_index)),
    ];
    for (path, handler) in table {
        // Kubernetes serves each of them with a trailing slash too (`/api/v1/`).
        router = router.route(path, handler.clone()).route(&format!("{path}/"), handler);
    }
    router
        .route("/openapi/v2", get(openapi_v2))
        .route("/openapi/v3/{*key}", get(openapi_v3))
        // The CRD conversion webhook (`spec.conversion.webhook.clientConfig` points here),
        // answered from the Scheme's generated conversions.
        .route("/convert", post(convert))
        .route(
            "/apis/authentication.k8s.io/v1/selfsubjectreviews",
            post(crate::auth::reviews::self_subject_review),
        )
        .route(
            "/apis/authentication.k8s.io/v1/tokenreviews",
            post(crate::auth::token_request::token_review),
        )
        .route(
            "/api/v1/namespaces/{namespace}/serviceaccounts/{name}/token",
            post(crate::auth::token_request::token_request),
        )
        .route(
            "/apis/authorization.k8s.io/v1/subjectaccessreviews",
            post(crate::auth::reviews::subject_access_review),
        )
        .route(
            "/apis/authorization.k8s.io/v1/namespaces/{namespace}/localsubjectaccessreviews",
            post(crate::auth::reviews::local_subject_access_review),
        )
        .route(
            "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews",
            post(crate::auth::reviews::self_subject_access_review),
        )
        .route(
            "/apis/authorization.k8s.io/v1/selfsubjectrulesreviews",
            post(crate::auth::reviews::self_subject_rules_review),
        )
        .fallback(resource)
        .with_state(server)
}

/// Watches are long-running: they hold their connection for as long as the client wants.
fn is_long_running(req: &Request) -> bool {
    req.uri().path().contains("/watch/")
        || req.uri().query().is_some_and(|q| {
            q.split('&')
                .any(|p| p.strip_prefix("watch=").and_then(crate::query::parse_bool) == Some(true))
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

pub(crate) fn json_response(value: Value) -> Response {
    (
        StatusCode::OK,
        [("content-type", "application/json")],
        serde_json::to_vec(&value).unwrap_or_default(),
    )
        .into_response()
}

async fn ok() -> Response {
    (StatusCode::OK, "ok").into_response()
}

/// Ready when the storage answers (kube-apiserver's etcd readiness check): a server whose etcd
/// is gone takes no traffic from a load balancer.
async fn readyz(State(server): State<Shared>) -> Response {
    let registry = server.registry();
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

async fn version(State(server): State<Shared>) -> Response {
    let (major, minor) = server.config.version;
    json_response(json!({
        "major": major.to_string(), "minor": minor.to_string(),
        "gitVersion": format!("v{major}.{minor}.0"), "gitCommit": "", "gitTreeState": "clean",
        "buildDate": "", "goVersion": "", "compiler": "rustc", "platform": "linux/amd64",
    }))
}

async fn api_root(State(server): State<Shared>, headers: HeaderMap) -> Response {
    root(&server, &headers, true)
}

async fn apis_root(State(server): State<Shared>, headers: HeaderMap) -> Response {
    root(&server, &headers, false)
}

/// `/api` or `/apis`: aggregated discovery when the client asks for it, else the legacy lists.
fn root(server: &Server, headers: &HeaderMap, core: bool) -> Response {
    let registry = server.registry();
    let scheme = server.versions.scheme();
    if let Some(media) = discovery::aggregated_media_type(header(headers, "accept")) {
        let version = if media.contains("v=v2beta1") {
            "apidiscovery.k8s.io/v2beta1"
        } else {
            "apidiscovery.k8s.io/v2"
        };
        let body =
            serde_json::to_vec(&discovery::aggregated(scheme, &registry.installed, core, version)).unwrap_or_default();
        return (StatusCode::OK, [("content-type", media)], body).into_response();
    }
    json_response(if core {
        discovery::api_versions(&registry.installed)
    } else {
        discovery::api_group_list(scheme, &registry.installed)
    })
}

async fn core_resources(
    State(server): State<Shared>,
    Path(version): Path<String>,
    uri: Uri,
) -> Result<Response, ApiError> {
    resource_list(&server, GroupVersion::new("", version), &uri)
}

async fn group_resources(
    State(server): State<Shared>,
    Path((group, version)): Path<(String, String)>,
    uri: Uri,
) -> Result<Response, ApiError> {
    resource_list(&server, GroupVersion::new(group, version), &uri)
}

fn resource_list(server: &Server, gv: GroupVersion, uri: &Uri) -> Result<Response, ApiError> {
    discovery::api_resource_list(&server.registry().installed, &gv)
        .map(json_response)
        .ok_or_else(|| ApiError::no_route(uri.path()))
}

async fn group(State(server): State<Shared>, Path(group): Path<String>, uri: Uri) -> Result<Response, ApiError> {
    discovery::api_group(server.versions.scheme(), &server.registry().installed, &group)
        .map(json_response)
        .ok_or_else(|| ApiError::no_route(uri.path()))
}

async fn openapi_v3_index(State(server): State<Shared>) -> Response {
    json_response(server.registry().openapi.index())
}

async fn openapi_v2(State(server): State<Shared>, uri: Uri) -> Result<Response, ApiError> {
    let registry = server.registry();
    match registry.openapi.v2() {
        v2 if v2.is_null() => Err(ApiError::no_route(uri.path())),
        v2 => Ok(json_response(v2.clone())),
    }
}

async fn openapi_v3(State(server): State<Shared>, Path(key): Path<String>, uri: Uri) -> Result<Response, ApiError> {
    server
        .registry()
        .openapi
        .get(key.trim_end_matches('/'))
        .cloned()
        .map(json_response)
        .ok_or_else(|| ApiError::no_route(uri.path()))
}

async fn convert(State(server): State<Shared>, body: Bytes) -> Result<Response, ApiError> {
    let review: Value = serde_json::from_slice(&body)
        .map_err(|e| ApiError::bad_request(format!("the ConversionReview is not valid JSON: {e}")))?;
    Ok(json_response(
        runtime::codec::Codec::new(server.versions.scheme()).review(&review),
    ))
}

/// A resource path: the request's resource in the registry, then its verb's handler.
async fn resource(State(server): State<Shared>, req: Request) -> Response {
    resource_request(server, req)
        .await
        .unwrap_or_else(|e| e.into_response())
}

async fn resource_request(server: Shared, req: Request) -> Result<Response, ApiError> {
    let path = req.uri().path().to_string();
    let query = req.uri().query().map(str::to_string);
    let method = req.method().clone();
    let headers = req.headers().clone();
    let user = crate::auth::user_of(req.extensions());
    // The router read the body already (`read_body`); a watch has none worth reading.
    let body = to_bytes(req.into_body(), server.config.max_body_bytes)
        .await
        .map_err(|_| ApiError::too_large(server.config.max_body_bytes))?;
    let params = Params::parse(query.as_deref())?;
    let info = request::parse(&method, &path, params.watch).ok_or_else(|| ApiError::no_route(&path))?;
    let gv = GroupVersion::new(info.group.clone(), info.version.clone());
    let registry = server.registry();
    let resource = registry
        .installed
        .find(&gv, &info.resource, info.subresource.as_deref())
        .cloned()
        .ok_or_else(|| ApiError::no_route(&path))?;
    // A cluster-scoped resource has no namespaced path (Kubernetes: 404).
    if info.namespace.is_some() && !resource.mapping.namespaced() {
        return Err(ApiError::no_route(&path));
    }
    // Writes of a whole collection, and creates at an object's path, are not routes Kubernetes
    // has: 405.
    let on_collection = info.name.is_none();
    let refused = match method {
        Method::PUT | Method::PATCH => on_collection,
        Method::POST => !on_collection && info.subresource.is_none(),
        _ => false,
    };
    if refused {
        return Err(ApiError::method_not_allowed());
    }
    let negotiated = Negotiated {
        pretty: params.pretty,
        ..Negotiated::from_headers(&headers)?
    };
    if matches!(method, Method::POST | Method::PUT) {
        let content_type = header(&headers, "content-type");
        let media = content_type.split(';').next().unwrap_or("").trim();
        if !matches!(
            media,
            "application/json" | "application/yaml" | runtime::protobuf::CONTENT_TYPE | "" | "*/*"
        ) {
            return Err(ApiError::unsupported_media_type(content_type));
        }
    }
    let call = Call {
        server: &server,
        registry: &registry,
        info: &info,
        resource: &resource,
        params: &params,
        headers: &headers,
        negotiated,
        user,
    };
    let result = match info.verb {
        "watch" => return watch::watch(&call, server.clone(), resource.clone()).await,
        "get" => handlers::get(&call).await,
        "list" => handlers::list(&call).await,
        "create" => handlers::create(&call, &body).await,
        "update" => handlers::update(&call, &body).await,
        "patch" => handlers::patch(&call, &body).await,
        "delete" => crate::delete::delete(&call, &body).await,
        "deletecollection" => crate::delete::delete_collection(&call, &body).await,
        other => Err(ApiError::bad_request(format!("unsupported verb {other}"))),
    };
    let mut response = result.unwrap_or_else(|e| e.into_response());
    // A deprecated version warns on every request, as Kubernetes' deprecation filter does.
    let gvk = resource.mapping.group_version_kind();
    if let Some(w) = crate::handlers::edges(&server, &resource).deprecation_warning(&gvk, server.config.version)
        && let Ok(v) = axum::http::HeaderValue::from_str(&format!("299 - {}", runtime::validation::go_quote(&w)))
    {
        response.headers_mut().append("warning", v);
    }
    Ok(response)
}

/// The request with its body read, before anything can fail, so that an error answer never
/// leaves a body unread on a connection the client will reuse; one declared larger than the
/// limit is refused unread, and the connection closed; one not sent within the request timeout
/// is 504, and the connection closed.
async fn read_body(server: &Server, req: Request) -> Result<Request, Response> {
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
    let limit = server.config.max_body_bytes;
    let declared = header(req.headers(), "content-length").parse::<usize>().ok();
    if declared.is_some_and(|l| l > limit) {
        return Err(close(ApiError::too_large(limit).into_response()));
    }
    let (parts, body) = req.into_parts();
    match tokio::time::timeout(server.config.request_timeout, to_bytes(body, limit)).await {
        Ok(Ok(bytes)) => Ok(Request::from_parts(parts, axum::body::Body::from(bytes))),
        Ok(Err(_)) => Err(ApiError::too_large(limit).into_response()),
        Err(_) => Err(close(
            ApiError::timeout("the request did not complete within the allowed duration").into_response(),
        )),
    }
}
