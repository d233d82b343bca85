//! The strategy of the rbac.authorization.k8s.io resources: their names are path segments
//! (`system:basic-user` is one), as Kubernetes' `ValidateRBACName` allows, not DNS subdomains;
//! and RBAC's escalation check on their writes.

use serde_json::Value;

use crate::rbac::{Rule, escalation, rules_of};
use kube_generic_apiserver::admission::{Attributes, Mutating};
use kube_generic_apiserver::authentication::{SYSTEM_MASTERS, UserInfo};
use kube_generic_apiserver::authorization::{Attributes as AuthorizationAttributes, Authorization, Decision};
use kube_generic_apiserver::request::RequestInfo;
use kube_generic_apiserver::status::ApiError;

use kube_generic_apiserver::meta;
use kube_generic_apiserver::registry::strategy::{GenericStrategy, Strategy};
use kube_generic_apiserver::status::Cause;

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
        for why in kube_apimachinery::validation::content::path_segment_name(name) {
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

/// RBAC's escalation check on writes of roles and bindings (Kubernetes' policy-based RBAC
/// storage): a role is written only by one who holds every rule in it or may `escalate`; a
/// binding only by one who may `bind` the role it names or holds every rule of it. An admission
/// plugin of the mutating chain, so that patches meet it too; it changes nothing.
pub struct Escalation {
    /// The server's authorizers, which decide `escalate` and `bind`.
    pub authorization: Authorization,
    /// The RBAC policy, whose rules the user must hold.
    pub policy: std::sync::Arc<super::cache::PolicyCache>,
}

const GROUP: &str = "rbac.authorization.k8s.io";

impl Escalation {
    fn allowed(&self, user: &UserInfo, verb: &str, resource: &str, namespace: &str, name: &str) -> bool {
        let asked = RequestInfo {
            resource_request: true,
            verb: verb.into(),
            api_group: GROUP.into(),
            resource: resource.into(),
            namespace: namespace.into(),
            name: name.into(),
            ..RequestInfo::default()
        };
        let attributes = AuthorizationAttributes { user, request: &asked };
        self.authorization.decide(&attributes) == Decision::Allow
    }

    /// The refusal when `asked` holds rules `user` does not hold in `namespace`.
    fn confirm_no_escalation(&self, user: &UserInfo, namespace: &str, asked: &[Rule]) -> Result<(), String> {
        let policy = self.policy.current();
        let held = policy.rules_for(user, namespace);
        let missing = escalation::uncovered(&held, asked);
        if missing.is_empty() {
            Ok(())
        } else {
            Err(escalation::not_held_message(user, missing))
        }
    }
}

impl Mutating for Escalation {
    fn admit(&self, a: &Attributes<'_>, obj: &mut Value) -> Result<(), ApiError> {
        let resource = a.mapping.resource;
        if a.mapping.group != GROUP || a.subresource.is_some() {
            return Ok(());
        }
        let user = a.user;
        if user.groups.iter().any(|g| g == SYSTEM_MASTERS) {
            return Ok(());
        }
        let namespace = a.namespace.unwrap_or_default();
        let forbidden = |why: String| ApiError::forbidden_resource(GROUP, resource, a.name, &why);
        match resource {
            "roles" | "clusterroles" => {
                if self.allowed(user, "escalate", resource, namespace, a.name) {
                    return Ok(());
                }
                self.confirm_no_escalation(user, namespace, &rules_of(obj))
                    .map_err(forbidden)?;
                let aggregates = obj["aggregationRule"]["clusterRoleSelectors"]
                    .as_array()
                    .is_some_and(|s| !s.is_empty());
                if resource == "clusterroles"
                    && aggregates
                    && self
                        .confirm_no_escalation(user, "", &escalation::full_authority())
                        .is_err()
                {
                    return Err(forbidden(
                        "must have cluster-admin privileges to use the aggregationRule".into(),
                    ));
                }
                Ok(())
            }
            "rolebindings" | "clusterrolebindings" => {
                let role_ref = &obj["roleRef"];
                let kind = role_ref["kind"].as_str().unwrap_or_default();
                let name = role_ref["name"].as_str().unwrap_or_default();
                let role_resource = match kind {
                    "ClusterRole" => "clusterroles",
                    "Role" => "roles",
                    // Validation refuses other kinds with its own message.
                    _ => return Ok(()),
                };
                if self.allowed(user, "bind", role_resource, namespace, name) {
                    return Ok(());
                }
                let rules: Vec<Rule> = match self.policy.current().role_rules(kind, name, namespace) {
                    Some(rules) => rules.into_iter().cloned().collect(),
                    None => return Err(ApiError::not_found(GROUP, role_resource, name)),
                };
                self.confirm_no_escalation(user, namespace, &rules).map_err(forbidden)
            }
            _ => Ok(()),
        }
    }
}
