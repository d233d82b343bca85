//! The strategy of the rbac.authorization.k8s.io resources: their names are path segments
//! (`system:basic-user` is one), as Kubernetes' `ValidateRBACName` allows, not DNS subdomains.

use serde_json::Value;

use crate::registry::meta;
use crate::registry::strategy::{GenericStrategy, Strategy};
use crate::status::Cause;

/// Roles, ClusterRoles and their bindings.
#[derive(Clone, Copy, Debug)]
pub struct RbacStrategy(pub GenericStrategy);

impl Strategy for RbacStrategy {
    fn prepare_for_create(&self, obj: &mut Value) {
        self.0.prepare_for_create(obj)
    }

    fn prepare_for_update(&self, new: &mut Value, old: &Value) {
        self.0.prepare_for_update(new, old)
    }

    fn prepare_for_status_update(&self, new: &mut Value, old: &Value) {
        self.0.prepare_for_status_update(new, old)
    }

    fn validate(&self, obj: &Value) -> Vec<Cause> {
        let name = meta::name(obj);
        let mut causes = Vec::new();
        if name.is_empty() && obj["metadata"]["generateName"].as_str().unwrap_or_default().is_empty() {
            causes.push(Cause {
                reason: "FieldValueRequired",
                message: "Required value: name or generateName is required".into(),
                field: "metadata.name".into(),
            });
        }
        for why in runtime::validation::content::path_segment_name(name) {
            causes.push(Cause {
                reason: "FieldValueInvalid",
                message: format!("Invalid value: {name:?}: {why}"),
                field: "metadata.name".into(),
            });
        }
        causes.extend(meta::validate_object_meta(obj));
        causes
    }

    fn returns_deleted_object(&self) -> bool {
        self.0.returns_deleted_object()
    }
}
