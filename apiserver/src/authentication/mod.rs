//! Who sends a request (k8s.io/apiserver's `pkg/authentication`): the [`Authenticator`] of
//! requests and the [`TokenAuthenticator`] of bearer tokens, the user they report, and the
//! authenticators k8s.io/apiserver ships: client certificates ([`x509`]), static tokens
//! ([`token_file`]), a cache of tokens found valid ([`token_cache`]), a union of token
//! authenticators, bearer tokens as request credentials, and the [`Chain`] kube-apiserver puts
//! them in (the first authenticator that recognises the request decides; credentials one refuses
//! end it with a 401, even when anonymous requests are allowed; every recognised user joins
//! `system:authenticated`; then `system:anonymous`, when allowed).
//!
//! A listener without authentication (plain loopback HTTP, the tests' in-process servers, the fake)
//! serves every request as kube-apiserver's own loopback client, a `system:masters` user.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::SystemTime;

use async_trait::async_trait;
use serde::Serialize;

pub mod serviceaccount;
pub mod token_cache;
pub mod token_file;
pub mod x509;

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

    /// The user of a request without credentials, where anonymous requests are allowed.
    pub fn anonymous() -> UserInfo {
        UserInfo {
            username: ANONYMOUS.into(),
            groups: vec![UNAUTHENTICATED.into()],
            ..UserInfo::default()
        }
    }

    /// The user with `system:authenticated` added, as kube-apiserver adds it to every user an
    /// authenticator recognised.
    pub fn authenticated(mut self) -> UserInfo {
        if !self.groups.iter().any(|g| g == SYSTEM_AUTHENTICATED) {
            self.groups.push(SYSTEM_AUTHENTICATED.into());
        }
        self
    }
}

/// The certificate chain a client presented and the TLS layer verified against the client CA.
#[derive(Clone, Debug)]
pub struct PeerCertificates(pub Arc<Vec<rustls::pki_types::CertificateDer<'static>>>);

/// What an authenticator reads of a request: its headers, and the client certificates the
/// connection verified.
#[derive(Clone, Copy, Debug)]
pub struct Credentials<'a> {
    /// The request's headers.
    pub headers: &'a http::HeaderMap,
    /// The verified client certificate chain, if the client presented one.
    pub certificates: Option<&'a PeerCertificates>,
}

/// Authenticates requests (Go's `authenticator.Request`).
#[async_trait]
pub trait Authenticator: Send + Sync {
    /// The user the request's credentials name; `Ok(None)` when it carries none this
    /// authenticator reads; an error (why) when it carries some that are not valid.
    async fn authenticate(&self, request: &Credentials<'_>) -> Result<Option<UserInfo>, String>;
}

/// A user a token stands for, as a [`TokenAuthenticator`] found it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TokenUser {
    /// The user.
    pub user: UserInfo,
    /// The audiences the token is good for, of those asked (empty: the authenticator knows none).
    pub audiences: Vec<String>,
    /// When the token stops being valid, where the authenticator knows.
    pub expires: Option<SystemTime>,
}

/// Authenticates bearer tokens (Go's `authenticator.Token`), for requests and TokenReviews.
#[async_trait]
pub trait TokenAuthenticator: Send + Sync {
    /// The user `token` stands for, checked for `audiences` (the API's when empty);
    /// `Ok(None)` when the token is not of this authenticator's kind; an error (why) when it is
    /// but is not valid.
    async fn authenticate_token(&self, token: &str, audiences: &[String]) -> Result<Option<TokenUser>, String>;
}

/// The refusal of a bearer token no authenticator knows.
pub const INVALID_BEARER_TOKEN: &str = "invalid bearer token";

/// Several token authenticators, the first that knows a token deciding (Go's token union):
/// when none does, the refusals of those that knew it but refused it, as Go aggregates them.
pub struct TokenUnion(pub Vec<Arc<dyn TokenAuthenticator>>);

#[async_trait]
impl TokenAuthenticator for TokenUnion {
    async fn authenticate_token(&self, token: &str, audiences: &[String]) -> Result<Option<TokenUser>, String> {
        let mut refusals = Vec::new();
        for authenticator in &self.0 {
            match authenticator.authenticate_token(token, audiences).await {
                Ok(Some(found)) => return Ok(Some(found)),
                Ok(None) => {}
                Err(why) => refusals.push(why),
            }
        }
        match refusals.len() {
            0 => Ok(None),
            1 => Err(refusals.remove(0)),
            _ => Err(format!("[{}]", refusals.join(", "))),
        }
    }
}

/// A token authenticator that knows no audiences (static tokens), made good for the audiences
/// asked, or the API's (`--api-audiences`) when none are (Go's `WrapAudienceAgnosticToken`).
pub struct AudienceAgnostic {
    /// The authenticator.
    pub inner: Arc<dyn TokenAuthenticator>,
    /// The API's audiences.
    pub api_audiences: Vec<String>,
}

#[async_trait]
impl TokenAuthenticator for AudienceAgnostic {
    async fn authenticate_token(&self, token: &str, audiences: &[String]) -> Result<Option<TokenUser>, String> {
        let found = self.inner.authenticate_token(token, audiences).await?;
        Ok(found.map(|mut found| {
            if found.audiences.is_empty() {
                found.audiences = if audiences.is_empty() {
                    self.api_audiences.clone()
                } else {
                    audiences.to_vec()
                };
            }
            found
        }))
    }
}

/// Bearer tokens (`Authorization: Bearer <token>`) as request credentials: a token the token
/// authenticator does not know is refused.
pub struct BearerToken(pub Arc<dyn TokenAuthenticator>);

#[async_trait]
impl Authenticator for BearerToken {
    async fn authenticate(&self, request: &Credentials<'_>) -> Result<Option<UserInfo>, String> {
        let Some(value) = request.headers.get(http::header::AUTHORIZATION) else {
            return Ok(None);
        };
        let token = value
            .to_str()
            .ok()
            .and_then(|v| v.strip_prefix("Bearer "))
            .map(str::trim)
            .filter(|t| !t.is_empty());
        let Some(token) = token else {
            return Ok(None);
        };
        match self.0.authenticate_token(token, &[]).await? {
            Some(found) => Ok(Some(found.user)),
            None => Err(INVALID_BEARER_TOKEN.into()),
        }
    }
}

/// The request authenticators of a server in kube-apiserver's order (its union, its
/// authenticated-group adder and its anonymous fallback).
#[derive(Clone, Default)]
pub struct Chain {
    /// The authenticators, in order.
    pub authenticators: Vec<Arc<dyn Authenticator>>,
    /// `--anonymous-auth`: requests without credentials are `system:anonymous`.
    pub anonymous: bool,
}

#[async_trait]
impl Authenticator for Chain {
    async fn authenticate(&self, request: &Credentials<'_>) -> Result<Option<UserInfo>, String> {
        for authenticator in &self.authenticators {
            // A credential one authenticator refuses is refused, whatever the others and the
            // anonymous setting say.
            if let Some(user) = authenticator.authenticate(request).await? {
                return Ok(Some(user.authenticated()));
            }
        }
        Ok(self.anonymous.then(UserInfo::anonymous))
    }
}

/// The user of a request: the one authentication found, else the loopback user of a server
/// without authentication.
pub fn user_of(extensions: &http::Extensions) -> UserInfo {
    extensions.get::<UserInfo>().cloned().unwrap_or_else(UserInfo::loopback)
}

#[cfg(test)]
mod tests;
