//! TokenRequest, the `token` subresource of ServiceAccounts (`kubectl create token`): a
//! ServiceAccount token issued for an account that exists, as kube-apiserver's
//! `serviceaccount/storage/token.go` issues it. Served only where the server has a signing key.

use std::sync::Arc;
use std::time::{Duration, SystemTime};

use async_trait::async_trait;
use serde_json::{Value, json};

use crate::serviceaccount::{DEFAULT_EXPIRATION_SECONDS, ServiceAccountTokens};
use kube_generic_apiserver::meta;
use kube_generic_apiserver::registry::rest::{Context, Creater, RestStorage};
use kube_generic_apiserver::registry::store::Store;
use kube_generic_apiserver::status::{ApiError, Cause};

/// The shortest token TokenRequest issues (10 minutes), and the longest (2^32 seconds).
const MIN_EXPIRATION_SECONDS: i64 = 600;
const MAX_EXPIRATION_SECONDS: i64 = 1 << 32;

fn invalid(name: &str, field: &str, reason: &'static str, message: String) -> ApiError {
    let cause = Cause {
        reason,
        message,
        field: field.into(),
    };
    ApiError::invalid("authentication.k8s.io", "TokenRequest", name, vec![cause])
}

/// The `token` subresource's storage.
pub struct TokenRequests {
    /// The issuer, which signs.
    pub tokens: Arc<ServiceAccountTokens>,
    /// The ServiceAccounts' store.
    pub accounts: Arc<Store>,
}

#[async_trait]
impl Creater for TokenRequests {
    async fn create(
        &self,
        ctx: &Context<'_>,
        namespace: Option<&str>,
        review: Value,
        _dry_run: bool,
    ) -> Result<Value, ApiError> {
        let (namespace, name) = (
            namespace.unwrap_or_default().to_string(),
            ctx.name.unwrap_or_default().to_string(),
        );
        // The account is looked up first: a missing one is 404 whatever the request says.
        let account = self.accounts.get(Some(&namespace), &name).await?;
        let metadata = &review["metadata"];
        for (field, given, want, what) in [
            ("metadata.name", &metadata["name"], &name, "name"),
            ("metadata.namespace", &metadata["namespace"], &namespace, "namespace"),
        ] {
            if let Some(given) = given.as_str().filter(|g| !g.is_empty() && g != want) {
                return Err(invalid(
                    &name,
                    field,
                    "FieldValueInvalid",
                    format!("Invalid value: {given:?}: must match the service account {what} if specified"),
                ));
            }
        }
        let spec = &review["spec"];
        let expiration = spec["expirationSeconds"].as_i64().unwrap_or(DEFAULT_EXPIRATION_SECONDS);
        if expiration < MIN_EXPIRATION_SECONDS {
            return Err(invalid(
                "",
                "spec.expirationSeconds",
                "FieldValueInvalid",
                format!("Invalid value: {expiration}: may not specify a duration less than 10 minutes"),
            ));
        }
        if expiration > MAX_EXPIRATION_SECONDS {
            return Err(invalid(
                "",
                "spec.expirationSeconds",
                "FieldValueInvalid",
                format!("Invalid value: {expiration}: may not specify a duration larger than 2^32 seconds"),
            ));
        }
        if spec.get("boundObjectRef").is_some_and(|r| !r.is_null()) {
            return Err(invalid(
                &name,
                "spec.boundObjectRef",
                "FieldValueForbidden",
                "Forbidden: this server does not bind tokens to objects".into(),
            ));
        }
        let audiences: Vec<String> = spec["audiences"]
            .as_array()
            .map(|a| a.iter().filter_map(Value::as_str).map(str::to_string).collect())
            .unwrap_or_default();
        let uid = meta::field(&account, "uid");
        let lifetime = Duration::from_secs(expiration.unsigned_abs());
        let (token, claims) = self
            .tokens
            .issue(&namespace, &name, uid, &audiences, lifetime, SystemTime::now())
            .map_err(ApiError::internal)?;
        let expires = k8s_openapi::jiff::Timestamp::from_second(claims.exp)
            .map(|t| t.strftime("%Y-%m-%dT%H:%M:%SZ").to_string())
            .unwrap_or_default();
        Ok(json!({
            "kind": "TokenRequest",
            "apiVersion": "authentication.k8s.io/v1",
            "metadata": {"name": name, "namespace": namespace, "creationTimestamp": meta::now()},
            "spec": {"audiences": claims.aud, "expirationSeconds": expiration, "boundObjectRef": null},
            "status": {"token": token, "expirationTimestamp": expires},
        }))
    }
}

impl RestStorage for TokenRequests {
    fn creater(&self) -> Option<&dyn Creater> {
        Some(self)
    }
}
