//! The gadgets API group: external versions only, served by CRDs.

pub mod v1;
