//! `/scale` (Kubernetes' `ScaleREST` of Deployments, ReplicaSets and StatefulSets, and the CRD scale
//! subresource): a Scale (the kind the mapping's subresource names: autoscaling/v1 Scale) read
//! off the object at the paths its mapping names, and
//! writes that change only the object's desired replicas, moving their ownership in the object's
//! managedFields to the writer (`owners.rs`).

mod owners;

use std::sync::Arc;

use async_trait::async_trait;
use kube_apimachinery::{GroupVersionKind, ScalePaths};
use serde_json::{Value, json};

use crate::meta;
use crate::registry::rest::{Getter, Mutation, Patcher, RestStorage, Updater};
use crate::registry::store::{Store, Target};
use crate::status::{ApiError, Cause};
use kube_apiserver_storage::Revision;

/// The scale subresource of one resource.
pub struct ScaleStorage {
    /// The resource's store.
    pub store: Arc<Store>,
    /// Where the object keeps replicas and selector.
    pub paths: ScalePaths,
    /// The kind of the subresource's bodies, as the mapping names it (autoscaling/v1 Scale).
    pub kind: GroupVersionKind,
}

/// The value at a `.a.b` path.
fn at<'a>(obj: &'a Value, path: &str) -> Option<&'a Value> {
    path.trim_start_matches('.')
        .split('.')
        .try_fold(obj, |v, seg| v.get(seg))
}

/// Sets the value at a `.a.b` path, creating objects on the way.
fn set(obj: &mut Value, path: &str, value: Value) {
    let mut cur = obj;
    let segs: Vec<&str> = path.trim_start_matches('.').split('.').collect();
    for seg in &segs[..segs.len() - 1] {
        if !cur.get(*seg).is_some_and(Value::is_object) {
            cur[*seg] = json!({});
        }
        cur = &mut cur[*seg];
    }
    cur[segs[segs.len() - 1]] = value;
}

impl ScaleStorage {
    /// The object's desired replicas as a FieldsV1 path (`f:spec`, `f:replicas`).
    fn replicas_field(&self) -> Vec<String> {
        owners::fields_path(self.paths.spec_replicas)
    }

    /// The object after a Scale write: its desired replicas, and their owners.
    fn scaled(&self, obj: &Value, before: &Value, scale: &Value) -> Result<Value, ApiError> {
        let mut next = self.apply_scale(obj, scale)?;
        owners::from_scale(&mut next, before, scale, &self.replicas_field());
        Ok(next)
    }

    /// The Scale of a stored object.
    fn scale_of(&self, obj: &Value) -> Value {
        let m = &obj["metadata"];
        let mut metadata = json!({});
        for k in ["name", "namespace", "uid", "resourceVersion", "creationTimestamp"] {
            if let Some(v) = m.get(k) {
                metadata[k] = v.clone();
            }
        }
        let mut status = json!({"replicas": at(obj, self.paths.status_replicas).and_then(Value::as_i64).unwrap_or(0)});
        if let Some(sel) = self.paths.label_selector.and_then(|p| at(obj, p)) {
            let text = crate::selector::format(sel);
            if !text.is_empty() {
                status["selector"] = json!(text);
            }
        }
        let api_version = self.kind.group_version().api_version();
        let owners = owners::to_scale(obj, &self.replicas_field(), &api_version);
        if !owners.is_empty() {
            metadata["managedFields"] = Value::Array(owners);
        }
        json!({
            "kind": self.kind.kind,
            "apiVersion": api_version,
            "metadata": metadata,
            "spec": {"replicas": at(obj, self.paths.spec_replicas).and_then(Value::as_i64).unwrap_or(0)},
            "status": status,
        })
    }

    /// The object with the Scale's desired replicas.
    fn apply_scale(&self, obj: &Value, scale: &Value) -> Result<Value, ApiError> {
        let replicas = scale
            .get("spec")
            .and_then(|s| s.get("replicas"))
            .and_then(Value::as_i64)
            .unwrap_or(0);
        if replicas < 0 {
            return Err(ApiError::invalid(
                &self.kind.group,
                &self.kind.kind,
                meta::name(obj),
                vec![Cause {
                    reason: "FieldValueInvalid",
                    message: format!("Invalid value: {replicas}: must be greater than or equal to 0"),
                    field: "spec.replicas".into(),
                }],
            ));
        }
        let mut next = obj.clone();
        set(&mut next, self.paths.spec_replicas, json!(replicas));
        Ok(next)
    }
}

#[async_trait]
impl Getter for ScaleStorage {
    async fn get(&self, namespace: Option<&str>, name: &str) -> Result<Value, ApiError> {
        Ok(self.scale_of(&self.store.get(namespace, name).await?))
    }
}

#[async_trait]
impl Updater for ScaleStorage {
    async fn update(
        &self,
        namespace: Option<&str>,
        name: &str,
        scale: Value,
        dry_run: bool,
    ) -> Result<Value, ApiError> {
        let precondition = meta::resource_version(&scale).map_err(ApiError::bad_request)?;
        let next = |obj: &Value| {
            let mut next = self.scaled(obj, &self.scale_of(obj), &scale)?;
            meta::meta_mut(&mut next).remove("resourceVersion");
            Ok(next)
        };
        let updated = self
            .store
            .guaranteed_update(namespace, name, precondition, dry_run, next, Target::Main)
            .await?;
        Ok(self.scale_of(&updated))
    }
}

#[async_trait]
impl Patcher for ScaleStorage {
    async fn patch(
        &self,
        namespace: Option<&str>,
        name: &str,
        precondition: Option<Revision>,
        dry_run: bool,
        mutation: Mutation<'_>,
    ) -> Result<Value, ApiError> {
        let next = |obj: &Value| {
            let before = self.scale_of(obj);
            let scale = mutation(&before)?;
            self.scaled(obj, &before, &scale)
        };
        let updated = self
            .store
            .guaranteed_update(namespace, name, precondition, dry_run, next, Target::Main)
            .await?;
        Ok(self.scale_of(&updated))
    }
}

impl RestStorage for ScaleStorage {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selectors_are_written_as_strings() {
        let sel = json!({"matchLabels": {"app": "web"}, "matchExpressions": [{"key": "tier", "operator": "In", "values": ["a", "b"]}, {"key": "x", "operator": "DoesNotExist"}]});
        assert_eq!(crate::selector::format(&sel), "app=web,tier in (a,b),!x");
        assert_eq!(crate::selector::format(&json!("app=web")), "app=web");
        let mut obj = json!({});
        set(&mut obj, ".spec.replicas", json!(3));
        assert_eq!(at(&obj, ".spec.replicas"), Some(&json!(3)));
    }
}
