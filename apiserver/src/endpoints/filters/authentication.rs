//! The authentication filter: the request's user, found by the authenticator of the listener it
//! came through, goes into its extensions; credentials no authenticator accepts are a 401, as
//! kube-apiserver answers, recorded by audit. A listener without authentication (plain loopback
//! HTTP, a router called in process) serves every request as the loopback user.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::Filters;
use crate::authentication::{Authenticator, Credentials, PeerCertificates, UserInfo};
use crate::status::ApiError;

/// The authenticator of the listener a request came through, in its extensions.
#[derive(Clone)]
pub struct ListenerAuthentication(pub Arc<dyn Authenticator>);

/// The filter.
pub async fn authenticate(State(filters): State<Arc<Filters>>, mut request: Request, next: Next) -> Response {
    let user = match request.extensions().get::<ListenerAuthentication>() {
        None => Ok(Some(UserInfo::loopback())),
        Some(ListenerAuthentication(authenticator)) => {
            let credentials = Credentials {
                headers: request.headers(),
                certificates: request.extensions().get::<PeerCertificates>(),
            };
            authenticator.authenticate(&credentials).await
        }
    };
    match user {
        Ok(Some(user)) => {
            request.extensions_mut().insert(user);
            next.run(request).await
        }
        refused => {
            if let Err(why) = refused {
                tracing::debug!(%why, "credentials were refused");
            }
            if let Some(audit) = &filters.audit {
                audit.failed_authentication(&request, &super::request_info::of(&request));
            }
            ApiError::unauthorized().into_response()
        }
    }
}
