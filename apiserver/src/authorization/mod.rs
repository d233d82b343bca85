//! Whether the request's user may do what it asks (k8s.io/apiserver's `pkg/authorization`): the
//! [`Authorizer`] interface, [`AlwaysAllow`], and the chain kube-apiserver puts its modes in
//! ([`Authorization`]): `system:masters` always may; then each authorizer in order until one
//! allows or denies; no opinion from all of them is a denial. A denial is a 403 with Kubernetes'
//! message (`deployments.apps is forbidden: User "alice" cannot list resource "deployments" in
//! API group "apps" in the namespace "t"`).

use std::sync::Arc;

use async_trait::async_trait;

use crate::authentication::{SYSTEM_MASTERS, UserInfo};
use crate::request::RequestInfo;
use crate::status::ApiError;

/// What an authorizer decides on: who asks to do what.
#[derive(Clone, Debug)]
pub struct Attributes<'a> {
    /// The user.
    pub user: &'a UserInfo,
    /// The request.
    pub request: &'a RequestInfo,
}

/// An authorizer's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    /// The request may go on.
    Allow,
    /// The request is refused, whatever later authorizers say (with why, possibly empty).
    Deny(String),
    /// This authorizer does not decide; the next one does (with why, possibly empty).
    NoOpinion(String),
}

/// One authorization mode. Deciding never waits: an authorizer that reads a policy keeps it in
/// memory, and says when it is first there through [`Authorizer::ready`].
#[async_trait]
pub trait Authorizer: Send + Sync {
    /// The decision on `attributes`.
    fn authorize(&self, attributes: &Attributes<'_>) -> Decision;

    /// Waits until what the authorizer reads is there (RBAC's policy, first read).
    async fn ready(&self) {}
}

/// `--authorization-mode=AlwaysAllow`: every request may go on.
pub struct AlwaysAllow;

impl Authorizer for AlwaysAllow {
    fn authorize(&self, _: &Attributes<'_>) -> Decision {
        Decision::Allow
    }
}

/// The chain of a server: `system:masters` first, then the authorizers in order.
#[derive(Clone, Default)]
pub struct Authorization {
    authorizers: Vec<Arc<dyn Authorizer>>,
}

impl Authorization {
    /// The chain of `authorizers`, in order.
    pub fn new(authorizers: Vec<Arc<dyn Authorizer>>) -> Self {
        Authorization { authorizers }
    }

    /// Waits until what the authorizers read is there.
    pub async fn ready(&self) {
        for authorizer in &self.authorizers {
            authorizer.ready().await;
        }
    }

    /// The chain's decision.
    pub fn decide(&self, attributes: &Attributes<'_>) -> Decision {
        if attributes.user.groups.iter().any(|g| g == SYSTEM_MASTERS) {
            return Decision::Allow;
        }
        let mut reasons = Vec::new();
        for authorizer in &self.authorizers {
            match authorizer.authorize(attributes) {
                Decision::NoOpinion(why) => {
                    if !why.is_empty() {
                        reasons.push(why);
                    }
                }
                decided => return decided,
            }
        }
        Decision::NoOpinion(reasons.join("\n"))
    }

    /// `Ok` when the request may go on, else Kubernetes' 403.
    pub fn check(&self, attributes: &Attributes<'_>) -> Result<(), ApiError> {
        match self.decide(attributes) {
            Decision::Allow => Ok(()),
            Decision::Deny(why) | Decision::NoOpinion(why) => Err(forbidden(attributes, &why)),
        }
    }
}

/// What a user was refused, in Kubernetes' words.
pub fn forbidden_message(attributes: &Attributes<'_>) -> String {
    let (user, r) = (&attributes.user.username, attributes.request);
    if !r.resource_request {
        return format!("User {user:?} cannot {} path {:?}", r.verb, r.path);
    }
    let resource = if r.subresource.is_empty() {
        r.resource.clone()
    } else {
        format!("{}/{}", r.resource, r.subresource)
    };
    if r.namespace.is_empty() {
        format!(
            "User {user:?} cannot {} resource {resource:?} in API group {:?} at the cluster scope",
            r.verb, r.api_group
        )
    } else {
        format!(
            "User {user:?} cannot {} resource {resource:?} in API group {:?} in the namespace {:?}",
            r.verb, r.api_group, r.namespace
        )
    }
}

/// The 403 of a refused request.
pub fn forbidden(attributes: &Attributes<'_>, why: &str) -> ApiError {
    let mut message = forbidden_message(attributes);
    if !why.is_empty() {
        message = format!("{message}: {why}");
    }
    let r = attributes.request;
    if r.resource_request {
        ApiError::forbidden_resource(&r.api_group, &r.resource, &r.name, &message)
    } else {
        ApiError::forbidden(format!("forbidden: {message}"))
    }
}
