//! The authentication.k8s.io reviews (kube-apiserver's `pkg/registry/authentication`):
//! `TokenReview` (who does this token stand for: what webhooks and aggregated servers ask), and
//! `SelfSubjectReview` (who am I: `kubectl auth whoami`). Each is a create that stores nothing
//! and answers the object with its status filled.

use std::sync::Arc;

use async_trait::async_trait;
use serde_json::{Value, json};

use kube_generic_apiserver::authentication::{INVALID_BEARER_TOKEN, TokenAuthenticator};
use kube_generic_apiserver::registry::rest::{Context, Creater, RestStorage};
use kube_generic_apiserver::status::ApiError;

/// `TokenReview`: who `spec.token` stands for, for `spec.audiences` (the API audiences when
/// none), as the server's token authenticators say.
pub struct TokenReviews {
    /// The token authenticators requests meet.
    pub tokens: Arc<dyn TokenAuthenticator>,
}

#[async_trait]
impl Creater for TokenReviews {
    async fn create(
        &self,
        _ctx: &Context<'_>,
        _namespace: Option<&str>,
        mut review: Value,
        _dry_run: bool,
    ) -> Result<Value, ApiError> {
        let token = review["spec"]["token"].as_str().unwrap_or_default().to_string();
        if token.is_empty() {
            return Err(ApiError::bad_request(
                "token is required for TokenReview in authentication",
            ));
        }
        let audiences: Vec<String> = review["spec"]["audiences"]
            .as_array()
            .map(|a| a.iter().filter_map(Value::as_str).map(str::to_string).collect())
            .unwrap_or_default();
        review["status"] = match self.tokens.authenticate_token(&token, &audiences).await {
            Ok(Some(found)) => json!({
                "authenticated": true,
                "user": found.user.authenticated(),
                "audiences": found.audiences,
            }),
            Ok(None) => json!({"user": {}, "error": INVALID_BEARER_TOKEN}),
            // kube-apiserver's loopback token authenticator, first in its union, adds its own
            // refusal to every other authenticator's.
            Err(why) => json!({"user": {}, "error": format!("[{INVALID_BEARER_TOKEN}, {why}]")}),
        };
        review["apiVersion"] = json!("authentication.k8s.io/v1");
        review["kind"] = json!("TokenReview");
        // kube-apiserver answers the review it decoded, metadata and all.
        echoed_metadata(&mut review);
        Ok(review)
    }
}

impl RestStorage for TokenReviews {
    fn creater(&self) -> Option<&dyn Creater> {
        Some(self)
    }
}

/// `SelfSubjectReview`: the requester, as authentication (and impersonation) found them.
pub struct SelfSubjectReviews;

#[async_trait]
impl Creater for SelfSubjectReviews {
    async fn create(
        &self,
        ctx: &Context<'_>,
        _namespace: Option<&str>,
        _review: Value,
        _dry_run: bool,
    ) -> Result<Value, ApiError> {
        Ok(json!({
            "kind": "SelfSubjectReview",
            "apiVersion": "authentication.k8s.io/v1",
            // A new object, made now (kube-apiserver's selfsubjectreview REST).
            "metadata": {"creationTimestamp": kube_generic_apiserver::meta::now()},
            "status": {"userInfo": ctx.user},
        }))
    }
}

impl RestStorage for SelfSubjectReviews {
    fn creater(&self) -> Option<&dyn Creater> {
        Some(self)
    }
}

/// The metadata of a review as decoded: what the client gave, with the `creationTimestamp: null`
/// Go writes for a zero time.
pub(super) fn echoed_metadata(review: &mut Value) {
    if !review["metadata"].is_object() {
        review["metadata"] = json!({});
    }
    let metadata = review["metadata"].as_object_mut().expect("an object");
    metadata.entry("creationTimestamp").or_insert(Value::Null);
}
