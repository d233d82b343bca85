//! The generic machinery of Kubernetes-style API servers, k8s.io/apiserver in Rust. A server is
//! built as a `GenericAPIServer` is: the caller installs each resource with the storage and
//! strategy it chooses ([`Server::install`] of a [`ResourceInfo`], from [`registry::generic`] or
//! its own), adds admission plugins, authenticators, authorizers, non-resource handlers and
//! post-start hooks, and may install and remove resources while the server runs. Everything per
//! kind comes from the Scheme the generated code fills: [`kube_apimachinery::RestMapping`]s say which
//! resources exist, their scope, subresources and storage version; the codec decodes, defaults
//! and converts. No module here names a Kubernetes group or kind: what one particular server
//! adds (kube-apiserver's kinds, RBAC, custom resources) lives in the crates that serve them.
//!
//! The request flow: the [`endpoints::filters`] (request info, authentication, audit,
//! impersonation, authorization), then the handler of the verb with the request's
//! [`endpoints::scope::Scope`]: decode any served version, default, convert through the internal
//! version, admit, validate, store in the storage version, answer in the request's version.
//!
//! # Layers
//!
//! Top to bottom; a module uses only the modules of the layers below its own:
//!
//! 1. [`server`]: the server, its configuration, routes and filters in order, serving, TLS.
//! 2. [`endpoints`]: the installer, the registry of served resources, the handlers, discovery,
//!    OpenAPI, content negotiation and the filters.
//! 3. [`admission`]: the admission chain and the plugins k8s.io/apiserver ships.
//! 4. [`registry`]: REST capabilities, the generic store, strategies, scale and status.
//! 5. [`audit`], [`authorization`]: the audit policy and log; authorizers and their chain.
//! 6. [`authentication`], [`convert`], [`patch`], [`server_side_apply`], [`table`]: who sends a
//!    request; the version edges; patches; managed fields and apply; tables.
//! 7. [`cel`], [`duplicates`], [`query`], [`selector`], [`stored`], [`strategic`]: CEL
//!    libraries; duplicate JSON keys; query parameters; selectors; stored bytes; strategic merge.
//! 8. [`meta`]: ObjectMeta on JSON objects.
//! 9. [`request`], [`status`]: what a request asks; Kubernetes' Status errors.

#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod admission;
pub mod audit;
pub mod authentication;
pub mod authorization;
pub mod cel;
pub mod convert;
pub mod duplicates;
pub mod endpoints;
pub mod meta;
pub mod patch;
pub mod query;
pub mod registry;
pub mod request;
pub mod selector;
pub mod server;
pub mod server_side_apply;
pub mod status;
pub mod stored;
pub mod strategic;
pub mod table;

pub use endpoints::registrar::{Registrar, Registry};
pub use registry::{ResourceInfo, SubresourceInfo};
pub use server::{Config, Server};
pub use status::ApiError;
