//! Bad input: `+k8s:crd-gen:*` tags where they do nothing: on a kind of a package that is not
//! tagged `+k8s:crd-gen=true`, and on a type that is not a kind.

pub mod gadgets;
