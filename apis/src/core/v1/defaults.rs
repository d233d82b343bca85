//! Hand-written defaults of core/v1, as Kubernetes' pkg/apis/core/v1/defaults.go sets them. The
//! generated defaulters of every kind with a pod template (apps, batch) reach these through it,
//! so a Deployment's containers are defaulted too.

use k8s_openapi::ByteString;
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;

use super::{
    ClientIPConfig, Container, DNSPolicy, Endpoints, HTTPGetAction, LimitRangeItem, NamespacePhase, NamespaceStatus,
    NodeStatus, ObjectFieldSelector, Pod, PodSpec, Probe, Protocol, PullPolicy, ReplicationController, RestartPolicy,
    Secret, Service, ServiceAffinity, ServiceExternalTrafficPolicy, ServiceInternalTrafficPolicy, ServiceType,
    SessionAffinityConfig, TerminationMessagePolicy, URIScheme,
};

/// How long a ClientIP session affinity lasts when not given: three hours
/// (`DefaultClientIPServiceAffinitySeconds`).
pub const DEFAULT_CLIENT_IP_SERVICE_AFFINITY_SECONDS: i32 = 10800;

/// PodSpec defaults: restart Always, ClusterFirst DNS, an empty security context, a 30 second
/// grace period, the default scheduler.
pub fn set_defaults_pod_spec(obj: &mut PodSpec) {
    obj.dns_policy.get_or_insert(DNSPolicy::DNSClusterFirst);
    obj.restart_policy.get_or_insert(RestartPolicy::RestartPolicyAlways);
    obj.security_context.get_or_insert_with(Default::default);
    obj.termination_grace_period_seconds.get_or_insert(30);
    obj.scheduler_name.get_or_insert_with(|| "default-scheduler".into());
}

/// Pod defaults (a Pod's only, not a template's): each container requests what it limits
/// unless it says otherwise, service links on, and with host networking each container port
/// is its host port.
pub fn set_defaults_pod(obj: &mut Pod) {
    let Some(spec) = obj.spec.as_mut() else { return };
    for container in spec
        .containers
        .iter_mut()
        .chain(spec.init_containers.iter_mut().flatten())
    {
        let Some(resources) = container.resources.as_mut() else {
            continue;
        };
        let Some(limits) = resources.limits.as_ref() else {
            continue;
        };
        let requests = resources.requests.get_or_insert_with(Default::default);
        for (k, v) in limits {
            requests.entry(k.clone()).or_insert_with(|| v.clone());
        }
    }
    spec.enable_service_links.get_or_insert(true);
    if spec.host_network == Some(true) {
        for container in spec
            .containers
            .iter_mut()
            .chain(spec.init_containers.iter_mut().flatten())
        {
            for port in container.ports.iter_mut().flatten() {
                if port.host_port.unwrap_or(0) == 0 {
                    port.host_port = Some(port.container_port);
                }
            }
        }
    }
}

/// ReplicationController defaults: the pod template's labels as the selector and the
/// controller's labels, where those are not given.
pub fn set_defaults_replication_controller(obj: &mut ReplicationController) {
    let Some(spec) = obj.spec.as_mut() else { return };
    let labels = spec
        .template
        .as_ref()
        .and_then(|t| t.metadata.as_ref())
        .and_then(|m| m.labels.clone());
    if let Some(labels) = labels {
        if spec.selector.as_ref().is_none_or(|s| s.is_empty()) {
            spec.selector = Some(labels.clone());
        }
        if obj.metadata.labels.as_ref().is_none_or(|l| l.is_empty()) {
            obj.metadata.labels = Some(labels);
        }
    }
}

/// Probe defaults: a one second timeout, every ten seconds, one success, three failures.
pub fn set_defaults_probe(obj: &mut Probe) {
    for (field, default) in [
        (&mut obj.timeout_seconds, 1),
        (&mut obj.period_seconds, 10),
        (&mut obj.success_threshold, 1),
        (&mut obj.failure_threshold, 3),
    ] {
        if field.unwrap_or(0) == 0 {
            *field = Some(default);
        }
    }
}

/// HTTPGetAction defaults: path `/` over HTTP.
pub fn set_defaults_http_get_action(obj: &mut HTTPGetAction) {
    if obj.path.as_deref().unwrap_or_default().is_empty() {
        obj.path = Some("/".into());
    }
    obj.scheme.get_or_insert(URIScheme::URISchemeHTTP);
}

/// Endpoints defaults: TCP ports.
pub fn set_defaults_endpoints(obj: &mut Endpoints) {
    for subset in obj.subsets.iter_mut().flatten() {
        for port in subset.ports.iter_mut().flatten() {
            port.protocol.get_or_insert(Protocol::ProtocolTCP);
        }
    }
}

/// NodeStatus defaults: what is allocatable is the capacity, unless said.
pub fn set_defaults_node_status(obj: &mut NodeStatus) {
    if obj.allocatable.is_none() {
        obj.allocatable = obj.capacity.clone();
    }
}

/// ObjectFieldSelector defaults: fields of the v1 object.
pub fn set_defaults_object_field_selector(obj: &mut ObjectFieldSelector) {
    if obj.api_version.as_deref().unwrap_or_default().is_empty() {
        obj.api_version = Some("v1".into());
    }
}

/// LimitRangeItem defaults, for Container limits: the default limit is the max, the default
/// request the default limit, else the min.
pub fn set_defaults_limit_range_item(obj: &mut LimitRangeItem) {
    if obj.type_ != "Container" {
        return;
    }
    let default = obj.default.get_or_insert_with(Default::default);
    for (k, v) in obj.max.iter().flatten() {
        default.entry(k.clone()).or_insert_with(|| v.clone());
    }
    let request = obj.default_request.get_or_insert_with(Default::default);
    for (k, v) in default.iter().chain(obj.min.iter().flatten()) {
        request.entry(k.clone()).or_insert_with(|| v.clone());
    }
}

/// Container defaults: the termination message path and policy, and the pull policy from the
/// image's tag: `Always` for `:latest` or no tag, `IfNotPresent` otherwise.
pub fn set_defaults_container(obj: &mut Container) {
    obj.termination_message_path
        .get_or_insert_with(|| "/dev/termination-log".into());
    obj.termination_message_policy
        .get_or_insert(TerminationMessagePolicy::TerminationMessageReadFile);
    if obj.image_pull_policy.is_none() {
        let latest = image_tag(obj.image.as_deref().unwrap_or_default()) == Some("latest");
        obj.image_pull_policy = Some(if latest {
            PullPolicy::PullAlways
        } else {
            PullPolicy::PullIfNotPresent
        });
    }
}

/// Namespace status default: phase Active.
pub fn set_defaults_namespace_status(obj: &mut NamespaceStatus) {
    obj.phase.get_or_insert(NamespacePhase::NamespaceActive);
}

/// Secret defaults: type `Opaque`, and `stringData` folded into `data` (Kubernetes does the fold
/// in its v1 to internal conversion, so every write stores and answers `data` only; here the
/// defaulter, which runs on every decode as that conversion does, makes it).
pub fn set_defaults_secret(obj: &mut Secret) {
    if obj.type_.as_deref().unwrap_or_default().is_empty() {
        obj.type_ = Some("Opaque".into());
    }
    if let Some(strings) = obj.string_data.take() {
        let data = obj.data.get_or_insert_with(Default::default);
        for (k, v) in strings {
            data.insert(k, ByteString(v.into_bytes()));
        }
    }
}

/// Service defaults: session affinity None (with no affinity config) or ClientIP's three hours,
/// type ClusterIP, TCP ports whose target is the port, the Cluster traffic policies of
/// externally reachable and internal Services, and node ports allocated for a LoadBalancer.
pub fn set_defaults_service(obj: &mut Service) {
    let Some(spec) = obj.spec.as_mut() else { return };
    let affinity = spec
        .session_affinity
        .get_or_insert(ServiceAffinity::ServiceAffinityNone);
    match affinity {
        ServiceAffinity::ServiceAffinityNone => spec.session_affinity_config = None,
        ServiceAffinity::ServiceAffinityClientIP => {
            let timeout = spec
                .session_affinity_config
                .as_ref()
                .and_then(|c| c.client_ip.as_ref())
                .and_then(|c| c.timeout_seconds);
            if timeout.is_none() {
                spec.session_affinity_config = Some(SessionAffinityConfig {
                    client_ip: Some(ClientIPConfig {
                        timeout_seconds: Some(DEFAULT_CLIENT_IP_SERVICE_AFFINITY_SECONDS),
                    }),
                });
            }
        }
    }
    let type_ = spec.type_.get_or_insert(ServiceType::ServiceTypeClusterIP);
    let load_balancer = *type_ == ServiceType::ServiceTypeLoadBalancer;
    let node_port = *type_ == ServiceType::ServiceTypeNodePort;
    let cluster_ip = *type_ == ServiceType::ServiceTypeClusterIP;
    for port in spec.ports.iter_mut().flatten() {
        port.protocol.get_or_insert(Protocol::ProtocolTCP);
        let unset = match &port.target_port {
            None => true,
            Some(IntOrString::Int(0)) => true,
            Some(IntOrString::String(s)) => s.is_empty(),
            Some(IntOrString::Int(_)) => false,
        };
        if unset {
            port.target_port = Some(IntOrString::Int(port.port));
        }
    }
    let externally_accessible =
        load_balancer || node_port || (cluster_ip && spec.external_ips.as_ref().is_some_and(|ips| !ips.is_empty()));
    if externally_accessible {
        spec.external_traffic_policy
            .get_or_insert(ServiceExternalTrafficPolicy::ServiceExternalTrafficPolicyCluster);
    }
    if load_balancer || node_port || cluster_ip {
        spec.internal_traffic_policy
            .get_or_insert(ServiceInternalTrafficPolicy::ServiceInternalTrafficPolicyCluster);
    }
    if load_balancer {
        spec.allocate_load_balancer_node_ports.get_or_insert(true);
    }
}

/// The tag of an image reference as Kubernetes' parser reads it: the text after the last `:` of
/// the last path segment, `latest` when there is neither a tag nor a digest, and none when the
/// image is pinned by digest only.
pub(super) fn image_tag(image: &str) -> Option<&str> {
    let (name, digest) = match image.split_once('@') {
        Some((n, d)) => (n, Some(d)),
        None => (image, None),
    };
    let last = name.rsplit('/').next().unwrap_or(name);
    match last.split_once(':') {
        Some((_, tag)) => Some(tag),
        None if digest.is_some() => None,
        None => Some("latest"),
    }
}
