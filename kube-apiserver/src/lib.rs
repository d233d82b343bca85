//! kube-apiserver: the generic server assembled with what kube-apiserver adds for its own kinds
//! and owns as policy: the per-kind strategies ([`strategies`]), namespaces and their deletion,
//! the garbage collector kube-controller-manager runs beside it, RBAC, ServiceAccounts and their
//! tokens, the review APIs as REST storages ([`registry`]), admission plugins by name
//! ([`admission`]), Event TTLs, printers, authentication and authorization as its flags
//! configure them, and the custom resource server installed into it. [`server`] is the server of a
//! Scheme with this policy, which the sample server and the generated fake clientset run.
//!
//! # Layers
//!
//! Top to bottom; a module uses only the modules of the layers below its own:
//!
//! 1. [`options`]: the command line, turned into a [`Config`] and the HTTPS listener.
//! 2. [`admission`], [`registry`], [`strategies`]: plugins by name; the review APIs and
//!    TokenRequest; the per-kind strategies.
//! 3. [`authentication`], [`authorizer`], [`bootstrap`], [`events`], [`garbage_collector`],
//!    `namespace`, `names`, [`pod`], [`printers`], [`service`]: authentication and
//!    authorization as the flags configure them; the objects every cluster has; Events of both
//!    groups in one store; the collector; namespaces; Kubernetes' short names and categories;
//!    Pods' subresources; kube-apiserver's table columns; Services and their allocators.
//! 4. [`rbac`], [`serviceaccount`]: RBAC's policy, authorizer, bootstrap roles and escalation
//!    check; ServiceAccount tokens and their authenticator.

#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod admission;
pub mod authentication;
pub mod authorizer;
pub mod bootstrap;
pub mod events;
pub mod garbage_collector;
mod names;
mod namespace;
pub mod options;
pub mod pod;
pub mod printers;
pub mod rbac;
pub mod registry;
pub mod service;
pub mod serviceaccount;
pub mod strategies;

use std::sync::Arc;
use std::time::Duration;

use kube_apimachinery::{RestMapping, Scheme};

/// Kubernetes' Status errors (what a fake clientset's reactors answer with).
pub use kube_generic_apiserver::ApiError;
/// The server in process behind a `kube::Client` (feature `local`): what the generated fake
/// clientset runs on, with its reactors and record of actions.
#[cfg(feature = "local")]
pub use kube_generic_apiserver::server::local;

pub use admission::Plugin;
pub use authentication::Authentication;
pub use authorizer::Mode;
pub use garbage_collector::GarbageCollector;
pub use namespace::{FinalizeStorage, NamespaceStorage};

use kube_apiextensions_apiserver::CompiledRules;
use kube_apiserver_storage::Storage;
use kube_generic_apiserver::admission::plugins::NamespaceLifecycle;
use kube_generic_apiserver::registry::SubresourceInfo;
use kube_generic_apiserver::registry::generic::Resources;
use kube_generic_apiserver::registry::stores::Stores;
use kube_generic_apiserver::registry::strategy::Checks;
use kube_generic_apiserver::server::Server;
use rbac::PolicyStores;
use rbac::cache::PolicyCache;
use service::ServiceStorage;
use service::ip_allocator::IpAllocator;
use service::port_allocator::NodePorts;
use serviceaccount::{ServiceAccountTokens, ServiceAccounts};

/// What kube-apiserver is told at start: the generic server's configuration and its own flags.
#[derive(Clone, Debug)]
pub struct Config {
    /// The generic server's configuration.
    pub generic: kube_generic_apiserver::server::Config,
    /// Whether the garbage collector runs (kube-controller-manager's
    /// `--enable-garbage-collector`): owner references delete, orphan or wait for dependents.
    pub garbage_collection: bool,
    /// `--authorization-mode`: the authorizers, in order.
    pub authorization_modes: Vec<Mode>,
    /// The authentication flags of secure listeners.
    pub authentication: Authentication,
    /// The ServiceAccount token issuer (`--service-account-issuer`, `--api-audiences`, the
    /// signing key): the `serviceaccounts/token` subresource issues with it (when it signs), and
    /// bearer tokens and TokenReviews are checked with it. None: neither.
    pub service_account_tokens: Option<Arc<ServiceAccountTokens>>,
    /// `--event-ttl`: how long an Event is kept after its last write (an hour by default).
    pub event_ttl: Duration,
    /// `--enable-admission-plugins`: the plugins on beyond the defaults.
    pub enable_admission_plugins: Vec<Plugin>,
    /// `--disable-admission-plugins`: the default plugins turned off.
    pub disable_admission_plugins: Vec<Plugin>,
    /// The Services' networks (`--service-cluster-ip-range`, `--service-node-port-range`,
    /// `--advertise-address`).
    pub services: service::Network,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            // Kubernetes' own alpha and beta versions are off until `--runtime-config` names them.
            generic: kube_generic_apiserver::server::Config {
                resources: kube_generic_apiserver::server::resource_config::ResourceConfig::new(
                    options::prerelease_served_by_default,
                ),
                ..kube_generic_apiserver::server::Config::default()
            },
            garbage_collection: true,
            authorization_modes: vec![Mode::AlwaysAllow],
            authentication: Authentication::default(),
            service_account_tokens: None,
            event_ttl: Duration::from_secs(3600),
            enable_admission_plugins: Vec::new(),
            disable_admission_plugins: Vec::new(),
            services: service::Network::default(),
        }
    }
}

/// Every resource `scheme` maps over `storage`, with kube-apiserver's policy: the strategies of
/// its kinds, namespaces whose deletion empties them, CRDs served at run time, RBAC and the
/// review APIs, ServiceAccount tokens, the admission plugins, printers, and the garbage
/// collector. What runs beside the handlers starts with the server's post-start hooks.
pub fn server(scheme: Scheme, storage: Arc<dyn Storage>, config: Config) -> Server {
    let scheme = Arc::new(scheme);
    let settings = strategies::Settings {
        event_ttl: config.event_ttl,
    };
    let strategy = |m: &RestMapping| strategies::strategy(m, &settings);
    let server = Server::empty(scheme.clone(), config.generic.clone());
    // Each kind's CEL rules, from the OpenAPI documents the server is given, beside its strategy.
    let registrar = server.registrar();
    let rules = |m: &RestMapping| -> Option<Arc<dyn Checks>> {
        let gvk = m.storage_group_version().with_kind(m.kind);
        Some(Arc::new(CompiledRules::new(registrar.clone(), gvk)))
    };
    let mut resources = Resources::configured(
        &scheme,
        storage.clone(),
        &strategy,
        &rules,
        &config.generic.feature_gates,
        &|m| options::has_storage(m) && config.generic.serves(&scheme, m),
    );
    for r in &mut resources.resources {
        names::apply(&mut r.mapping);
    }
    let store = |group: &str, resource: &str| resources.store(group, resource).cloned();
    let namespaces = store("", "namespaces");
    let accounts = store("", "serviceaccounts");
    let crds = store("apiextensions.k8s.io", "customresourcedefinitions");
    let rbac = |resource: &str| store("rbac.authorization.k8s.io", resource);
    let priority_classes = store("scheduling.k8s.io", "priorityclasses");
    let services = store("", "services");
    let configmaps = store("", "configmaps");
    let pods = store("", "pods");
    let core_events = store("", "events");
    let budgets = store("policy", "poddisruptionbudgets");
    let csrs = store("certificates.k8s.io", "certificatesigningrequests");
    let flow_control = (
        store("flowcontrol.apiserver.k8s.io", "prioritylevelconfigurations"),
        store("flowcontrol.apiserver.k8s.io", "flowschemas"),
    );
    let service_stores = (
        store("networking.k8s.io", "ipaddresses"),
        store("", "endpoints"),
        store("discovery.k8s.io", "endpointslices"),
        store("networking.k8s.io", "servicecidrs"),
    );
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
    // events.k8s.io's Events are core/v1's, read through the other group (its own store goes).
    if let Some(core_events) = core_events {
        let edges: Arc<dyn kube_generic_apiserver::convert::Edges> = Arc::new(events::EventsEdges::new(scheme.clone()));
        for r in resources
            .resources
            .iter_mut()
            .filter(|r| is(&r.mapping, "events.k8s.io", "events"))
        {
            r.storage = core_events.clone();
            r.edges = Some(edges.clone());
        }
        resources
            .stores
            .remove(&("events.k8s.io".to_string(), "events".to_string()));
    }
    // `bindings` stores nothing: a Binding binds the Pod it names (its own store goes).
    if let Some(pods) = &pods {
        for r in resources
            .resources
            .iter_mut()
            .filter(|r| is(&r.mapping, "", "bindings"))
        {
            r.storage = Arc::new(pod::LegacyBindingStorage(pod::BindingStorage(pods.clone())));
        }
        resources.stores.remove(&(String::new(), "bindings".to_string()));
    }
    // Every store, the compiled kinds' and those CRDs install later: what namespace deletion
    // empties and the garbage collector reads.
    let stores = Stores::new(resources.stores.values().cloned().collect());
    let mut server = server;
    if let Some(namespaces) = &namespaces {
        for r in resources
            .resources
            .iter_mut()
            .filter(|r| is(&r.mapping, "", "namespaces"))
        {
            r.storage = Arc::new(NamespaceStorage {
                namespaces: namespaces.clone(),
                contents: stores.clone(),
            });
            r.subresources.push(SubresourceInfo {
                name: "finalize",
                kind: r.mapping.group_version_kind(),
                storage: Arc::new(FinalizeStorage(namespaces.clone())),
                edges: None,
            });
        }
        // The system namespaces, as kube-apiserver's system namespaces controller keeps them.
        server.add_bootstrap_hook(
            "start-system-namespaces-controller",
            bootstrap::system_namespaces(namespaces.clone()),
        );
        // Namespaces a restart left Terminating finish going, as the namespace controller
        // resumes them.
        let (namespaces, contents) = (namespaces.clone(), stores.clone());
        server.add_post_start_hook("namespace-deletion", move || {
            tokio::spawn(NamespaceStorage::resume(namespaces, contents));
        });
    }
    if let Some(services) = services {
        let network = &config.services;
        let (addresses, endpoints, endpoint_slices, service_cidrs) = service_stores;
        let storage = Arc::new(ServiceStorage {
            ips: addresses.map(|addresses| IpAllocator {
                range: network.cluster_ip_range.clone(),
                addresses,
                services: services.clone(),
            }),
            node_ports: NodePorts::new(network.node_port_range, services.clone()),
            services,
        });
        for r in resources
            .resources
            .iter_mut()
            .filter(|r| is(&r.mapping, "", "services"))
        {
            r.storage = storage.clone();
        }
        // The `kubernetes` Service, after the system namespaces (hooks run in order).
        let stores = service::kubernetes::Stores {
            services: storage,
            endpoints,
            endpoint_slices,
            service_cidrs,
        };
        server.add_bootstrap_hook(
            "bootstrap-controller",
            service::kubernetes::bootstrap(stores, network.advertise),
        );
    }
    if let (Some(tokens), Some(accounts)) = (config.service_account_tokens.clone().filter(|t| t.signs()), &accounts) {
        for r in resources
            .resources
            .iter_mut()
            .filter(|r| is(&r.mapping, "", "serviceaccounts"))
        {
            r.subresources
                .push(registry::token_subresource(tokens.clone(), accounts.clone()));
        }
    }
    if let Some(crds) = &crds {
        for r in resources
            .resources
            .iter_mut()
            .filter(|r| is(&r.mapping, "apiextensions.k8s.io", "customresourcedefinitions"))
        {
            r.storage = kube_apiextensions_apiserver::install::storage(crds.clone());
        }
    }
    // Kubernetes' own subresources of Pods and CertificateSigningRequests.
    if let Some(pods) = &pods {
        for r in resources.resources.iter_mut().filter(|r| is(&r.mapping, "", "pods")) {
            r.subresources.extend(pod::pod_subresources(pods, budgets.clone()));
        }
    }
    if let Some(csrs) = &csrs {
        for r in resources
            .resources
            .iter_mut()
            .filter(|r| is(&r.mapping, "certificates.k8s.io", "certificatesigningrequests"))
        {
            r.subresources.push(SubresourceInfo {
                name: "approval",
                kind: r.mapping.group_version_kind(),
                storage: Arc::new(pod::parts::PartStorage {
                    store: csrs.clone(),
                    part: pod::parts::Part::Approval,
                }),
                edges: None,
            });
        }
    }
    if let Some(configmaps) = configmaps {
        server.add_bootstrap_hook(
            "start-cluster-authentication-info-controller",
            bootstrap::cluster_authentication_info(configmaps, config.authentication.client_ca.clone()),
        );
    }
    if let (Some(levels), Some(schemas)) = flow_control {
        server.add_bootstrap_hook(
            "priority-and-fairness-config-producer",
            bootstrap::flowcontrol::bootstrap(levels, schemas),
        );
    }
    if let Some(priority_classes) = priority_classes {
        server.add_bootstrap_hook(
            "scheduling/bootstrap-system-priority-classes",
            bootstrap::system_priority_classes(priority_classes),
        );
    }
    // Authentication: bearer tokens (static, then ServiceAccount tokens of accounts that still
    // exist), client certificates, anonymous; TokenReview asks the same token authenticators.
    let tokens = config.authentication.token_authenticator(
        config.service_account_tokens.as_ref(),
        accounts.clone().map(|a| a as Arc<dyn ServiceAccounts>),
    );
    server = server.with_authentication(config.authentication.request_authenticator(tokens.clone()));
    // The authorizers of --authorization-mode; RBAC reads the policy of the rbac stores (and
    // creates the bootstrap roles), so it needs the group compiled in.
    let modes = config.authorization_modes.clone();
    let mut policy = None;
    if modes.contains(&Mode::Rbac) {
        match policy_stores {
            Some(stores) => {
                let (cache, start) = PolicyCache::new(stores);
                server.add_post_start_hook("rbac/bootstrap-roles", start);
                policy = Some(cache);
            }
            None => tracing::error!(
                "RBAC needs the rbac.authorization.k8s.io group; every request of a user outside system:masters is refused"
            ),
        }
    }
    let authorization = (modes != [Mode::AlwaysAllow]).then(|| Arc::new(authorizer::chain(&modes, policy.as_ref())));
    if let Some(authorization) = &authorization {
        // RBAC's escalation check reads the same policy and asks the same chain.
        if let Some(policy) = &policy {
            server = server.with_mutating(Arc::new(rbac::strategy::Escalation {
                authorization: (**authorization).clone(),
                policy: policy.clone(),
            }));
        }
        server = server.with_authorization(authorization.clone());
    }
    resources.resources.extend(registry::reviews(
        registry::Reviewers {
            tokens,
            authorization,
            policy,
        },
        &scheme,
    ));
    // The admission plugins, by name.
    for plugin in Plugin::enabled(&config.enable_admission_plugins, &config.disable_admission_plugins) {
        match plugin {
            Plugin::NamespaceLifecycle => match &namespaces {
                Some(namespaces) => {
                    let lifecycle = NamespaceLifecycle::new(namespaces.clone(), registry::namespace_exempt());
                    server = server.with_validating(Arc::new(lifecycle));
                }
                None => tracing::warn!("NamespaceLifecycle needs the core group's namespaces; it is off"),
            },
            Plugin::AlwaysPullImages => server = server.with_mutating(Arc::new(admission::AlwaysPullImages)),
        }
    }
    server.install_all(resources.resources);
    // apiextensions-apiserver: CRDs served from the moment they are established.
    if let Some(crds) = crds {
        server = kube_apiextensions_apiserver::install::install(server, crds, storage, stores.clone());
    }
    // The garbage collector kube-controller-manager runs, over every store.
    if config.garbage_collection {
        server.add_post_start_hook("garbage-collector", move || GarbageCollector::new(stores).start());
    }
    printers::install(server)
}

/// [`server`] over an empty embedded store: what the generated fake clientset runs on.
pub fn in_memory(scheme: Scheme, config: Config) -> Server {
    server(
        scheme,
        Arc::new(kube_apiserver_storage::memory::MemoryStorage::default()),
        config,
    )
}

/// Whether `m` maps `resource` of `group`.
fn is(m: &RestMapping, group: &str, resource: &str) -> bool {
    m.group == group && m.resource == resource
}

/// The README's Rust examples, compiled and run as doc tests (they use this crate's
/// dev-dependencies: the generated clientset with its fake).
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct ReadmeDoctests;

/// The examples of `docs/apiserver.md`, compiled as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../../docs/apiserver.md")]
pub struct ApiserverDoctests;
