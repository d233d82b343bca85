//! ServiceAccount tokens as bearer tokens (kube-apiserver's legacy and bound token
//! authenticators): a JWT of one of the server's issuers, valid for the audiences asked, naming
//! a service account that still exists with the uid it was issued for.

use std::sync::Arc;
use std::time::{Duration, SystemTime};

use async_trait::async_trait;

use super::{Checked, ServiceAccountTokens, seconds};
use kube_generic_apiserver::authentication::{TokenAuthenticator, TokenUser};
use kube_generic_apiserver::meta;
use kube_generic_apiserver::registry::store::Store;

/// Where the authenticator finds the uid of a service account that exists now.
#[async_trait]
pub trait ServiceAccounts: Send + Sync {
    /// The uid of `namespace/name`, if it exists.
    async fn uid(&self, namespace: &str, name: &str) -> Option<String>;
}

/// The ServiceAccounts of a store.
#[async_trait]
impl ServiceAccounts for Store {
    async fn uid(&self, namespace: &str, name: &str) -> Option<String> {
        let account = self.get(Some(namespace), name).await.ok()?;
        Some(meta::field(&account, "uid").to_string())
    }
}

/// The authenticator of the server's ServiceAccount tokens.
pub struct ServiceAccountAuthenticator {
    /// The issuers, audiences and keys tokens are checked against.
    pub tokens: Arc<ServiceAccountTokens>,
    /// The accounts that exist.
    pub accounts: Arc<dyn ServiceAccounts>,
}

#[async_trait]
impl TokenAuthenticator for ServiceAccountAuthenticator {
    async fn authenticate_token(&self, token: &str, audiences: &[String]) -> Result<Option<TokenUser>, String> {
        let now = SystemTime::now();
        match self.tokens.check(token, audiences, now) {
            Checked::NotOurs => Ok(None),
            Checked::Invalid(why) => Err(why),
            Checked::Valid(claims, granted) => {
                let account = &claims.kubernetes;
                let (namespace, name) = (&account.namespace, &account.serviceaccount.name);
                match self.accounts.uid(namespace, name).await {
                    None => Err(format!("service account {namespace}/{name} has been deleted")),
                    Some(uid) if uid != account.serviceaccount.uid => Err(format!(
                        "service account UID ({uid}) does not match claim ({})",
                        account.serviceaccount.uid
                    )),
                    Some(_) => {
                        let left = u64::try_from(claims.exp.saturating_sub(seconds(now))).unwrap_or(0);
                        Ok(Some(TokenUser {
                            user: claims.user(),
                            audiences: granted,
                            expires: Some(now + Duration::from_secs(left)),
                        }))
                    }
                }
            }
        }
    }
}
