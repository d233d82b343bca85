//! Installs the rbac.authorization.k8s.io group into a Scheme, as Kubernetes'
//! `pkg/apis/rbac/install` does: the internal version, then v1, the only version served.

use kube_apimachinery::{Scheme, SchemeError};

/// Registers the internal and v1 kinds of the rbac group and its version priority.
pub fn install(scheme: &mut Scheme) -> Result<(), SchemeError> {
    super::add_to_scheme(scheme)?;
    super::v1::add_to_scheme(scheme)?;
    scheme.set_version_priority(&[super::v1::SCHEME_GROUP_VERSION])?;
    Ok(())
}
