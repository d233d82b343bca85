//! Who sends a request, decided as kube-apiserver's authenticators decide it: x509 client
//! certificates verified against `--client-ca-file` at the TLS handshake (CN the user, O the
//! groups), bearer tokens from `--token-auth-file`, ServiceAccount tokens (JWTs of our issuer,
//! naming a service account that still exists with the uid they were issued for), and anonymous
//! requests only when `--anonymous-auth` allows them. The first authenticator that recognises the request decides;
//! a bearer token no authenticator knows is a 401 even when anonymous requests are allowed, as
//! kube-apiserver's union fails on an error before it falls back to anonymous.
//!
//! A listener without authentication (plain loopback HTTP, the tests' in-process servers, the fake)
//! serves every request as kube-apiserver's own loopback client, a `system:masters` user.

use std::collections::BTreeMap;
use std::sync::Arc;

use async_trait::async_trait;
use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use crate::status::ApiError;

pub mod audit;
pub mod authorize;
pub mod impersonation;
pub(crate) mod proto;
pub mod rbac;
pub mod request_info;
pub mod reviews;
pub mod service_account;
pub mod tls;
pub mod token_cache;
pub mod token_file;
pub mod token_request;
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
    /// ServiceAccount tokens: the issuers, audiences and keys they are checked against.
    pub service_accounts: Option<Arc<service_account::ServiceAccountTokens>>,
    /// `--anonymous-auth`: requests without credentials are `system:anonymous`.
    pub anonymous: bool,
    /// ServiceAccount tokens found valid, kept for a while (10 s by default).
    pub token_cache: token_cache::TokenCache,
}

/// Why a request is refused before it is served.
#[derive(Debug, PartialEq, Eq)]
pub enum Refusal {
    /// No authenticator recognised the credentials, or none were sent and anonymous requests
    /// are off.
    Unauthorized,
}

/// Where the ServiceAccount authenticator finds the uid of a service account that exists now.
#[async_trait]
pub trait ServiceAccounts: Send + Sync {
    /// The uid of `namespace/name`, if it exists.
    async fn uid(&self, namespace: &str, name: &str) -> Option<String>;
}

#[async_trait]
impl ServiceAccounts for crate::Server {
    async fn uid(&self, namespace: &str, name: &str) -> Option<String> {
        let registry = self.registry();
        let resource =
            registry
                .installed
                .find(&runtime::GroupVersion::from_static("", "v1"), "serviceaccounts", None)?;
        let account = resource.storage.getter()?.get(Some(namespace), name).await.ok()?;
        Some(crate::registry::meta::field(&account, "uid").to_string())
    }
}

impl Authentication {
    /// The user who sent a request with these headers and verified client certificates.
    pub async fn authenticate(
        &self,
        headers: &http::HeaderMap,
        certificates: Option<&PeerCertificates>,
        accounts: &dyn ServiceAccounts,
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
                return match self.token(token, &[], accounts).await {
                    Ok((user, _)) => Ok(user),
                    Err(why) => {
                        tracing::debug!(%why, "a bearer token was refused");
                        Err(Refusal::Unauthorized)
                    }
                };
            }
        }
        if self.anonymous {
            Ok(UserInfo::anonymous())
        } else {
            Err(Refusal::Unauthorized)
        }
    }

    /// The user a bearer token stands for, with the audiences it was found valid for
    /// (`audiences`, or the API audiences when empty), as the token authenticators chained
    /// decide (TokenReview asks the same); else why it is refused.
    pub async fn token(
        &self,
        token: &str,
        audiences: &[String],
        accounts: &dyn ServiceAccounts,
    ) -> Result<(UserInfo, Vec<String>), String> {
        let api_audiences = self
            .service_accounts
            .as_ref()
            .map(|s| s.audiences().to_vec())
            .unwrap_or_default();
        if let Some(user) = self.tokens.as_ref().and_then(|t| t.user(token)) {
            // A static token knows no audience: it is good for the API's.
            let granted = if audiences.is_empty() {
                api_audiences
            } else {
                audiences.to_vec()
            };
            return Ok((user.clone().authenticated(), granted));
        }
        let Some(service_accounts) = &self.service_accounts else {
            return Err("invalid bearer token".into());
        };
        let key = token_cache::TokenCache::key(token, audiences);
        if let Some(found) = self.token_cache.get(&key) {
            return Ok(found);
        }
        let now = std::time::SystemTime::now();
        match service_accounts.check(token, audiences, now) {
            service_account::Checked::NotOurs => Err("invalid bearer token".into()),
            service_account::Checked::Invalid(why) => Err(why),
            service_account::Checked::Valid(claims, granted) => {
                let account = &claims.kubernetes;
                let (namespace, name) = (&account.namespace, &account.serviceaccount.name);
                match accounts.uid(namespace, name).await {
                    None => Err(format!("service account {namespace}/{name} has been deleted")),
                    Some(uid) if uid != account.serviceaccount.uid => Err(format!(
                        "service account UID ({uid}) does not match claim ({})",
                        account.serviceaccount.uid
                    )),
                    Some(_) => {
                        let user = claims.user().authenticated();
                        let left = u64::try_from(claims.exp.saturating_sub(service_account::seconds(now))).unwrap_or(0);
                        self.token_cache
                            .put(key, &user, &granted, std::time::Duration::from_secs(left));
                        Ok((user, granted))
                    }
                }
            }
        }
    }
}

/// The middleware that puts the request's user in its extensions, or answers 401 as
/// kube-apiserver does. A request from a listener without authentication (plain loopback HTTP,
/// a router called in process) is the loopback user's.
pub async fn authenticate(State(server): State<Arc<crate::Server>>, mut request: Request, next: Next) -> Response {
    let user = match request.extensions().get::<Arc<Authentication>>() {
        None => Ok(UserInfo::loopback()),
        Some(authentication) => {
            authentication
                .authenticate(
                    request.headers(),
                    request.extensions().get::<PeerCertificates>(),
                    &*server,
                )
                .await
        }
    };
    match user {
        Ok(user) => {
            request.extensions_mut().insert(user);
            next.run(request).await
        }
        Err(Refusal::Unauthorized) => {
            if let Some(audit) = &server.config.audit {
                audit.failed_authentication(&request);
            }
            ApiError::unauthorized().into_response()
        }
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
    let checked = match &server.authorization {
        None => Ok(()),
        Some(authorization) => {
            let user = user_of(request.extensions());
            authorization.ready().await;
            authorization.check(&authorize::Attributes {
                user: &user,
                request: &info,
            })
        }
    };
    if let Some(notes) = request.extensions().get::<audit::Notes>() {
        notes.decided(checked.is_ok());
    }
    if let Err(refused) = checked {
        return refused.into_response();
    }
    request.extensions_mut().insert(info);
    next.run(request).await
}

#[cfg(test)]
mod tests;
