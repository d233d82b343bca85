//! The API endpoints (k8s.io/apiserver's `pkg/endpoints`): the installer that turns each served
//! resource's capabilities into routes ([`installer`]), the registry of what is served
//! ([`registrar`]), the handlers of every verb ([`handlers`], [`delete`], [`watch`]) with the
//! scope each request gets ([`scope`]), discovery and the OpenAPI documents, content negotiation
//! ([`respond`]), and the filters every request passes ([`filters`]). [`Api`] is what the
//! endpoints of one server share; the server builds it, and no handler sees the server.

pub mod delete;
pub mod discovery;
pub mod filters;
pub mod handlers;
pub mod installer;
pub mod openapi;
pub mod registrar;
pub mod respond;
pub mod scope;
pub mod watch;

use std::sync::Arc;

use axum::body::to_bytes;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, Method};
use axum::response::{IntoResponse, Response};
use kube_apimachinery::GroupVersion;

use crate::admission::Admission;
use crate::authentication::user_of;
use crate::convert::{Edges, Versions};
use crate::query::Params;
use crate::request::RequestInfo;
use crate::status::ApiError;
use crate::table::Tables;
use installer::ApiResource;
use registrar::Registrar;
use respond::Negotiated;
use scope::Scope;

/// What the endpoints of one server share: the registry of served resources, the Scheme's
/// version edges, the admission chain, the table printers and the limits.
pub struct Api {
    /// The served resources, changing while the server runs.
    pub registrar: Arc<Registrar>,
    /// The Scheme's version edges.
    pub versions: Versions,
    /// The admission chain.
    pub admission: Admission,
    /// The table printers.
    pub tables: Tables,
    /// The largest request body accepted.
    pub max_body_bytes: usize,
    /// The `/version` the server reports (`major`, `minor`): deprecation warnings compare with it.
    pub version: (u32, u32),
    /// Set when the server stops: every watch ends. Shared with the server, so that a router
    /// that outlives the server's handle keeps its watches until it is stopped.
    pub stopping: Arc<tokio::sync::watch::Sender<bool>>,
}

impl Api {
    /// The version edges of `resource`: its own (a custom resource's) or the Scheme's.
    pub fn edges<'a>(&'a self, resource: &'a ApiResource) -> &'a dyn Edges {
        match &resource.edges {
            Some(edges) => edges.as_ref(),
            None => &self.versions,
        }
    }

    /// Resolves when the server stops (what a watch waits on beside its events).
    pub fn stopped(&self) -> impl Future<Output = ()> + Send + 'static {
        let mut stopping = self.stopping.subscribe();
        async move {
            let _ = stopping.wait_for(|stopped| *stopped).await;
        }
    }
}

fn header<'a>(headers: &'a HeaderMap, name: &str) -> &'a str {
    headers.get(name).and_then(|v| v.to_str().ok()).unwrap_or("")
}

/// A resource path: the request's resource in the registry, then its verb's handler.
pub async fn resource(State(api): State<Arc<Api>>, req: Request) -> Response {
    resource_request(api, req).await.unwrap_or_else(|e| e.into_response())
}

async fn resource_request(api: Arc<Api>, req: Request) -> Result<Response, ApiError> {
    let path = req.uri().path().to_string();
    let query = req.uri().query().map(str::to_string);
    let method = req.method().clone();
    let headers = req.headers().clone();
    let user = user_of(req.extensions());
    // The request-info filter read the request already; a router called without the filters
    // reads it here.
    let info = match req.extensions().get::<RequestInfo>() {
        Some(info) => info.clone(),
        None => RequestInfo::new(method.as_str(), &path, query.as_deref()),
    };
    // The router read the body already (`read_body`); a watch has none worth reading.
    let body = to_bytes(req.into_body(), api.max_body_bytes)
        .await
        .map_err(|_| ApiError::too_large(api.max_body_bytes))?;
    let params = Params::parse(query.as_deref())?;
    if !info.routable() {
        return Err(ApiError::no_route(&path));
    }
    let gv = GroupVersion::new(info.api_group.clone(), info.api_version.clone());
    let registry = api.registrar.registry();
    let resource = registry
        .installed
        .find(&gv, &info.resource, info.path_subresource())
        .cloned()
        .ok_or_else(|| ApiError::no_route(&path))?;
    // A cluster-scoped resource has no namespaced path (Kubernetes: 404).
    if info.path_namespace().is_some() && !resource.mapping.namespaced() {
        return Err(ApiError::no_route(&path));
    }
    // Writes of a whole collection, and creates at an object's path, are not routes Kubernetes
    // has: 405.
    let on_collection = info.path_name().is_none();
    let refused = match method {
        Method::PUT | Method::PATCH => on_collection,
        Method::POST => !on_collection && info.path_subresource().is_none(),
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
            "application/json" | "application/yaml" | kube_apimachinery::protobuf::CONTENT_TYPE | "" | "*/*"
        ) {
            return Err(ApiError::unsupported_media_type(content_type));
        }
    }
    let scope = Scope {
        api: &api,
        registry: &registry,
        info: &info,
        resource: &resource,
        params: &params,
        headers: &headers,
        negotiated,
        user,
    };
    let result = match info.verb.as_str() {
        "watch" => return watch::watch(&scope, api.clone(), resource.clone()).await,
        "get" => handlers::get(&scope).await,
        "list" => handlers::list(&scope).await,
        "create" => handlers::create(&scope, &body).await,
        "update" => handlers::update(&scope, &body).await,
        "patch" => handlers::patch(&scope, &body).await,
        "delete" => delete::delete(&scope, &body).await,
        "deletecollection" => delete::delete_collection(&scope, &body).await,
        other => Err(ApiError::bad_request(format!("unsupported verb {other}"))),
    };
    let mut response = result.unwrap_or_else(|e| e.into_response());
    // A deprecated version warns on every request, as Kubernetes' deprecation filter does.
    let gvk = resource.mapping.group_version_kind();
    if let Some(w) = api.edges(&resource).deprecation_warning(&gvk, api.version)
        && let Ok(v) =
            axum::http::HeaderValue::from_str(&format!("299 - {}", kube_apimachinery::validation::go_quote(&w)))
    {
        response.headers_mut().append("warning", v);
    }
    Ok(response)
}
