//! The apis crate's integration tests, one binary: Scheme round trips, conversions, defaults, deep copies, codecs, protobuf against protoc, CRDs, lifecycles and the `convert` example.

#![recursion_limit = "512"]

mod apiextensions_json;
mod codec;
mod conversion_cases;
mod conversion_review;
mod convert_cli;
mod crds;
mod deepcopy_external;
mod defaults;
mod json_shape;
mod lifecycle;
mod marshal;
mod protobuf;
mod roundtrip;
mod scheme;
mod validation;
