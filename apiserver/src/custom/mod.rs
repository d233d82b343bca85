//! Custom resources defined at run time (apiextensions-apiserver's serving half): a
//! CustomResourceDefinition read into REST mappings for the installer, the interned names those
//! mappings hold, and the version edges of an unstructured kind. The controllers that decide
//! when a CRD is served are `kube_apiserver::custom_resources`.

pub mod definition;
mod edges;
pub mod intern;
pub mod openapi;
pub mod schema;
mod strategy;
pub mod validation;
mod webhook;

pub use definition::{Definition, Names};
pub use edges::CustomEdges;
pub use strategy::{CompiledRules, CrdChecks, SchemaChecks};
