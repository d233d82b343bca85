//! A fresh server looks like a fresh cluster: the system namespaces and PriorityClasses are there
//! before the first request is answered, as kube-apiserver's bootstrap hooks make them, and a
//! restart on the same etcd keeps them as they were; the client CA is published for extension
//! servers. On the embedded store and on etcd, with kube's `Api` as a controller uses it.

use crate::support;

use std::sync::Arc;

use apis::core::v1::{ConfigMap, Namespace};
use apis::scheduling::v1::PriorityClass;
use kube::api::{Api, ListParams, PostParams};
use serde_json::json;

fn client(url: &str) -> kube::Client {
    kube::Client::try_from(kube::Config::new(url.parse().unwrap())).unwrap()
}

/// The system namespaces' names and uids, after checking what each holds.
async fn system_namespaces(client: &kube::Client) -> Vec<(String, String)> {
    let namespaces: Api<Namespace> = Api::all(client.clone());
    let mut found = Vec::new();
    for ns in namespaces.list(&ListParams::default()).await.unwrap() {
        let name = ns.metadata.name.clone().unwrap();
        if !["default", "kube-node-lease", "kube-public", "kube-system"].contains(&name.as_str()) {
            continue;
        }
        let labels = ns.metadata.labels.clone().unwrap_or_default();
        assert_eq!(labels.get("kubernetes.io/metadata.name"), Some(&name), "{ns:?}");
        let finalizers = ns.spec.as_ref().and_then(|s| s.finalizers.clone()).unwrap_or_default();
        assert_eq!(finalizers, ["kubernetes"], "{ns:?}");
        let phase = ns.status.as_ref().and_then(|s| s.phase.clone());
        assert_eq!(serde_json::to_value(phase).unwrap(), json!("Active"), "{ns:?}");
        found.push((name, ns.metadata.uid.unwrap()));
    }
    found
}

async fn bootstrapped(client: kube::Client) -> Vec<(String, String)> {
    // The very first request finds them (the server took no connection before they existed).
    let namespaces = system_namespaces(&client).await;
    let names: Vec<&str> = namespaces.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["default", "kube-node-lease", "kube-public", "kube-system"]);

    let classes: Api<PriorityClass> = Api::all(client.clone());
    let classes: Vec<(String, i32, String)> = classes
        .list(&ListParams::default())
        .await
        .unwrap()
        .into_iter()
        .map(|c| {
            let policy = serde_json::to_value(&c.preemption_policy).unwrap();
            assert_eq!(policy, json!("PreemptLowerPriority"), "{c:?}");
            assert_ne!(c.global_default, Some(true), "{c:?}");
            (c.metadata.name.unwrap(), c.value, c.description.unwrap_or_default())
        })
        .collect();
    assert_eq!(
        classes,
        [
            (
                "system-cluster-critical".to_string(),
                2_000_000_000,
                "Used for system critical pods that must run in the cluster, but can be moved to another node if necessary."
                    .to_string()
            ),
            (
                "system-node-critical".to_string(),
                2_000_001_000,
                "Used for system critical pods that must not be moved from their current node.".to_string()
            ),
        ]
    );

    // What `Api::default_namespaced` needs: the default namespace, without creating it.
    let cms: Api<ConfigMap> = Api::default_namespaced(client.clone());
    let cm: ConfigMap = serde_json::from_value(json!({"metadata": {"name": "first"}, "data": {"a": "b"}})).unwrap();
    cms.create(&PostParams::default(), &cm).await.unwrap();

    // Any namespace gets the name label and the namespace controller's finalizer after its own.
    let all: Api<Namespace> = Api::all(client.clone());
    let mine: Namespace = serde_json::from_value(
        json!({"metadata": {"name": "mine", "labels": {"team": "a"}}, "spec": {"finalizers": ["example.com/x"]}}),
    )
    .unwrap();
    let mine = all.create(&PostParams::default(), &mine).await.unwrap();
    let labels = mine.metadata.labels.unwrap_or_default();
    assert_eq!(
        labels.into_iter().collect::<Vec<_>>(),
        [
            ("kubernetes.io/metadata.name".to_string(), "mine".to_string()),
            ("team".to_string(), "a".to_string())
        ]
    );
    assert_eq!(mine.spec.unwrap().finalizers.unwrap(), ["example.com/x", "kubernetes"]);
    namespaces
}

#[tokio::test]
async fn a_fresh_server_has_the_system_namespaces_and_priority_classes() {
    let server = support::start();
    bootstrapped(client(&server.url)).await;
}

#[tokio::test]
async fn a_fresh_server_on_etcd_has_them_and_a_restart_keeps_them() {
    let cluster = support::etcd::start("bootstrap", 1);
    let storage = || Arc::new(kube_apiserver_storage::etcd::EtcdStorage::new(cluster.endpoints()).unwrap());
    let first = support::start_on(storage());
    let before = bootstrapped(client(&first.url)).await;
    // A second server on the same etcd finds them and creates none again.
    let second = support::start_on(storage());
    let mut after = system_namespaces(&client(&second.url)).await;
    after.retain(|(name, _)| name != "mine");
    assert_eq!(after, before);
}

/// Extension API servers read how this server authenticates from
/// `kube-system/extension-apiserver-authentication`: the client CA, replaced when a restart
/// brings another.
#[tokio::test]
async fn the_client_ca_is_published_for_extension_servers() {
    let cluster = support::etcd::start("bootstrap-ca", 1);
    let storage = || Arc::new(kube_apiserver_storage::etcd::EtcdStorage::new(cluster.endpoints()).unwrap());
    let with_ca = |ca: Option<&str>| kube_apiserver::Config {
        authentication: kube_apiserver::Authentication {
            client_ca: ca.map(str::to_string),
            ..Default::default()
        },
        ..Default::default()
    };
    let read = |url: String| async move {
        let cms: Api<ConfigMap> = Api::namespaced(client(&url), "kube-system");
        cms.get("extension-apiserver-authentication")
            .await
            .unwrap()
            .data
            .unwrap_or_default()
    };
    let first = support::start_with(storage(), with_ca(Some("-----BEGIN CERTIFICATE-----\nA\n")));
    let data = read(first.url).await;
    assert_eq!(data.keys().collect::<Vec<_>>(), ["client-ca-file"]);
    assert_eq!(data["client-ca-file"], "-----BEGIN CERTIFICATE-----\nA\n");
    let second = support::start_with(storage(), with_ca(Some("-----BEGIN CERTIFICATE-----\nB\n")));
    assert_eq!(
        read(second.url).await["client-ca-file"],
        "-----BEGIN CERTIFICATE-----\nB\n"
    );
    // Without a client CA the ConfigMap is there, empty, as kube-apiserver writes it.
    let bare = support::start();
    assert!(read(bare.url).await.is_empty());
}

/// API Priority and Fairness' mandatory and suggested configuration, as a fresh kube-apiserver
/// 1.36 has it.
#[tokio::test]
async fn a_fresh_server_has_the_priority_and_fairness_configuration() {
    let api = support::api::Api::bare(support::start());
    let names = |list: serde_json::Value| -> Vec<String> {
        let mut names: Vec<String> = list["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i["metadata"]["name"].as_str().unwrap().to_string())
            .collect();
        names.sort();
        names
    };
    let (_, levels) = api
        .get("/apis/flowcontrol.apiserver.k8s.io/v1/prioritylevelconfigurations")
        .await;
    assert_eq!(
        names(levels),
        [
            "catch-all",
            "exempt",
            "global-default",
            "leader-election",
            "node-high",
            "system",
            "workload-high",
            "workload-low"
        ]
    );
    let (_, schemas) = api.get("/apis/flowcontrol.apiserver.k8s.io/v1/flowschemas").await;
    assert_eq!(
        names(schemas),
        [
            "catch-all",
            "exempt",
            "global-default",
            "kube-controller-manager",
            "kube-scheduler",
            "kube-system-service-accounts",
            "probes",
            "service-accounts",
            "system-leader-election",
            "system-node-high",
            "system-nodes"
        ]
    );
    let (_, exempt) = api
        .get("/apis/flowcontrol.apiserver.k8s.io/v1/flowschemas/exempt")
        .await;
    assert_eq!(
        exempt["metadata"]["annotations"]["apf.kubernetes.io/autoupdate-spec"],
        "true"
    );
    assert_eq!(exempt["spec"]["matchingPrecedence"], 1);
    assert_eq!(exempt["spec"]["priorityLevelConfiguration"]["name"], "exempt");
    assert_eq!(
        exempt["spec"]["rules"][0]["subjects"],
        json!([{"kind": "Group", "group": {"name": "system:masters"}}])
    );
    let (_, workload_low) = api
        .get("/apis/flowcontrol.apiserver.k8s.io/v1/prioritylevelconfigurations/workload-low")
        .await;
    assert_eq!(
        workload_low["spec"]["limited"]["limitResponse"],
        json!({"type": "Queue", "queuing": {"queues": 128, "handSize": 6, "queueLengthLimit": 50}})
    );
}
