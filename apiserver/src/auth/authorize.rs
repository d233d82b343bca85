//! Whether the request's user may do what it asks, decided as kube-apiserver's authorizer chain
//! decides: `system:masters` always may; then each configured mode in order (`AlwaysAllow`,
//! `RBAC`) until one allows or denies; no opinion from all of them is a denial. A denial is a
//! 403 with Kubernetes' message (`deployments.apps is forbidden: User "alice" cannot list
//! resource "deployments" in API group "apps" in the namespace "t"`).

use std::sync::Arc;

use super::request_info::RequestInfo;
use super::{SYSTEM_MASTERS, UserInfo};
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

/// One authorization mode.
pub trait Authorizer: Send + Sync {
    /// The decision on `attributes`.
    fn authorize(&self, attributes: &Attributes<'_>) -> Decision;
}

/// `--authorization-mode=AlwaysAllow`: every request may go on.
pub struct AlwaysAllow;

impl Authorizer for AlwaysAllow {
    fn authorize(&self, _: &Attributes<'_>) -> Decision {
        Decision::Allow
    }
}

/// The modes `--authorization-mode` names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Every request may go on.
    AlwaysAllow,
    /// Roles and bindings decide.
    Rbac,
}

impl std::str::FromStr for Mode {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "AlwaysAllow" => Ok(Mode::AlwaysAllow),
            "RBAC" => Ok(Mode::Rbac),
            other => Err(format!("{other:?}: authorization modes are AlwaysAllow and RBAC")),
        }
    }
}

/// The chain of a server: `system:masters` first, then the configured modes.
#[derive(Clone)]
pub struct Authorization {
    modes: Vec<Arc<dyn Authorizer>>,
    /// The RBAC policy, when a mode reads one: requests wait until it is first read.
    policy: Option<Arc<super::rbac::cache::PolicyCache>>,
}

impl Authorization {
    /// The chain of `modes`, in order; `policy` is what an RBAC mode among them reads.
    pub fn new(modes: Vec<Arc<dyn Authorizer>>, policy: Option<Arc<super::rbac::cache::PolicyCache>>) -> Self {
        Authorization { modes, policy }
    }

    /// The chain `modes` names, over the RBAC `policy` (needed when RBAC is one of them).
    pub fn of(modes: &[Mode], policy: Option<Arc<super::rbac::cache::PolicyCache>>) -> Self {
        let authorizers = modes
            .iter()
            .filter_map(|m| -> Option<Arc<dyn Authorizer>> {
                match m {
                    Mode::AlwaysAllow => Some(Arc::new(AlwaysAllow)),
                    Mode::Rbac => policy
                        .clone()
                        .map(|p| Arc::new(super::rbac::Rbac::new(p)) as Arc<dyn Authorizer>),
                }
            })
            .collect();
        Authorization::new(authorizers, policy)
    }

    /// Waits until what the modes read is there.
    pub async fn ready(&self) {
        if let Some(policy) = &self.policy {
            policy.ready().await;
        }
    }

    /// The RBAC policy the chain reads, if any.
    pub fn policy(&self) -> Option<&Arc<super::rbac::cache::PolicyCache>> {
        self.policy.as_ref()
    }

    /// The chain's decision.
    pub fn decide(&self, attributes: &Attributes<'_>) -> Decision {
        if attributes.user.groups.iter().any(|g| g == SYSTEM_MASTERS) {
            return Decision::Allow;
        }
        let mut reasons = Vec::new();
        for mode in &self.modes {
            match mode.authorize(attributes) {
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
pub(crate) fn forbidden(attributes: &Attributes<'_>, why: &str) -> ApiError {
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
