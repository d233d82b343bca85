//! Owner references mean something: the garbage collector deletes what lost its owners
//! (`Background`), orphans dependents (`Orphan`), and keeps an owner until its blocking
//! dependents are gone (`Foreground`), through chains of owners and across kinds; on the embedded
//! store, on etcd and in the fake clientset, with kube's `Api` as a controller uses it. Turned
//! off, owner references are left alone.

use crate::support;

use std::sync::Arc;
use std::time::Duration;

use apis::apps::v1::Deployment;
use apis::core::v1::ConfigMap;
use kube::Resource;
use kube::api::{Api, DeleteParams, PostParams, PropagationPolicy};
use serde_json::json;
use support::eventually;

const NS: &str = "gc";

fn deployment(name: &str) -> Deployment {
    serde_json::from_value(json!({"metadata": {"name": name}, "spec": {
        "selector": {"matchLabels": {"app": name}},
        "template": {"metadata": {"labels": {"app": name}},
                     "spec": {"containers": [{"name": "c", "image": "nginx"}]}}}}))
    .unwrap()
}

/// A ConfigMap owned by `owners` (each blocking its owner's deletion when `block`).
fn owned(name: &str, owners: &[&dyn OwnerOf], block: bool) -> ConfigMap {
    let refs: Vec<_> = owners
        .iter()
        .map(|o| {
            let mut r = o.owner_ref();
            r.block_owner_deletion = Some(block);
            // Only one owner may be the controller; the others are plain owners.
            if owners.len() > 1 {
                r.controller = None;
            }
            r
        })
        .collect();
    serde_json::from_value(json!({"metadata": {"name": name, "ownerReferences": refs}, "data": {"k": "v"}})).unwrap()
}

/// Anything stored that can own: its owner reference.
trait OwnerOf {
    fn owner_ref(&self) -> k8s_openapi::apimachinery::pkg::apis::meta::v1::OwnerReference;
}

impl<K: Resource<DynamicType = ()>> OwnerOf for K {
    fn owner_ref(&self) -> k8s_openapi::apimachinery::pkg::apis::meta::v1::OwnerReference {
        self.controller_owner_ref(&()).expect("a stored object has a uid")
    }
}

async fn exists<K>(api: &Api<K>, name: &str) -> bool
where
    K: Resource + Clone + serde::de::DeserializeOwned + std::fmt::Debug,
{
    api.get_opt(name).await.unwrap().is_some()
}

/// The three policies, a chain and a dangling reference, on `client`.
async fn owner_references_are_collected(client: kube::Client) {
    let namespaces: Api<apis::core::v1::Namespace> = Api::all(client.clone());
    let ns = serde_json::from_value(json!({"metadata": {"name": NS}})).unwrap();
    namespaces.create(&PostParams::default(), &ns).await.unwrap();
    let deployments: Api<Deployment> = Api::namespaced(client.clone(), NS);
    let cms: Api<ConfigMap> = Api::namespaced(client.clone(), NS);
    let pp = PostParams::default();

    // Background (the default): the dependent goes after its owner.
    let owner = deployments.create(&pp, &deployment("bg")).await.unwrap();
    cms.create(&pp, &owned("bg-child", &[&owner], false)).await.unwrap();
    deployments.delete("bg", &DeleteParams::default()).await.unwrap();
    eventually("the background dependent is deleted", || async {
        !exists(&cms, "bg-child").await
    })
    .await;

    // A dependent with a second, living owner keeps that one and loses the reference to the gone.
    let first = deployments.create(&pp, &deployment("first")).await.unwrap();
    let second = deployments.create(&pp, &deployment("second")).await.unwrap();
    cms.create(&pp, &owned("shared", &[&first, &second], false))
        .await
        .unwrap();
    deployments.delete("first", &DeleteParams::default()).await.unwrap();
    eventually("the gone owner's reference is dropped", || async {
        let refs = cms
            .get("shared")
            .await
            .unwrap()
            .metadata
            .owner_references
            .unwrap_or_default();
        refs.len() == 1 && refs[0].name == "second"
    })
    .await;

    // Orphan: the owner goes at once, the dependent stays without its reference.
    let owner = deployments.create(&pp, &deployment("orphaning")).await.unwrap();
    cms.create(&pp, &owned("orphan", &[&owner], false)).await.unwrap();
    let orphan = DeleteParams {
        propagation_policy: Some(PropagationPolicy::Orphan),
        ..Default::default()
    };
    deployments.delete("orphaning", &orphan).await.unwrap();
    eventually("the orphaning owner goes", || async {
        !exists(&deployments, "orphaning").await
    })
    .await;
    let kept = cms.get("orphan").await.unwrap();
    assert!(
        kept.metadata.owner_references.unwrap_or_default().is_empty(),
        "orphaned"
    );

    // Foreground: the owner waits, marked, until its blocking dependents (and theirs) are gone.
    let owner = deployments.create(&pp, &deployment("fg")).await.unwrap();
    let child = cms.create(&pp, &owned("fg-child", &[&owner], true)).await.unwrap();
    let grandchild = cms.create(&pp, &owned("fg-grandchild", &[&child], true)).await.unwrap();
    // The end of the chain is held by a finalizer of someone else's.
    let mut held = owned("fg-held", &[&grandchild], true);
    held.metadata.finalizers = Some(vec!["example.com/hold".into()]);
    cms.create(&pp, &held).await.unwrap();
    let foreground = DeleteParams {
        propagation_policy: Some(PropagationPolicy::Foreground),
        ..Default::default()
    };
    let answer = deployments.delete("fg", &foreground).await.unwrap();
    let marked = answer.left().expect("the owner, kept while its dependents go");
    assert!(marked.metadata.deletion_timestamp.is_some());
    assert!(
        marked
            .metadata
            .finalizers
            .unwrap_or_default()
            .contains(&"foregroundDeletion".to_string())
    );
    eventually("the chain down to the held object is marked", || async {
        cms.get("fg-held").await.unwrap().metadata.deletion_timestamp.is_some()
    })
    .await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(
        exists(&deployments, "fg").await,
        "a blocking dependent still exists: the owner waits"
    );
    let release = json!({"metadata": {"finalizers": null}});
    cms.patch("fg-held", &Default::default(), &kube::api::Patch::Merge(&release))
        .await
        .unwrap();
    eventually("the foreground owner goes last", || async {
        !exists(&deployments, "fg").await
    })
    .await;
    for name in ["fg-child", "fg-grandchild", "fg-held"] {
        assert!(!exists(&cms, name).await, "{name} went before its owner");
    }

    // A reference to an owner that never existed is collected too.
    let mut dangling = owned("dangling", &[&owner], false);
    dangling.metadata.owner_references.as_mut().unwrap()[0].uid = "00000000-0000-0000-0000-00000000dead".into();
    cms.create(&pp, &dangling).await.unwrap();
    eventually("a dangling dependent is deleted", || async {
        !exists(&cms, "dangling").await
    })
    .await;

    // Owners and dependents created while sweeps run (each deletion starts one) are never taken
    // for ownerless, whichever store a sweep reads first.
    for i in 0..30 {
        let owner = deployments
            .create(&pp, &deployment(&format!("busy-{i}")))
            .await
            .unwrap();
        cms.create(&pp, &owned(&format!("busy-{i}"), &[&owner], false))
            .await
            .unwrap();
        cms.create(&pp, &owned(&format!("gone-{i}"), &[&owner], false))
            .await
            .unwrap();
        cms.delete(&format!("gone-{i}"), &DeleteParams::default())
            .await
            .unwrap();
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    for i in 0..30 {
        assert!(
            exists(&cms, &format!("busy-{i}")).await,
            "busy-{i} was collected with its owner alive"
        );
    }
}

fn client(url: &str) -> kube::Client {
    kube::Client::try_from(kube::Config::new(url.parse().unwrap())).unwrap()
}

#[tokio::test(flavor = "multi_thread")]
async fn owner_references_are_collected_on_the_embedded_store() {
    let server = support::start();
    owner_references_are_collected(client(&server.url)).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn owner_references_are_collected_on_etcd() {
    let cluster = support::etcd::start("gc", 1);
    let storage = kube_apiserver_storage::etcd::EtcdStorage::new(cluster.endpoints()).unwrap();
    let server = support::start_on(Arc::new(storage));
    owner_references_are_collected(client(&server.url)).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn owner_references_are_collected_in_the_fake() {
    let fake = generated::clientset::fake::Clientset::new(apis::scheme().unwrap());
    owner_references_are_collected(fake.client().clone()).await;
}

/// With the collector off, an owner's deletion leaves its dependents alone.
#[tokio::test(flavor = "multi_thread")]
async fn without_the_collector_owner_references_are_left_alone() {
    let config = kube_apiserver::Config {
        garbage_collection: false,
        ..Default::default()
    };
    let fake = generated::clientset::fake::Clientset::with_config(apis::scheme().unwrap(), config);
    let client = fake.client().clone();
    let namespaces: Api<apis::core::v1::Namespace> = Api::all(client.clone());
    let ns = serde_json::from_value(json!({"metadata": {"name": NS}})).unwrap();
    namespaces.create(&PostParams::default(), &ns).await.unwrap();
    let deployments: Api<Deployment> = Api::namespaced(client.clone(), NS);
    let cms: Api<ConfigMap> = Api::namespaced(client, NS);
    let owner = deployments
        .create(&PostParams::default(), &deployment("o"))
        .await
        .unwrap();
    cms.create(&PostParams::default(), &owned("c", &[&owner], false))
        .await
        .unwrap();
    deployments.delete("o", &DeleteParams::default()).await.unwrap();
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(exists(&cms, "c").await);
}
