//! Custom resources defined at run time (apiextensions-apiserver): a CustomResourceDefinition
//! read into REST mappings for the installer ([`definition`]), the interned names those mappings
//! hold, the version edges of an unstructured kind, structural schemas with their CEL rules,
//! the validation of a CRD, conversion webhooks, the controllers that decide when a CRD is
//! served ([`controller`]), and how a server installs all of it ([`install`]).
//!
//! # Layers
//!
//! Top to bottom; a module uses only the modules of the layers below its own:
//!
//! 1. [`install`]: what a server adds to serve CRDs.
//! 2. [`controller`]: naming, establishing, serving and finalizing CRDs; the CRDs' storage.
//! 3. `edges`, `strategy`: the version edges of a custom kind; what custom objects and CRDs are
//!    checked against.
//! 4. [`openapi`], [`validation`], `webhook`: each version's OpenAPI document; the validation of a
//!    CRD; conversion webhooks.
//! 5. [`definition`]: a CRD read into REST mappings.
//! 6. [`intern`], [`schema`]: the names those mappings hold, interned; structural schemas,
//!    pruning, defaulting, validation and CEL rules.

#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod controller;
pub mod definition;
mod edges;
pub mod install;
pub mod intern;
pub mod openapi;
pub mod schema;
mod strategy;
pub mod validation;
mod webhook;

pub use controller::{CrdStorage, CustomResources};
pub use definition::{Definition, Names};
pub use edges::CustomEdges;
pub use strategy::{CompiledRules, CrdChecks, SchemaChecks};
