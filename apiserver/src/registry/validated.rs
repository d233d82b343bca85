//! A kind's strategy with the validation its Scheme registers (validation-gen's declarative rules
//! and the hand-written ones beside them), as Kubernetes' strategies call `ValidateDeployment`
//! and the declarative validation: checked on the object in its storage version, after
//! defaulting and before storage, on create, update and `/status` writes. Errors of alpha rules
//! are not enforced, as kube-apiserver enforces none (it only compares them with the hand-written
//! ones).

use std::collections::BTreeMap;
use std::sync::Arc;

use kube_apimachinery::validation::{OpKind, Operation, Stability};
use kube_apimachinery::{GroupVersionKind, Scheme};
use serde_json::Value;

use super::strategy::{Checked, Checks, Strategy, Then};
use crate::meta;
use crate::status::Cause;

/// The Scheme's validation of `gvk` (the storage version), checked after a kind's strategy.
pub struct Validated {
    scheme: Arc<Scheme>,
    gvk: GroupVersionKind,
    /// A create with the server's feature gates, which every check starts from.
    base: Operation,
}

impl Validated {
    /// Wraps `inner`, validating with `gates` on, then checking `rules` (a kind's CEL rules),
    /// which the validation's errors can block as a schema's do; without either it is `inner`.
    pub fn wrap(
        inner: Arc<dyn Strategy>,
        scheme: &Arc<Scheme>,
        gvk: GroupVersionKind,
        gates: Arc<BTreeMap<String, bool>>,
        rules: Option<Arc<dyn Checks>>,
    ) -> Arc<dyn Strategy> {
        let validated = (!scheme.validation_subresources(&gvk).is_empty()).then(|| {
            // A gate the server's configuration does not name is off, as kube-apiserver's
            // unknown gates are for an API it vendors.
            let base = gates
                .iter()
                .fold(Operation::create().undefined_options_off(), |op, (gate, on)| {
                    op.with_option(gate.clone(), *on)
                });
            Validated {
                scheme: scheme.clone(),
                gvk,
                base,
            }
        });
        match (validated, rules) {
            (None, None) => inner,
            (Some(checks), None) => Arc::new(Checked { inner, checks }),
            (None, Some(checks)) => Arc::new(Checked { inner, checks }),
            (Some(first), Some(then)) => Arc::new(Checked {
                inner,
                checks: Then { first, then },
            }),
        }
    }

    /// The operation of a write of this kind (`update`) to `subresource` (empty: the object).
    fn operation(&self, update: bool, subresource: &str) -> Operation {
        let mut op = self.base.clone().on_subresource(subresource);
        if update {
            op.kind = OpKind::Update;
        }
        op
    }

    fn check(&self, op: Operation, new: &Value, old: Option<&Value>) -> Vec<Cause> {
        self.scheme
            .validate_value(&op, &self.gvk, new, old)
            .iter()
            .filter(|e| e.stability != Some(Stability::Alpha))
            .map(meta::cause)
            .collect()
    }
}

impl Checks for Validated {
    fn create(&self, obj: &Value) -> Vec<Cause> {
        self.check(self.operation(false, ""), obj, None)
    }

    fn update(&self, new: &Value, old: &Value) -> Vec<Cause> {
        self.check(self.operation(true, ""), new, Some(old))
    }

    fn status_update(&self, new: &Value, old: &Value) -> Vec<Cause> {
        // Rules that serve `/status` check a status write as such; the others check the object,
        // whose unchanged parts ratcheting skips.
        let served = self.scheme.validation_subresources(&self.gvk);
        let op = self.operation(true, if served.contains(&"/status") { "status" } else { "" });
        self.check(op, new, Some(old))
    }
}
