//! The widgets.example.dev API group: an example of custom resources served by
//! CustomResourceDefinitions (`generated/crds/`), in two external versions and no internal one.
//! v1 is the storage version; v1alpha1 is deprecated in its favour. Both hold the same fields
//! apart from v1's additions, so the API server can serve either from storage without a
//! conversion webhook (the CRDs' conversion strategy is `None`).

pub mod install;
pub mod v1;
pub mod v1alpha1;
