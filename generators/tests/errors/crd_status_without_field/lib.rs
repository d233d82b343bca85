//! Bad input: `+k8s:crd-gen:subresource:status` on a CRD kind that has no `status` field.

pub mod gadgets;
