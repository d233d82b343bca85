//! Admission (k8s.io/apiserver's `admission.Interface`): plugins that see every write between
//! decoding and storage, in the storage version. Mutating plugins run first and may change the
//! object; validating plugins then may refuse it. Which plugins run is the server's policy:
//! kube-apiserver enables them by name; [`plugins`] holds those k8s.io/apiserver ships.
//!
//! Creates and replaces (`PUT`, server-side apply) run both chains. Patches run the mutating chain
//! on the patched object inside the store's read-modify-write; validating plugins, which may read
//! other objects, do not see patches.

pub mod plugins;

use std::sync::Arc;

use async_trait::async_trait;
use serde_json::Value;

use kube_apimachinery::{GroupVersionKind, RestMapping};

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
    /// The resource written.
    pub mapping: &'a RestMapping,
    /// The subresource written, if not the resource itself.
    pub subresource: Option<&'a str>,
    /// The kind of the written body (autoscaling/v1 Scale for `scale`).
    pub kind: &'a GroupVersionKind,
    /// The namespace, for namespaced resources.
    pub namespace: Option<&'a str>,
    /// The object's name.
    pub name: &'a str,
    /// Who writes (RBAC's escalation check reads it).
    pub user: &'a crate::authentication::UserInfo,
}

impl Attributes<'_> {
    /// Whether this is a write of `resource` of `group` itself, not of a subresource.
    pub fn is(&self, group: &str, resource: &str) -> bool {
        self.mapping.group == group && self.mapping.resource == resource && self.subresource.is_none()
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
