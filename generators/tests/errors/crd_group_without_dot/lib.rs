//! Bad input: a package tagged `+k8s:crd-gen=true` has `+groupName=gadgets`, a group without a dot, which a CRD cannot serve.

pub mod gadgets;
