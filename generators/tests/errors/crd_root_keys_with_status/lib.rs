//! Bad input: a kind with a status subresource whose own tags put keys at the root of its schema
//! that the API server allows there only without one (`x-kubernetes-map-type`, `maxProperties`).

pub mod gadgets;
