//! A controller as a kube-rs user writes one, on this project's informers: kube-runtime's
//! `Controller` fed by the generated shared informers through their adapters (`subscribe`,
//! `store`), owning the ConfigMap it makes for each Deployment (`owns_shared_stream`: a changed
//! child reconciles its parent), with kube's `finalizer` helper cleaning the child up before the
//! Deployment goes. The same controller runs against the server on the embedded store, on etcd,
//! and against the fake clientset.

use crate::support;

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use apis::apps::v1::Deployment;
use apis::core::v1::ConfigMap;
use futures::StreamExt;
use generated::clientset::Clientset;
use generated::informers::SharedInformerFactory;
use kube::Resource;
use kube::api::{DeleteParams, Patch, PatchParams, PostParams};
use kube::runtime::controller::{Action, Controller};
use kube::runtime::finalizer::{self, Event};
use serde_json::json;

const NS: &str = "ctl";
const FINALIZER: &str = "example.com/config-cleanup";

type Error = finalizer::Error<kube::Error>;

/// The ConfigMap a Deployment owns: its replicas, written by the controller.
fn child_of(d: &Deployment) -> ConfigMap {
    let owner = d.controller_owner_ref(&()).expect("a stored Deployment has a uid");
    let name = format!("{}-config", d.metadata.name.as_deref().unwrap_or_default());
    serde_json::from_value(json!({
        "apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {"name": name, "ownerReferences": [owner]},
        "data": {"replicas": d.spec.as_ref().and_then(|s| s.replicas).unwrap_or(1).to_string()},
    }))
    .unwrap()
}

async fn reconcile(d: Arc<Deployment>, cs: Arc<Clientset>) -> Result<Action, Error> {
    let deployments = cs.apps_v1().deployments(NS).api().clone();
    finalizer::finalizer(&deployments, FINALIZER, d, |event| async {
        let configmaps = cs.core_v1().config_maps(NS).api().clone();
        match event {
            Event::Apply(d) => {
                let child = child_of(&d);
                let name = child.metadata.name.clone().unwrap_or_default();
                let params = PatchParams::apply("deployment-config").force();
                configmaps.patch(&name, &params, &Patch::Apply(&child)).await?;
            }
            Event::Cleanup(d) => {
                let name = format!("{}-config", d.metadata.name.as_deref().unwrap_or_default());
                match configmaps.delete(&name, &DeleteParams::default()).await {
                    Err(kube::Error::Api(status)) if status.code == 404 => {}
                    Err(e) => return Err(e),
                    Ok(_) => {}
                }
            }
        }
        Ok(Action::await_change())
    })
    .await
}

/// Runs the controller on `cs` and checks what it does: a child made and kept as the parent
/// says (a child changed by someone else is put back: `owns` fired), the finalizer added, and on
/// deletion the child gone before the parent.
async fn controller_converges(cs: Clientset) {
    let ns = serde_json::from_value(json!({"metadata": {"name": NS}})).unwrap();
    cs.core_v1()
        .namespaces()
        .create(&ns, &PostParams::default())
        .await
        .unwrap();
    let factory = SharedInformerFactory::new(&cs, None);
    let deployments = factory.apps().v1().deployments().informer();
    let configmaps = factory.core().v1().config_maps().informer();
    factory.start();
    let controller = Controller::for_shared_stream(deployments.subscribe(), deployments.store())
        .owns_shared_stream(configmaps.subscribe())
        .run(
            reconcile,
            |_, _, _| Action::requeue(Duration::from_millis(200)),
            Arc::new(cs.clone()),
        )
        .for_each(|_| async {});
    let running = tokio::spawn(controller);

    let web: Deployment = serde_json::from_value(json!({"metadata": {"name": "web"}, "spec": {
        "replicas": 3,
        "selector": {"matchLabels": {"app": "web"}},
        "template": {"metadata": {"labels": {"app": "web"}},
                     "spec": {"containers": [{"name": "web", "image": "nginx"}]}}}}))
    .unwrap();
    let d = cs.apps_v1().deployments(NS);
    d.create(&web, &PostParams::default()).await.unwrap();
    let cms = cs.core_v1().config_maps(NS);
    let replicas = |value: &'static str| {
        let cms = cms.api().clone();
        async move {
            let expected = BTreeMap::from([("replicas".to_string(), value.to_string())]);
            for _ in 0..100 {
                if let Ok(cm) = cms.get("web-config").await
                    && cm.data.as_ref() == Some(&expected)
                {
                    return cm;
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            panic!("web-config never held replicas {value}");
        }
    };
    let child = replicas("3").await;
    assert_eq!(child.metadata.owner_references.unwrap()[0].name, "web");
    let stored = d.get("web", &Default::default()).await.unwrap();
    assert_eq!(stored.metadata.finalizers, Some(vec![FINALIZER.to_string()]));

    // Someone else changes the child: its owner is reconciled and the child put back.
    let meddle = json!({"data": {"replicas": "99"}});
    cms.api()
        .patch("web-config", &PatchParams::default(), &Patch::Merge(&meddle))
        .await
        .unwrap();
    replicas("3").await;

    // Deleting the parent runs the cleanup first: the child goes, then the parent.
    d.delete("web", &DeleteParams::default()).await.unwrap();
    for _ in 0..100 {
        let parent = d.get("web", &Default::default()).await;
        let child = cms.api().get_opt("web-config").await.unwrap();
        if parent.is_err() && child.is_none() {
            running.abort();
            factory.shutdown_and_wait().await;
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the finalizer did not clean up");
}

async fn clientset(url: &str) -> Clientset {
    let config = kube::Config::new(url.parse().unwrap());
    Clientset::new(kube::Client::try_from(config).unwrap())
}

#[tokio::test(flavor = "multi_thread")]
async fn a_controller_converges_on_the_embedded_store() {
    let server = support::start();
    controller_converges(clientset(&server.url).await).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_controller_converges_on_etcd() {
    let cluster = support::etcd::start("controller", 1);
    let storage = kube_apiserver_storage::etcd::EtcdStorage::new(cluster.endpoints()).unwrap();
    let server = support::start_on(Arc::new(storage));
    controller_converges(clientset(&server.url).await).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_controller_converges_on_the_fake() {
    let fake = generated::clientset::fake::Clientset::new(apis::scheme().unwrap());
    controller_converges(fake.clientset().clone()).await;
}
