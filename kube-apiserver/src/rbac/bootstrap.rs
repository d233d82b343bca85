//! The roles and bindings kube-apiserver creates at start (its `rbac/bootstrap-roles` hook):
//! `cluster-admin` bound to `system:masters`; the discovery, basic-user and public-info roles
//! bound to every user; and the user-facing `admin`, `edit` and `view`, aggregated from the
//! `system:aggregate-to-*` roles by label as Kubernetes aggregates them. An object that exists
//! is left as it is, so an administrator's change survives a restart.

use serde_json::{Value, json};

use super::PolicyStores;

const READ: &[&str] = &["get", "list", "watch"];
const WRITE: &[&str] = &["create", "delete", "deletecollection", "patch", "update"];
const READ_WRITE: &[&str] = &[
    "get",
    "list",
    "watch",
    "create",
    "update",
    "patch",
    "delete",
    "deletecollection",
];

fn rule(verbs: &[&str], groups: &[&str], resources: &[&str]) -> Value {
    json!({"apiGroups": groups, "resources": resources, "verbs": verbs})
}

fn urls(verbs: &[&str], urls: &[&str]) -> Value {
    json!({"nonResourceURLs": urls, "verbs": verbs})
}

fn cluster_role(name: &str, labels: Value, rules: Vec<Value>, aggregate: Option<&str>) -> Value {
    let mut labels = labels;
    labels["kubernetes.io/bootstrapping"] = json!("rbac-defaults");
    let mut role = json!({
        "apiVersion": "rbac.authorization.k8s.io/v1",
        "kind": "ClusterRole",
        "metadata": {"name": name, "labels": labels,
                     "annotations": {"rbac.authorization.kubernetes.io/autoupdate": "true"}},
        "rules": rules,
    });
    if let Some(label) = aggregate {
        role["aggregationRule"] = json!({"clusterRoleSelectors": [{"matchLabels": {label: "true"}}]});
    }
    role
}

fn binding(role: &str, groups: &[&str]) -> Value {
    let subjects: Vec<Value> = groups
        .iter()
        .map(|g| json!({"apiGroup": "rbac.authorization.k8s.io", "kind": "Group", "name": g}))
        .collect();
    json!({
        "apiVersion": "rbac.authorization.k8s.io/v1",
        "kind": "ClusterRoleBinding",
        "metadata": {"name": role, "labels": {"kubernetes.io/bootstrapping": "rbac-defaults"},
                     "annotations": {"rbac.authorization.kubernetes.io/autoupdate": "true"}},
        "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": role},
        "subjects": subjects,
    })
}

/// The bootstrap ClusterRoles.
pub fn cluster_roles() -> Vec<Value> {
    let aggregate = |to: &str| format!("rbac.authorization.k8s.io/aggregate-to-{to}");
    let labelled = |to: &str| json!({ aggregate(to): "true" });
    vec![
        cluster_role(
            "cluster-admin",
            json!({}),
            vec![rule(&["*"], &["*"], &["*"]), urls(&["*"], &["*"])],
            None,
        ),
        cluster_role(
            "system:discovery",
            json!({}),
            vec![urls(
                &["get"],
                &[
                    "/api",
                    "/api/*",
                    "/apis",
                    "/apis/*",
                    "/healthz",
                    "/livez",
                    "/openapi",
                    "/openapi/*",
                    "/readyz",
                    "/version",
                    "/version/",
                ],
            )],
            None,
        ),
        cluster_role(
            "system:public-info-viewer",
            json!({}),
            vec![urls(
                &["get"],
                &["/healthz", "/livez", "/readyz", "/version", "/version/"],
            )],
            None,
        ),
        cluster_role(
            "system:basic-user",
            json!({}),
            vec![
                rule(
                    &["create"],
                    &["authorization.k8s.io"],
                    &["selfsubjectaccessreviews", "selfsubjectrulesreviews"],
                ),
                rule(&["create"], &["authentication.k8s.io"], &["selfsubjectreviews"]),
            ],
            None,
        ),
        cluster_role("admin", json!({}), Vec::new(), Some(&aggregate("admin"))),
        cluster_role("edit", labelled("admin"), Vec::new(), Some(&aggregate("edit"))),
        cluster_role("view", labelled("edit"), Vec::new(), Some(&aggregate("view"))),
        cluster_role(
            "system:aggregate-to-admin",
            labelled("admin"),
            vec![
                rule(READ_WRITE, &["rbac.authorization.k8s.io"], &["roles", "rolebindings"]),
                rule(&["create"], &["authorization.k8s.io"], &["localsubjectaccessreviews"]),
            ],
            None,
        ),
        cluster_role(
            "system:aggregate-to-edit",
            labelled("edit"),
            vec![
                rule(
                    READ,
                    &[""],
                    &[
                        "pods/attach",
                        "pods/proxy",
                        "pods/exec",
                        "pods/portforward",
                        "secrets",
                        "services/proxy",
                    ],
                ),
                rule(&["impersonate"], &[""], &["serviceaccounts"]),
                rule(
                    WRITE,
                    &[""],
                    &["pods", "pods/attach", "pods/proxy", "pods/exec", "pods/portforward"],
                ),
                rule(&["create"], &[""], &["pods/eviction"]),
                rule(
                    WRITE,
                    &[""],
                    &[
                        "replicationcontrollers",
                        "replicationcontrollers/scale",
                        "serviceaccounts",
                        "services",
                        "services/proxy",
                        "persistentvolumeclaims",
                        "configmaps",
                        "secrets",
                        "events",
                    ],
                ),
                rule(&["create"], &[""], &["serviceaccounts/token"]),
                rule(
                    WRITE,
                    &["apps"],
                    &[
                        "statefulsets",
                        "statefulsets/scale",
                        "daemonsets",
                        "deployments",
                        "deployments/scale",
                        "deployments/rollback",
                        "replicasets",
                        "replicasets/scale",
                    ],
                ),
                rule(WRITE, &["autoscaling"], &["horizontalpodautoscalers"]),
                rule(WRITE, &["batch"], &["jobs", "cronjobs"]),
            ],
            None,
        ),
        cluster_role(
            "system:aggregate-to-view",
            labelled("view"),
            vec![
                rule(
                    READ,
                    &[""],
                    &[
                        "pods",
                        "replicationcontrollers",
                        "replicationcontrollers/scale",
                        "serviceaccounts",
                        "services",
                        "services/status",
                        "endpoints",
                        "persistentvolumeclaims",
                        "persistentvolumeclaims/status",
                        "configmaps",
                    ],
                ),
                rule(
                    READ,
                    &[""],
                    &[
                        "limitranges",
                        "resourcequotas",
                        "bindings",
                        "events",
                        "pods/status",
                        "resourcequotas/status",
                        "namespaces/status",
                        "replicationcontrollers/status",
                        "pods/log",
                    ],
                ),
                rule(READ, &[""], &["namespaces"]),
                rule(READ, &["discovery.k8s.io"], &["endpointslices"]),
                rule(
                    READ,
                    &["apps"],
                    &[
                        "controllerrevisions",
                        "statefulsets",
                        "statefulsets/scale",
                        "statefulsets/status",
                        "daemonsets",
                        "daemonsets/status",
                        "deployments",
                        "deployments/scale",
                        "deployments/status",
                        "replicasets",
                        "replicasets/scale",
                        "replicasets/status",
                    ],
                ),
                rule(
                    READ,
                    &["autoscaling"],
                    &["horizontalpodautoscalers", "horizontalpodautoscalers/status"],
                ),
                rule(
                    READ,
                    &["batch"],
                    &["jobs", "cronjobs", "cronjobs/status", "jobs/status"],
                ),
            ],
            None,
        ),
    ]
}

/// The bootstrap ClusterRoleBindings.
pub fn cluster_role_bindings() -> Vec<Value> {
    vec![
        binding(
            "cluster-admin",
            &[kube_generic_apiserver::authentication::SYSTEM_MASTERS],
        ),
        binding(
            "system:discovery",
            &[kube_generic_apiserver::authentication::SYSTEM_AUTHENTICATED],
        ),
        binding(
            "system:basic-user",
            &[kube_generic_apiserver::authentication::SYSTEM_AUTHENTICATED],
        ),
        binding(
            "system:public-info-viewer",
            &[
                kube_generic_apiserver::authentication::SYSTEM_AUTHENTICATED,
                kube_generic_apiserver::authentication::UNAUTHENTICATED,
            ],
        ),
    ]
}

/// Creates each bootstrap object that does not exist yet.
pub async fn create(stores: &PolicyStores) {
    let objects = cluster_roles().into_iter().map(|r| (&stores.cluster_roles, r)).chain(
        cluster_role_bindings()
            .into_iter()
            .map(|b| (&stores.cluster_role_bindings, b)),
    );
    for (store, object) in objects {
        match store.create(None, object, false).await {
            Ok(_) => {}
            Err(e) if e.code == 409 => {}
            Err(e) => tracing::warn!(error = %e.message, "creating a bootstrap RBAC object failed"),
        }
    }
}
