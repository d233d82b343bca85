//! `--audit-policy-file`: an audit.k8s.io/v1 `Policy` and how much of a request it records, as
//! kube-apiserver's policy checker decides: the first rule that matches the user, group, verb,
//! namespace, resource (`pods`, `pods/log`, `*/status`, `pods/*`, resource names) or non-resource
//! URL (`/healthz*`) gives the level and the stages left out; no rule matching is `None`.

use serde::Deserialize;

use crate::authentication::UserInfo;
use crate::request::RequestInfo;

/// How much of a request an event records.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Deserialize)]
pub enum Level {
    /// Nothing is recorded.
    #[default]
    None,
    /// Who asked what, and the answer's status.
    Metadata,
    /// And the request's body.
    Request,
    /// And the response's body.
    RequestResponse,
}

impl Level {
    /// The level's name in events.
    pub fn as_str(self) -> &'static str {
        match self {
            Level::None => "None",
            Level::Metadata => "Metadata",
            Level::Request => "Request",
            Level::RequestResponse => "RequestResponse",
        }
    }
}

/// The points of a request's life an event is written at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
pub enum Stage {
    /// As soon as the request is authenticated.
    RequestReceived,
    /// When a long-running request's response headers are sent.
    ResponseStarted,
    /// When the response is complete.
    ResponseComplete,
    /// When a handler panicked.
    Panic,
}

impl Stage {
    /// The stage's name in events.
    pub fn as_str(self) -> &'static str {
        match self {
            Stage::RequestReceived => "RequestReceived",
            Stage::ResponseStarted => "ResponseStarted",
            Stage::ResponseComplete => "ResponseComplete",
            Stage::Panic => "Panic",
        }
    }
}

/// Resources of one API group a rule matches.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GroupResources {
    /// The API group (empty: the core group).
    #[serde(default)]
    pub group: String,
    /// Resources (`pods`, `pods/log`, `*/status`, `pods/*`, `*`); none: all of the group.
    #[serde(default)]
    pub resources: Vec<String>,
    /// Names the rule is limited to; none: all.
    #[serde(default)]
    pub resource_names: Vec<String>,
}

/// One rule of a policy.
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PolicyRule {
    /// The level of the requests it matches.
    pub level: Level,
    /// Users it is limited to.
    #[serde(default)]
    pub users: Vec<String>,
    /// Groups it is limited to (any of them).
    #[serde(default)]
    pub user_groups: Vec<String>,
    /// Verbs it is limited to.
    #[serde(default)]
    pub verbs: Vec<String>,
    /// Resources it is limited to (resource requests only).
    #[serde(default)]
    pub resources: Vec<GroupResources>,
    /// Namespaces it is limited to (resource requests only; "" is cluster scope).
    #[serde(default)]
    pub namespaces: Vec<String>,
    /// Non-resource URLs it is limited to (non-resource requests only; a trailing `*` is a prefix).
    #[serde(default, rename = "nonResourceURLs")]
    pub non_resource_urls: Vec<String>,
    /// Stages not written for these requests, besides the policy's.
    #[serde(default)]
    pub omit_stages: Vec<Stage>,
    /// Whether managedFields are left out of recorded bodies (the policy's setting when unset).
    #[serde(default)]
    pub omit_managed_fields: Option<bool>,
}

/// An audit.k8s.io/v1 Policy.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Policy {
    /// The rules, first match wins.
    #[serde(default)]
    pub rules: Vec<PolicyRule>,
    /// Stages no event is written at.
    #[serde(default)]
    pub omit_stages: Vec<Stage>,
    /// Whether managedFields are left out of recorded bodies.
    #[serde(default)]
    pub omit_managed_fields: bool,
}

/// What the policy says about one request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decision {
    /// The level.
    pub level: Level,
    /// The stages not written.
    pub omit_stages: Vec<Stage>,
    /// Whether recorded bodies leave out managedFields.
    pub omit_managed_fields: bool,
}

impl Decision {
    /// Whether an event is written at `stage`.
    pub fn records(&self, stage: Stage) -> bool {
        self.level != Level::None && !self.omit_stages.contains(&stage)
    }
}

impl Policy {
    /// Reads a policy file's YAML or JSON text; an error says what is wrong.
    pub fn parse(text: &str) -> Result<Policy, String> {
        let value: serde_json::Value = serde_saphyr::from_str(text).map_err(|e| e.to_string())?;
        let api_version = value["apiVersion"].as_str().unwrap_or_default();
        if value["kind"] != "Policy" || !matches!(api_version, "audit.k8s.io/v1") {
            return Err(format!(
                "expected kind Policy of audit.k8s.io/v1, found {} of {api_version:?}",
                value["kind"]
            ));
        }
        serde_json::from_value(value).map_err(|e| e.to_string())
    }

    /// Reads `path`.
    pub fn read(path: &std::path::Path) -> Result<Policy, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        Self::parse(&text).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// The level and stages for `request` by `user` (none: a request no one is known to have
    /// sent, whose user-limited rules do not match).
    pub fn decide(&self, user: Option<&UserInfo>, request: &RequestInfo) -> Decision {
        let rule = self.rules.iter().find(|r| r.matches(user, request));
        let mut omit_stages = self.omit_stages.clone();
        let (level, omit_managed_fields) = match rule {
            Some(rule) => {
                omit_stages.extend(rule.omit_stages.iter().copied());
                (rule.level, rule.omit_managed_fields.unwrap_or(self.omit_managed_fields))
            }
            None => (Level::None, self.omit_managed_fields),
        };
        Decision {
            level,
            omit_stages,
            omit_managed_fields,
        }
    }
}

impl PolicyRule {
    fn matches(&self, user: Option<&UserInfo>, r: &RequestInfo) -> bool {
        if !self.users.is_empty() && !user.is_some_and(|u| self.users.contains(&u.username)) {
            return false;
        }
        if !self.user_groups.is_empty() && !user.is_some_and(|u| u.groups.iter().any(|g| self.user_groups.contains(g)))
        {
            return false;
        }
        if !self.verbs.is_empty() && !self.verbs.contains(&r.verb) {
            return false;
        }
        if !self.namespaces.is_empty() || !self.resources.is_empty() {
            return r.resource_request && self.matches_resource(r);
        }
        if !self.non_resource_urls.is_empty() {
            return !r.resource_request
                && self
                    .non_resource_urls
                    .iter()
                    .any(|u| *u == r.path || u.strip_suffix('*').is_some_and(|p| r.path.starts_with(p)));
        }
        true
    }

    fn matches_resource(&self, r: &RequestInfo) -> bool {
        if !self.namespaces.is_empty() && !self.namespaces.contains(&r.namespace) {
            return false;
        }
        if self.resources.is_empty() {
            return true;
        }
        let combined = if r.subresource.is_empty() {
            r.resource.clone()
        } else {
            format!("{}/{}", r.resource, r.subresource)
        };
        self.resources.iter().any(|g| {
            if g.group != r.api_group {
                return false;
            }
            if g.resources.is_empty() {
                return true;
            }
            if !g.resource_names.is_empty() && !g.resource_names.contains(&r.name) {
                return false;
            }
            g.resources.iter().any(|res| {
                *res == combined
                    || res == "*"
                    || (!r.subresource.is_empty() && res.strip_prefix("*/") == Some(r.subresource.as_str()))
                    || res.strip_suffix("/*") == Some(r.resource.as_str())
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const POLICY: &str = r#"
apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: ["RequestReceived"]
rules:
- level: None
  nonResourceURLs: ["/healthz*", "/version"]
- level: None
  users: ["system:kube-proxy"]
  verbs: ["watch"]
- level: RequestResponse
  resources:
  - group: ""
    resources: ["configmaps", "pods/log"]
- level: Request
  namespaces: ["kube-system"]
  omitStages: ["ResponseStarted"]
- level: Metadata
  resources:
  - group: "apps"
    resources: ["*/scale"]
- level: Metadata
  userGroups: ["dev"]
"#;

    fn get(path: &str) -> RequestInfo {
        RequestInfo::new("GET", path, None)
    }

    fn user(name: &str, groups: &[&str]) -> UserInfo {
        UserInfo {
            username: name.into(),
            groups: groups.iter().map(|g| g.to_string()).collect(),
            ..UserInfo::default()
        }
    }

    #[test]
    fn the_first_matching_rule_decides() {
        let policy = Policy::parse(POLICY).unwrap();
        let alice = user("alice", &["dev"]);
        let level = |r: &RequestInfo, u: &UserInfo| policy.decide(Some(u), r).level;
        assert_eq!(level(&get("/healthz/etcd"), &alice), Level::None);
        assert_eq!(
            level(&get("/api/v1/namespaces/t/configmaps/x"), &alice),
            Level::RequestResponse
        );
        assert_eq!(
            level(&get("/api/v1/namespaces/t/pods/p/log"), &alice),
            Level::RequestResponse
        );
        assert_eq!(
            level(&get("/api/v1/namespaces/t/pods/p"), &alice),
            Level::Metadata,
            "by group"
        );
        assert_eq!(
            level(&get("/api/v1/namespaces/t/pods/p"), &user("bob", &[])),
            Level::None
        );
        assert_eq!(
            level(&get("/api/v1/namespaces/kube-system/pods"), &user("bob", &[])),
            Level::Request
        );
        assert_eq!(
            level(
                &get("/apis/apps/v1/namespaces/t/deployments/d/scale"),
                &user("bob", &[])
            ),
            Level::Metadata
        );
        let watch = RequestInfo::new("GET", "/api/v1/pods", Some("watch=true"));
        assert_eq!(level(&watch, &user("system:kube-proxy", &["dev"])), Level::None);
        let decided = policy.decide(Some(&alice), &get("/api/v1/namespaces/kube-system/pods"));
        assert!(!decided.records(Stage::RequestReceived) && !decided.records(Stage::ResponseStarted));
        assert!(decided.records(Stage::ResponseComplete));
    }

    #[test]
    fn a_file_that_is_not_a_policy_is_an_error() {
        let why = Policy::parse("apiVersion: v1\nkind: ConfigMap\n").unwrap_err();
        assert!(why.contains("expected kind Policy of audit.k8s.io/v1"), "{why}");
        let why = Policy::parse("apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Loud\n").unwrap_err();
        assert!(why.contains("Loud"), "{why}");
    }
}
