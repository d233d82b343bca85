//! Bad input: a CRD kind is namespaced in v1alpha1 but `+genclient:nonNamespaced` (cluster-scoped) in v1; a CRD has one scope.

pub mod gadgets;
