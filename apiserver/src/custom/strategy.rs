//! What run-time custom resources and the CRDs themselves check beyond every kind's strategy: a
//! custom object its storage version's structural schema and CEL rules (apiextensions-apiserver's
//! `customResourceStrategy`), a CRD `ValidateCustomResourceDefinition`.

use std::sync::Arc;

use serde_json::Value;

use super::schema::{self, Structural};
use super::validation;
use crate::registry::meta;
use crate::registry::strategy::Checks;
use crate::status::Cause;

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
