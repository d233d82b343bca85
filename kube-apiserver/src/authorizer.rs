//! kube-apiserver's `--authorization-mode` (`pkg/kubeapiserver/authorizer`): the modes it names,
//! chained in order after `system:masters` from k8s.io/apiserver's authorizers and RBAC.

use std::sync::Arc;

use crate::rbac::Rbac;
use crate::rbac::cache::PolicyCache;
use kube_generic_apiserver::authorization::{AlwaysAllow, Authorization, Authorizer};

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

/// The chain `modes` names, over the RBAC `policy` (needed when RBAC is one of them; without
/// it RBAC has no opinion on anything).
pub fn chain(modes: &[Mode], policy: Option<&Arc<PolicyCache>>) -> Authorization {
    let authorizers = modes
        .iter()
        .filter_map(|m| -> Option<Arc<dyn Authorizer>> {
            match m {
                Mode::AlwaysAllow => Some(Arc::new(AlwaysAllow)),
                Mode::Rbac => policy.cloned().map(|p| Arc::new(Rbac::new(p)) as Arc<dyn Authorizer>),
            }
        })
        .collect();
    Authorization::new(authorizers)
}
