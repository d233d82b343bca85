//! What the generated clients build on (feature `client`): the typed client every kind's client
//! is ([`TypedClient`], its verbs written once), the extraction of a manager's apply
//! configuration from managedFields, the indexed cache, the shared informers that fill it and
//! the listers that read it, and the rate-limited work queue a controller's handlers feed.

mod apply;
pub mod cache;
pub mod informer;
pub mod lister;
pub mod managed_fields;
mod protobuf;
mod typed;
pub mod workqueue;

use serde::Serialize;

pub use protobuf::{Protobuf, ProtobufForm};
pub use typed::{ApplyConfiguration, TypedClient, Verbs, verb};
pub use workqueue::WorkQueue;

/// The name in an object's metadata, which a replace (`PUT`) addresses; an object without one is
/// an error before anything is sent, as kube's own requests validate names.
pub fn name<K: kube::Resource>(obj: &K) -> kube::Result<&str> {
    obj.meta().name.as_deref().filter(|n| !n.is_empty()).ok_or_else(|| {
        kube::Error::BuildRequest(kube::core::request::Error::Validation(
            "the object has no metadata.name to address".into(),
        ))
    })
}

/// The name an apply configuration is applied to, which it must carry.
pub fn apply_name(name: Option<&str>) -> kube::Result<&str> {
    name.filter(|n| !n.is_empty()).ok_or_else(|| {
        kube::Error::BuildRequest(kube::core::request::Error::Validation(
            "the apply configuration has no metadata.name to address".into(),
        ))
    })
}

/// The JSON body of a request.
pub fn body<I: Serialize>(input: &I) -> kube::Result<Vec<u8>> {
    serde_json::to_vec(input).map_err(kube::Error::SerdeError)
}
