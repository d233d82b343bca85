//! NamespaceLifecycle (k8s.io/apiserver's `plugin/namespace/lifecycle`): nothing is created in a
//! namespace that does not exist or is being deleted. It reads the namespaces through a view kept
//! by a watch of their store ([`view`]), so a create costs no storage read; the server that
//! installs it says which store holds the namespaces and which resources are exempt (those
//! whose objects are never stored, as kube-apiserver exempts LocalSubjectAccessReviews).

pub mod view;

use std::sync::Arc;

use async_trait::async_trait;
use serde_json::Value;

use crate::admission::{Attributes, Operation, Validating};
use crate::registry::store::Store;
use crate::status::ApiError;
pub use view::{NamespaceView, Phase};

/// NamespaceLifecycle over a view of the namespaces' store.
pub struct NamespaceLifecycle {
    view: NamespaceView,
    /// (group, resource) of the namespaces, for the not-found answer.
    namespaces: (&'static str, &'static str),
    /// (group, resource) pairs created in namespaces without the check.
    exempt: Vec<(String, String)>,
}

impl NamespaceLifecycle {
    /// The plugin over the namespaces of `store`, checking every resource but `exempt`.
    pub fn new(store: Arc<Store>, exempt: Vec<(String, String)>) -> Self {
        NamespaceLifecycle {
            namespaces: (store.group, store.resource),
            view: NamespaceView::new(store),
            exempt,
        }
    }
}

#[async_trait]
impl Validating for NamespaceLifecycle {
    async fn validate(&self, a: &Attributes<'_>, _obj: &Value) -> Result<(), ApiError> {
        let (Operation::Create, Some(namespace)) = (a.operation, a.namespace) else {
            return Ok(());
        };
        if self
            .exempt
            .iter()
            .any(|(g, r)| g == a.mapping.group && r == a.mapping.resource)
        {
            return Ok(());
        }
        let phase = self.view.phase(namespace).await?;
        if phase == Phase::Missing {
            let (group, resource) = self.namespaces;
            return Err(ApiError::not_found(group, resource, namespace));
        }
        if phase == Phase::Terminating {
            return Err(ApiError::forbidden(format!(
                "{} \"{}\" is forbidden: unable to create new content in namespace {namespace} because it is being terminated",
                crate::status::qualified(a.mapping.group, a.mapping.resource),
                a.name
            )));
        }
        Ok(())
    }
}
