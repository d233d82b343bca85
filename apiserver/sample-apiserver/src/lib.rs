//! The sample API server as a library: every group of this repository's `apis` crate with
//! Kubernetes' own policy (`apiserver::kube_apiserver`), the admission plugins asked for, the
//! generated OpenAPI documents and the built-in kinds' printers over a storage backend. The
//! `sample-apiserver` binary serves it; tests start it in process.

#![deny(missing_docs)]

pub mod admission;
pub mod printers;

use std::sync::Arc;

use apiserver::{Config, Server};
use kube_apiserver_storage::Storage;

/// The server for `apis` over `storage`, with `plugins` enabled.
pub fn server(
    storage: Arc<dyn Storage>,
    config: Config,
    plugins: &[admission::Plugin],
) -> Result<Server, runtime::SchemeError> {
    let scheme = apis::scheme()?;
    let mut server =
        apiserver::kube_apiserver::server(scheme, storage, config).with_openapi(&generated::openapi_v3_documents());
    for plugin in plugins {
        server = server.with_mutating(plugin.mutating());
    }
    Ok(printers::install(server))
}
