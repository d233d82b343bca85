//! Per-kind strategies (k8s.io/apiserver's `RESTCreateStrategy`, `RESTUpdateStrategy` and the
//! status variants): what the server resets, bumps and checks on create and update. The generic
//! strategy does what Kubernetes' hand-written ones share for every kind with a status
//! subresource; kinds that need more (Namespace's phase) wrap it.

use std::borrow::Cow;
use std::time::Duration;

use serde_json::{Value, json};

use crate::meta;
use crate::status::Cause;

/// How one kind is prepared and checked before it is stored.
pub trait Strategy: Send + Sync {
    /// Resets what a create may not set (status, for kinds with a status subresource).
    fn prepare_for_create(&self, obj: &mut Value);

    /// Carries over what a plain update may not change (status), and bumps `generation` when the
    /// spec changed.
    fn prepare_for_update(&self, new: &mut Value, old: &Value);

    /// A `/status` update: everything but status comes from the stored object.
    fn prepare_for_status_update(&self, new: &mut Value, old: &Value);

    /// Field errors of a new object.
    fn validate(&self, obj: &Value) -> Vec<Cause>;

    /// The object as the kind's registered validation sees it: itself, unless the strategy
    /// validates a view of it (Kubernetes validates a StatefulSet's pod template as its pods
    /// will be, with a volume for each claim template).
    fn validation_view<'a>(&self, obj: &'a Value) -> Cow<'a, Value> {
        Cow::Borrowed(obj)
    }

    /// Field errors of an update.
    fn validate_update(&self, new: &Value, _old: &Value) -> Vec<Cause> {
        self.validate(new)
    }

    /// Field errors of a `/status` update.
    fn validate_status_update(&self, new: &Value, old: &Value) -> Vec<Cause> {
        self.validate_update(new, old)
    }

    /// Whether a DELETE answers with the deleted object (Kubernetes' `ReturnDeletedObject`: pods,
    /// services, namespaces, ...); otherwise it answers a Success Status naming what went.
    fn returns_deleted_object(&self) -> bool {
        false
    }

    /// How long the object lives after this write before the store removes it (k8s.io/apiserver's
    /// `TTLFunc`, as kube-apiserver keeps Events for `--event-ttl`); `None`, until deleted. Asked
    /// on the create and on every update (`update`), since a write without a TTL makes the
    /// object permanent again.
    fn ttl(&self, _obj: &Value, _update: bool) -> Option<Duration> {
        None
    }
}

/// Checks a strategy adds to another's (a kind's generated validation, a custom resource's
/// schema, a CRD's rules): [`Checked`] runs them after the inner strategy's own.
pub trait Checks: Send + Sync {
    /// Field errors of a new object.
    fn create(&self, obj: &Value) -> Vec<Cause>;

    /// Field errors of an update.
    fn update(&self, new: &Value, old: &Value) -> Vec<Cause>;

    /// Field errors of a `/status` update.
    fn status_update(&self, new: &Value, old: &Value) -> Vec<Cause> {
        self.update(new, old)
    }

    /// What these checks report instead of running when earlier ones found errors that block
    /// them ([`Then`]); `None` when they have nothing to skip.
    fn skipped(&self) -> Option<Cause> {
        None
    }
}

impl Checks for std::sync::Arc<dyn Checks> {
    fn create(&self, obj: &Value) -> Vec<Cause> {
        (**self).create(obj)
    }

    fn update(&self, new: &Value, old: &Value) -> Vec<Cause> {
        (**self).update(new, old)
    }

    fn status_update(&self, new: &Value, old: &Value) -> Vec<Cause> {
        (**self).status_update(new, old)
    }

    fn skipped(&self) -> Option<Cause> {
        (**self).skipped()
    }
}

/// Whether an error of this reason keeps a schema's CEL rules from running, as
/// apiextensions-apiserver decides: the value is not of the shape the rules were typed against.
pub fn blocks_rules(reason: &str) -> bool {
    matches!(
        reason,
        "FieldValueNotSupported"
            | "FieldValueRequired"
            | "FieldValueTooLong"
            | "FieldValueTooMany"
            | "FieldValueTypeInvalid"
    )
}

/// `first`'s checks, then `then`'s unless `first` found errors that block them (a schema's
/// validation, then its CEL rules).
pub struct Then<A, B> {
    /// The checks that run first.
    pub first: A,
    /// The checks that run when nothing blocks them.
    pub then: B,
}

impl<A: Checks, B: Checks> Then<A, B> {
    fn chain(&self, mut causes: Vec<Cause>, then: impl FnOnce() -> Vec<Cause>) -> Vec<Cause> {
        if causes.iter().any(|c| blocks_rules(c.reason)) {
            causes.extend(self.then.skipped());
        } else {
            causes.extend(then());
        }
        causes
    }
}

impl<A: Checks, B: Checks> Checks for Then<A, B> {
    fn create(&self, obj: &Value) -> Vec<Cause> {
        self.chain(self.first.create(obj), || self.then.create(obj))
    }

    fn update(&self, new: &Value, old: &Value) -> Vec<Cause> {
        self.chain(self.first.update(new, old), || self.then.update(new, old))
    }

    fn status_update(&self, new: &Value, old: &Value) -> Vec<Cause> {
        self.chain(self.first.status_update(new, old), || self.then.status_update(new, old))
    }
}

/// `inner` with `checks` added to its validation; everything else is `inner`'s.
pub struct Checked<C> {
    /// The strategy that prepares objects and checks them first.
    pub inner: std::sync::Arc<dyn Strategy>,
    /// What is checked after it.
    pub checks: C,
}

impl<C: Checks> Strategy for Checked<C> {
    fn prepare_for_create(&self, obj: &mut Value) {
        self.inner.prepare_for_create(obj)
    }

    fn prepare_for_update(&self, new: &mut Value, old: &Value) {
        self.inner.prepare_for_update(new, old)
    }

    fn prepare_for_status_update(&self, new: &mut Value, old: &Value) {
        self.inner.prepare_for_status_update(new, old)
    }

    fn validate(&self, obj: &Value) -> Vec<Cause> {
        let mut causes = self.inner.validate(obj);
        causes.extend(self.checks.create(&self.inner.validation_view(obj)));
        causes
    }

    fn validate_update(&self, new: &Value, old: &Value) -> Vec<Cause> {
        let mut causes = self.inner.validate_update(new, old);
        let (view, old_view) = (self.inner.validation_view(new), self.inner.validation_view(old));
        causes.extend(self.checks.update(&view, &old_view));
        causes
    }

    fn validate_status_update(&self, new: &Value, old: &Value) -> Vec<Cause> {
        let mut causes = self.inner.validate_status_update(new, old);
        let (view, old_view) = (self.inner.validation_view(new), self.inner.validation_view(old));
        causes.extend(self.checks.status_update(&view, &old_view));
        causes
    }

    fn validation_view<'a>(&self, obj: &'a Value) -> Cow<'a, Value> {
        self.inner.validation_view(obj)
    }

    fn returns_deleted_object(&self) -> bool {
        self.inner.returns_deleted_object()
    }

    fn ttl(&self, obj: &Value, update: bool) -> Option<Duration> {
        self.inner.ttl(obj, update)
    }
}

/// The strategy every kind gets unless it has its own.
#[derive(Clone, Copy, Debug)]
pub struct GenericStrategy {
    /// Whether the kind has a `/status` subresource, which alone writes status.
    pub status_subresource: bool,
    /// Whether `metadata.generation` counts spec changes (the model's `generation`: kinds with a
    /// spec); other objects carry none, as a ConfigMap in Kubernetes does.
    pub generation: bool,
    /// Whether a DELETE answers with the deleted object ([`Strategy::returns_deleted_object`]).
    pub return_deleted_object: bool,
    /// How long an object lives after each write ([`Strategy::ttl`]; kube-apiserver gives Events
    /// its `--event-ttl`); `None` for every kind but those.
    pub ttl: Option<Duration>,
}

/// The object without metadata and status: what a generation counts changes of.
fn spec_of(obj: &Value) -> Value {
    let mut v = obj.clone();
    if let Some(m) = v.as_object_mut() {
        m.remove("metadata");
        m.remove("status");
        m.remove("apiVersion");
        m.remove("kind");
    }
    v
}

impl Strategy for GenericStrategy {
    fn prepare_for_create(&self, obj: &mut Value) {
        if self.status_subresource
            && let Some(m) = obj.as_object_mut()
        {
            m.remove("status");
        }
        if self.generation {
            meta::meta_mut(obj).insert("generation".into(), json!(1));
        } else {
            meta::meta_mut(obj).remove("generation");
        }
    }

    fn prepare_for_update(&self, new: &mut Value, old: &Value) {
        if self.status_subresource
            && let Some(m) = new.as_object_mut()
        {
            match old.get("status") {
                Some(s) => m.insert("status".into(), s.clone()),
                None => m.remove("status"),
            };
        }
        if !self.generation {
            meta::meta_mut(new).remove("generation");
            return;
        }
        let generation = old
            .get("metadata")
            .and_then(|m| m.get("generation"))
            .and_then(Value::as_i64)
            .unwrap_or(1);
        let bumped = if spec_of(new) != spec_of(old) {
            generation + 1
        } else {
            generation
        };
        meta::meta_mut(new).insert("generation".into(), json!(bumped));
    }

    fn prepare_for_status_update(&self, new: &mut Value, old: &Value) {
        let status = new.get("status").cloned();
        let mut merged = old.clone();
        if let Some(m) = merged.as_object_mut() {
            match status {
                Some(s) => m.insert("status".into(), s),
                None => m.remove("status"),
            };
        }
        // The client's resourceVersion stays the precondition, and the managedFields the
        // handler recorded for this status write are kept.
        for kept in ["resourceVersion", "managedFields"] {
            if let Some(v) = new.get("metadata").and_then(|m| m.get(kept)).cloned() {
                meta::meta_mut(&mut merged).insert(kept.into(), v);
            }
        }
        *new = merged;
    }

    fn validate(&self, obj: &Value) -> Vec<Cause> {
        let mut causes = meta::validate_name(obj, false);
        causes.extend(meta::validate_object_meta(obj));
        causes
    }

    fn returns_deleted_object(&self) -> bool {
        self.return_deleted_object
    }

    fn ttl(&self, _obj: &Value, _update: bool) -> Option<Duration> {
        self.ttl
    }
}

impl GenericStrategy {
    /// The generic strategy of a mapped resource: `/status` and generations as it says.
    pub fn for_mapping(m: &kube_apimachinery::RestMapping) -> Self {
        GenericStrategy {
            status_subresource: m.subresource("status").is_some(),
            generation: m.generation,
            return_deleted_object: false,
            ttl: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const S: GenericStrategy = GenericStrategy {
        status_subresource: true,
        generation: true,
        return_deleted_object: false,
        ttl: None,
    };

    #[test]
    fn kinds_without_a_spec_carry_no_generation() {
        let plain = GenericStrategy {
            status_subresource: false,
            generation: false,
            return_deleted_object: false,
            ttl: None,
        };
        let mut created = json!({"metadata": {"name": "a", "generation": 4}, "data": {"k": "v"}});
        plain.prepare_for_create(&mut created);
        assert_eq!(created, json!({"metadata": {"name": "a"}, "data": {"k": "v"}}));
        let mut updated = json!({"metadata": {"name": "a", "generation": 2}, "data": {"k": "w"}});
        plain.prepare_for_update(&mut updated, &created);
        assert_eq!(updated, json!({"metadata": {"name": "a"}, "data": {"k": "w"}}));
    }

    #[test]
    fn plain_updates_keep_status_and_bump_generation_on_spec_changes() {
        let mut created = json!({"metadata": {"name": "a"}, "spec": {"r": 1}, "status": {"ready": 5}});
        S.prepare_for_create(&mut created);
        assert_eq!(
            created,
            json!({"metadata": {"name": "a", "generation": 1}, "spec": {"r": 1}})
        );
        let old = json!({"metadata": {"name": "a", "generation": 1}, "spec": {"r": 1}, "status": {"ready": 1}});
        let mut same =
            json!({"metadata": {"name": "a", "labels": {"x": "y"}}, "spec": {"r": 1}, "status": {"ready": 9}});
        S.prepare_for_update(&mut same, &old);
        assert_eq!(same["status"], json!({"ready": 1}), "a plain update ignores status");
        assert_eq!(same["metadata"]["generation"], 1, "labels are not the spec");
        let mut changed = json!({"metadata": {"name": "a"}, "spec": {"r": 2}});
        S.prepare_for_update(&mut changed, &old);
        assert_eq!(changed["metadata"]["generation"], 2);
    }

    #[test]
    fn status_updates_ignore_everything_but_status() {
        let old = json!({"metadata": {"name": "a", "generation": 3}, "spec": {"r": 1}, "status": {"ready": 1}});
        let mut new =
            json!({"metadata": {"name": "a", "resourceVersion": "7"}, "spec": {"r": 9}, "status": {"ready": 2}});
        S.prepare_for_status_update(&mut new, &old);
        assert_eq!(
            new,
            json!({"metadata": {"name": "a", "generation": 3, "resourceVersion": "7"}, "spec": {"r": 1}, "status": {"ready": 2}})
        );
    }
}
