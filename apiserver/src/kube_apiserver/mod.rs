//! What kube-apiserver adds to the generic machinery for its own kinds, kept apart from the
//! library's core so that another server chooses it: namespaces (their strategy, their deletion
//! of everything inside them, and the NamespaceLifecycle admission plugin), and the garbage
//! collector kube-controller-manager runs beside it. [`server`] is the
//! generic server of a Scheme with this policy, which the sample server and the fake clientset run,
//! so that a client sees namespaces behave as on a cluster.
//!
//! It lives in this crate, not in the sample server's: the generated fake clientset needs the same
//! policy, and the sample server's crate depends on the generated one.

pub mod custom_resources;
pub mod garbage_collector;
mod namespace;
mod namespace_view;
mod rbac;
mod stores;

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use runtime::{RestMapping, Scheme};
use serde_json::{Value, json};

pub use custom_resources::{CrdStorage, CustomResources};
pub use garbage_collector::GarbageCollector;
pub use namespace::{FinalizeStorage, NamespaceStorage};
pub use stores::Stores;

use crate::admission::{Attributes, Operation, Validating};
use crate::auth::authorize::{Authorization, Mode};
use crate::auth::rbac::cache::{PolicyCache, PolicyStores};
use crate::custom::CompiledRules;
use crate::registry::generic::Resources;
use crate::registry::meta;
use crate::registry::strategy::{Checks, GenericStrategy, Strategy};
use crate::server::{Config, Server, SubresourceInfo};
use crate::status::{ApiError, Cause};
use kube_apiserver_storage::Storage;
use namespace_view::{NamespaceView, Phase};

/// Every resource `scheme` maps over `storage`, as [`Server::new`] serves them, with Kubernetes'
/// namespaces: their strategy, their storage (deleting a namespace deletes its content) and
/// NamespaceLifecycle (nothing is created in a namespace that is missing or terminating).
pub fn server(scheme: Scheme, storage: Arc<dyn Storage>, config: Config) -> Server {
    let scheme = Arc::new(scheme);
    let gates = config.feature_gates.clone();
    let collect_garbage = config.garbage_collection;
    let event_ttl = config.event_ttl;
    let strategy = |m: &RestMapping| strategy(m, event_ttl);
    let mut server = Server::empty(scheme.clone(), config);
    // Each kind's CEL rules, from the OpenAPI documents the server is given, beside its strategy.
    let registrar = server.registrar();
    let rules = |m: &RestMapping| -> Option<Arc<dyn Checks>> {
        let gvk = m.storage_group_version().with_kind(m.kind);
        Some(Arc::new(CompiledRules::new(registrar.clone(), gvk)))
    };
    let mut resources = Resources::configured(&scheme, storage.clone(), &strategy, &rules, &gates);
    let namespaces = resources.store("", "namespaces").cloned();
    let crds = resources
        .store("apiextensions.k8s.io", "customresourcedefinitions")
        .cloned();
    let rbac = |resource: &str| resources.store("rbac.authorization.k8s.io", resource).cloned();
    let policy_stores = match (
        rbac("clusterroles"),
        rbac("roles"),
        rbac("clusterrolebindings"),
        rbac("rolebindings"),
    ) {
        (Some(cluster_roles), Some(roles), Some(cluster_role_bindings), Some(role_bindings)) => Some(PolicyStores {
            cluster_roles,
            roles,
            cluster_role_bindings,
            role_bindings,
        }),
        _ => None,
    };
    // Every store, the compiled kinds' and those CRDs install later: what namespace deletion
    // empties and the garbage collector reads.
    let stores = Stores::new(resources.stores.values().cloned().collect());
    // What runs beside the server needs a runtime (the server and the fake are built in one).
    let runtime = tokio::runtime::Handle::try_current().ok();
    if let Some(namespaces) = namespaces {
        for r in resources.resources.iter_mut().filter(|r| is_namespaces(&r.mapping)) {
            r.storage = Arc::new(NamespaceStorage {
                namespaces: namespaces.clone(),
                contents: stores.clone(),
            });
            r.subresources.push(SubresourceInfo {
                name: "finalize",
                kind: r.mapping.group_version_kind(),
                storage: Arc::new(FinalizeStorage(namespaces.clone())),
            });
        }
        // Namespaces a restart left Terminating finish going, as the namespace controller
        // resumes them.
        if let Some(runtime) = &runtime {
            runtime.spawn(NamespaceStorage::resume(namespaces.clone(), stores.clone()));
        }
        server = server.with_validating(Arc::new(NamespaceLifecycle(NamespaceView::new(namespaces))));
    }
    if let Some(crds) = &crds {
        for r in resources.resources.iter_mut().filter(|r| is_crds(&r.mapping)) {
            r.storage = Arc::new(CrdStorage(crds.clone()));
        }
    }
    server.install_all(resources.resources);
    // apiextensions-apiserver's controllers: CRDs are served from the moment they are
    // established, after the compiled kinds are installed (a CRD of a compiled kind defers to it).
    if let (Some(crds), Some(runtime)) = (crds, &runtime) {
        let _entered = runtime.enter();
        CustomResources::new(crds, storage, server.registrar(), stores.clone()).start();
    }
    // The authorizers of --authorization-mode; RBAC reads the policy of the rbac stores (and
    // creates the bootstrap roles), so it needs the group compiled in.
    let modes = server.config.authorization_modes.clone();
    if modes != [Mode::AlwaysAllow] {
        let policy = match (modes.contains(&Mode::Rbac), policy_stores, &runtime) {
            (true, Some(stores), Some(runtime)) => {
                let _entered = runtime.enter();
                Some(PolicyCache::start(stores))
            }
            (true, _, _) => {
                tracing::error!(
                    "RBAC needs the rbac.authorization.k8s.io group and a runtime; every request of a user outside system:masters is refused"
                );
                None
            }
            _ => None,
        };
        let authorization = Authorization::of(&modes, policy);
        // RBAC's escalation check reads the same policy and asks the same chain.
        if authorization.policy().is_some() {
            server = server.with_mutating(Arc::new(rbac::Escalation(authorization.clone())));
        }
        server.authorization = Some(Arc::new(authorization));
    }
    // The garbage collector kube-controller-manager runs, over every store.
    if collect_garbage && let Some(runtime) = &runtime {
        let _entered = runtime.enter();
        GarbageCollector::new(stores).start();
    }
    server
}

/// [`server`] over an empty embedded store: what the generated fake clientset runs on.
pub fn in_memory(scheme: Scheme, config: Config) -> Server {
    server(
        scheme,
        Arc::new(kube_apiserver_storage::memory::MemoryStorage::default()),
        config,
    )
}

fn is_namespaces(m: &RestMapping) -> bool {
    m.group.is_empty() && m.resource == "namespaces"
}

fn is_crds(m: &RestMapping) -> bool {
    m.group == "apiextensions.k8s.io" && m.resource == "customresourcedefinitions"
}

/// The resources whose DELETE answers with the deleted object, as their storage in Kubernetes
/// sets `ReturnDeletedObject`; every other resource answers a Success Status.
const RETURN_DELETED_OBJECT: &[(&str, &str)] = &[
    ("", "namespaces"),
    ("", "persistentvolumeclaims"),
    ("", "persistentvolumes"),
    ("", "pods"),
    ("", "serviceaccounts"),
    ("", "services"),
    ("storage.k8s.io", "storageclasses"),
];

/// Kubernetes' strategy of each resource: the namespace strategy for namespaces, Events kept for
/// `event_ttl`, else the generic one, each returning deleted objects where Kubernetes does.
pub fn strategy(m: &RestMapping, event_ttl: Duration) -> Arc<dyn Strategy> {
    let generic = GenericStrategy {
        return_deleted_object: RETURN_DELETED_OBJECT.contains(&(m.group, m.resource)),
        ..GenericStrategy::for_mapping(m)
    };
    if is_namespaces(m) {
        Arc::new(NamespaceStrategy(generic))
    } else if m.group == "rbac.authorization.k8s.io" {
        Arc::new(rbac::RbacStrategy(generic))
    } else if m.group.is_empty() && m.resource == "events" {
        // Every write keeps the Event for `--event-ttl` from then, as kube-apiserver's Event
        // storage does (its TTLFunc ignores the object).
        Arc::new(GenericStrategy {
            ttl: Some(event_ttl),
            ..generic
        })
    } else if is_crds(m) {
        Arc::new(crate::registry::strategy::Checked {
            inner: Arc::new(generic),
            checks: crate::custom::CrdChecks,
        })
    } else {
        Arc::new(generic)
    }
}

/// Namespaces: a DNS-label name, and `status.phase` Active from creation.
#[derive(Clone, Copy, Debug)]
pub struct NamespaceStrategy(pub GenericStrategy);

impl Strategy for NamespaceStrategy {
    fn prepare_for_create(&self, obj: &mut Value) {
        self.0.prepare_for_create(obj);
        obj["status"] = json!({"phase": "Active"});
    }

    fn prepare_for_update(&self, new: &mut Value, old: &Value) {
        self.0.prepare_for_update(new, old)
    }

    fn prepare_for_status_update(&self, new: &mut Value, old: &Value) {
        self.0.prepare_for_status_update(new, old)
    }

    fn validate(&self, obj: &Value) -> Vec<Cause> {
        let mut causes = meta::validate_name(obj, true);
        causes.extend(meta::validate_object_meta(obj));
        causes
    }

    fn returns_deleted_object(&self) -> bool {
        self.0.returns_deleted_object()
    }
}

/// NamespaceLifecycle over a view of the namespaces' store.
pub struct NamespaceLifecycle(pub NamespaceView);

#[async_trait]
impl Validating for NamespaceLifecycle {
    async fn validate(&self, a: &Attributes<'_>, _obj: &Value) -> Result<(), ApiError> {
        let (Operation::Create, Some(namespace)) = (a.operation, a.namespace) else {
            return Ok(());
        };
        let phase = self.0.phase(namespace).await?;
        if phase == Phase::Missing {
            return Err(ApiError::not_found("", "namespaces", namespace));
        }
        if phase == Phase::Terminating {
            return Err(ApiError::forbidden(format!(
                "{} \"{}\" is forbidden: unable to create new content in namespace {namespace} because it is being terminated",
                crate::status::qualified(a.resource.mapping.group, a.resource.mapping.resource),
                a.name
            )));
        }
        Ok(())
    }
}
