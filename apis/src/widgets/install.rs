//! Installs the widgets group into a Scheme: both external versions, v1 preferred.

use runtime::{Scheme, SchemeError};

/// Registers the kinds of both versions of the widgets group and their priority.
pub fn install(scheme: &mut Scheme) -> Result<(), SchemeError> {
    super::v1::add_to_scheme(scheme)?;
    super::v1alpha1::add_to_scheme(scheme)?;
    scheme.set_version_priority(&[super::v1::SCHEME_GROUP_VERSION, super::v1alpha1::SCHEME_GROUP_VERSION])?;
    Ok(())
}
