//! The server (k8s.io/apiserver's `GenericAPIServer`): a registry of served resources that callers
//! fill and change while it runs (`install`, `uninstall`, as `InstallAPIGroup` does with an
//! `APIGroupInfo`), the admission chain, the table printers, the authenticator and authorizers,
//! handlers of non-resource paths, post-start hooks, and the tower stack that serves them
//! ([`routes`]) on plain or TLS listeners ([`serve`], [`tls`]). Discovery and the OpenAPI
//! documents are derived from the registry each time it changes, never kept apart from it.
//!
//! Only generic configuration lives here; what one particular server adds (kube-apiserver's
//! kinds, RBAC, ServiceAccount tokens, the CRD controllers) it installs through these methods.

#[cfg(feature = "local")]
pub mod local;
pub mod options;
pub mod resource_config;
pub mod routes;
pub mod serve;
pub mod tls;

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use kube_apimachinery::{GroupVersion, Scheme};

use crate::admission::{Admission, Mutating, Validating};
use crate::audit::Audit;
use crate::authentication::Authenticator;
use crate::authorization::Authorization;
use crate::convert::Versions;
use crate::endpoints::Api;
use crate::endpoints::filters::Filters;
use crate::endpoints::registrar::{Registrar, Registry};
use crate::registry::{ResourceInfo, generic};
use crate::table::{TableConvertor, Tables};
use kube_apiserver_storage::Storage;

/// What the generic server is told at start (k8s.io/apiserver's `Config`).
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
    /// `--audit-policy-file` and `--audit-log-path`: what is recorded of requests, and where.
    pub audit: Option<Arc<Audit>>,
    /// Which group-versions and resources are served (`--runtime-config`); kinds whose
    /// lifecycle removed them by `version` are never served.
    pub resources: resource_config::ResourceConfig,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            max_body_bytes: 3 * 1024 * 1024,
            request_timeout: Duration::from_secs(60),
            version: (1, 36),
            max_requests_inflight: 400,
            feature_gates: BTreeMap::new(),
            idle_timeout: Duration::from_secs(90),
            shutdown_timeout: Duration::from_secs(60),
            audit: None,
            resources: resource_config::ResourceConfig::default(),
        }
    }
}

impl Config {
    /// Whether the resource of mapping `m` is served: enabled by [`Config::resources`] and not
    /// removed by its kind's lifecycle as of [`Config::version`].
    pub fn serves(&self, scheme: &Scheme, m: &kube_apimachinery::RestMapping) -> bool {
        let gv = GroupVersion::new(m.group, m.version);
        self.resources.resource_enabled(&gv, m.resource) && !scheme.is_removed(&gv.with_kind(m.kind), self.version)
    }
}

/// A function run once when the server starts serving (k8s.io/apiserver's `PostStartHookFunc`),
/// inside its Tokio runtime: the controllers a server runs beside its handlers start here.
pub type PostStartHook = Box<dyn FnOnce() + Send>;

/// Work a server finishes before it takes its first request, such as the objects every cluster
/// has (kube-apiserver's post-start hooks that `/readyz` waits for): a client that connects as
/// soon as the listener is there finds them.
pub type BootstrapHook = std::pin::Pin<Box<dyn Future<Output = ()> + Send>>;

/// A server's state, shared by every request.
pub struct Server {
    registrar: Arc<Registrar>,
    versions: Versions,
    admission: Admission,
    tables: Tables,
    /// The configuration.
    pub config: Config,
    /// Set once when the server stops: every watch ends.
    stopping: Arc<tokio::sync::watch::Sender<bool>>,
    /// Who sends the requests of a secure listener; without it a secure listener serves none.
    authenticator: Option<Arc<dyn Authenticator>>,
    /// Who may do what; without it every authenticated request may go on.
    authorization: Option<Arc<Authorization>>,
    /// Handlers of non-resource paths beside the fixed ones (k8s.io/apiserver's
    /// `NonGoRestfulMux`).
    handlers: Vec<(String, axum::routing::MethodRouter)>,
    /// The post-start hooks not run yet, by name.
    hooks: Mutex<Vec<(&'static str, PostStartHook)>>,
    /// The bootstrap hooks not run yet, by name.
    bootstrap: Mutex<Vec<(&'static str, BootstrapHook)>>,
}

impl Server {
    /// A server of `scheme`'s kinds that serves nothing yet: callers install the resources, each
    /// with the storage and strategy they choose.
    pub fn empty(scheme: impl Into<Arc<Scheme>>, config: Config) -> Self {
        Server {
            registrar: Arc::default(),
            versions: Versions::new(scheme.into()),
            admission: Admission::default(),
            tables: Tables::default(),
            config,
            stopping: Arc::new(tokio::sync::watch::Sender::new(false)),
            authenticator: None,
            authorization: None,
            handlers: Vec::new(),
            hooks: Mutex::default(),
            bootstrap: Mutex::default(),
        }
    }

    /// Every resource `scheme` maps over `storage`, each with the generic registry store and
    /// strategy (`registry::generic`): the server a Scheme describes, with no kind of its own.
    pub fn new(scheme: Scheme, storage: Arc<dyn Storage>, config: Config) -> Self {
        let scheme = Arc::new(scheme);
        let resources = generic::Resources::configured(
            &scheme,
            storage,
            &generic::strategy,
            &|_| None,
            &config.feature_gates,
            &|m| config.serves(&scheme, m),
        );
        let server = Server::empty(scheme, config);
        server.install_all(resources.resources);
        server
    }

    /// The Scheme the server decodes, converts and defaults with.
    pub fn scheme(&self) -> &Arc<Scheme> {
        self.versions.shared()
    }

    /// Ends every watch (the server is stopping); watches started later end at once.
    pub fn stop_watches(&self) {
        self.stopping.send_replace(true);
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
    pub fn with_table(mut self, group: &str, resource: &str, convertor: Arc<dyn TableConvertor>) -> Self {
        self.tables.insert(group, resource, convertor);
        self
    }

    /// Completes the served OpenAPI v3 documents from the generated ones
    /// (`generated::openapi_v3_documents()`), with the paths of the installed routes.
    pub fn with_openapi(self, generated: &BTreeMap<&'static str, &'static str>) -> Self {
        self.registrar.set_generated_documents(generated);
        self
    }

    /// Authenticates the requests of secure listeners with `authenticator`.
    pub fn with_authentication(mut self, authenticator: Arc<dyn Authenticator>) -> Self {
        self.authenticator = Some(authenticator);
        self
    }

    /// Authorizes every request with `authorization`, after authentication.
    pub fn with_authorization(mut self, authorization: Arc<Authorization>) -> Self {
        self.authorization = Some(authorization);
        self
    }

    /// The authorizers, when the server has any.
    pub fn authorization(&self) -> Option<&Arc<Authorization>> {
        self.authorization.as_ref()
    }

    /// The authenticator of secure listeners, when the server has one.
    pub fn authenticator(&self) -> Option<&Arc<dyn Authenticator>> {
        self.authenticator.as_ref()
    }

    /// Serves `handler` at the non-resource `path`, behind the same filters as every request.
    pub fn with_handler(mut self, path: &str, handler: axum::routing::MethodRouter) -> Self {
        self.handlers.push((path.to_string(), handler));
        self
    }

    /// Runs `hook` once when the server starts serving (its first router), inside its runtime.
    pub fn add_post_start_hook(&self, name: &'static str, hook: impl FnOnce() + Send + 'static) {
        self.hooks
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push((name, Box::new(hook)));
    }

    /// Runs `hook` once before the server takes its first connection ([`Server::serve`] waits
    /// for it; a router taken without serving runs it in the background).
    pub fn add_bootstrap_hook(&self, name: &'static str, hook: impl Future<Output = ()> + Send + 'static) {
        self.bootstrap
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push((name, Box::pin(hook)));
    }

    /// Runs the bootstrap hooks not run yet, one after another, and returns when they are done.
    pub async fn bootstrap(&self) {
        let hooks = std::mem::take(&mut *self.bootstrap.lock().unwrap_or_else(|e| e.into_inner()));
        for (name, hook) in hooks {
            tracing::debug!(hook = name, "bootstrap hook");
            hook.await;
        }
    }

    /// Runs the post-start hooks not run yet, in the order they were added, on the current
    /// Tokio runtime, and starts the bootstrap hooks not run yet in the background; without a
    /// runtime they wait for the next call.
    pub fn start(&self) {
        if tokio::runtime::Handle::try_current().is_err() {
            tracing::warn!("the server's post-start hooks need a Tokio runtime; they run when it serves");
            return;
        }
        let hooks = std::mem::take(&mut *self.hooks.lock().unwrap_or_else(|e| e.into_inner()));
        for (name, hook) in hooks {
            tracing::debug!(hook = name, "post-start hook");
            hook();
        }
        for (name, hook) in std::mem::take(&mut *self.bootstrap.lock().unwrap_or_else(|e| e.into_inner())) {
            tracing::debug!(hook = name, "bootstrap hook, in the background");
            tokio::spawn(hook);
        }
    }

    /// What the endpoints of this server share.
    pub fn api(&self) -> Arc<Api> {
        Arc::new(Api {
            registrar: self.registrar.clone(),
            versions: self.versions.clone(),
            admission: self.admission.clone(),
            tables: self.tables.clone(),
            max_body_bytes: self.config.max_body_bytes,
            version: self.config.version,
            stopping: self.stopping.clone(),
        })
    }

    /// What the filters of this server share.
    fn filters(&self) -> Arc<Filters> {
        Arc::new(Filters {
            authorization: self.authorization.clone(),
            audit: self.config.audit.clone(),
            versions: self.versions.clone(),
            max_body_bytes: self.config.max_body_bytes,
        })
    }

    /// The router serving this server ([`routes`]); the post-start hooks run first.
    pub fn router(self: Arc<Self>) -> axum::Router {
        self.start();
        routes::router(self.api(), self.filters(), &self.config, &self.handlers)
    }

    /// Serves on `listener` until `shutdown` resolves, then ends the watches and finishes the
    /// requests in flight ([`serve`]); every request is the loopback user's.
    pub async fn serve(
        self: Arc<Self>,
        listener: tokio::net::TcpListener,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> std::io::Result<()> {
        serve::serve(self, listener, shutdown).await
    }

    /// [`Server::serve`] over TLS ([`tls::server_config`] makes one from kube-apiserver's flags),
    /// each request authenticated by the server's authenticator (none recognised without one).
    pub async fn serve_tls(
        self: Arc<Self>,
        listener: tokio::net::TcpListener,
        tls: Arc<rustls::ServerConfig>,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> std::io::Result<()> {
        let authenticator = self
            .authenticator
            .clone()
            .unwrap_or_else(|| Arc::new(crate::authentication::Chain::default()));
        serve::serve_tls(self, listener, tls, authenticator, shutdown).await
    }
}
