//! RBAC decisions over a policy: rule matching, bindings by user, group and service account,
//! namespaces, aggregation and the bootstrap roles.

use serde_json::json;

use crate::rbac::{Policy, Rule, bootstrap};
use kube_generic_apiserver::authentication::UserInfo;
use kube_generic_apiserver::request::RequestInfo;

fn user(name: &str, groups: &[&str]) -> UserInfo {
    UserInfo {
        username: name.into(),
        groups: groups.iter().map(|g| g.to_string()).collect(),
        ..UserInfo::default()
    }
}

fn request(method: &str, uri: &str) -> RequestInfo {
    let (path, query) = uri.split_once('?').map_or((uri, None), |(p, q)| (p, Some(q)));
    RequestInfo::new(method, path, query)
}

#[test]
fn rules_match_verbs_groups_resources_names_and_urls() {
    let rule = Rule::read(
        &json!({"verbs": ["get", "list"], "apiGroups": ["apps"], "resources": ["deployments", "*/scale"], "resourceNames": ["web"]}),
    );
    assert!(rule.allows(&request("GET", "/apis/apps/v1/namespaces/t/deployments/web")));
    assert!(rule.allows(&request("GET", "/apis/apps/v1/namespaces/t/statefulsets/web/scale")));
    assert!(!rule.allows(&request("GET", "/apis/apps/v1/namespaces/t/deployments/api")));
    assert!(
        !rule.allows(&request("GET", "/apis/apps/v1/namespaces/t/deployments")),
        "a list names nothing"
    );
    assert!(!rule.allows(&request("DELETE", "/apis/apps/v1/namespaces/t/deployments/web")));
    assert!(!rule.allows(&request("GET", "/api/v1/namespaces/t/pods/web")));
    let urls = Rule::read(&json!({"verbs": ["get"], "nonResourceURLs": ["/healthz", "/apis/*"]}));
    assert!(urls.allows(&request("GET", "/healthz")) && urls.allows(&request("GET", "/apis/apps/v1")));
    assert!(!urls.allows(&request("GET", "/version")) && !urls.allows(&request("POST", "/healthz")));
}

#[test]
fn bindings_grant_in_their_namespace_and_aggregation_collects_rules() {
    let mut roles = bootstrap::cluster_roles();
    roles.push(
        json!({"metadata": {"name": "widget-reader", "labels": {"rbac.authorization.k8s.io/aggregate-to-view": "true"}},
                      "rules": [{"verbs": ["get"], "apiGroups": ["widgets.example.dev"], "resources": ["widgets"]}]}),
    );
    let role = json!({"metadata": {"namespace": "t", "name": "pod-reader"},
                      "rules": [{"verbs": ["list"], "apiGroups": [""], "resources": ["pods"]}]});
    let bindings = [
        json!({"metadata": {"namespace": "t", "name": "a"}, "roleRef": {"kind": "Role", "name": "pod-reader"},
               "subjects": [{"kind": "User", "name": "alice"}]}),
        json!({"metadata": {"namespace": "t", "name": "b"}, "roleRef": {"kind": "ClusterRole", "name": "view"},
               "subjects": [{"kind": "Group", "name": "readers"}, {"kind": "ServiceAccount", "name": "bot"}]}),
    ];
    let policy = Policy::new(&roles, &[role], &bootstrap::cluster_role_bindings(), &bindings);
    let alice = user("alice", &["system:authenticated"]);
    assert!(policy.allows(&alice, &request("GET", "/api/v1/namespaces/t/pods")));
    assert!(
        !policy.allows(&alice, &request("GET", "/api/v1/namespaces/u/pods")),
        "another namespace"
    );
    assert!(
        !policy.allows(&alice, &request("GET", "/api/v1/pods")),
        "all namespaces"
    );
    assert!(
        policy.allows(&alice, &request("GET", "/apis/apps/v1")),
        "discovery for every user"
    );
    let reader = user("rita", &["readers", "system:authenticated"]);
    assert!(policy.allows(&reader, &request("GET", "/apis/apps/v1/namespaces/t/deployments/web")));
    assert!(
        policy.allows(
            &reader,
            &request("GET", "/apis/widgets.example.dev/v1/namespaces/t/widgets/w")
        ),
        "aggregated"
    );
    assert!(
        !policy.allows(&reader, &request("GET", "/api/v1/namespaces/t/secrets/s")),
        "view reads no secrets"
    );
    assert!(!policy.allows(
        &reader,
        &request("DELETE", "/apis/apps/v1/namespaces/t/deployments/web")
    ));
    let bot = user(
        "system:serviceaccount:t:bot",
        &["system:serviceaccounts", "system:authenticated"],
    );
    assert!(policy.allows(&bot, &request("GET", "/api/v1/namespaces/t/configmaps")));
    let admin = user("root", &["system:masters"]);
    assert!(
        policy.allows(&admin, &request("DELETE", "/api/v1/namespaces/t")),
        "cluster-admin"
    );
}

#[test]
fn aggregation_passes_on_through_aggregated_roles() {
    // A role labelled for view reaches admin through edit, as the aggregation controller
    // writes view's rules into edit and edit's into admin.
    let mut roles = bootstrap::cluster_roles();
    roles.push(
        json!({"metadata": {"name": "widget-reader", "labels": {"rbac.authorization.k8s.io/aggregate-to-view": "true"}},
                      "rules": [{"verbs": ["get"], "apiGroups": ["widgets.example.dev"], "resources": ["widgets"]}]}),
    );
    let bindings = [
        json!({"metadata": {"namespace": "t", "name": "a"}, "roleRef": {"kind": "ClusterRole", "name": "admin"},
               "subjects": [{"kind": "User", "name": "ann"}]}),
    ];
    let policy = Policy::new(&roles, &[], &bootstrap::cluster_role_bindings(), &bindings);
    let ann = user("ann", &["system:authenticated"]);
    for path in [
        "/apis/widgets.example.dev/v1/namespaces/t/widgets/w",
        "/api/v1/namespaces/t/configmaps/c",
        "/apis/apps/v1/namespaces/t/deployments/d",
    ] {
        assert!(policy.allows(&ann, &request("GET", path)), "{path}");
    }
    let rules = policy.role_rules("ClusterRole", "admin", "t").unwrap();
    assert!(rules.iter().any(|r| r.resources.contains(&"widgets".to_string())));
    assert!(policy.role_rules("ClusterRole", "missing", "t").is_none());
}
