//! API Priority and Fairness' bootstrap configuration, as kube-apiserver's
//! `priority-and-fairness-config-producer` hook creates it (k8s.io/apiserver's
//! `pkg/apis/flowcontrol/bootstrap`): the mandatory `exempt` and `catch-all` FlowSchemas and
//! PriorityLevelConfigurations and the suggested ones (system, node-high, leader-election,
//! workload-high, workload-low, global-default), each created when missing and marked for
//! automatic update. The server does not yet dispatch requests by them; clients and tools that
//! read them (`kubectl get flowschemas`) find what a cluster has.

use std::sync::Arc;

use serde_json::{Value, json};

use kube_generic_apiserver::registry::store::Store;

/// The annotation that lets kube-apiserver keep a bootstrap object's spec current.
const AUTO_UPDATE: &str = "apf.kubernetes.io/autoupdate-spec";

/// The subjects every rule names: groups, users, and kube-system's ServiceAccounts.
fn groups(names: &[&str]) -> Vec<Value> {
    names
        .iter()
        .map(|n| json!({"kind": "Group", "group": {"name": n}}))
        .collect()
}

fn users(names: &[&str]) -> Vec<Value> {
    names
        .iter()
        .map(|n| json!({"kind": "User", "user": {"name": n}}))
        .collect()
}

fn kube_system_service_accounts() -> Vec<Value> {
    vec![json!({"kind": "ServiceAccount", "serviceAccount": {"name": "*", "namespace": "kube-system"}})]
}

/// A rule on every resource (cluster-scoped ones too) and every non-resource URL.
fn everything(subjects: Vec<Value>) -> Value {
    json!({
        "subjects": subjects,
        "resourceRules": [{"verbs": ["*"], "apiGroups": ["*"], "resources": ["*"], "namespaces": ["*"], "clusterScope": true}],
        "nonResourceRules": [{"verbs": ["*"], "nonResourceURLs": ["*"]}],
    })
}

fn flow_schema(name: &str, level: &str, precedence: i32, distinguisher: Option<&str>, rules: Value) -> Value {
    let mut spec = json!({
        "priorityLevelConfiguration": {"name": level},
        "matchingPrecedence": precedence,
        "rules": [rules],
    });
    if let Some(by) = distinguisher {
        spec["distinguisherMethod"] = json!({"type": by});
    }
    json!({
        "apiVersion": "flowcontrol.apiserver.k8s.io/v1",
        "kind": "FlowSchema",
        "metadata": {"name": name, "annotations": {AUTO_UPDATE: "true"}},
        "spec": spec,
    })
}

/// A Limited priority level that queues: its shares, lendable percent, queues and hand size.
fn queuing(name: &str, shares: i32, lendable: i32, queues: i32, hand_size: i32) -> Value {
    level(
        name,
        json!({
            "type": "Limited",
            "limited": {
                "nominalConcurrencyShares": shares,
                "lendablePercent": lendable,
                "limitResponse": {"type": "Queue", "queuing": {"queues": queues, "handSize": hand_size, "queueLengthLimit": 50}},
            },
        }),
    )
}

fn level(name: &str, spec: Value) -> Value {
    json!({
        "apiVersion": "flowcontrol.apiserver.k8s.io/v1",
        "kind": "PriorityLevelConfiguration",
        "metadata": {"name": name, "annotations": {AUTO_UPDATE: "true"}},
        "spec": spec,
    })
}

/// The priority levels, mandatory then suggested.
pub fn priority_levels() -> Vec<Value> {
    vec![
        level(
            "catch-all",
            json!({
                "type": "Limited",
                "limited": {"nominalConcurrencyShares": 5, "lendablePercent": 0, "limitResponse": {"type": "Reject"}},
            }),
        ),
        level(
            "exempt",
            json!({"type": "Exempt", "exempt": {"nominalConcurrencyShares": 0, "lendablePercent": 0}}),
        ),
        queuing("system", 30, 33, 64, 6),
        queuing("node-high", 40, 25, 64, 6),
        queuing("leader-election", 10, 0, 16, 4),
        queuing("workload-high", 40, 50, 128, 6),
        queuing("workload-low", 100, 90, 128, 6),
        queuing("global-default", 20, 50, 128, 6),
    ]
}

/// The flow schemas, mandatory then suggested.
pub fn flow_schemas() -> Vec<Value> {
    let anyone = || groups(&["system:unauthenticated", "system:authenticated"]);
    let leases = |verbs: Value, subjects: Vec<Value>| {
        json!({
            "subjects": subjects,
            "resourceRules": [{"verbs": verbs, "apiGroups": ["coordination.k8s.io"], "resources": ["leases"], "namespaces": ["*"]}],
        })
    };
    let mut election_subjects = users(&["system:kube-controller-manager", "system:kube-scheduler"]);
    election_subjects.extend(kube_system_service_accounts());
    let mut node_high = leases(json!(["*"]), groups(&["system:nodes"]));
    node_high["resourceRules"].as_array_mut().into_iter().for_each(|rules| {
        rules.insert(
            0,
            json!({"verbs": ["*"], "apiGroups": [""], "resources": ["nodes", "nodes/status"], "namespaces": ["*"], "clusterScope": true}),
        )
    });
    vec![
        flow_schema("exempt", "exempt", 1, None, everything(groups(&["system:masters"]))),
        flow_schema("catch-all", "catch-all", 10000, Some("ByUser"), everything(anyone())),
        flow_schema(
            "system-nodes",
            "system",
            500,
            Some("ByUser"),
            everything(groups(&["system:nodes"])),
        ),
        flow_schema("system-node-high", "node-high", 400, Some("ByUser"), node_high),
        flow_schema(
            "probes",
            "exempt",
            2,
            None,
            json!({
                "subjects": anyone(),
                "nonResourceRules": [{"verbs": ["get"], "nonResourceURLs": ["/healthz", "/readyz", "/livez"]}],
            }),
        ),
        flow_schema(
            "system-leader-election",
            "leader-election",
            100,
            Some("ByUser"),
            leases(json!(["get", "create", "update"]), election_subjects),
        ),
        flow_schema(
            "kube-controller-manager",
            "workload-high",
            800,
            Some("ByNamespace"),
            everything(users(&["system:kube-controller-manager"])),
        ),
        flow_schema(
            "kube-scheduler",
            "workload-high",
            800,
            Some("ByNamespace"),
            everything(users(&["system:kube-scheduler"])),
        ),
        flow_schema(
            "kube-system-service-accounts",
            "workload-high",
            900,
            Some("ByNamespace"),
            everything(kube_system_service_accounts()),
        ),
        flow_schema(
            "service-accounts",
            "workload-low",
            9000,
            Some("ByUser"),
            everything(groups(&["system:serviceaccounts"])),
        ),
        flow_schema(
            "global-default",
            "global-default",
            9900,
            Some("ByUser"),
            everything(anyone()),
        ),
    ]
}

/// Creates the bootstrap priority levels and flow schemas that are missing.
pub async fn bootstrap(levels: Arc<Store>, schemas: Arc<Store>) {
    super::ensure(&levels, priority_levels()).await;
    super::ensure(&schemas, flow_schemas()).await;
}
