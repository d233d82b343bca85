//! Bad input: a CRD kind served in v1alpha1 and v1, with neither version tagged `+k8s:crd-gen:storageversion`.

pub mod gadgets;
