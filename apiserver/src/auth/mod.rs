//! Who sends a request, decided as kube-apiserver's authenticators decide it: x509 client
//! certificates verified against `--client-ca-file` at the TLS handshake (CN the user, O the
//! groups), bearer tokens from `--token-auth-file`, and anonymous requests only when
//! `--anonymous-auth` allows them. The first authenticator that recognises the request decides;
//! a bearer token no authenticator knows is a 401 even when anonymous requests are allowed, as
//! kube-apiserver's union fails on an error before it falls back to anonymous.
//!
//! A listener without authentication (plain loopback HTTP, the tests' in-process servers, the fake)
//! serves every request as kube-apiserver's own loopback client, a `system:masters` user.

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::extract::Request;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use crate::status::ApiError;

pub mod authorize;
pub mod rbac;
pub mod request_info;
pub mod reviews;
pub mod tls;
pub mod token_file;
pub mod x509;

pub use request_info::RequestInfo;
pub use token_file::TokenFile;

/// The group whose members every authorizer allows everything.
pub const SYSTEM_MASTERS: &str = "system:masters";
/// The group every authenticated user is in.
pub const SYSTEM_AUTHENTICATED: &str = "system:authenticated";
/// The anonymous user and its group.
pub const ANONYMOUS: &str = "system:anonymous";
/// The group of anonymous requests.
pub const UNAUTHENTICATED: &str = "system:unauthenticated";

/// A user as authenticators report it (Kubernetes' `user.Info`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct UserInfo {
    /// The user's name.
    pub username: String,
    /// A unique id, where the authenticator knows one.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub uid: String,
    /// The groups the user is in.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub groups: Vec<String>,
    /// What else the authenticator says about the user.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub extra: BTreeMap<String, Vec<String>>,
}

impl UserInfo {
    /// The user a server without authentication serves every request as: kube-apiserver's
    /// loopback client.
    pub fn loopback() -> UserInfo {
        UserInfo {
            username: "system:apiserver".into(),
            uid: String::new(),
            groups: vec![SYSTEM_MASTERS.into(), SYSTEM_AUTHENTICATED.into()],
            extra: BTreeMap::new(),
        }
    }

    fn anonymous() -> UserInfo {
        UserInfo {
            username: ANONYMOUS.into(),
            groups: vec![UNAUTHENTICATED.into()],
            ..UserInfo::default()
        }
    }

    /// The user with `system:authenticated` added, as kube-apiserver adds it to every user an
    /// authenticator recognised.
    fn authenticated(mut self) -> UserInfo {
        if !self.groups.iter().any(|g| g == SYSTEM_AUTHENTICATED) {
            self.groups.push(SYSTEM_AUTHENTICATED.into());
        }
        self
    }
}

/// The certificate chain a client presented and the TLS layer verified against the client CA.
#[derive(Clone, Debug)]
pub struct PeerCertificates(pub Arc<Vec<rustls::pki_types::CertificateDer<'static>>>);

/// The authenticators of a server, in kube-apiserver's order.
#[derive(Clone, Debug, Default)]
pub struct Authentication {
    /// Whether client certificates are users (`--client-ca-file` was given; the TLS layer
    /// verified any certificate a request carries).
    pub client_certificates: bool,
    /// `--token-auth-file`'s tokens.
    pub tokens: Option<TokenFile>,
    /// `--anonymous-auth`: requests without credentials are `system:anonymous`.
    pub anonymous: bool,
}

/// Why a request is refused before it is served.
#[derive(Debug, PartialEq, Eq)]
pub enum Refusal {
    /// No authenticator recognised the credentials, or none were sent and anonymous requests
    /// are off.
    Unauthorized,
}

impl Authentication {
    /// The user who sent a request with these headers and verified client certificates.
    pub fn authenticate(
        &self,
        headers: &http::HeaderMap,
        certificates: Option<&PeerCertificates>,
    ) -> Result<UserInfo, Refusal> {
        if self.client_certificates
            && let Some(chain) = certificates
            && let Some(leaf) = chain.0.first()
            && let Some(user) = x509::user(leaf)
        {
            return Ok(user.authenticated());
        }
        if let Some(value) = headers.get(http::header::AUTHORIZATION) {
            let token = value
                .to_str()
                .ok()
                .and_then(|v| v.strip_prefix("Bearer "))
                .map(str::trim)
                .filter(|t| !t.is_empty());
            // A bearer token is a credential: one that no authenticator knows is refused,
            // whatever the anonymous setting.
            if let Some(token) = token {
                return match self.tokens.as_ref().and_then(|t| t.user(token)) {
                    Some(user) => Ok(user.clone().authenticated()),
                    None => Err(Refusal::Unauthorized),
                };
            }
        }
        if self.anonymous {
            Ok(UserInfo::anonymous())
        } else {
            Err(Refusal::Unauthorized)
        }
    }
}

/// The middleware that puts the request's user in its extensions, or answers 401 as
/// kube-apiserver does. A request from a listener without authentication (plain loopback HTTP,
/// a router called in process) is the loopback user's.
pub async fn authenticate(mut request: Request, next: Next) -> Response {
    let user = match request.extensions().get::<Arc<Authentication>>() {
        None => Ok(UserInfo::loopback()),
        Some(authentication) => {
            authentication.authenticate(request.headers(), request.extensions().get::<PeerCertificates>())
        }
    };
    match user {
        Ok(user) => {
            request.extensions_mut().insert(user);
            next.run(request).await
        }
        Err(Refusal::Unauthorized) => ApiError::unauthorized().into_response(),
    }
}

/// The user of a request: the one authentication found, else the loopback user of a server
/// without authentication.
pub fn user_of(extensions: &http::Extensions) -> UserInfo {
    extensions.get::<UserInfo>().cloned().unwrap_or_else(UserInfo::loopback)
}

/// The middleware that decides whether the request's user may do what it asks
/// ([`authorize::Authorization`]), after authentication; a server without an authorization chain
/// lets every request through.
pub async fn authorize(
    axum::extract::State(server): axum::extract::State<Arc<crate::Server>>,
    mut request: Request,
    next: Next,
) -> Response {
    let info = RequestInfo::new(request.method().as_str(), request.uri().path(), request.uri().query());
    if let Some(authorization) = &server.authorization {
        let user = user_of(request.extensions());
        authorization.ready().await;
        if let Err(refused) = authorization.check(&authorize::Attributes {
            user: &user,
            request: &info,
        }) {
            return refused.into_response();
        }
    }
    request.extensions_mut().insert(info);
    next.run(request).await
}

#[cfg(test)]
mod tests;
