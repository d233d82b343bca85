//! Bad input: a field of a CRD kind's spec is tagged `+k8s:openapi-gen=false`, so it has no schema and the API server would prune it.

pub mod gadgets;
