//! The registry (k8s.io/apiserver's `pkg/registry`): the capabilities a resource's storage offers
//! ([`rest`]), the generic store of one resource ([`store::Store`]), the strategies that prepare
//! and check objects per kind ([`strategy`]), the Scheme's validation around a strategy
//! ([`validated`]), the `scale` subresource over a store ([`scale`]), the stores of every served
//! resource ([`stores`]), and the resources a Scheme maps, ready to install ([`generic`]).

pub mod generic;
pub mod rest;
pub mod scale;
pub mod store;
pub mod stores;
pub mod strategy;
pub mod validated;

use std::sync::Arc;

use kube_apimachinery::{GroupVersionKind, RestMapping};

use crate::convert::Edges;
use rest::RestStorage;

/// One resource to serve (an entry of k8s.io/apiserver's `APIGroupInfo`): how it is mapped, the
/// storage of the resource itself, and its subresources' storages.
pub struct ResourceInfo {
    /// Group, version, resource, kind, scope and subresources, as the Scheme maps them.
    pub mapping: RestMapping,
    /// The resource's storage; its capabilities decide the verbs served.
    pub storage: Arc<dyn RestStorage>,
    /// `status`, `scale`: each with the kind its bodies carry and its storage.
    pub subresources: Vec<SubresourceInfo>,
    /// The version edges when they are not the Scheme's: a custom resource defined at run time.
    pub edges: Option<Arc<dyn Edges>>,
}

/// A subresource to serve below its resource.
pub struct SubresourceInfo {
    /// `status` or `scale`.
    pub name: &'static str,
    /// The kind its bodies carry (autoscaling/v1 Scale for `scale`).
    pub kind: GroupVersionKind,
    /// Its storage.
    pub storage: Arc<dyn RestStorage>,
    /// Its own version edges, when its bodies are not its resource's kind's (a TokenRequest of a
    /// ServiceAccount); `None`: the resource's.
    pub edges: Option<Arc<dyn Edges>>,
}

#[cfg(test)]
mod ttl_tests;
