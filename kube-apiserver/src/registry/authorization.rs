//! The authorization.k8s.io reviews (kube-apiserver's `pkg/registry/authorization`):
//! `SubjectAccessReview` (may this user: what webhooks and aggregated servers ask),
//! `LocalSubjectAccessReview` (the same in one namespace), `SelfSubjectAccessReview` (may I:
//! `kubectl auth can-i`) and `SelfSubjectRulesReview` (what may I in a namespace:
//! `kubectl auth can-i --list`). Each is a create that stores nothing and answers the object
//! with its status filled, decided by the server's authorizers.

use std::sync::Arc;

use async_trait::async_trait;
use serde_json::{Value, json};

use crate::rbac::cache::PolicyCache;
use kube_generic_apiserver::authentication::{SYSTEM_MASTERS, UserInfo};
use kube_generic_apiserver::authorization::{Attributes, Authorization, Decision};
use kube_generic_apiserver::registry::rest::{Context, Creater, RestStorage};
use kube_generic_apiserver::request::RequestInfo;
use kube_generic_apiserver::status::{ApiError, Cause};

const GROUP: &str = "authorization.k8s.io";

/// Which access review a storage answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AccessReview {
    /// About the user the spec names.
    Subject,
    /// About the user the spec names, in the namespace of the path.
    Local,
    /// About the requester.
    SelfSubject,
}

impl AccessReview {
    fn kind(self) -> &'static str {
        match self {
            AccessReview::Subject => "SubjectAccessReview",
            AccessReview::Local => "LocalSubjectAccessReview",
            AccessReview::SelfSubject => "SelfSubjectAccessReview",
        }
    }
}

/// The storage of one access review kind.
pub struct AccessReviews {
    /// Which review.
    pub review: AccessReview,
    /// The server's authorizers; none: everything is allowed.
    pub authorization: Option<Arc<Authorization>>,
}

/// The user a SubjectAccessReview asks about.
fn subject_of(spec: &Value) -> UserInfo {
    let strings = |v: &Value| -> Vec<String> {
        v.as_array()
            .map(|a| a.iter().filter_map(Value::as_str).map(str::to_string).collect())
            .unwrap_or_default()
    };
    UserInfo {
        username: spec["user"].as_str().unwrap_or_default().to_string(),
        uid: spec["uid"].as_str().unwrap_or_default().to_string(),
        groups: strings(&spec["groups"]),
        extra: spec["extra"]
            .as_object()
            .map(|m| m.iter().map(|(k, v)| (k.clone(), strings(v))).collect())
            .unwrap_or_default(),
    }
}

fn invalid(kind: &str, reason: &'static str, field: &str, message: String) -> ApiError {
    let cause = Cause {
        reason,
        message,
        field: field.into(),
    };
    ApiError::invalid(GROUP, kind, "", vec![cause])
}

impl AccessReviews {
    /// What the review asks about, checked as Kubernetes checks it.
    fn asked(&self, spec: &Value, namespace: Option<&str>) -> Result<RequestInfo, ApiError> {
        let kind = self.review.kind();
        let text = |v: &Value, k: &str| v.get(k).and_then(Value::as_str).unwrap_or_default().to_string();
        if let Some(r) = spec.get("resourceAttributes").filter(|r| r.is_object()) {
            let info = RequestInfo {
                resource_request: true,
                verb: text(r, "verb"),
                api_group: text(r, "group"),
                api_version: text(r, "version"),
                namespace: text(r, "namespace"),
                resource: text(r, "resource"),
                subresource: text(r, "subresource"),
                name: text(r, "name"),
                ..RequestInfo::default()
            };
            if let Some(namespace) = namespace
                && info.namespace != namespace
            {
                return Err(invalid(
                    kind,
                    "FieldValueInvalid",
                    "spec.resourceAttributes.namespace",
                    format!("Invalid value: {:?}: must match metadata.namespace", info.namespace),
                ));
            }
            return Ok(info);
        }
        if let Some(n) = spec.get("nonResourceAttributes").filter(|n| n.is_object()) {
            if namespace.is_some() {
                return Err(invalid(
                    kind,
                    "FieldValueInvalid",
                    "spec.nonResourceAttributes",
                    "Invalid value: \"\": disallowed on this kind of request".into(),
                ));
            }
            return Ok(RequestInfo {
                resource_request: false,
                verb: text(n, "verb"),
                path: text(n, "path"),
                ..RequestInfo::default()
            });
        }
        Err(invalid(
            kind,
            "FieldValueRequired",
            "spec.resourceAttributes",
            "Required value: exactly one of nonResourceAttributes or resourceAttributes must be specified".into(),
        ))
    }
}

#[async_trait]
impl Creater for AccessReviews {
    async fn create(
        &self,
        ctx: &Context<'_>,
        namespace: Option<&str>,
        mut review: Value,
        _dry_run: bool,
    ) -> Result<Value, ApiError> {
        let kind = self.review.kind();
        let subject = match self.review {
            AccessReview::SelfSubject => ctx.user.clone(),
            AccessReview::Subject | AccessReview::Local => subject_of(&review["spec"]),
        };
        if self.review != AccessReview::SelfSubject && subject.username.is_empty() && subject.groups.is_empty() {
            return Err(invalid(
                kind,
                "FieldValueInvalid",
                "spec.user",
                "Invalid value: \"\": at least one of user or group must be specified".into(),
            ));
        }
        let namespace = namespace.filter(|_| self.review == AccessReview::Local);
        let asked = self.asked(&review["spec"], namespace)?;
        let decision = match &self.authorization {
            None => Decision::Allow,
            Some(authorization) => {
                authorization.ready().await;
                authorization.decide(&Attributes {
                    user: &subject,
                    request: &asked,
                })
            }
        };
        review["status"] = match decision {
            Decision::Allow => json!({"allowed": true}),
            Decision::Deny(why) => json!({"allowed": false, "denied": true, "reason": why}),
            Decision::NoOpinion(why) if why.is_empty() => json!({"allowed": false}),
            Decision::NoOpinion(why) => json!({"allowed": false, "reason": why}),
        };
        review["apiVersion"] = json!("authorization.k8s.io/v1");
        review["kind"] = json!(kind);
        // kube-apiserver answers the review it decoded, metadata and all.
        super::authentication::echoed_metadata(&mut review);
        if let Some(namespace) = namespace {
            review["metadata"]["namespace"] = json!(namespace);
        }
        Ok(review)
    }
}

impl RestStorage for AccessReviews {
    fn creater(&self) -> Option<&dyn Creater> {
        Some(self)
    }
}

/// `SelfSubjectRulesReview`: every rule the requester holds in `spec.namespace`, as RBAC grants
/// them (everything, as cluster-admin's rules say it, without an RBAC policy or for
/// `system:masters`).
pub struct RulesReviews {
    /// The RBAC policy, when RBAC authorizes.
    pub policy: Option<Arc<PolicyCache>>,
}

#[async_trait]
impl Creater for RulesReviews {
    async fn create(
        &self,
        ctx: &Context<'_>,
        _namespace: Option<&str>,
        review: Value,
        _dry_run: bool,
    ) -> Result<Value, ApiError> {
        let user = ctx.user;
        let namespace = review["spec"]["namespace"].as_str().unwrap_or_default().to_string();
        let masters = user.groups.iter().any(|g| g == SYSTEM_MASTERS);
        let (mut resource_rules, mut non_resource_rules) = (Vec::new(), Vec::new());
        match &self.policy {
            Some(policy) if !masters => {
                policy.ready().await;
                for rule in policy.current().rules_for(user, &namespace) {
                    if rule.non_resource_urls.is_empty() {
                        let mut r =
                            json!({"verbs": rule.verbs, "apiGroups": rule.api_groups, "resources": rule.resources});
                        if !rule.resource_names.is_empty() {
                            r["resourceNames"] = json!(rule.resource_names);
                        }
                        resource_rules.push(r);
                    } else {
                        non_resource_rules
                            .push(json!({"verbs": rule.verbs, "nonResourceURLs": rule.non_resource_urls}));
                    }
                }
            }
            _ => {
                resource_rules.push(json!({"verbs": ["*"], "apiGroups": ["*"], "resources": ["*"]}));
                non_resource_rules.push(json!({"verbs": ["*"], "nonResourceURLs": ["*"]}));
            }
        }
        // A new object holding only the rules, as kube-apiserver's selfsubjectrulesreview REST
        // answers: neither the review's metadata nor its spec come back.
        Ok(json!({
            "apiVersion": "authorization.k8s.io/v1",
            "kind": "SelfSubjectRulesReview",
            "metadata": {"creationTimestamp": null},
            "spec": {},
            "status": {
                "resourceRules": resource_rules,
                "nonResourceRules": non_resource_rules,
                "incomplete": false,
            },
        }))
    }
}

impl RestStorage for RulesReviews {
    fn creater(&self) -> Option<&dyn Creater> {
        Some(self)
    }
}
