//! `--authorization-mode=RBAC`: roles, cluster roles and their bindings decide, as Kubernetes'
//! RBAC authorizer does. The user's ClusterRoleBindings are visited first, then the RoleBindings
//! of the request's namespace; a rule allows when its verbs, API groups, resources (with
//! `*/subresource`), resource names or non-resource URLs (with a trailing `*`) cover the request.
//! An aggregated ClusterRole has the rules of every ClusterRole its selectors match. Nothing
//! matching is no opinion, which the chain turns into a 403.
//!
//! The policy is a snapshot of the four resources ([`cache`]), read without touching storage.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use serde_json::Value;

use kube_generic_apiserver::authentication::UserInfo;
use kube_generic_apiserver::authorization::{Attributes, Authorizer, Decision};
use kube_generic_apiserver::request::RequestInfo;
use kube_generic_apiserver::selector::LabelSelector;

pub mod bootstrap;
pub mod cache;
pub mod escalation;
pub mod strategy;

/// The stores of the four RBAC resources.
#[derive(Clone)]
pub struct PolicyStores {
    /// `clusterroles`.
    pub cluster_roles: Arc<kube_generic_apiserver::registry::store::Store>,
    /// `roles`.
    pub roles: Arc<kube_generic_apiserver::registry::store::Store>,
    /// `clusterrolebindings`.
    pub cluster_role_bindings: Arc<kube_generic_apiserver::registry::store::Store>,
    /// `rolebindings`.
    pub role_bindings: Arc<kube_generic_apiserver::registry::store::Store>,
}

/// One rule of a role.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Rule {
    /// Verbs, `*` for all.
    pub verbs: Vec<String>,
    /// API groups, `*` for all.
    pub api_groups: Vec<String>,
    /// Resources (`pods`, `pods/log`, `*/scale`, `*`).
    pub resources: Vec<String>,
    /// Names the rule is limited to; none means all.
    pub resource_names: Vec<String>,
    /// Non-resource URLs (`/healthz`, `/apis/*`).
    pub non_resource_urls: Vec<String>,
}

fn strings(v: &Value, key: &str) -> Vec<String> {
    v.get(key)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(str::to_string)
        .collect()
}

impl Rule {
    /// A `PolicyRule` object.
    pub fn read(v: &Value) -> Rule {
        Rule {
            verbs: strings(v, "verbs"),
            api_groups: strings(v, "apiGroups"),
            resources: strings(v, "resources"),
            resource_names: strings(v, "resourceNames"),
            non_resource_urls: strings(v, "nonResourceURLs"),
        }
    }

    /// Whether the rule covers `r`.
    pub fn allows(&self, r: &RequestInfo) -> bool {
        let has = |list: &[String], item: &str| list.iter().any(|x| x == "*" || x == item);
        if !has(&self.verbs, &r.verb) {
            return false;
        }
        if !r.resource_request {
            return self.non_resource_urls.iter().any(|url| {
                url == "*" || *url == r.path || url.strip_suffix('*').is_some_and(|prefix| r.path.starts_with(prefix))
            });
        }
        let combined = if r.subresource.is_empty() {
            r.resource.clone()
        } else {
            format!("{}/{}", r.resource, r.subresource)
        };
        let resource = self.resources.iter().any(|x| {
            x == "*"
                || *x == combined
                || (!r.subresource.is_empty() && x.strip_prefix("*/") == Some(r.subresource.as_str()))
        });
        has(&self.api_groups, &r.api_group)
            && resource
            && (self.resource_names.is_empty() || self.resource_names.contains(&r.name))
    }
}

/// A subject of a binding.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Subject {
    kind: String,
    name: String,
    namespace: String,
}

impl Subject {
    /// Whether the subject is `user` (a binding in `namespace`, for service accounts named
    /// without one).
    fn is(&self, user: &UserInfo, namespace: &str) -> bool {
        match self.kind.as_str() {
            "User" => self.name == user.username,
            "Group" => user.groups.contains(&self.name),
            "ServiceAccount" => {
                let ns = if self.namespace.is_empty() {
                    namespace
                } else {
                    &self.namespace
                };
                user.username == format!("system:serviceaccount:{ns}:{}", self.name)
            }
            _ => false,
        }
    }
}

/// A RoleBinding or ClusterRoleBinding.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Binding {
    subjects: Vec<Subject>,
    /// `ClusterRole` or `Role`.
    role_kind: String,
    role_name: String,
}

impl Binding {
    fn read(v: &Value) -> Binding {
        let subjects = v
            .get("subjects")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .map(|s| Subject {
                kind: s["kind"].as_str().unwrap_or_default().to_string(),
                name: s["name"].as_str().unwrap_or_default().to_string(),
                namespace: s["namespace"].as_str().unwrap_or_default().to_string(),
            })
            .collect();
        Binding {
            subjects,
            role_kind: v["roleRef"]["kind"].as_str().unwrap_or_default().to_string(),
            role_name: v["roleRef"]["name"].as_str().unwrap_or_default().to_string(),
        }
    }
}

/// A ClusterRole: its rules, labels and aggregation selectors.
#[derive(Clone, Debug, Default)]
struct ClusterRole {
    rules: Vec<Rule>,
    labels: serde_json::Map<String, Value>,
    aggregation: Option<Vec<LabelSelector>>,
}

/// The four resources at one moment.
#[derive(Clone, Debug, Default)]
pub struct Policy {
    cluster_roles: HashMap<String, ClusterRole>,
    roles: HashMap<(String, String), Vec<Rule>>,
    cluster_role_bindings: Vec<Binding>,
    role_bindings: BTreeMap<String, Vec<Binding>>,
}

/// The rules of a Role or ClusterRole object.
pub fn rules_of(v: &Value) -> Vec<Rule> {
    v.get("rules")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(Rule::read)
        .collect()
}

fn name_of(v: &Value) -> (String, String) {
    let m = &v["metadata"];
    (
        m["namespace"].as_str().unwrap_or_default().to_string(),
        m["name"].as_str().unwrap_or_default().to_string(),
    )
}

impl Policy {
    /// The policy of these objects (each list: the resource's objects, as stored).
    pub fn new(
        cluster_roles: &[Value],
        roles: &[Value],
        cluster_role_bindings: &[Value],
        role_bindings: &[Value],
    ) -> Policy {
        let mut policy = Policy::default();
        for v in cluster_roles {
            let aggregation = v.get("aggregationRule").map(|a| {
                a.get("clusterRoleSelectors")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .filter_map(|s| LabelSelector::parse(&kube_generic_apiserver::selector::format(s)).ok())
                    .collect()
            });
            let role = ClusterRole {
                rules: rules_of(v),
                labels: v["metadata"]["labels"].as_object().cloned().unwrap_or_default(),
                aggregation,
            };
            policy.cluster_roles.insert(name_of(v).1, role);
        }
        for v in roles {
            policy.roles.insert(name_of(v), rules_of(v));
        }
        policy.cluster_role_bindings = cluster_role_bindings.iter().map(Binding::read).collect();
        for v in role_bindings {
            let (namespace, _) = name_of(v);
            policy
                .role_bindings
                .entry(namespace)
                .or_default()
                .push(Binding::read(v));
        }
        policy
    }

    /// The rules of ClusterRole `name`, an aggregated one's with those of every ClusterRole its
    /// selectors match, and theirs in turn (the aggregation controller writes an aggregated
    /// role's rules into it, so an aggregated role that another aggregates passes them on:
    /// view into edit into admin).
    fn cluster_role_rules(&self, name: &str) -> Vec<&Rule> {
        let mut rules: Vec<&Rule> = Vec::new();
        let mut seen = std::collections::HashSet::new();
        let mut pending = vec![name];
        while let Some(current) = pending.pop() {
            if !seen.insert(current) {
                continue;
            }
            let Some(role) = self.cluster_roles.get(current) else {
                continue;
            };
            rules.extend(&role.rules);
            if let Some(selectors) = &role.aggregation {
                for (other, r) in &self.cluster_roles {
                    if !seen.contains(other.as_str()) && selectors.iter().any(|s| s.matches(Some(&r.labels))) {
                        pending.push(other);
                    }
                }
            }
        }
        rules
    }

    /// The rules of the role a binding in `namespace` refers to (`Role` or `ClusterRole`);
    /// `None` when there is no such role.
    pub fn role_rules(&self, kind: &str, name: &str, namespace: &str) -> Option<Vec<&Rule>> {
        match kind {
            "ClusterRole" => self
                .cluster_roles
                .contains_key(name)
                .then(|| self.cluster_role_rules(name)),
            "Role" => self
                .roles
                .get(&(namespace.to_string(), name.to_string()))
                .map(|rules| rules.iter().collect()),
            _ => None,
        }
    }

    /// Every rule `user` holds in `namespace` (cluster-wide ones included; none of another
    /// namespace).
    pub fn rules_for(&self, user: &UserInfo, namespace: &str) -> Vec<&Rule> {
        let mut rules = Vec::new();
        for b in &self.cluster_role_bindings {
            if b.subjects.iter().any(|s| s.is(user, "")) && b.role_kind == "ClusterRole" {
                rules.extend(self.cluster_role_rules(&b.role_name));
            }
        }
        if !namespace.is_empty() {
            for b in self.role_bindings.get(namespace).into_iter().flatten() {
                if !b.subjects.iter().any(|s| s.is(user, namespace)) {
                    continue;
                }
                match b.role_kind.as_str() {
                    "ClusterRole" => rules.extend(self.cluster_role_rules(&b.role_name)),
                    "Role" => {
                        let key = (namespace.to_string(), b.role_name.clone());
                        rules.extend(self.roles.get(&key).into_iter().flatten());
                    }
                    _ => {}
                }
            }
        }
        rules
    }

    /// Whether `user` may do `request`.
    pub fn allows(&self, user: &UserInfo, request: &RequestInfo) -> bool {
        self.rules_for(user, &request.namespace)
            .iter()
            .any(|r| r.allows(request))
    }
}

/// The RBAC authorizer over a policy snapshot that [`cache::PolicyCache`] keeps current.
pub struct Rbac {
    policy: Arc<cache::PolicyCache>,
}

impl Rbac {
    /// An authorizer reading `policy`.
    pub fn new(policy: Arc<cache::PolicyCache>) -> Self {
        Rbac { policy }
    }
}

#[async_trait::async_trait]
impl Authorizer for Rbac {
    fn authorize(&self, a: &Attributes<'_>) -> Decision {
        if self.policy.current().allows(a.user, a.request) {
            Decision::Allow
        } else {
            Decision::NoOpinion(String::new())
        }
    }

    /// Requests wait until the policy is first read.
    async fn ready(&self) {
        self.policy.ready().await;
    }
}

#[cfg(test)]
mod tests;
