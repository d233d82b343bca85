//! The generic API server machinery, a Rust reading of k8s.io/apiserver: [`kube_apiserver_storage`] (a key-value
//! store with revisions and watches: embedded or etcd), the generic [`registry`] store with
//! per-kind strategies, the capability traits of [`rest`], the route [`installer`] that turns each
//! resource's capabilities into Kubernetes' action table, the request flow in [`handlers`] (decode
//! any served version, default, convert through the internal version, admit, validate, store in the
//! storage version, answer in the request's version), [`watch`] streams, and [`discovery`].
//!
//! Everything per kind comes from the Scheme the generated code fills: [`runtime::RestMapping`]s
//! say which resources exist, their scope, subresources and storage version; the codec decodes,
//! defaults and converts. A server is built as k8s.io/apiserver's `GenericAPIServer` is: the
//! caller installs each resource with the storage and strategy it chooses ([`Server::install`], a
//! [`ResourceInfo`], from [`registry::generic`] or its own), and may install and remove resources
//! while the server runs. [`Server::new`] installs every resource of a Scheme with the generic
//! store; [`kube_apiserver::server`] adds what kube-apiserver does for its own kinds (namespaces).
//! [`routes`] is the table of paths under tower's limit, load-shedding and timeout layers.

#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod admission;
pub mod auth;
pub mod convert;
pub mod custom;
pub mod delete;
pub mod discovery;
pub mod duplicates;
pub mod handlers;
pub mod installer;
pub mod kube_apiserver;
#[cfg(feature = "local")]
pub mod local;
pub mod openapi;
pub mod patch;
pub mod query;
pub mod registry;
pub mod request;
pub mod respond;
pub mod rest;
pub mod routes;
pub mod scale;
pub mod selector;
pub mod serve;
pub mod server;
pub mod server_side_apply;
pub mod status;
pub mod strategic;
pub mod table;
pub mod watch;

pub use server::{Config, Registry, ResourceInfo, Server, SubresourceInfo};
pub use status::ApiError;

/// The README's Rust examples, compiled and run as doc tests (they use this crate's
/// dev-dependencies: the generated clientset with its fake).
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct ReadmeDoctests;
