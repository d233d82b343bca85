//! Custom resources defined at run time (apiextensions-apiserver): a CustomResourceDefinition
//! read into REST mappings for the installer ([`definition`]), the interned names those mappings
//! hold, the version edges of an unstructured kind, structural schemas with their CEL rules,
//! the validation of a CRD, conversion webhooks, the controllers that decide when a CRD is
//! served ([`controller`]), and how a server installs all of it ([`install`]).

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
