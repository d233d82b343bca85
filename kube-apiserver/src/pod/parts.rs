//! Subresources that update one part of their object and keep the rest as stored, as
//! Kubernetes' strategies for them do: a Pod's `ephemeralcontainers` (its ephemeral
//! containers), a Pod's `resize` (its containers' resources and resize policies), and a
//! CertificateSigningRequest's `approval` (its Approved, Denied and Failed conditions).

use std::sync::Arc;

use async_trait::async_trait;
use serde_json::{Value, json};

use kube_apiserver_storage::Revision;
use kube_generic_apiserver::meta;
use kube_generic_apiserver::registry::rest::{Getter, Mutation, Patcher, RestStorage, Updater};
use kube_generic_apiserver::registry::store::{Store, Target};
use kube_generic_apiserver::status::{ApiError, Cause};

/// Which part a subresource updates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// `spec.ephemeralContainers`.
    EphemeralContainers,
    /// Each container's `resources` and `resizePolicy`.
    Resize,
    /// `status.conditions` of a CertificateSigningRequest.
    Approval,
}

/// A subresource updating `part` of the objects of `store`.
pub struct PartStorage {
    /// The object's store.
    pub store: Arc<Store>,
    /// What it updates.
    pub part: Part,
}

impl PartStorage {
    /// The stored object with `part` taken from `new`.
    fn merge(&self, old: &Value, new: &Value) -> Result<Value, ApiError> {
        let mut next = old.clone();
        match self.part {
            Part::EphemeralContainers => {
                next["spec"]["ephemeralContainers"] = new["spec"]["ephemeralContainers"].clone();
                if next["spec"]["ephemeralContainers"].is_null()
                    && let Some(spec) = next["spec"].as_object_mut()
                {
                    spec.remove("ephemeralContainers");
                }
            }
            Part::Resize => {
                for list in ["containers", "initContainers"] {
                    let wanted = new["spec"][list].as_array().cloned().unwrap_or_default();
                    for container in next["spec"][list].as_array_mut().into_iter().flatten() {
                        let Some(w) = wanted.iter().find(|w| w["name"] == container["name"]) else {
                            continue;
                        };
                        for field in ["resources", "resizePolicy"] {
                            match w.get(field) {
                                Some(v) => container[field] = v.clone(),
                                None => {
                                    if let Some(c) = container.as_object_mut() {
                                        c.remove(field);
                                    }
                                }
                            }
                        }
                    }
                }
            }
            Part::Approval => {
                let mut conditions = new["status"]["conditions"].clone();
                check_approval(meta::name(old), &conditions)?;
                for c in conditions.as_array_mut().into_iter().flatten() {
                    // Kubernetes' defaults and strategy: a condition is True unless it says
                    // otherwise, and a new one carries when it was last updated.
                    if c["status"].as_str().is_none_or(str::is_empty) {
                        c["status"] = json!("True");
                    }
                    let now = meta::now();
                    for time in ["lastUpdateTime", "lastTransitionTime"] {
                        if c[time].as_str().is_none_or(str::is_empty) {
                            c[time] = json!(now);
                        }
                    }
                }
                if !next["status"].is_object() {
                    next["status"] = json!({});
                }
                next["status"]["conditions"] = conditions;
            }
        }
        Ok(next)
    }

    fn target(&self) -> Target {
        match self.part {
            Part::Approval => Target::Status,
            _ => Target::Subresource,
        }
    }
}

/// Kubernetes' approval rules: Approved and Denied exclude each other, and each condition type
/// appears once.
fn check_approval(name: &str, conditions: &Value) -> Result<(), ApiError> {
    let mut causes = Vec::new();
    let mut seen: Vec<&str> = Vec::new();
    for (i, c) in conditions.as_array().into_iter().flatten().enumerate() {
        let kind = c["type"].as_str().unwrap_or_default();
        let field = format!("status.conditions[{i}].type");
        if seen.contains(&kind) {
            causes.push(Cause {
                reason: "FieldValueDuplicate",
                message: format!("Duplicate value: {kind:?}"),
                field,
            });
            continue;
        }
        let excluded = match kind {
            "Approved" => seen.contains(&"Denied"),
            "Denied" => seen.contains(&"Approved"),
            _ => false,
        };
        if excluded {
            causes.push(Cause {
                reason: "FieldValueInvalid",
                message: format!("Invalid value: {kind:?}: Approved and Denied conditions are mutually exclusive"),
                field,
            });
        }
        seen.push(kind);
    }
    if causes.is_empty() {
        Ok(())
    } else {
        Err(ApiError::invalid(
            "certificates.k8s.io",
            "CertificateSigningRequest",
            name,
            causes,
        ))
    }
}

#[async_trait]
impl Getter for PartStorage {
    async fn get(&self, namespace: Option<&str>, name: &str) -> Result<Value, ApiError> {
        self.store.get(namespace, name).await
    }
}

#[async_trait]
impl Updater for PartStorage {
    async fn update(&self, namespace: Option<&str>, name: &str, obj: Value, dry_run: bool) -> Result<Value, ApiError> {
        let precondition = meta::resource_version(&obj)
            .map_err(ApiError::bad_request)?
            .filter(|rv| *rv != 0);
        self.store
            .guaranteed_update(
                namespace,
                name,
                precondition,
                dry_run,
                |old| self.merge(old, &obj),
                self.target(),
            )
            .await
    }
}

#[async_trait]
impl Patcher for PartStorage {
    async fn patch(
        &self,
        namespace: Option<&str>,
        name: &str,
        precondition: Option<Revision>,
        dry_run: bool,
        mutation: Mutation<'_>,
    ) -> Result<Value, ApiError> {
        let next = |old: &Value| self.merge(old, &mutation(old)?);
        self.store
            .guaranteed_update(namespace, name, precondition, dry_run, next, self.target())
            .await
    }
}

impl RestStorage for PartStorage {
    fn getter(&self) -> Option<&dyn Getter> {
        Some(self)
    }
    fn updater(&self) -> Option<&dyn Updater> {
        Some(self)
    }
    fn patcher(&self) -> Option<&dyn Patcher> {
        Some(self)
    }
}
