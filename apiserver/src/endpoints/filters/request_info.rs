//! The request-info filter (k8s.io/apiserver's `WithRequestInfo`): what a request asks is read
//! once, from its method, path and query, and kept in its extensions for every filter and
//! handler after it.

use axum::extract::Request;
use axum::middleware::Next;
use axum::response::Response;

use crate::request::RequestInfo;

/// The filter: the request's [`RequestInfo`], unless something before it read it already.
pub async fn request_info(mut request: Request, next: Next) -> Response {
    if request.extensions().get::<RequestInfo>().is_none() {
        let info = RequestInfo::new(request.method().as_str(), request.uri().path(), request.uri().query());
        request.extensions_mut().insert(info);
    }
    next.run(request).await
}

/// The request's facts, as the filter read them (read here when no filter ran).
pub fn of(request: &Request) -> RequestInfo {
    match request.extensions().get::<RequestInfo>() {
        Some(info) => info.clone(),
        None => RequestInfo::new(request.method().as_str(), request.uri().path(), request.uri().query()),
    }
}
