//! Installs the widgets group into a Scheme: the internal hub, both external versions, v1 preferred.

use kube_apimachinery::{Scheme, SchemeError};

/// Registers the internal and external kinds of the widgets group and their priority.
pub fn install(scheme: &mut Scheme) -> Result<(), SchemeError> {
    super::add_to_scheme(scheme)?;
    super::v1::add_to_scheme(scheme)?;
    super::v1alpha1::add_to_scheme(scheme)?;
    scheme.set_version_priority(&[super::v1::SCHEME_GROUP_VERSION, super::v1alpha1::SCHEME_GROUP_VERSION])?;
    Ok(())
}
