//! The generic resources of a Scheme (k8s.io/apiserver's `genericregistry.Store` per resource):
//! one registry store per group-resource, shared by every version that serves it and keyed in its
//! storage version, with `/status` and `/scale` over the same store where the mapping has them.
//! The caller chooses each resource's strategy and may replace any storage before installing.

use std::collections::BTreeMap;
use std::sync::Arc;

use kube_apimachinery::{RestMapping, Scheme};

use super::store::Store;
use super::strategy::{Checks, GenericStrategy, Strategy};
use super::validated::Validated;
use crate::registry::rest::StatusStorage;
use crate::registry::scale::ScaleStorage;
use crate::registry::{ResourceInfo, SubresourceInfo};
use kube_apiserver_storage::Storage;

/// The strategy every resource gets unless its server says otherwise: status written only through
/// `/status` where there is one, generations where the mapping counts them.
pub fn strategy(m: &RestMapping) -> Arc<dyn Strategy> {
    Arc::new(GenericStrategy::for_mapping(m))
}

/// Every resource a Scheme maps, ready to install.
pub struct Resources {
    /// The registry store of each (group, resource).
    pub stores: BTreeMap<(String, String), Arc<Store>>,
    /// Each served version of each resource, in the Scheme's order.
    pub resources: Vec<ResourceInfo>,
}

impl Resources {
    /// A store per group-resource of `scheme` over `storage`, with the strategy `strategy` picks
    /// and the validation `scheme` registers for the kind's storage version around it; every
    /// feature gate off.
    pub fn new(
        scheme: &Arc<Scheme>,
        storage: Arc<dyn Storage>,
        strategy: &dyn Fn(&RestMapping) -> Arc<dyn Strategy>,
    ) -> Self {
        Self::configured(scheme, storage, strategy, &|_| None, &BTreeMap::new(), &|_| true)
    }

    /// As [`Resources::new`], validating with these feature gates and then checking each
    /// kind's `rules` (its CEL rules, which its validation's errors can block); only the
    /// resources `served` accepts (the server's `--runtime-config` and the kinds' lifecycles).
    pub fn configured(
        scheme: &Arc<Scheme>,
        storage: Arc<dyn Storage>,
        strategy: &dyn Fn(&RestMapping) -> Arc<dyn Strategy>,
        rules: &dyn Fn(&RestMapping) -> Option<Arc<dyn Checks>>,
        feature_gates: &BTreeMap<String, bool>,
        served: &dyn Fn(&RestMapping) -> bool,
    ) -> Self {
        let gates = Arc::new(feature_gates.clone());
        let mut stores: BTreeMap<(String, String), Arc<Store>> = BTreeMap::new();
        let mut resources = Vec::new();
        for m in scheme.rest_mappings().filter(|m| served(m)) {
            let store = stores
                .entry((m.group.to_string(), m.resource.to_string()))
                .or_insert_with(|| {
                    Arc::new(Store::new(
                        storage.clone(),
                        m.group,
                        m.resource,
                        m.kind,
                        m.namespaced(),
                        Validated::wrap(
                            strategy(m),
                            scheme,
                            m.storage_group_version().with_kind(m.kind),
                            gates.clone(),
                            rules(m),
                        ),
                    ))
                })
                .clone();
            let mut subresources = Vec::new();
            if let Some(sub) = m.subresource("status") {
                subresources.push(SubresourceInfo {
                    name: "status",
                    kind: sub.group_version_kind(),
                    storage: Arc::new(StatusStorage(store.clone())),
                    edges: None,
                });
            }
            if let Some(sub) = m.subresource("scale")
                && let Some(paths) = sub.scale
            {
                let scale = ScaleStorage {
                    store: store.clone(),
                    paths,
                    kind: sub.group_version_kind(),
                };
                subresources.push(SubresourceInfo {
                    name: "scale",
                    kind: sub.group_version_kind(),
                    storage: Arc::new(scale),
                    edges: None,
                });
            }
            resources.push(ResourceInfo {
                mapping: *m,
                storage: store,
                subresources,
                edges: None,
            });
        }
        Resources { stores, resources }
    }

    /// The store of `resource` of `group`, if the Scheme maps it.
    pub fn store(&self, group: &str, resource: &str) -> Option<&Arc<Store>> {
        self.stores.get(&(group.to_string(), resource.to_string()))
    }
}
