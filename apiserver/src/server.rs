//! The server: every resource the Scheme maps, installed over one storage backend, behind one
//! axum router that dispatches resource paths to the handlers, and serves discovery, `/version`
//! and the health checks. Requests are logged, bodies limited, and writes time out.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::to_bytes;
use axum::extract::{Request, State};
use axum::http::{Method, StatusCode};
use axum::response::{IntoResponse, Response};
use runtime::{GroupVersion, RestMapping, Scheme};
use serde_json::{Value, json};

use crate::admission::{Admission, NamespaceLifecycle};
use crate::convert::Versions;
use crate::handlers::{self, Call};
use crate::installer::Installed;
use crate::query::Params;
use crate::registry::namespace::NamespaceStorage;
use crate::registry::store::Store;
use crate::registry::strategy::{GenericStrategy, NamespaceStrategy, Strategy};
use crate::respond::Negotiated;
use crate::rest::{RestStorage, StatusStorage};
use crate::scale::ScaleStorage;
use crate::status::ApiError;
use crate::storage::Storage;
use crate::{discovery, request, watch};

/// What the server is told at start.
#[derive(Clone, Debug)]
pub struct Config {
    /// The largest request body accepted (Kubernetes: 3 MiB).
    pub max_body_bytes: usize,
    /// How long a non-watch request may take.
    pub request_timeout: Duration,
    /// The `/version` this server reports (`major`, `minor`).
    pub version: (u32, u32),
    /// Requests served at once, watches excepted (Kubernetes' `--max-requests-inflight`); the
    /// next one gets 429 with Retry-After, so the server stays responsive under load.
    pub max_requests_inflight: usize,
    /// Admission plugins enabled beyond NamespaceLifecycle, which is always on.
    pub admission_plugins: Vec<crate::admission::Plugin>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            max_body_bytes: 3 * 1024 * 1024,
            request_timeout: Duration::from_secs(60),
            version: (1, 32),
            max_requests_inflight: 400,
            admission_plugins: Vec::new(),
        }
    }
}

/// A running server's state, shared by every request.
pub struct Server {
    /// The served resources.
    pub installed: Installed,
    /// The version edges.
    pub versions: Versions,
    /// The admission chain.
    pub admission: Admission,
    /// The OpenAPI v3 documents.
    pub openapi: crate::openapi::Documents,
    /// Table convertors by (group, resource); others get the default.
    tables: std::collections::BTreeMap<(String, String), Arc<dyn crate::table::TableConvertor>>,
    /// The configuration.
    pub config: Config,
    /// Permits for requests in flight.
    inflight: tokio::sync::Semaphore,
}

impl Server {
    /// Installs every resource `scheme` maps over `storage`: a generic registry store per
    /// group-resource (shared by its versions, keyed in its storage version), and `/status` and
    /// `/scale` where the mapping has them.
    pub fn new(scheme: Scheme, storage: Arc<dyn Storage>, config: Config) -> Self {
        let scheme = Arc::new(scheme);
        let is_namespaces = |m: &RestMapping| m.group.is_empty() && m.resource == "namespaces";
        // One store per group-resource, shared by every version that serves it.
        let mut stores: std::collections::BTreeMap<(String, String), Arc<Store>> = Default::default();
        for m in scheme.rest_mappings() {
            stores
                .entry((m.group.to_string(), m.resource.to_string()))
                .or_insert_with(|| {
                    let generic = GenericStrategy {
                        status_subresource: m.subresource("status").is_some(),
                        label_names: is_namespaces(m),
                        generation: m.generation,
                    };
                    let strategy: Arc<dyn Strategy> = if generic.label_names {
                        Arc::new(NamespaceStrategy(generic))
                    } else {
                        Arc::new(generic)
                    };
                    Arc::new(Store::new(
                        storage.clone(),
                        m.group,
                        m.resource,
                        m.kind,
                        m.namespaced(),
                        strategy,
                    ))
                });
        }
        let contents: Vec<Arc<Store>> = stores.values().filter(|s| s.namespaced).cloned().collect();
        let mut installed = Installed::default();
        let mut namespaces = None;
        for m in scheme.rest_mappings() {
            let store = stores[&(m.group.to_string(), m.resource.to_string())].clone();
            let main: Arc<dyn RestStorage> = if is_namespaces(m) {
                namespaces = Some(store.clone());
                Arc::new(NamespaceStorage {
                    namespaces: store.clone(),
                    contents: contents.clone(),
                })
            } else {
                store.clone()
            };
            installed.install(*m, None, m.group_version_kind(), main);
            if let Some(sub) = m.subresource("status") {
                installed.install(
                    *m,
                    Some("status"),
                    sub.group_version_kind(),
                    Arc::new(StatusStorage(store.clone())),
                );
            }
            if let Some(sub) = m.subresource("scale")
                && let Some(paths) = sub.scale
            {
                let scale = ScaleStorage {
                    store,
                    paths,
                    api_version: sub.group_version_kind().group_version().api_version(),
                };
                installed.install(*m, Some("scale"), sub.group_version_kind(), Arc::new(scale));
            }
        }
        let mut admission = Admission::default();
        if let Some(ns) = namespaces {
            admission = admission.with_validating(Arc::new(NamespaceLifecycle(ns)));
        }
        for plugin in &config.admission_plugins {
            admission = admission.with_mutating(plugin.mutating());
        }
        Server {
            installed,
            versions: Versions::new(scheme),
            admission,
            openapi: Default::default(),
            tables: Default::default(),
            inflight: tokio::sync::Semaphore::new(config.max_requests_inflight.max(1)),
            config,
        }
    }

    /// Prints `resource` of `group` with `convertor`'s columns (kube-apiserver's printers).
    pub fn with_table(mut self, group: &str, resource: &str, convertor: Arc<dyn crate::table::TableConvertor>) -> Self {
        self.tables.insert((group.to_string(), resource.to_string()), convertor);
        self
    }

    /// The table convertor of a resource (a subresource prints as its kind's resource does): the
    /// one registered for it, else its printer columns (a CRD's), else the default.
    pub fn table(&self, resource: &crate::installer::ApiResource) -> Arc<dyn crate::table::TableConvertor> {
        let key = (
            resource.mapping.group.to_string(),
            resource.mapping.resource.to_string(),
        );
        match self.tables.get(&key) {
            Some(t) if resource.subresource.is_none() => t.clone(),
            _ if !resource.mapping.printer_columns.is_empty() && resource.subresource.is_none() => {
                Arc::new(crate::table::PrinterColumns(resource.mapping.printer_columns))
            }
            _ => Arc::new(crate::table::DefaultTable),
        }
    }

    /// Serves the generated OpenAPI v3 documents (`generated::openapi_v3_documents()`), completed
    /// with the paths of the installed routes.
    pub fn with_openapi(mut self, generated: &std::collections::BTreeMap<&'static str, &'static str>) -> Self {
        self.openapi = crate::openapi::Documents::new(generated, &self.installed);
        self
    }

    /// The router serving this server.
    pub fn router(self: Arc<Self>) -> Router {
        Router::new().fallback(dispatch).with_state(self)
    }

    /// Serves on `addr` until `shutdown` resolves, then finishes the requests in flight.
    pub async fn serve(
        self: Arc<Self>,
        listener: tokio::net::TcpListener,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> std::io::Result<()> {
        axum::serve(
            listener,
            self.router().into_make_service_with_connect_info::<SocketAddr>(),
        )
        .with_graceful_shutdown(shutdown)
        .await
    }
}

/// Every request: logged with method, path, status, latency and user agent.
async fn dispatch(State(server): State<Arc<Server>>, req: Request) -> Response {
    let started = Instant::now();
    let (method, uri) = (req.method().clone(), req.uri().clone());
    let agent = req
        .headers()
        .get("user-agent")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    let response = match route(server, req).await {
        Ok(r) => r,
        Err(e) => e.into_response(),
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

pub(crate) fn json_response(value: Value) -> Response {
    (
        StatusCode::OK,
        [("content-type", "application/json")],
        serde_json::to_vec(&value).unwrap_or_default(),
    )
        .into_response()
}

async fn route(server: Arc<Server>, req: Request) -> Result<Response, ApiError> {
    let path = req.uri().path().to_string();
    let query = req.uri().query().map(str::to_string);
    // Watches are long-running and do not count against the limit, as in Kubernetes.
    let long_running = path.contains("/watch/")
        || query.as_deref().is_some_and(|q| {
            q.split('&')
                .any(|p| p.strip_prefix("watch=").and_then(crate::query::parse_bool) == Some(true))
        });
    let _permit = match long_running {
        true => None,
        false => Some(
            server
                .inflight
                .try_acquire()
                .map_err(|_| ApiError::too_many_requests(1))?,
        ),
    };
    let method = req.method().clone();
    let headers = req.headers().clone();
    // The body is read before anything can fail, so that an error answer never leaves a body
    // unread on a connection the client will reuse.
    let limit = server.config.max_body_bytes;
    let body = match method {
        Method::POST | Method::PUT | Method::PATCH | Method::DELETE => {
            let declared = headers
                .get("content-length")
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.parse::<usize>().ok());
            if declared.is_some_and(|l| l > limit) {
                let mut r = ApiError::too_large(limit).into_response();
                r.headers_mut()
                    .insert("connection", axum::http::HeaderValue::from_static("close"));
                return Ok(r);
            }
            to_bytes(req.into_body(), limit)
                .await
                .map_err(|_| ApiError::too_large(limit))?
        }
        _ => bytes::Bytes::new(),
    };
    let scheme = server.versions.scheme();
    match path.trim_end_matches('/') {
        "/healthz" | "/readyz" | "/livez" => return Ok((StatusCode::OK, "ok").into_response()),
        "/version" => {
            let (major, minor) = server.config.version;
            return Ok(json_response(json!({
                "major": major.to_string(), "minor": minor.to_string(),
                "gitVersion": format!("v{major}.{minor}.0"), "gitCommit": "", "gitTreeState": "clean",
                "buildDate": "", "goVersion": "", "compiler": "rustc", "platform": "linux/amd64",
            })));
        }
        "/api" | "/apis" => {
            let accept = headers.get("accept").and_then(|v| v.to_str().ok()).unwrap_or("");
            let core = path.trim_end_matches('/') == "/api";
            if let Some(media) = discovery::aggregated_media_type(accept) {
                let version = if media.contains("v=v2beta1") {
                    "apidiscovery.k8s.io/v2beta1"
                } else {
                    "apidiscovery.k8s.io/v2"
                };
                let body = serde_json::to_vec(&discovery::aggregated(scheme, &server.installed, core, version))
                    .unwrap_or_default();
                return Ok((StatusCode::OK, [("content-type", media)], body).into_response());
            }
            return Ok(json_response(if core {
                discovery::api_versions(&server.installed)
            } else {
                discovery::api_group_list(scheme, &server.installed)
            }));
        }
        "/openapi/v3" => return Ok(json_response(server.openapi.index())),
        "/openapi/v2" if !server.openapi.v2().is_null() => return Ok(json_response(server.openapi.v2().clone())),
        // The CRD conversion webhook (`spec.conversion.webhook.clientConfig` points here),
        // answered from the Scheme's generated conversions.
        "/convert" if method == Method::POST => {
            let review: Value = serde_json::from_slice(&body)
                .map_err(|e| ApiError::bad_request(format!("the ConversionReview is not valid JSON: {e}")))?;
            return Ok(json_response(runtime::codec::Codec::new(scheme).review(&review)));
        }

        _ => {}
    }
    if let Some(key) = path.strip_prefix("/openapi/v3/") {
        return server
            .openapi
            .get(key.trim_end_matches('/'))
            .cloned()
            .map(json_response)
            .ok_or_else(|| ApiError::no_route(&path));
    }
    let parts: Vec<&str> = path.trim_matches('/').split('/').collect();
    match parts.as_slice() {
        ["api", v] => {
            let gv = GroupVersion::new("", *v);
            return discovery::api_resource_list(&server.installed, &gv)
                .map(json_response)
                .ok_or_else(|| ApiError::no_route(&path));
        }
        ["apis", g] => {
            return discovery::api_group(scheme, &server.installed, g)
                .map(json_response)
                .ok_or_else(|| ApiError::no_route(&path));
        }
        ["apis", g, v] => {
            let gv = GroupVersion::new(*g, *v);
            return discovery::api_resource_list(&server.installed, &gv)
                .map(json_response)
                .ok_or_else(|| ApiError::no_route(&path));
        }
        _ => {}
    }
    let params = Params::parse(query.as_deref())?;
    let info = request::parse(&method, &path, params.watch).ok_or_else(|| ApiError::no_route(&path))?;
    let gv = GroupVersion::new(info.group.clone(), info.version.clone());
    let resource = server
        .installed
        .find(&gv, &info.resource, info.subresource.as_deref())
        .cloned()
        .ok_or_else(|| ApiError::no_route(&path))?;
    let negotiated = Negotiated::from_headers(&headers)?;
    if matches!(method, Method::POST | Method::PUT) {
        let content_type = headers
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .unwrap_or("application/json");
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
        info: &info,
        resource: &resource,
        params: &params,
        headers: &headers,
        negotiated,
    };
    if info.verb == "watch" {
        return watch::watch(&call, server.clone(), resource.clone()).await;
    }
    let work = async {
        match info.verb {
            "get" => handlers::get(&call).await,
            "list" => handlers::list(&call).await,
            "create" => handlers::create(&call, &body).await,
            "update" => handlers::update(&call, &body).await,
            "patch" => handlers::patch(&call, &body).await,
            "delete" => handlers::delete(&call, &body).await,
            "deletecollection" => handlers::delete_collection(&call).await,
            other => Err(ApiError::bad_request(format!("unsupported verb {other}"))),
        }
    };
    let result = match tokio::time::timeout(server.config.request_timeout, work).await {
        Ok(r) => r,
        Err(_) => Err(ApiError::timeout(
            "the request did not complete within the allowed duration",
        )),
    };
    let mut response = result.unwrap_or_else(|e| e.into_response());
    // A deprecated version warns on every request, as Kubernetes' deprecation filter does.
    let gvk = resource.mapping.group_version_kind();
    if let Some(w) = scheme.deprecation_warning(&gvk, server.config.version)
        && let Ok(v) = axum::http::HeaderValue::from_str(&format!("299 - \"{w}\""))
    {
        response.headers_mut().append("warning", v);
    }
    Ok(response)
}
