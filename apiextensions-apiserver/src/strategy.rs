//! What run-time custom resources and the CRDs themselves check beyond every kind's strategy: a
//! custom object its storage version's structural schema and CEL rules (apiextensions-apiserver's
//! `customResourceStrategy`), a CRD `ValidateCustomResourceDefinition`; and a compiled kind the
//! CEL rules of its OpenAPI schema, with the same engine, so a compiled custom kind and its CRD
//! served at run time refuse the same writes.

use std::sync::{Arc, OnceLock};

use kube_apimachinery::GroupVersionKind;
use serde_json::Value;

use super::schema::{self, Structural};
use super::validation;
use kube_generic_apiserver::endpoints::registrar::Registrar;
use kube_generic_apiserver::meta;
use kube_generic_apiserver::registry::strategy::Checks;
use kube_generic_apiserver::status::Cause;

/// A custom resource's checks: its storage version's schema, which stored objects are in.
pub struct SchemaChecks(pub Arc<Structural>);

impl Checks for SchemaChecks {
    fn create(&self, obj: &Value) -> Vec<Cause> {
        schema::validate(&self.0, obj, None).iter().map(meta::cause).collect()
    }

    fn update(&self, new: &Value, old: &Value) -> Vec<Cause> {
        schema::validate(&self.0, new, Some(old))
            .iter()
            .map(meta::cause)
            .collect()
    }
}

/// The CRDs' checks: apiextensions-apiserver's validation of a CRD.
pub struct CrdChecks;

impl Checks for CrdChecks {
    fn create(&self, obj: &Value) -> Vec<Cause> {
        validation::validate(obj, None).iter().map(meta::cause).collect()
    }

    fn update(&self, new: &Value, old: &Value) -> Vec<Cause> {
        validation::validate(new, Some(old)).iter().map(meta::cause).collect()
    }

    /// A status write checks its metadata and accepted names only, as Kubernetes' does; the
    /// accepted names are the naming controller's, the only status writer.
    fn status_update(&self, _new: &Value, _old: &Value) -> Vec<Cause> {
        Vec::new()
    }
}

/// A compiled kind's `x-kubernetes-validations` (`+k8s:validation:cel` tags), read from the
/// server's OpenAPI v3 document of its storage version the first time it is there.
pub struct CompiledRules {
    registrar: Arc<Registrar>,
    gvk: GroupVersionKind,
    /// The kind's schema once read, `None` when it has no rules.
    schema: OnceLock<Option<Arc<Structural>>>,
}

impl CompiledRules {
    /// The rules of `gvk` as `registrar`'s documents state them.
    pub fn new(registrar: Arc<Registrar>, gvk: GroupVersionKind) -> Self {
        CompiledRules {
            registrar,
            gvk,
            schema: OnceLock::new(),
        }
    }

    /// The kind's schema with rules; nothing while the server has no document of it yet.
    fn schema(&self) -> Option<Arc<Structural>> {
        if let Some(read) = self.schema.get() {
            return read.clone();
        }
        let registry = self.registrar.registry();
        let (doc, name) = registry.openapi.kind_schema(&self.gvk)?;
        let schemas = doc.pointer("/components/schemas")?;
        let root = schemas.get(&name)?;
        let resolve = |n: &str| schemas.get(n);
        let mut errors = Vec::new();
        let read = Structural::read_resolving(root, &mut errors, &resolve);
        for e in &errors {
            tracing::warn!(kind = %self.gvk, path = %e.path, error = %e.message, "a rule of a compiled kind does not compile; it is not checked");
        }
        let read = schema::has_rules(&read).then(|| Arc::new(read));
        self.schema.get_or_init(|| read).clone()
    }
}

impl Checks for CompiledRules {
    fn create(&self, obj: &Value) -> Vec<Cause> {
        self.schema()
            .map(|s| schema::rules(&s, obj, None).iter().map(meta::cause).collect())
            .unwrap_or_default()
    }

    fn update(&self, new: &Value, old: &Value) -> Vec<Cause> {
        self.schema()
            .map(|s| schema::rules(&s, new, Some(old)).iter().map(meta::cause).collect())
            .unwrap_or_default()
    }

    /// The kind's generated validation found errors its rules cannot run past, as a CRD's
    /// schema errors block its rules.
    fn skipped(&self) -> Option<Cause> {
        self.schema().map(|_| meta::cause(&schema::rules_not_checked()))
    }
}
