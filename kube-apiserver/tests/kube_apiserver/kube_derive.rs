//! kube-rs fits: a kind written with kube's `#[derive(CustomResource)]` has its CRD installed
//! through the generated clientset and is then created, listed, patched, applied, watched,
//! validated (its schemars bounds and CEL rule) and reconciled by kube-runtime's `Controller`
//! through `kube::Api`; against the server on loopback and against the fake clientset, so a
//! controller's `cargo test` needs no cluster.

use crate::support;

use std::sync::Arc;
use std::time::Duration;

use futures::StreamExt;
use generated::clientset::Clientset;
use kube::api::{Api, ListParams, Patch, PatchParams, PostParams, WatchEvent, WatchParams};
use kube::runtime::controller::{Action, Controller};
use kube::{CustomResource, CustomResourceExt, ResourceExt};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;

/// A document with a page count, which the controller marks as seen.
#[derive(CustomResource, Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[kube(
    group = "docs.example.com",
    version = "v1",
    kind = "Document",
    namespaced,
    status = "DocumentStatus",
    shortname = "doc",
    printcolumn = r#"{"name":"Pages","type":"integer","jsonPath":".spec.pages"}"#,
    validation = "self.spec.pages <= 1000"
)]
pub struct DocumentSpec {
    /// The title.
    pub title: String,
    /// How many pages.
    #[schemars(range(min = 1))]
    pub pages: i64,
}

/// What the controller saw.
#[derive(Clone, Debug, Default, Deserialize, Serialize, JsonSchema)]
pub struct DocumentStatus {
    /// The title, once reconciled.
    pub seen: Option<String>,
}

const NS: &str = "docs";

async fn reconcile(doc: Arc<Document>, api: Arc<Api<Document>>) -> Result<Action, kube::Error> {
    if doc.status.as_ref().and_then(|s| s.seen.as_ref()) != Some(&doc.spec.title) {
        let status = json!({"status": {"seen": doc.spec.title}});
        api.patch_status(&doc.name_any(), &PatchParams::default(), &Patch::Merge(&status))
            .await?;
    }
    Ok(Action::await_change())
}

async fn documents_are_served(cs: Clientset) {
    // The derive's CRD, installed through the generated clientset's typed client.
    let crd: apis::apiextensions::v1::CustomResourceDefinition =
        serde_json::from_value(serde_json::to_value(Document::crd()).unwrap()).unwrap();
    cs.apiextensions_v1()
        .custom_resource_definitions()
        .create(&crd, &PostParams::default())
        .await
        .unwrap();
    let namespaces: Api<apis::core::v1::Namespace> = Api::all(cs.client().clone());
    namespaces
        .create(
            &PostParams::default(),
            &serde_json::from_value(json!({"metadata": {"name": NS}})).unwrap(),
        )
        .await
        .unwrap();
    let api: Api<Document> = Api::namespaced(cs.client().clone(), NS);
    let mut served = false;
    for _ in 0..200 {
        if api.list(&ListParams::default()).await.is_ok() {
            served = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    assert!(served, "Documents are served once the CRD is established");

    let mut watch = api.watch(&WatchParams::default(), "0").await.unwrap().boxed();
    let doc = Document::new(
        "guide",
        DocumentSpec {
            title: "Guide".into(),
            pages: 10,
        },
    );
    let created = api.create(&PostParams::default(), &doc).await.unwrap();
    assert_eq!(created.spec.pages, 10);
    assert!(created.metadata.uid.is_some());
    match watch.next().await {
        Some(Ok(WatchEvent::Added(d))) => assert_eq!(d.name_any(), "guide"),
        other => panic!("expected ADDED, got {other:?}"),
    }

    // The schema's minimum and the CEL rule, as 422s kube reports with Kubernetes' words.
    let refused = api
        .create(
            &PostParams::default(),
            &Document::new(
                "empty",
                DocumentSpec {
                    title: "x".into(),
                    pages: 0,
                },
            ),
        )
        .await
        .unwrap_err();
    let kube::Error::Api(status) = refused else {
        panic!("{refused:?}")
    };
    assert_eq!(status.code, 422);
    assert!(
        status
            .message
            .contains("spec.pages: Invalid value: 0: spec.pages in body should be greater than or equal to 1"),
        "{}",
        status.message
    );
    let refused = api
        .create(
            &PostParams::default(),
            &Document::new(
                "huge",
                DocumentSpec {
                    title: "x".into(),
                    pages: 5000,
                },
            ),
        )
        .await
        .unwrap_err();
    let kube::Error::Api(status) = refused else {
        panic!("{refused:?}")
    };
    assert!(
        status.message.contains("failed rule: self.spec.pages <= 1000"),
        "{}",
        status.message
    );

    // Merge patch and server-side apply.
    let patched = api
        .patch(
            "guide",
            &PatchParams::default(),
            &Patch::Merge(json!({"spec": {"pages": 12}})),
        )
        .await
        .unwrap();
    assert_eq!(patched.spec.pages, 12);
    let applied = api
        .patch(
            "manual",
            &PatchParams::apply("docs-test"),
            &Patch::Apply(Document::new(
                "manual",
                DocumentSpec {
                    title: "Manual".into(),
                    pages: 3,
                },
            )),
        )
        .await
        .unwrap();
    assert_eq!(applied.spec.title, "Manual");
    assert_eq!(api.list(&ListParams::default()).await.unwrap().items.len(), 2);

    // kube-runtime's Controller reconciles every Document.
    let controller = Controller::new(api.clone(), Default::default())
        .run(
            reconcile,
            |_, _, _| Action::requeue(Duration::from_secs(1)),
            Arc::new(api.clone()),
        )
        .for_each(|_| async {});
    let api2 = api.clone();
    let converged = async move {
        loop {
            let docs = api2.list(&ListParams::default()).await.unwrap();
            if docs
                .items
                .iter()
                .all(|d| d.status.as_ref().and_then(|s| s.seen.as_ref()) == Some(&d.spec.title))
            {
                return;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    };
    tokio::select! {
        _ = controller => panic!("the controller stopped"),
        _ = converged => {}
        _ = tokio::time::sleep(Duration::from_secs(20)) => panic!("the controller did not converge"),
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn derived_custom_resources_on_the_server() {
    let server = support::start();
    let config = kube::Config::new(server.url.parse().unwrap());
    documents_are_served(Clientset::new(kube::Client::try_from(config).unwrap())).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn derived_custom_resources_on_the_fake() {
    let fake = generated::clientset::fake::Clientset::new(apis::scheme().unwrap());
    documents_are_served(fake.clientset().clone()).await;
}
