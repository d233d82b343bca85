//! A kind whose strategy gives its objects a TTL (as kube-apiserver gives Events one): the store
//! writes every create and update with it, so objects go when it runs out, and an update the
//! strategy gives no TTL keeps its object.

use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};

use super::store::{Store, Target};
use super::strategy::{GenericStrategy, Strategy};
use crate::status::Cause;
use kube_apiserver_storage::memory::MemoryStorage;

/// The generic strategy, with a TTL of two seconds for objects not labelled `keep`.
struct Expiring(GenericStrategy);

impl Strategy for Expiring {
    fn prepare_for_create(&self, obj: &mut Value) {
        self.0.prepare_for_create(obj)
    }
    fn prepare_for_update(&self, new: &mut Value, old: &Value) {
        self.0.prepare_for_update(new, old)
    }
    fn prepare_for_status_update(&self, new: &mut Value, old: &Value) {
        self.0.prepare_for_status_update(new, old)
    }
    fn validate(&self, obj: &Value) -> Vec<Cause> {
        self.0.validate(obj)
    }
    fn ttl(&self, obj: &Value, _update: bool) -> Option<Duration> {
        obj["metadata"]["labels"]["keep"]
            .is_null()
            .then_some(Duration::from_secs(2))
    }
}

#[tokio::test]
async fn objects_go_when_their_ttl_runs_out_and_an_update_renews_or_lifts_it() {
    let strategy = Expiring(GenericStrategy {
        status_subresource: false,
        generation: false,
        return_deleted_object: false,
        ttl: None,
    });
    let store = Store::new(
        Arc::new(MemoryStorage::default()),
        "",
        "events",
        "Event",
        true,
        Arc::new(strategy),
    );
    let event = |name: &str| json!({"apiVersion": "v1", "kind": "Event", "metadata": {"name": name}});
    for name in ["short", "renewed", "kept"] {
        store.create(Some("ns"), event(name), false).await.unwrap();
    }
    tokio::time::sleep(Duration::from_millis(1000)).await;
    let mut renewed = store.get(Some("ns"), "renewed").await.unwrap();
    renewed["metadata"]["labels"] = json!({"count": "2"});
    store
        .update(Some("ns"), "renewed", renewed, Target::Main, false)
        .await
        .unwrap();
    let mut kept = store.get(Some("ns"), "kept").await.unwrap();
    kept["metadata"]["labels"] = json!({"keep": "yes"});
    store
        .update(Some("ns"), "kept", kept, Target::Main, false)
        .await
        .unwrap();
    // The first TTL ran out 2 s after the creates; the renewed one runs 2 s from its update.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let gone = store.get(Some("ns"), "short").await.unwrap_err();
    assert_eq!(gone.code, 404);
    store.get(Some("ns"), "renewed").await.expect("renewed by its update");
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert!(store.get(Some("ns"), "renewed").await.is_err());
    store
        .get(Some("ns"), "kept")
        .await
        .expect("an update without a TTL keeps it");
}
