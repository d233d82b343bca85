//! The server (k8s.io/apiserver's `GenericAPIServer`): a registry of served resources that callers
//! fill and change while it runs (`install`, `uninstall`, as `InstallAPIGroup` does with an
//! `APIGroupInfo`), the admission chain, the table printers, and the tower stack that serves them
//! (`routes`). Discovery and the OpenAPI documents are derived from the registry each time it
//! changes, never kept apart from it.

use std::collections::BTreeMap;
use std::sync::{Arc, RwLock};
use std::time::Duration;

use runtime::{GroupVersion, GroupVersionKind, RestMapping, Scheme};

use crate::admission::{Admission, Mutating, Validating};
use crate::convert::{Edges, Versions};
use crate::installer::Installed;
use crate::registry::generic;
use crate::rest::RestStorage;
use kube_apiserver_storage::Storage;

/// What the server is told at start.
#[derive(Clone, Debug)]
pub struct Config {
    /// The largest request body accepted (Kubernetes: 3 MiB).
    pub max_body_bytes: usize,
    /// How long a non-watch request may take.
    pub request_timeout: Duration,
    /// The `/version` this server reports (`major`, `minor`).
    pub version: (u32, u32),
    /// Requests served at once, watches excepted (Kubernetes' `--max-requests-inflight`); the
    /// next one gets 429 with Retry-After, so the server stays responsive under load.
    pub max_requests_inflight: usize,
    /// Feature gates (`--feature-gates=Gate=true`), which validation's `+k8s:ifEnabled` and
    /// `+k8s:ifDisabled` rules read; a gate not named here is off.
    pub feature_gates: BTreeMap<String, bool>,
    /// How long a connection may wait for a complete request head, idle between requests or
    /// new (kube-apiserver: 90 s idle, 32 s to read a head; hyper counts both with one timer).
    pub idle_timeout: Duration,
    /// How long a shutdown waits for the requests in flight once watches are ended
    /// (kube-apiserver's 60 s).
    pub shutdown_timeout: Duration,
    /// Whether `kube_apiserver::server` runs the garbage collector (kube-controller-manager's
    /// `--enable-garbage-collector`): owner references delete, orphan or wait for dependents.
    pub garbage_collection: bool,
    /// `--authorization-mode`: the authorizers `kube_apiserver::server` chains, in order.
    pub authorization_modes: Vec<crate::auth::authorize::Mode>,
    /// The ServiceAccount token issuer (`--service-account-issuer`, `--api-audiences`, the
    /// signing key): the `serviceaccounts/token` subresource issues with it and TokenReview
    /// checks with it. None: neither is served.
    pub service_account_tokens: Option<Arc<crate::auth::service_account::ServiceAccountTokens>>,
    /// `--audit-policy-file` and `--audit-log-path`: what is recorded of requests, and where.
    pub audit: Option<Arc<crate::auth::audit::Audit>>,
    /// `--event-ttl`: how long `kube_apiserver::server` keeps an Event after its last write
    /// (kube-apiserver's default, an hour).
    pub event_ttl: Duration,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            max_body_bytes: 3 * 1024 * 1024,
            request_timeout: Duration::from_secs(60),
            version: (1, 32),
            max_requests_inflight: 400,
            feature_gates: BTreeMap::new(),
            idle_timeout: Duration::from_secs(90),
            shutdown_timeout: Duration::from_secs(60),
            garbage_collection: true,
            authorization_modes: vec![crate::auth::authorize::Mode::AlwaysAllow],
            service_account_tokens: None,
            audit: None,
            event_ttl: Duration::from_secs(3600),
        }
    }
}

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
}

/// What the server serves at one moment: the installed resources and the OpenAPI documents
/// derived from them. A request works on one snapshot from start to end.
#[derive(Default)]
pub struct Registry {
    /// The served resources.
    pub installed: Installed,
    /// The OpenAPI v3 documents (and v2, merged from them).
    pub openapi: crate::openapi::Documents,
}

/// OpenAPI v3 documents by their path below `/openapi/v3/`.
pub type OpenApiDocuments = BTreeMap<String, serde_json::Value>;

/// The registry of served resources, shared by the server and what installs resources while it
/// runs (the CRD controllers): each change derives the documents anew.
#[derive(Default)]
pub struct Registrar {
    registry: RwLock<Arc<Registry>>,
    /// The generated OpenAPI v3 documents, parsed, which the served documents complete.
    generated_openapi: RwLock<BTreeMap<String, serde_json::Value>>,
    /// The documents of the CRDs served, by CRD name, merged into the generated ones.
    custom_openapi: RwLock<BTreeMap<String, BTreeMap<String, serde_json::Value>>>,
}

impl Registrar {
    /// The resources served now, and the documents that describe them.
    pub fn registry(&self) -> Arc<Registry> {
        self.registry.read().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Serves every one of `resources` (replacing what served the same group, version and
    /// resource), from the next request on, in one change of the registry.
    pub fn install_all(&self, resources: impl IntoIterator<Item = ResourceInfo>) {
        self.change(|installed| {
            for resource in resources {
                let m = resource.mapping;
                installed.uninstall(&GroupVersion::from_static(m.group, m.version), m.resource);
                installed.install(
                    m,
                    None,
                    m.group_version_kind(),
                    resource.storage,
                    resource.edges.clone(),
                );
                for sub in resource.subresources {
                    installed.install(m, Some(sub.name), sub.kind, sub.storage, resource.edges.clone());
                }
            }
        });
    }

    /// Stops serving `resource` of `gv` and its subresources; whether it was served. Requests
    /// already running finish on the snapshot they started with.
    pub fn uninstall(&self, gv: &GroupVersion, resource: &str) -> bool {
        let mut removed = false;
        self.change(|installed| removed = installed.uninstall(gv, resource));
        removed
    }

    /// Sets (or with `None` drops) the OpenAPI documents of the CRD named `crd`, made by `make`
    /// from the generated documents; they are served from the next change of the registry.
    pub fn set_documents(&self, crd: &str, make: Option<&dyn Fn(&OpenApiDocuments) -> OpenApiDocuments>) {
        let mut custom = self.custom_openapi.write().unwrap_or_else(|e| e.into_inner());
        match make {
            Some(make) => {
                let generated = self.generated_openapi.read().unwrap_or_else(|e| e.into_inner());
                custom.insert(crd.to_string(), make(&generated));
            }
            None => {
                custom.remove(crd);
            }
        }
    }

    /// Applies `change` to a copy of the installed resources and serves the copy with its
    /// documents derived anew; concurrent changes are serialized by the lock.
    fn change(&self, change: impl FnOnce(&mut Installed)) {
        let mut registry = self.registry.write().unwrap_or_else(|e| e.into_inner());
        let mut installed = registry.installed.clone();
        change(&mut installed);
        let generated = self.generated_openapi.read().unwrap_or_else(|e| e.into_inner());
        let custom = self.custom_openapi.read().unwrap_or_else(|e| e.into_inner());
        let openapi = if custom.is_empty() {
            crate::openapi::Documents::new(&generated, &installed)
        } else {
            let mut all = generated.clone();
            for docs in custom.values() {
                crate::custom::openapi::merge(&mut all, docs);
            }
            crate::openapi::Documents::new(&all, &installed)
        };
        *registry = Arc::new(Registry { installed, openapi });
    }
}

/// A server's state, shared by every request.
pub struct Server {
    registrar: Arc<Registrar>,
    /// The version edges.
    pub versions: Versions,
    /// The admission chain.
    pub admission: Admission,
    /// Table convertors by (group, resource); others get the default.
    tables: BTreeMap<(String, String), Arc<dyn crate::table::TableConvertor>>,
    /// The configuration.
    pub config: Config,
    /// Set once when the server stops: every watch ends.
    stopping: tokio::sync::watch::Sender<bool>,
    /// Who may do what (`auth::authorize`); without it every authenticated request may go on.
    pub authorization: Option<Arc<crate::auth::authorize::Authorization>>,
}

impl Server {
    /// A server of `scheme`'s kinds that serves nothing yet: callers install the resources, each
    /// with the storage and strategy they choose.
    pub fn empty(scheme: impl Into<Arc<Scheme>>, config: Config) -> Self {
        Server {
            registrar: Arc::default(),
            versions: Versions::new(scheme.into()),
            admission: Admission::default(),
            tables: BTreeMap::new(),
            config,
            stopping: tokio::sync::watch::Sender::new(false),
            authorization: None,
        }
    }

    /// Ends every watch (the server is stopping); watches started later end at once.
    pub fn stop_watches(&self) {
        self.stopping.send_replace(true);
    }

    /// Resolves when the server stops (what a watch waits on beside its events).
    pub fn stopped(&self) -> impl Future<Output = ()> + Send + 'static {
        let mut stopping = self.stopping.subscribe();
        async move {
            let _ = stopping.wait_for(|stopped| *stopped).await;
        }
    }

    /// Every resource `scheme` maps over `storage`, each with the generic registry store and
    /// strategy (`registry::generic`): the server a Scheme describes, with no kind of its own.
    pub fn new(scheme: Scheme, storage: Arc<dyn Storage>, config: Config) -> Self {
        let scheme = Arc::new(scheme);
        let resources =
            generic::Resources::configured(&scheme, storage, &generic::strategy, &|_| None, &config.feature_gates);
        let server = Server::empty(scheme, config);
        server.install_all(resources.resources);
        server
    }

    /// The resources served now, and the documents that describe them.
    pub fn registry(&self) -> Arc<Registry> {
        self.registrar.registry()
    }

    /// The registry, shared: what installs resources while the server runs holds it.
    pub fn registrar(&self) -> Arc<Registrar> {
        self.registrar.clone()
    }

    /// Serves `resource` (replacing what served the same group, version and resource), from the
    /// next request on: discovery and the OpenAPI documents list it.
    pub fn install(&self, resource: ResourceInfo) {
        self.install_all([resource]);
    }

    /// Serves every one of `resources` (as [`Server::install`]), in one change of the registry.
    pub fn install_all(&self, resources: impl IntoIterator<Item = ResourceInfo>) {
        self.registrar.install_all(resources);
    }

    /// Stops serving `resource` of `gv` and its subresources; whether it was served. Requests
    /// already running finish on the snapshot they started with.
    pub fn uninstall(&self, gv: &GroupVersion, resource: &str) -> bool {
        self.registrar.uninstall(gv, resource)
    }

    /// Adds a mutating admission plugin at the end of its chain.
    pub fn with_mutating(mut self, plugin: Arc<dyn Mutating>) -> Self {
        self.admission = self.admission.with_mutating(plugin);
        self
    }

    /// Adds a validating admission plugin at the end of its chain.
    pub fn with_validating(mut self, plugin: Arc<dyn Validating>) -> Self {
        self.admission = self.admission.with_validating(plugin);
        self
    }

    /// Prints `resource` of `group` with `convertor`'s columns (kube-apiserver's printers).
    pub fn with_table(mut self, group: &str, resource: &str, convertor: Arc<dyn crate::table::TableConvertor>) -> Self {
        self.tables.insert((group.to_string(), resource.to_string()), convertor);
        self
    }

    /// The table convertor of a resource (a subresource prints as its kind's resource does): the
    /// one registered for it, else its printer columns (a CRD's), else the default.
    pub fn table(&self, resource: &crate::installer::ApiResource) -> Arc<dyn crate::table::TableConvertor> {
        let key = (
            resource.mapping.group.to_string(),
            resource.mapping.resource.to_string(),
        );
        match self.tables.get(&key) {
            Some(t) if resource.subresource.is_none() => t.clone(),
            _ if !resource.mapping.printer_columns.is_empty() && resource.subresource.is_none() => {
                Arc::new(crate::table::PrinterColumns(resource.mapping.printer_columns))
            }
            _ => Arc::new(crate::table::DefaultTable),
        }
    }

    /// Completes the served OpenAPI v3 documents from the generated ones
    /// (`generated::openapi_v3_documents()`), with the paths of the installed routes.
    pub fn with_openapi(self, generated: &BTreeMap<&'static str, &'static str>) -> Self {
        *self
            .registrar
            .generated_openapi
            .write()
            .unwrap_or_else(|e| e.into_inner()) = crate::openapi::Documents::parse(generated);
        self.registrar.change(|_| {});
        self
    }

    /// The router serving this server (`routes`).
    pub fn router(self: Arc<Self>) -> axum::Router {
        crate::routes::router(self)
    }

    /// Serves on `listener` until `shutdown` resolves, then ends the watches and finishes the
    /// requests in flight (`serve`).
    pub async fn serve(
        self: Arc<Self>,
        listener: tokio::net::TcpListener,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> std::io::Result<()> {
        crate::serve::serve(self, listener, shutdown).await
    }

    /// [`Server::serve`] over TLS (`auth::tls::server_config` makes one from kube-apiserver's
    /// flags), each request authenticated by `authentication`.
    pub async fn serve_tls(
        self: Arc<Self>,
        listener: tokio::net::TcpListener,
        tls: Arc<rustls::ServerConfig>,
        authentication: Arc<crate::auth::Authentication>,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> std::io::Result<()> {
        crate::serve::serve_tls(self, listener, tls, authentication, shutdown).await
    }
}
