//! The REST storages kube-apiserver adds for kinds it never stores: the reviews of
//! authentication.k8s.io and authorization.k8s.io and the `token` subresource of ServiceAccounts
//! (TokenRequest). Each is a create answered with its status, installed through the generic
//! server's registry like every resource (so discovery lists them and authorization, audit and
//! admission see them), with the bodies read as the Scheme reads its kinds, or, by a Scheme
//! without the review kinds, by [`ReviewEdges`]: JSON, or the protobuf kubectl's typed clients
//! send, read by field number ([`proto`]).

pub mod authentication;
pub mod authorization;
pub mod proto;
pub mod token_request;

use std::sync::Arc;

use kube_apimachinery::{GroupVersion, GroupVersionKind, RestMapping, RestScope, Scheme};
use serde_json::Value;

use crate::rbac::cache::PolicyCache;
use crate::serviceaccount::ServiceAccountTokens;
use authentication::{SelfSubjectReviews, TokenReviews};
use authorization::{AccessReview, AccessReviews, RulesReviews};
use kube_generic_apiserver::authentication::TokenAuthenticator;
use kube_generic_apiserver::authorization::Authorization;
use kube_generic_apiserver::convert::{Decoded, Edges, FieldValidation};
use kube_generic_apiserver::registry::rest::RestStorage;
use kube_generic_apiserver::registry::store::Store;
use kube_generic_apiserver::registry::{ResourceInfo, SubresourceInfo};
use kube_generic_apiserver::status::ApiError;
use token_request::TokenRequests;

/// The mapping of a create-only review resource of `group`/v1.
const fn review(
    group: &'static str,
    resource: &'static str,
    kind: &'static str,
    singular: &'static str,
) -> RestMapping {
    RestMapping {
        group,
        version: "v1",
        resource,
        kind,
        list_kind: None,
        singular,
        scope: RestScope::Cluster,
        short_names: &[],
        categories: &[],
        subresources: &[],
        storage_version: "v1",
        printer_columns: &[],
        generation: false,
    }
}

const AUTHENTICATION: &str = "authentication.k8s.io";
const AUTHORIZATION: &str = "authorization.k8s.io";

const TOKEN_REVIEWS: RestMapping = review(AUTHENTICATION, "tokenreviews", "TokenReview", "tokenreview");
const SELF_SUBJECT_REVIEWS: RestMapping = review(
    AUTHENTICATION,
    "selfsubjectreviews",
    "SelfSubjectReview",
    "selfsubjectreview",
);
const SUBJECT_ACCESS_REVIEWS: RestMapping = review(
    AUTHORIZATION,
    "subjectaccessreviews",
    "SubjectAccessReview",
    "subjectaccessreview",
);
const LOCAL_SUBJECT_ACCESS_REVIEWS: RestMapping = RestMapping {
    scope: RestScope::Namespaced,
    ..review(
        AUTHORIZATION,
        "localsubjectaccessreviews",
        "LocalSubjectAccessReview",
        "localsubjectaccessreview",
    )
};
const SELF_SUBJECT_ACCESS_REVIEWS: RestMapping = review(
    AUTHORIZATION,
    "selfsubjectaccessreviews",
    "SelfSubjectAccessReview",
    "selfsubjectaccessreview",
);
const SELF_SUBJECT_RULES_REVIEWS: RestMapping = review(
    AUTHORIZATION,
    "selfsubjectrulesreviews",
    "SelfSubjectRulesReview",
    "selfsubjectrulesreview",
);

/// The (group, resource) of the access review created in a namespace, which NamespaceLifecycle
/// exempts: it stores nothing there, and its answer must not tell whether the namespace exists.
pub fn namespace_exempt() -> Vec<(String, String)> {
    vec![(
        LOCAL_SUBJECT_ACCESS_REVIEWS.group.to_string(),
        LOCAL_SUBJECT_ACCESS_REVIEWS.resource.to_string(),
    )]
}

/// What the review storages decide with.
pub struct Reviewers {
    /// The server's token authenticators (TokenReview).
    pub tokens: Arc<dyn TokenAuthenticator>,
    /// The server's authorizers (the access reviews); none: everything is allowed.
    pub authorization: Option<Arc<Authorization>>,
    /// The RBAC policy (SelfSubjectRulesReview), when RBAC authorizes.
    pub policy: Option<Arc<PolicyCache>>,
}

/// The review resources, ready to install: their bodies read and answered by `scheme` as any
/// kind's (strict field validation, protobuf both ways) where it holds their kinds, else by
/// [`ReviewEdges`].
pub fn reviews(reviewers: Reviewers, scheme: &Scheme) -> Vec<ResourceInfo> {
    let edges: Arc<dyn Edges> = Arc::new(ReviewEdges);
    let access = |review| -> Arc<dyn RestStorage> {
        Arc::new(AccessReviews {
            review,
            authorization: reviewers.authorization.clone(),
        })
    };
    let storages: [(RestMapping, Arc<dyn RestStorage>); 6] = [
        (
            TOKEN_REVIEWS,
            Arc::new(TokenReviews {
                tokens: reviewers.tokens.clone(),
            }),
        ),
        (SELF_SUBJECT_REVIEWS, Arc::new(SelfSubjectReviews)),
        (SUBJECT_ACCESS_REVIEWS, access(AccessReview::Subject)),
        (LOCAL_SUBJECT_ACCESS_REVIEWS, access(AccessReview::Local)),
        (SELF_SUBJECT_ACCESS_REVIEWS, access(AccessReview::SelfSubject)),
        (
            SELF_SUBJECT_RULES_REVIEWS,
            Arc::new(RulesReviews {
                policy: reviewers.policy.clone(),
            }),
        ),
    ];
    storages
        .into_iter()
        .map(|(mapping, storage)| {
            let known = scheme.has_wire_format(&GroupVersionKind::from_static(
                mapping.group,
                mapping.version,
                mapping.kind,
            ));
            ResourceInfo {
                mapping,
                storage,
                subresources: Vec::new(),
                edges: (!known).then(|| edges.clone()),
            }
        })
        .collect()
}

/// The `token` subresource of the ServiceAccounts in `accounts`, issuing with `tokens`.
pub fn token_subresource(tokens: Arc<ServiceAccountTokens>, accounts: Arc<Store>) -> SubresourceInfo {
    SubresourceInfo {
        name: "token",
        kind: GroupVersionKind::from_static(AUTHENTICATION, "v1", "TokenRequest"),
        storage: Arc::new(TokenRequests { tokens, accounts }),
        edges: Some(Arc::new(ReviewEdges)),
    }
}

/// The edges of the review kinds for a Scheme that does not hold them: a body is the review as sent (JSON, or
/// kubectl's protobuf read by field number), answered as JSON in the one version served.
pub struct ReviewEdges;

impl Edges for ReviewEdges {
    fn decode_body(
        &self,
        body: &[u8],
        expected: &GroupVersionKind,
        _storage: &GroupVersion,
        _validation: FieldValidation,
    ) -> Result<Decoded, ApiError> {
        let kind = expected.kind.as_ref();
        let object = if let Some(raw) = proto::envelope(body) {
            let raw = raw.map_err(ApiError::bad_request)?;
            proto::review(&raw, kind).ok_or_else(|| ApiError::bad_request(format!("the body is not a {kind}")))?
        } else {
            let review: Value = serde_json::from_slice(body)
                .map_err(|e| ApiError::bad_request(format!("the body of a {kind} is not JSON: {e}")))?;
            if review.get("kind").and_then(Value::as_str).is_some_and(|k| k != kind) {
                return Err(ApiError::bad_request(format!("the body is not a {kind}")));
            }
            review
        };
        Ok(Decoded {
            object,
            warnings: Vec::new(),
        })
    }

    fn to_storage(
        &self,
        value: &Value,
        _expected: &GroupVersionKind,
        _storage: &GroupVersion,
        _validation: FieldValidation,
    ) -> Result<Decoded, ApiError> {
        Ok(Decoded {
            object: value.clone(),
            warnings: Vec::new(),
        })
    }

    fn to_version(&self, stored: Value, _storage: &GroupVersion, _target: &GroupVersion) -> Result<Value, ApiError> {
        Ok(stored)
    }

    fn protobuf(&self, _value: &Value) -> Result<Option<Vec<u8>>, ApiError> {
        Ok(None)
    }

    fn field_label(&self, _gvk: &GroupVersionKind, label: &str, _value: &str) -> Result<(String, String), String> {
        Err(format!("{label} is not a field label of a review"))
    }

    fn deprecation_warning(&self, _gvk: &GroupVersionKind, _current: kube_apimachinery::Release) -> Option<String> {
        None
    }
}
