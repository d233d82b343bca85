//! Installs the core group into a Scheme, as Kubernetes' `pkg/apis/core/install` does: the internal version
//! first, then every external version, then the order in which versions are preferred.

use kube_apimachinery::{Scheme, SchemeError};

/// Registers the internal and external kinds of the core group and its version priority.
pub fn install(scheme: &mut Scheme) -> Result<(), SchemeError> {
    super::add_to_scheme(scheme)?;
    super::v1::add_to_scheme(scheme)?;
    super::v1::add_field_label_conversions(scheme);
    scheme.set_version_priority(&[super::v1::SCHEME_GROUP_VERSION])?;
    Ok(())
}
