//! kube-apiserver's authentication, as its flags configure it (`pkg/kubeapiserver/authenticator`):
//! client certificates of `--client-ca-file`, the static tokens of `--token-auth-file` (good
//! for the API's audiences), the server's ServiceAccount tokens behind a cache of successes, and
//! `--anonymous-auth`, chained in kube-apiserver's order from k8s.io/apiserver's authenticators.

use std::sync::Arc;
use std::time::Duration;

use crate::serviceaccount::{ServiceAccountAuthenticator, ServiceAccountTokens, ServiceAccounts};
use kube_generic_apiserver::authentication::token_cache::{Cached, TokenCache};
use kube_generic_apiserver::authentication::x509::ClientCertificates;
use kube_generic_apiserver::authentication::{
    AudienceAgnostic, Authenticator, BearerToken, Chain, TokenAuthenticator, TokenFile, TokenUnion,
};

/// The authentication flags.
#[derive(Clone, Debug)]
pub struct Authentication {
    /// Whether client certificates are users (`--client-ca-file` was given; the TLS layer
    /// verifies any certificate a request carries against it).
    pub client_certificates: bool,
    /// The client CA's certificates (PEM), which kube-apiserver publishes for extension servers
    /// in `kube-system/extension-apiserver-authentication`.
    pub client_ca: Option<String>,
    /// `--token-auth-file`'s tokens.
    pub tokens: Option<TokenFile>,
    /// `--anonymous-auth`: requests without credentials are `system:anonymous`.
    pub anonymous: bool,
    /// How long a token found valid is not checked again (kube-apiserver: 10 s).
    pub token_cache_ttl: Duration,
}

impl Default for Authentication {
    fn default() -> Self {
        Authentication {
            client_certificates: false,
            client_ca: None,
            tokens: None,
            anonymous: false,
            token_cache_ttl: Duration::from_secs(10),
        }
    }
}

impl Authentication {
    /// The token authenticators (static tokens, then ServiceAccount tokens of `service_accounts`
    /// whose accounts are in `accounts`): what bearer tokens and TokenReviews meet.
    pub fn token_authenticator(
        &self,
        service_accounts: Option<&Arc<ServiceAccountTokens>>,
        accounts: Option<Arc<dyn ServiceAccounts>>,
    ) -> Arc<dyn TokenAuthenticator> {
        let api_audiences = service_accounts.map(|s| s.audiences().to_vec()).unwrap_or_default();
        let mut union: Vec<Arc<dyn TokenAuthenticator>> = Vec::new();
        if let Some(tokens) = &self.tokens {
            union.push(Arc::new(AudienceAgnostic {
                inner: Arc::new(tokens.clone()),
                api_audiences,
            }));
        }
        if let (Some(tokens), Some(accounts)) = (service_accounts, accounts) {
            union.push(Arc::new(Cached {
                inner: Arc::new(ServiceAccountAuthenticator {
                    tokens: tokens.clone(),
                    accounts,
                }),
                cache: TokenCache::new(self.token_cache_ttl),
            }));
        }
        Arc::new(TokenUnion(union))
    }

    /// The request authenticator over `tokens`: client certificates, bearer tokens, anonymous.
    pub fn request_authenticator(&self, tokens: Arc<dyn TokenAuthenticator>) -> Arc<dyn Authenticator> {
        let mut authenticators: Vec<Arc<dyn Authenticator>> = Vec::new();
        if self.client_certificates {
            authenticators.push(Arc::new(ClientCertificates));
        }
        authenticators.push(Arc::new(BearerToken(tokens)));
        Arc::new(Chain {
            authenticators,
            anonymous: self.anonymous,
        })
    }
}
