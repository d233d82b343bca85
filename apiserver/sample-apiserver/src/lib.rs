//! The sample API server as a library: every group of this repository's `apis` crate, the
//! generated OpenAPI documents and the built-in kinds' printers over a storage backend. The
//! `sample-apiserver` binary serves it; tests start it in process.

#![deny(missing_docs)]

pub mod printers;

use std::sync::Arc;

use apiserver::storage::Storage;
use apiserver::{Config, Server};

/// The server for `apis` over `storage`.
pub fn server(storage: Arc<dyn Storage>, config: Config) -> Result<Server, runtime::SchemeError> {
    let scheme = apis::scheme()?;
    let server = Server::new(scheme, storage, config).with_openapi(&generated::openapi_v3_documents());
    Ok(printers::install(server))
}
