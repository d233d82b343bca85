//! Services as kube-apiserver stores them: ClusterIPs from the Service range (an IPAddress each),
//! node ports from the node port range, both kept across updates, dropped by type changes and
//! released on delete; headless and ExternalName Services; the IP family fields; and the
//! `default/kubernetes` Service with its Endpoints, EndpointSlice and ServiceCIDR. On the
//! embedded store and on etcd, answers compared with kube-apiserver 1.36's words.

use crate::support;

use std::net::Ipv4Addr;
use std::sync::Arc;

use reqwest::StatusCode;
use serde_json::{Value, json};

use kube_apiserver::Config;
use kube_apiserver::service::Network;
use support::api::Api;

const SERVICES: &str = "/api/v1/namespaces/ns/services";

fn config() -> Config {
    Config {
        services: Network {
            advertise: Some("10.1.2.3:6443".parse().unwrap()),
            ..Network::default()
        },
        ..Config::default()
    }
}

fn service(name: &str, spec: Value) -> String {
    json!({"apiVersion": "v1", "kind": "Service", "metadata": {"name": name}, "spec": spec}).to_string()
}

async fn create(api: &Api, name: &str, spec: Value) -> (StatusCode, Value) {
    api.send("POST", SERVICES, "application/json", service(name, spec))
        .await
}

/// The IPAddress of `ip`, if allocated.
async fn ip_address(api: &Api, ip: &str) -> Option<Value> {
    let (code, body) = api.get(&format!("/apis/networking.k8s.io/v1/ipaddresses/{ip}")).await;
    (code == StatusCode::OK).then_some(body)
}

#[tokio::test]
async fn services_get_cluster_ips_and_node_ports() {
    allocation(
        Api::on(support::start_with(
            Arc::new(kube_apiserver_storage::memory::MemoryStorage::default()),
            config(),
        ))
        .await,
    )
    .await;
}

#[tokio::test]
async fn services_get_cluster_ips_and_node_ports_on_etcd() {
    let cluster = support::etcd::start("services", 1);
    let storage = kube_apiserver_storage::etcd::EtcdStorage::new(cluster.endpoints()).unwrap();
    allocation(Api::on(support::start_with(Arc::new(storage), config())).await).await;
}

async fn allocation(api: Api) {
    kubernetes_service(&api).await;

    // A ClusterIP Service: an address from the upper band of 10.0.0.0/24 and the defaults.
    let web = json!({"selector": {"app": "web"}, "ports": [{"port": 80}]});
    let (code, created) = create(&api, "web", web.clone()).await;
    assert_eq!(code, StatusCode::CREATED, "{created}");
    let spec = &created["spec"];
    let ip: Ipv4Addr = spec["clusterIP"].as_str().unwrap().parse().unwrap();
    assert!(ip.octets()[..3] == [10, 0, 0] && ip.octets()[3] > 16, "{created}");
    assert_eq!(spec["clusterIPs"], json!([ip.to_string()]));
    assert_eq!(spec["ipFamilies"], json!(["IPv4"]));
    assert_eq!(spec["ipFamilyPolicy"], "SingleStack");
    assert_eq!(spec["type"], "ClusterIP");
    assert_eq!(spec["sessionAffinity"], "None");
    assert_eq!(spec["internalTrafficPolicy"], "Cluster");
    assert_eq!(
        spec["ports"],
        json!([{"port": 80, "protocol": "TCP", "targetPort": 80}])
    );
    let address = ip_address(&api, &ip.to_string()).await.expect("the IPAddress");
    assert_eq!(
        address["spec"]["parentRef"],
        json!({"group": "", "resource": "services", "namespace": "ns", "name": "web"})
    );
    assert_eq!(
        address["metadata"]["labels"]["ipaddress.kubernetes.io/managed-by"],
        "ipallocator.k8s.io"
    );

    // An address asked for is allocated once; outside the range it is refused.
    let (code, _) = create(&api, "five", json!({"clusterIP": "10.0.0.5", "ports": [{"port": 80}]})).await;
    assert_eq!(code, StatusCode::CREATED);
    let (code, refused) = create(&api, "again", json!({"clusterIP": "10.0.0.5", "ports": [{"port": 80}]})).await;
    assert_eq!(code, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        refused["message"],
        "Service \"again\" is invalid: spec.clusterIPs: Invalid value: []string{\"10.0.0.5\"}: failed to allocate IP 10.0.0.5: provided IP is already allocated"
    );
    let (code, refused) = create(&api, "far", json!({"clusterIP": "10.9.0.5", "ports": [{"port": 80}]})).await;
    assert_eq!(code, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        refused["message"],
        "Service \"far\" is invalid: spec.clusterIPs: Invalid value: []string{\"10.9.0.5\"}: failed to allocate IP 10.9.0.5: the provided IP (10.9.0.5) is not in the valid range. The range of valid IPs is 10.0.0.0/24"
    );
    let (code, refused) = create(
        &api,
        "dual",
        json!({"ipFamilyPolicy": "RequireDualStack", "ports": [{"port": 80}]}),
    )
    .await;
    assert_eq!(code, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        refused["message"],
        "Service \"dual\" is invalid: spec.ipFamilyPolicy: Invalid value: \"RequireDualStack\": this cluster is not configured for dual-stack services"
    );

    // Headless Services get no address; without a selector they get both families.
    let (_, headless) = create(
        &api,
        "headless",
        json!({"clusterIP": "None", "selector": {"app": "web"}, "ports": [{"port": 80}]}),
    )
    .await;
    assert_eq!(headless["spec"]["clusterIPs"], json!(["None"]), "{headless}");
    assert_eq!(headless["spec"]["ipFamilies"], json!(["IPv4"]));
    let (_, bare) = create(&api, "bare", json!({"clusterIP": "None", "ports": [{"port": 80}]})).await;
    assert_eq!(bare["spec"]["ipFamilyPolicy"], "RequireDualStack", "{bare}");
    assert_eq!(bare["spec"]["ipFamilies"], json!(["IPv4", "IPv6"]));
    let (code, external) = create(
        &api,
        "external",
        json!({"type": "ExternalName", "externalName": "example.com"}),
    )
    .await;
    assert_eq!(code, StatusCode::CREATED, "{external}");
    assert!(external["spec"].get("clusterIP").is_none(), "{external}");

    // NodePorts: one from the range, one asked for, and a refusal of the same port.
    let node = json!({"type": "NodePort", "selector": {"app": "web"}, "ports": [{"name": "http", "port": 80}, {"name": "https", "port": 443, "nodePort": 30443}]});
    let (code, np) = create(&api, "np", node).await;
    assert_eq!(code, StatusCode::CREATED, "{np}");
    let first = np["spec"]["ports"][0]["nodePort"].as_i64().unwrap();
    assert!((30000..=32767).contains(&first), "{np}");
    assert_eq!(np["spec"]["ports"][1]["nodePort"], 30443);
    assert_eq!(np["spec"]["externalTrafficPolicy"], "Cluster");
    let taken = json!({"type": "NodePort", "ports": [{"port": 80, "nodePort": 30443}]});
    let (code, refused) = create(&api, "taken", taken.clone()).await;
    assert_eq!(code, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        refused["message"],
        "Service \"taken\" is invalid: spec.ports[0].nodePort: Invalid value: 30443: provided port is already allocated"
    );
    let (code, refused) = create(
        &api,
        "low",
        json!({"type": "NodePort", "ports": [{"port": 80, "nodePort": 80}]}),
    )
    .await;
    assert_eq!(code, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        refused["message"],
        "Service \"low\" is invalid: spec.ports[0].nodePort: Invalid value: 80: provided port is not in the valid range. The range of valid ports is 30000-32767"
    );

    // An update that leaves the allocated values out keeps them; one that changes the address
    // is refused.
    let mut put = np.clone();
    put["spec"].as_object_mut().unwrap().remove("clusterIP");
    put["spec"].as_object_mut().unwrap().remove("clusterIPs");
    put["spec"]["ports"][0].as_object_mut().unwrap().remove("nodePort");
    let (code, updated) = api
        .send("PUT", &format!("{SERVICES}/np"), "application/json", put.to_string())
        .await;
    assert_eq!(code, StatusCode::OK, "{updated}");
    assert_eq!(updated["spec"]["clusterIP"], np["spec"]["clusterIP"]);
    assert_eq!(updated["spec"]["ports"][0]["nodePort"], first);
    let mut moved = updated.clone();
    moved["spec"]["clusterIP"] = json!("10.0.0.6");
    moved["spec"]["clusterIPs"] = json!(["10.0.0.6"]);
    let (code, refused) = api
        .send("PUT", &format!("{SERVICES}/np"), "application/json", moved.to_string())
        .await;
    assert_eq!(code, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        refused["message"],
        "Service \"np\" is invalid: spec.clusterIPs[0]: Invalid value: \"10.0.0.6\": may not change once set"
    );

    // Becoming a ClusterIP Service drops the node ports, which are then free.
    let patch = json!({"spec": {"type": "ClusterIP"}}).to_string();
    let (code, patched) = api
        .send(
            "PATCH",
            &format!("{SERVICES}/np"),
            "application/merge-patch+json",
            patch,
        )
        .await;
    assert_eq!(code, StatusCode::OK, "{patched}");
    assert!(patched["spec"]["ports"][1].get("nodePort").is_none(), "{patched}");
    assert_eq!(patched["spec"]["clusterIP"], np["spec"]["clusterIP"]);
    let (code, reused) = create(&api, "taken", taken).await;
    assert_eq!(code, StatusCode::CREATED, "{reused}");

    // A dry run allocates nothing; a delete releases the address.
    let (code, dry) = api
        .send(
            "POST",
            &format!("{SERVICES}?dryRun=All"),
            "application/json",
            service("dry", json!({"clusterIP": "10.0.0.8", "ports": [{"port": 80}]})),
        )
        .await;
    assert_eq!(code, StatusCode::CREATED, "{dry}");
    assert!(ip_address(&api, "10.0.0.8").await.is_none());
    let (code, _) = api
        .send("DELETE", &format!("{SERVICES}/web"), "application/json", String::new())
        .await;
    assert_eq!(code, StatusCode::OK);
    assert!(ip_address(&api, &ip.to_string()).await.is_none());
    let (code, again) = create(
        &api,
        "web2",
        json!({"clusterIP": ip.to_string(), "ports": [{"port": 80}]}),
    )
    .await;
    assert_eq!(code, StatusCode::CREATED, "{again}");
}

/// The `kubernetes` Service and what goes with it, as a fresh kube-apiserver has them.
async fn kubernetes_service(api: &Api) {
    let (code, svc) = api.get("/api/v1/namespaces/default/services/kubernetes").await;
    assert_eq!(code, StatusCode::OK, "{svc}");
    assert_eq!(
        svc["metadata"]["labels"],
        json!({"component": "apiserver", "provider": "kubernetes"})
    );
    let spec = &svc["spec"];
    assert_eq!(spec["clusterIP"], "10.0.0.1");
    assert_eq!(spec["clusterIPs"], json!(["10.0.0.1"]));
    assert_eq!(
        spec["ports"],
        json!([{"name": "https", "port": 443, "protocol": "TCP", "targetPort": 6443}])
    );
    assert_eq!(spec["ipFamilyPolicy"], "SingleStack");
    assert_eq!(spec["sessionAffinity"], "None");
    assert_eq!(spec["type"], "ClusterIP");
    let address = ip_address(api, "10.0.0.1")
        .await
        .expect("the kubernetes Service's IPAddress");
    assert_eq!(address["spec"]["parentRef"]["name"], "kubernetes");

    let (_, endpoints) = api.get("/api/v1/namespaces/default/endpoints/kubernetes").await;
    assert_eq!(
        endpoints["metadata"]["labels"],
        json!({"endpointslice.kubernetes.io/skip-mirror": "true"})
    );
    assert_eq!(
        endpoints["subsets"],
        json!([{"addresses": [{"ip": "10.1.2.3"}], "ports": [{"name": "https", "port": 6443, "protocol": "TCP"}]}])
    );
    let (_, slice) = api
        .get("/apis/discovery.k8s.io/v1/namespaces/default/endpointslices/kubernetes")
        .await;
    assert_eq!(
        slice["metadata"]["labels"],
        json!({"kubernetes.io/service-name": "kubernetes"})
    );
    assert_eq!(slice["addressType"], "IPv4");
    assert_eq!(slice["endpoints"][0]["addresses"], json!(["10.1.2.3"]));
    assert_eq!(slice["endpoints"][0]["conditions"]["ready"], true);

    let (_, cidr) = api.get("/apis/networking.k8s.io/v1/servicecidrs/kubernetes").await;
    assert_eq!(cidr["spec"]["cidrs"], json!(["10.0.0.0/24"]), "{cidr}");
    assert_eq!(cidr["status"]["conditions"][0]["type"], "Ready");
    assert_eq!(cidr["status"]["conditions"][0]["status"], "True");
}
