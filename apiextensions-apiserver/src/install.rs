//! How a server serves CustomResourceDefinitions (apiextensions-apiserver installed into a
//! generic server): the CRDs' own storage with apiextensions-apiserver's deletion and checks,
//! the controllers that serve each established CRD (started by a post-start hook), and the
//! conversion webhook answered from the Scheme's generated conversions (`/convert`, where a
//! CRD's `spec.conversion.webhook.clientConfig` of a compiled kind points).

use std::sync::Arc;

use axum::routing::post;
use bytes::Bytes;
use kube_apimachinery::Scheme;
use serde_json::Value;

use super::{CrdChecks, CrdStorage, CustomResources};
use kube_apiserver_storage::Storage;
use kube_generic_apiserver::endpoints::respond::json_response;
use kube_generic_apiserver::registry::rest::RestStorage;
use kube_generic_apiserver::registry::store::Store;
use kube_generic_apiserver::registry::stores::Stores;
use kube_generic_apiserver::registry::strategy::{Checked, GenericStrategy, Strategy};
use kube_generic_apiserver::server::Server;
use kube_generic_apiserver::status::ApiError;

/// The path of the conversion webhook.
pub const CONVERT_PATH: &str = "/convert";

/// The CRDs' strategy: `generic` with apiextensions-apiserver's validation of a CRD.
pub fn strategy(generic: GenericStrategy) -> Arc<dyn Strategy> {
    Arc::new(Checked {
        inner: Arc::new(generic),
        checks: CrdChecks,
    })
}

/// The CRDs' storage over their store: a deletion waits for the CRD's objects to go.
pub fn storage(crds: Arc<Store>) -> Arc<dyn RestStorage> {
    Arc::new(CrdStorage(crds))
}

/// Serves the CRDs of `crds` on `server` once it starts: their objects stored in `storage`,
/// their stores joining `stores`; and the conversion webhook of the server's compiled kinds.
pub fn install(server: Server, crds: Arc<Store>, storage: Arc<dyn Storage>, stores: Arc<Stores>) -> Server {
    let registrar = server.registrar();
    // CRDs are served from the moment they are established, after the compiled kinds are
    // installed (a CRD of a compiled kind defers to it).
    server.add_post_start_hook("apiextensions-controllers", move || {
        CustomResources::new(crds, storage, registrar, stores).start();
    });
    let scheme = server.scheme().clone();
    server.with_handler(CONVERT_PATH, post(move |body: Bytes| convert(scheme.clone(), body)))
}

/// A ConversionReview answered from `scheme`'s conversions.
async fn convert(scheme: Arc<Scheme>, body: Bytes) -> Result<axum::response::Response, ApiError> {
    let review: Value = serde_json::from_slice(&body)
        .map_err(|e| ApiError::bad_request(format!("the ConversionReview is not valid JSON: {e}")))?;
    Ok(json_response(
        kube_apimachinery::codec::Codec::new(&scheme).review(&review),
    ))
}
