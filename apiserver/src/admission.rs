//! Admission (k8s.io/apiserver's `admission.Interface`): plugins that see every write between
//! decoding and storage, in the storage version. Mutating plugins run first and may change the
//! object; validating plugins then may refuse it. This server always runs Kubernetes'
//! NamespaceLifecycle (validating: nothing is created in a namespace that does not exist or is
//! being deleted) and, when enabled, AlwaysPullImages (mutating: every container of a Pod pulls
//! its image on each start, so a node's cached private image cannot be used without credentials).
//!
//! Creates and replaces (`PUT`, server-side apply) run both chains. Patches run the mutating chain
//! on the patched object inside the store's read-modify-write; validating plugins, which may read
//! other objects, do not see patches.

use std::str::FromStr;
use std::sync::Arc;

use async_trait::async_trait;
use serde_json::{Value, json};

use crate::installer::ApiResource;
use crate::registry::meta;
use crate::registry::store::Store;
use crate::status::ApiError;

/// What a write does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operation {
    /// A new object.
    Create,
    /// A changed object.
    Update,
}

/// The request a plugin admits (Go's `admission.Attributes`).
#[derive(Clone, Copy)]
pub struct Attributes<'a> {
    /// Create or update.
    pub operation: Operation,
    /// The resource (and subresource) written.
    pub resource: &'a ApiResource,
    /// The namespace, for namespaced resources.
    pub namespace: Option<&'a str>,
    /// The object's name.
    pub name: &'a str,
}

impl Attributes<'_> {
    /// Whether this is a write of `resource` of `group` itself, not of a subresource.
    pub fn is(&self, group: &str, resource: &str) -> bool {
        self.resource.mapping.group == group
            && self.resource.mapping.resource == resource
            && self.resource.subresource.is_none()
    }
}

/// A mutating admission plugin. It runs inside patches' read-modify-write, so it cannot wait.
pub trait Mutating: Send + Sync {
    /// Changes `obj` (in the storage version), or refuses the write.
    fn admit(&self, attributes: &Attributes<'_>, obj: &mut Value) -> Result<(), ApiError>;
}

/// A validating admission plugin.
#[async_trait]
pub trait Validating: Send + Sync {
    /// Refuses the write with an error, or lets it through.
    async fn validate(&self, attributes: &Attributes<'_>, obj: &Value) -> Result<(), ApiError>;
}

/// The admission chain.
#[derive(Default, Clone)]
pub struct Admission {
    mutating: Vec<Arc<dyn Mutating>>,
    validating: Vec<Arc<dyn Validating>>,
}

impl Admission {
    /// Adds a mutating plugin at the end of its chain.
    pub fn with_mutating(mut self, plugin: Arc<dyn Mutating>) -> Self {
        self.mutating.push(plugin);
        self
    }

    /// Adds a validating plugin at the end of its chain.
    pub fn with_validating(mut self, plugin: Arc<dyn Validating>) -> Self {
        self.validating.push(plugin);
        self
    }

    /// Runs the mutating chain in order.
    pub fn mutate(&self, attributes: &Attributes<'_>, obj: &mut Value) -> Result<(), ApiError> {
        self.mutating.iter().try_for_each(|p| p.admit(attributes, obj))
    }

    /// Runs the mutating chain, then the validating one; the first refusal wins.
    pub async fn admit(&self, attributes: &Attributes<'_>, obj: &mut Value) -> Result<(), ApiError> {
        self.mutate(attributes, obj)?;
        for p in &self.validating {
            p.validate(attributes, obj).await?;
        }
        Ok(())
    }
}

/// The optional plugins a server can enable by name (kube-apiserver's
/// `--enable-admission-plugins`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Plugin {
    /// [`AlwaysPullImages`].
    AlwaysPullImages,
}

impl Plugin {
    /// Every optional plugin, by the name Kubernetes gives it.
    pub const ALL: &[(&str, Plugin)] = &[("AlwaysPullImages", Plugin::AlwaysPullImages)];

    /// The plugin itself.
    pub fn mutating(self) -> Arc<dyn Mutating> {
        match self {
            Plugin::AlwaysPullImages => Arc::new(AlwaysPullImages),
        }
    }
}

impl FromStr for Plugin {
    type Err = String;

    fn from_str(name: &str) -> Result<Plugin, String> {
        Plugin::ALL
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, p)| *p)
            .ok_or_else(|| {
                let known: Vec<&str> = Plugin::ALL.iter().map(|(n, _)| *n).collect();
                format!(
                    "unknown admission plugin \"{name}\": this server has {} (NamespaceLifecycle is always on)",
                    known.join(", ")
                )
            })
    }
}

/// NamespaceLifecycle over the namespaces' store.
pub struct NamespaceLifecycle(pub Arc<Store>);

#[async_trait]
impl Validating for NamespaceLifecycle {
    async fn validate(&self, a: &Attributes<'_>, _obj: &Value) -> Result<(), ApiError> {
        let (Operation::Create, Some(namespace)) = (a.operation, a.namespace) else {
            return Ok(());
        };
        let ns = self.0.get(None, namespace).await?;
        if meta::deleting(&ns) {
            return Err(ApiError::forbidden(format!(
                "{} \"{}\" is forbidden: unable to create new content in namespace {namespace} because it is being terminated",
                crate::status::qualified(a.resource.mapping.group, a.resource.mapping.resource),
                a.name
            )));
        }
        Ok(())
    }
}

/// AlwaysPullImages: sets `imagePullPolicy: Always` on every container, init container and
/// ephemeral container of a Pod that is created or replaced.
pub struct AlwaysPullImages;

impl Mutating for AlwaysPullImages {
    fn admit(&self, a: &Attributes<'_>, pod: &mut Value) -> Result<(), ApiError> {
        if !a.is("", "pods") {
            return Ok(());
        }
        for list in ["initContainers", "containers", "ephemeralContainers"] {
            let containers = pod
                .get_mut("spec")
                .and_then(|s| s.get_mut(list))
                .and_then(Value::as_array_mut);
            for container in containers.into_iter().flatten() {
                if let Some(c) = container.as_object_mut() {
                    c.insert("imagePullPolicy".into(), json!("Always"));
                }
            }
        }
        Ok(())
    }
}
