//! Bad input: a CRD kind served in v1alpha1 and v1, with both versions tagged `+k8s:crd-gen:storageversion`.

pub mod gadgets;
