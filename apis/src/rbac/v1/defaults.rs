//! Hand-written defaulting for rbac/v1, as Kubernetes' `pkg/apis/rbac/v1/defaults.go`: a
//! subject's API group follows from its kind, and a role reference is in the rbac group unless
//! it says otherwise.

use super::{ClusterRoleBinding, RoleBinding, Subject};

/// The rbac group, which User and Group subjects and role references belong to.
const GROUP: &str = "rbac.authorization.k8s.io";

/// A User or Group subject without an API group is in the rbac group; a ServiceAccount is in
/// the core group.
pub fn set_defaults_subject(obj: &mut Subject) {
    if obj.api_group.as_deref().unwrap_or_default().is_empty() {
        obj.api_group = match obj.kind.as_str() {
            "User" | "Group" => Some(GROUP.to_string()),
            _ => obj.api_group.take(),
        };
    }
}

/// A RoleBinding's role reference is in the rbac group unless it names another.
pub fn set_defaults_role_binding(obj: &mut RoleBinding) {
    if obj.role_ref.api_group.is_empty() {
        obj.role_ref.api_group = GROUP.to_string();
    }
}

/// A ClusterRoleBinding's role reference is in the rbac group unless it names another.
pub fn set_defaults_cluster_role_binding(obj: &mut ClusterRoleBinding) {
    if obj.role_ref.api_group.is_empty() {
        obj.role_ref.api_group = GROUP.to_string();
    }
}
