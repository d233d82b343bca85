//! The gadgets API group: external versions only, served by CRDs.

pub mod v1;
pub mod v1alpha1;
