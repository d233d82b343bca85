//! The `default/kubernetes` Service, which every cluster has and in-cluster clients find the API
//! server by, as kube-apiserver's `bootstrap-controller` makes it: the first address of the
//! Service range, port 443 named `https` to the secure port, with the Endpoints and the
//! EndpointSlice naming the advertised address (when there is one); and the `kubernetes`
//! ServiceCIDR of the range (networking.k8s.io). Each is created when missing and left alone when
//! it exists.

use std::net::SocketAddr;
use std::sync::Arc;

use serde_json::{Value, json};

use super::ServiceStorage;
use super::ip_allocator::{Family, IpRange};
use kube_generic_apiserver::registry::store::Store;

/// The Service's namespace and name.
const NAMESPACE: &str = "default";
const NAME: &str = "kubernetes";

/// The stores the bootstrap writes; those a server does not serve are skipped.
pub struct Stores {
    /// The Services.
    pub services: Arc<ServiceStorage>,
    /// core/v1 Endpoints.
    pub endpoints: Option<Arc<Store>>,
    /// discovery.k8s.io EndpointSlices.
    pub endpoint_slices: Option<Arc<Store>>,
    /// networking.k8s.io ServiceCIDRs.
    pub service_cidrs: Option<Arc<Store>>,
}

/// The `kubernetes` Service of `range` to `port`.
pub fn service(range: &IpRange, port: u16) -> Value {
    let ip = range.first().to_string();
    json!({
        "apiVersion": "v1",
        "kind": "Service",
        "metadata": {
            "name": NAME,
            "namespace": NAMESPACE,
            "labels": {"component": "apiserver", "provider": "kubernetes"},
        },
        "spec": {
            "type": "ClusterIP",
            "clusterIP": ip,
            "clusterIPs": [ip],
            "ipFamilies": [range.family().name()],
            "ipFamilyPolicy": "SingleStack",
            "internalTrafficPolicy": "Cluster",
            "sessionAffinity": "None",
            "ports": [{"name": "https", "port": 443, "protocol": "TCP", "targetPort": port}],
        },
    })
}

/// The Endpoints of the Service: the advertised address. EndpointSlice mirroring skips them;
/// the slice is written beside them.
pub fn endpoints(at: SocketAddr) -> Value {
    json!({
        "apiVersion": "v1",
        "kind": "Endpoints",
        "metadata": {
            "name": NAME,
            "namespace": NAMESPACE,
            "labels": {"endpointslice.kubernetes.io/skip-mirror": "true"},
        },
        "subsets": [{
            "addresses": [{"ip": at.ip().to_string()}],
            "ports": [{"name": "https", "port": at.port(), "protocol": "TCP"}],
        }],
    })
}

/// The EndpointSlice of the Service.
pub fn endpoint_slice(at: SocketAddr) -> Value {
    json!({
        "apiVersion": "discovery.k8s.io/v1",
        "kind": "EndpointSlice",
        "metadata": {
            "name": NAME,
            "namespace": NAMESPACE,
            "labels": {"kubernetes.io/service-name": NAME},
        },
        "addressType": Family::of(&at.ip()).name(),
        "endpoints": [{"addresses": [at.ip().to_string()], "conditions": {"ready": true}}],
        "ports": [{"name": "https", "port": at.port(), "protocol": "TCP"}],
    })
}

/// The ServiceCIDR of the range, Ready as Kubernetes' ServiceCIDR controller marks it.
pub fn service_cidr(range: &IpRange) -> Value {
    json!({
        "apiVersion": "networking.k8s.io/v1",
        "kind": "ServiceCIDR",
        "metadata": {"name": NAME},
        "spec": {"cidrs": [range.to_string()]},
    })
}

/// Logs a failed bootstrap write; one that finds the object there is not a failure.
fn created(what: &str, result: Result<Value, kube_generic_apiserver::ApiError>) -> Option<Value> {
    match result {
        Ok(v) => Some(v),
        Err(e) if e.code == 409 => None,
        Err(e) => {
            tracing::warn!(object = what, error = %e.message, "creating a bootstrap object failed");
            None
        }
    }
}

/// Creates what is missing of the ServiceCIDR, the Service, its Endpoints and EndpointSlice.
pub async fn bootstrap(stores: Stores, advertise: Option<SocketAddr>) {
    let range = stores.services.ips.as_ref().map(|ips| ips.range.clone());
    if let (Some(cidrs), Some(range)) = (&stores.service_cidrs, &range)
        && let Some(cidr) = created(
            "servicecidrs/kubernetes",
            cidrs.create(None, service_cidr(range), false).await,
        )
    {
        let ready = json!({
            "type": "Ready",
            "status": "True",
            "reason": "",
            "message": "Kubernetes Service CIDR is ready",
            "lastTransitionTime": kube_generic_apiserver::meta::now(),
        });
        let mut cidr = cidr;
        cidr["status"] = json!({"conditions": [ready]});
        let update = cidrs
            .guaranteed_update(
                None,
                NAME,
                None,
                false,
                |_| Ok(cidr.clone()),
                kube_generic_apiserver::registry::store::Target::Status,
            )
            .await;
        if let Err(e) = update {
            tracing::warn!(error = %e.message, "marking the kubernetes ServiceCIDR ready failed");
        }
    }
    if let Some(range) = &range {
        let port = advertise.map_or(6443, |a| a.port());
        let result = stores
            .services
            .create_service(Some(NAMESPACE), service(range, port), false)
            .await;
        created("services/kubernetes", result);
    }
    let Some(at) = advertise else { return };
    if let Some(store) = &stores.endpoints {
        created(
            "endpoints/kubernetes",
            store.create(Some(NAMESPACE), endpoints(at), false).await,
        );
    }
    if let Some(store) = &stores.endpoint_slices {
        let result = store.create(Some(NAMESPACE), endpoint_slice(at), false).await;
        created("endpointslices/kubernetes", result);
    }
}
