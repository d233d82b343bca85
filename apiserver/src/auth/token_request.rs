//! The token endpoints: `serviceaccounts/<name>/token` (TokenRequest: `kubectl create token`)
//! issues a ServiceAccount token for an account that exists, and `tokenreviews` (TokenReview)
//! tells a caller who a token stands for, through the same authenticators requests meet.

use std::sync::Arc;
use std::time::{Duration, SystemTime};

use axum::extract::{Path, Request, State};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use super::reviews::{body, created};
use super::service_account::DEFAULT_EXPIRATION_SECONDS;
use super::{Authentication, ServiceAccounts};
use crate::Server;
use crate::status::{ApiError, Cause};

/// The refusal of a token no authenticator knows.
const INVALID: &str = "invalid bearer token";

/// The shortest token TokenRequest issues (10 minutes), and the longest (2^32 seconds).
const MIN_EXPIRATION_SECONDS: i64 = 600;
const MAX_EXPIRATION_SECONDS: i64 = 1 << 32;

fn invalid(name: &str, field: &str, reason: &'static str, message: String) -> Response {
    let cause = Cause {
        reason,
        message,
        field: field.into(),
    };
    ApiError::invalid("authentication.k8s.io", "TokenRequest", name, vec![cause]).into_response()
}

/// `POST /api/v1/namespaces/{namespace}/serviceaccounts/{name}/token`.
pub async fn token_request(
    State(server): State<Arc<Server>>,
    Path((namespace, name)): Path<(String, String)>,
    request: Request,
) -> Response {
    let path = request.uri().path().to_string();
    // Without a signing key kube-apiserver does not serve the subresource at all.
    let Some(tokens) = server.config.service_account_tokens.clone().filter(|t| t.signs()) else {
        return ApiError::no_route(&path).into_response();
    };
    let registry = server.registry();
    let Some(getter) = registry
        .installed
        .find(&runtime::GroupVersion::from_static("", "v1"), "serviceaccounts", None)
        .and_then(|r| r.storage.getter())
    else {
        return ApiError::no_route(&path).into_response();
    };
    let review = match body(request, "TokenRequest").await {
        Ok(review) => review,
        Err(e) => return e.into_response(),
    };
    // The account is looked up first: a missing one is 404 whatever the request says.
    let account = match getter.get(Some(&namespace), &name).await {
        Ok(account) => account,
        Err(e) => return e.into_response(),
    };
    let metadata = &review["metadata"];
    for (field, given, want, what) in [
        ("metadata.name", &metadata["name"], &name, "name"),
        ("metadata.namespace", &metadata["namespace"], &namespace, "namespace"),
    ] {
        if let Some(given) = given.as_str().filter(|g| !g.is_empty() && g != want) {
            return invalid(
                &name,
                field,
                "FieldValueInvalid",
                format!("Invalid value: {given:?}: must match the service account {what} if specified"),
            );
        }
    }
    let spec = &review["spec"];
    let expiration = spec["expirationSeconds"].as_i64().unwrap_or(DEFAULT_EXPIRATION_SECONDS);
    if expiration < MIN_EXPIRATION_SECONDS {
        return invalid(
            "",
            "spec.expirationSeconds",
            "FieldValueInvalid",
            format!("Invalid value: {expiration}: may not specify a duration less than 10 minutes"),
        );
    }
    if expiration > MAX_EXPIRATION_SECONDS {
        return invalid(
            "",
            "spec.expirationSeconds",
            "FieldValueInvalid",
            format!("Invalid value: {expiration}: may not specify a duration larger than 2^32 seconds"),
        );
    }
    if spec.get("boundObjectRef").is_some_and(|r| !r.is_null()) {
        return invalid(
            &name,
            "spec.boundObjectRef",
            "FieldValueForbidden",
            "Forbidden: this server does not bind tokens to objects".into(),
        );
    }
    let audiences: Vec<String> = spec["audiences"]
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_str).map(str::to_string).collect())
        .unwrap_or_default();
    let uid = crate::registry::meta::field(&account, "uid");
    let lifetime = Duration::from_secs(expiration.unsigned_abs());
    let (token, claims) = match tokens.issue(&namespace, &name, uid, &audiences, lifetime, SystemTime::now()) {
        Ok(issued) => issued,
        Err(why) => return ApiError::internal(why).into_response(),
    };
    let expires = k8s_openapi::jiff::Timestamp::from_second(claims.exp)
        .map(|t| t.strftime("%Y-%m-%dT%H:%M:%SZ").to_string())
        .unwrap_or_default();
    created(json!({
        "kind": "TokenRequest",
        "apiVersion": "authentication.k8s.io/v1",
        "metadata": {"name": name, "namespace": namespace, "creationTimestamp": crate::registry::meta::now()},
        "spec": {"audiences": claims.aud, "expirationSeconds": expiration, "boundObjectRef": null},
        "status": {"token": token, "expirationTimestamp": expires},
    }))
}

/// `POST /apis/authentication.k8s.io/v1/tokenreviews`: who `spec.token` stands for, for
/// `spec.audiences` (the API audiences when none), as the server's authenticators say.
pub async fn token_review(State(server): State<Arc<Server>>, request: Request) -> Response {
    // The authenticators of the listener the review came through; a plain listener has none
    // but the ServiceAccount issuer the server was given.
    let authentication = request
        .extensions()
        .get::<Arc<Authentication>>()
        .cloned()
        .unwrap_or_else(|| {
            Arc::new(Authentication {
                service_accounts: server.config.service_account_tokens.clone(),
                ..Authentication::default()
            })
        });
    let mut review = match body(request, "TokenReview").await {
        Ok(review) => review,
        Err(e) => return e.into_response(),
    };
    let token = review["spec"]["token"].as_str().unwrap_or_default().to_string();
    if token.is_empty() {
        return ApiError::bad_request("token is required for TokenReview in authentication").into_response();
    }
    let audiences: Vec<String> = review["spec"]["audiences"]
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_str).map(str::to_string).collect())
        .unwrap_or_default();
    let accounts: &dyn ServiceAccounts = &*server;
    review["status"] = match authentication.token(&token, &audiences, accounts).await {
        Ok((user, granted)) => json!({"authenticated": true, "user": user, "audiences": granted}),
        // kube-apiserver's loopback token authenticator, first in its union, adds its own
        // refusal to every other authenticator's.
        Err(why) if why == INVALID => json!({"user": {}, "error": why}),
        Err(why) => json!({"user": {}, "error": format!("[{INVALID}, {why}]")}),
    };
    review["apiVersion"] = json!("authentication.k8s.io/v1");
    review["kind"] = json!("TokenReview");
    review["metadata"] = json!({"creationTimestamp": null});
    created(review)
}
