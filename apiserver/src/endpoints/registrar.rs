//! The registry of served resources (k8s.io/apiserver's installed `APIGroupInfo`s), which callers
//! fill and change while the server runs: each change makes a new [`Registry`] snapshot with its
//! OpenAPI documents derived anew, so a request works on one snapshot from start to end and
//! discovery and the documents never disagree with what is served.

use std::collections::BTreeMap;
use std::sync::{Arc, RwLock};

use kube_apimachinery::GroupVersion;

use super::installer::Installed;
use crate::registry::ResourceInfo;

/// What the server serves at one moment: the installed resources and the OpenAPI documents
/// derived from them. A request works on one snapshot from start to end.
#[derive(Default)]
pub struct Registry {
    /// The served resources.
    pub installed: Installed,
    /// The OpenAPI v3 documents (and v2, merged from them).
    pub openapi: super::openapi::Documents,
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
    /// The documents of what is installed at run time (CRDs), by owner, merged into the
    /// generated ones.
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
                    let edges = sub.edges.or_else(|| resource.edges.clone());
                    installed.install(m, Some(sub.name), sub.kind, sub.storage, edges);
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

    /// Sets (or with `None` drops) the OpenAPI documents of `owner` (a CRD), made by `make` from
    /// the generated documents; they are served from the next change of the registry.
    pub fn set_documents(&self, owner: &str, make: Option<&dyn Fn(&OpenApiDocuments) -> OpenApiDocuments>) {
        let mut custom = self.custom_openapi.write().unwrap_or_else(|e| e.into_inner());
        match make {
            Some(make) => {
                let generated = self.generated_openapi.read().unwrap_or_else(|e| e.into_inner());
                custom.insert(owner.to_string(), make(&generated));
            }
            None => {
                custom.remove(owner);
            }
        }
    }

    /// Applies `change` to a copy of the installed resources and serves the copy with its
    /// documents derived anew; concurrent changes are serialized by the lock.
    pub(crate) fn change(&self, change: impl FnOnce(&mut Installed)) {
        let mut registry = self.registry.write().unwrap_or_else(|e| e.into_inner());
        let mut installed = registry.installed.clone();
        change(&mut installed);
        let generated = self.generated_openapi.read().unwrap_or_else(|e| e.into_inner());
        let custom = self.custom_openapi.read().unwrap_or_else(|e| e.into_inner());
        let openapi = if custom.is_empty() {
            super::openapi::Documents::new(&generated, &installed)
        } else {
            let mut all = generated.clone();
            for docs in custom.values() {
                super::openapi::merge(&mut all, docs);
            }
            super::openapi::Documents::new(&all, &installed)
        };
        *registry = Arc::new(Registry { installed, openapi });
    }
}

impl Registrar {
    /// Completes the served OpenAPI v3 documents from the generated ones
    /// (`generated::openapi_v3_documents()`), with the paths of the installed routes.
    pub fn set_generated_documents(&self, generated: &BTreeMap<&'static str, &'static str>) {
        *self.generated_openapi.write().unwrap_or_else(|e| e.into_inner()) =
            super::openapi::Documents::parse(generated);
        self.change(|_| {});
    }
}
