//! Admission (k8s.io/apiserver's `admission.Interface`): plugins that see every write between
//! decoding and storage. Validating plugins may refuse a request; this server runs Kubernetes'
//! NamespaceLifecycle: nothing is created in a namespace that does not exist or is being deleted.

use std::sync::Arc;

use async_trait::async_trait;

use crate::installer::ApiResource;
use crate::registry::meta;
use crate::registry::store::Store;
use crate::status::ApiError;

/// A validating admission plugin for creates.
#[async_trait]
pub trait ValidateCreate: Send + Sync {
    /// Refuses the create of `name` (of `resource`) in `namespace` with an error, or lets it through.
    async fn validate_create(&self, resource: &ApiResource, namespace: &str, name: &str) -> Result<(), ApiError>;
}

/// The admission chain.
#[derive(Default, Clone)]
pub struct Admission {
    plugins: Vec<Arc<dyn ValidateCreate>>,
}

impl Admission {
    /// Adds a plugin at the end of the chain.
    pub fn with(mut self, plugin: Arc<dyn ValidateCreate>) -> Self {
        self.plugins.push(plugin);
        self
    }

    /// Runs every plugin; the first refusal wins.
    pub async fn admit_create(&self, resource: &ApiResource, namespace: &str, name: &str) -> Result<(), ApiError> {
        for p in &self.plugins {
            p.validate_create(resource, namespace, name).await?;
        }
        Ok(())
    }
}

/// NamespaceLifecycle over the namespaces' store.
pub struct NamespaceLifecycle(pub Arc<Store>);

#[async_trait]
impl ValidateCreate for NamespaceLifecycle {
    async fn validate_create(&self, resource: &ApiResource, namespace: &str, name: &str) -> Result<(), ApiError> {
        let ns = self.0.get(None, namespace).await?;
        if meta::deleting(&ns) {
            return Err(ApiError::forbidden(format!(
                "{} \"{name}\" is forbidden: unable to create new content in namespace {namespace} because it is being terminated",
                crate::status::qualified(resource.mapping.group, resource.mapping.resource)
            )));
        }
        Ok(())
    }
}
