//! Lease-based leader election as client-go's `leaderelection` runs it over a Lease lock, with
//! kube's `Api<Lease>`: the first candidate creates the Lease, another waits while it is
//! renewed, takes it over once it expires (a transition counted), and a stale holder's write is
//! refused with Kubernetes' 409. On the embedded store and on etcd.

use crate::support;

use std::sync::Arc;

use apis::coordination::v1::{Lease, LeaseSpec};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::MicroTime;
use k8s_openapi::jiff::{SignedDuration, Timestamp};
use kube::api::{Api, PostParams};

/// How long a Lease is held without renewal.
const DURATION: i32 = 15;

/// One round of client-go's `tryAcquireOrRenew` for `me` at time `now`: whether `me` holds the
/// Lease afterwards.
async fn try_acquire_or_renew(leases: &Api<Lease>, me: &str, now: Timestamp) -> Result<bool, kube::Error> {
    let spec = |transitions: i32, acquired: Timestamp| LeaseSpec {
        holder_identity: Some(me.into()),
        lease_duration_seconds: Some(DURATION),
        acquire_time: Some(MicroTime(acquired)),
        renew_time: Some(MicroTime(now)),
        lease_transitions: Some(transitions),
        ..Default::default()
    };
    let current = match leases.get_opt("leader").await? {
        None => {
            let lease = Lease {
                metadata: kube::api::ObjectMeta {
                    name: Some("leader".into()),
                    ..Default::default()
                },
                spec: Some(spec(0, now)),
                ..Default::default()
            };
            return match leases.create(&PostParams::default(), &lease).await {
                Ok(_) => Ok(true),
                Err(kube::Error::Api(e)) if e.code == 409 => Ok(false),
                Err(e) => Err(e),
            };
        }
        Some(current) => current,
    };
    let held = current.spec.clone().unwrap_or_default();
    let holder = held.holder_identity.clone().unwrap_or_default();
    let renewed = held.renew_time.map(|t| t.0).unwrap_or(Timestamp::UNIX_EPOCH);
    let expires = renewed + SignedDuration::from_secs(i64::from(held.lease_duration_seconds.unwrap_or(0)));
    if holder != me && !holder.is_empty() && expires > now {
        return Ok(false);
    }
    let transitions = held.lease_transitions.unwrap_or(0);
    let next = if holder == me {
        spec(transitions, held.acquire_time.map(|t| t.0).unwrap_or(now))
    } else {
        spec(transitions + 1, now)
    };
    let mut lease = current;
    lease.spec = Some(next);
    // The write carries the resourceVersion read: a candidate that lost a race gets 409.
    match leases.replace("leader", &PostParams::default(), &lease).await {
        Ok(_) => Ok(true),
        Err(kube::Error::Api(e)) if e.code == 409 => Ok(false),
        Err(e) => Err(e),
    }
}

async fn elect(url: String) {
    let client = kube::Client::try_from(kube::Config::new(url.parse().unwrap())).unwrap();
    let leases: Api<Lease> = Api::namespaced(client, "kube-node-lease");
    // MicroTime keeps microseconds: the test's clock starts on a whole second.
    let start = Timestamp::from_second(Timestamp::now().as_second()).unwrap();
    let at = |secs: i64| start + SignedDuration::from_secs(secs);
    assert!(
        try_acquire_or_renew(&leases, "a", at(0)).await.unwrap(),
        "the first candidate leads"
    );
    assert!(
        !try_acquire_or_renew(&leases, "b", at(1)).await.unwrap(),
        "b waits while a's lease runs"
    );
    assert!(try_acquire_or_renew(&leases, "a", at(10)).await.unwrap(), "a renews");
    assert!(
        !try_acquire_or_renew(&leases, "b", at(20)).await.unwrap(),
        "a renewed at 10, held to 25"
    );
    let stale = leases.get("leader").await.unwrap();
    assert!(
        try_acquire_or_renew(&leases, "b", at(26)).await.unwrap(),
        "b takes over an expired lease"
    );
    let lease = leases.get("leader").await.unwrap().spec.unwrap();
    assert_eq!(lease.holder_identity.as_deref(), Some("b"));
    assert_eq!(lease.lease_transitions, Some(1));
    assert_eq!(lease.acquire_time.unwrap().0, at(26));

    // a, paused since its last read, writes what it read: refused.
    let e = leases
        .replace("leader", &PostParams::default(), &stale)
        .await
        .unwrap_err();
    let kube::Error::Api(status) = e else { panic!("{e}") };
    assert_eq!(status.code, 409);
    assert_eq!(
        status.message,
        "Operation cannot be fulfilled on leases.coordination.k8s.io \"leader\": the object has been modified; please apply your changes to the latest version and try again"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn lease_leader_election_hands_over_as_client_go_does() {
    elect(support::start().url).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn lease_leader_election_hands_over_on_etcd() {
    let cluster = support::etcd::start("leases", 1);
    let storage = kube_apiserver_storage::etcd::EtcdStorage::new(cluster.endpoints()).unwrap();
    elect(support::start_on(Arc::new(storage)).url).await;
}
