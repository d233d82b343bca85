//! The generators' integration tests, one binary: golden output of the fixtures, every diagnostic of the bad-input corpus, file ownership, OpenAPI fidelity and validity, CRD structure, serde fidelity, and all of k8s.io/api.

mod corpus;
mod crd_structural;
mod errors;
mod golden;
mod openapi_fidelity;
mod openapi_valid;
mod ownership;
mod serde_fidelity;
