//! Paths and values as Kubernetes reads them: percent-encoded path segments are decoded before
//! routing, as Go's `URL.Path` is, so a client that escapes `:` reaches `system:` names.

use crate::support;

use reqwest::StatusCode;
use serde_json::json;
use support::api::Api;

const CLUSTER_ROLES: &str = "/apis/rbac.authorization.k8s.io/v1/clusterroles";

#[tokio::test(flavor = "multi_thread")]
async fn percent_encoded_names_reach_their_objects() {
    let api = Api::new().await;
    let role = json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole",
                      "metadata": {"name": "system:paths"}, "rules": []});
    let (code, _) = api
        .send("POST", CLUSTER_ROLES, "application/json", role.to_string())
        .await;
    assert_eq!(code, StatusCode::CREATED);

    // Both spellings name the same object.
    for path in ["system:paths", "system%3Apaths", "system%3apaths"] {
        let (code, got) = api.get(&format!("{CLUSTER_ROLES}/{path}")).await;
        assert_eq!(code, StatusCode::OK, "{path}: {got}");
        assert_eq!(got["metadata"]["name"], "system:paths", "{path}");
    }
    let patch = json!({"metadata": {"labels": {"a": "b"}}}).to_string();
    let (code, got) = api
        .send(
            "PATCH",
            &format!("{CLUSTER_ROLES}/system%3Apaths"),
            "application/merge-patch+json",
            patch,
        )
        .await;
    assert_eq!(
        (code, &got["metadata"]["labels"]["a"]),
        (StatusCode::OK, &json!("b")),
        "{got}"
    );

    // An encoded slash splits the path as a written one does: no object has it in its name.
    let (code, _) = api.get(&format!("{CLUSTER_ROLES}/system%2Fpaths")).await;
    assert_eq!(code, StatusCode::NOT_FOUND);

    let (code, _) = api
        .send(
            "DELETE",
            &format!("{CLUSTER_ROLES}/system%3Apaths"),
            "application/json",
            String::new(),
        )
        .await;
    assert_eq!(code, StatusCode::OK);
    let (code, _) = api.get(&format!("{CLUSTER_ROLES}/system:paths")).await;
    assert_eq!(code, StatusCode::NOT_FOUND);
}
