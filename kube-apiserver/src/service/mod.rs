//! Services as kube-apiserver stores them (its `pkg/registry/core/service/storage`): a ClusterIP
//! allocated from `--service-cluster-ip-range` (an IPAddress object per address), node ports
//! from `--service-node-port-range` for NodePort and LoadBalancer Services, both released when
//! the Service goes or its type no longer needs them; headless and ExternalName Services get
//! none; the IP family fields defaulted for the cluster.

pub mod fields;
pub mod ip_allocator;
pub mod kubernetes;
pub mod port_allocator;

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use async_trait::async_trait;
use serde_json::{Value, json};

use fields::NONE;
use ip_allocator::{IpAllocator, Refused, cluster_ips};
use kube_apimachinery::validation::{FieldError, Path};
use kube_apiserver_storage::Revision;
use kube_generic_apiserver::meta;
use kube_generic_apiserver::registry::rest::{
    CollectionDeleter, Context, Creater, Getter, GracefulDeleter, Lister, Mutation, Patcher, RestStorage, Updater,
    Watcher,
};
use kube_generic_apiserver::registry::store::{Deleted, Preconditions, Store, Target};
use kube_generic_apiserver::status::ApiError;
use port_allocator::{NodePorts, PortRange, Reservation};

/// The Services' networks: kube-apiserver's `--service-cluster-ip-range`,
/// `--service-node-port-range` and `--advertise-address`.
#[derive(Clone, Debug)]
pub struct Network {
    /// The range ClusterIPs are allocated from; its first address is the `kubernetes` Service's.
    pub cluster_ip_range: ip_allocator::IpRange,
    /// The range node ports are allocated from.
    pub node_port_range: PortRange,
    /// Where the `kubernetes` Service's endpoints point: the address other members of the
    /// cluster reach this server at, and its secure port. None: the Service has no endpoints.
    pub advertise: Option<SocketAddr>,
}

impl Default for Network {
    /// kube-apiserver's defaults: 10.0.0.0/24 and 30000-32767.
    fn default() -> Self {
        Network {
            cluster_ip_range: ip_allocator::IpRange::parse("10.0.0.0/24").expect("a valid CIDR"),
            node_port_range: PortRange {
                base: 30000,
                size: 2768,
            },
            advertise: None,
        }
    }
}

/// How often an update is retried when another write came in between.
const RETRIES: usize = 16;

/// The Services' storage: the generic store with the allocators before every write.
pub struct ServiceStorage {
    /// The Services' store.
    pub services: Arc<Store>,
    /// The ClusterIP allocator; without networking.k8s.io's IPAddresses none is allocated.
    pub ips: Option<IpAllocator>,
    /// The node port allocator.
    pub node_ports: NodePorts,
}

/// What one write allocated: addresses to release if the write fails (ports go with the
/// reservation).
struct Allocated<'a> {
    ips: Vec<IpAddr>,
    _ports: Option<Reservation<'a>>,
}

fn invalid(name: &str, errs: &[FieldError]) -> ApiError {
    ApiError::invalid("", "Service", name, errs.iter().map(meta::cause).collect())
}

impl ServiceStorage {
    /// Allocates what `service` needs that `old` (the stored Service of an update) does not
    /// hold, writing the ClusterIPs and node ports into it.
    async fn allocate(
        &self,
        service: &mut Value,
        old: Option<&Value>,
        namespace: &str,
        dry_run: bool,
    ) -> Result<Allocated<'_>, ApiError> {
        let name = meta::name(service).to_string();
        fields::normalize_cluster_ips(service);
        let mut allocated = Allocated {
            ips: Vec::new(),
            _ports: None,
        };
        if let Some(ips) = &self.ips {
            let errs = fields::init_ip_family_fields(service, old, ips.range.family());
            if !errs.is_empty() {
                return Err(invalid(&name, &errs));
            }
            let held = old
                .filter(|o| fields::needs_cluster_ip(o))
                .map(cluster_ips)
                .unwrap_or_default();
            let wanted = service["spec"]["clusterIP"].as_str().unwrap_or_default().to_string();
            if held.first().is_some_and(|ip| !wanted.is_empty() && *ip != wanted) {
                let errs = [FieldError::invalid(
                    &Path::new("spec").child("clusterIPs").index(0),
                    wanted.as_str(),
                    "may not change once set",
                )];
                return Err(invalid(&name, &errs));
            }
            if fields::needs_cluster_ip(service) && wanted != NONE && (held.is_empty() || wanted.is_empty()) {
                let ip = self
                    .allocate_ip(ips, &wanted, (namespace, name.as_str()), dry_run)
                    .await?;
                service["spec"]["clusterIP"] = json!(ip.to_string());
                service["spec"]["clusterIPs"] = json!([ip.to_string()]);
                if !dry_run {
                    allocated.ips.push(ip);
                }
            }
        }
        if fields::needs_node_port(service) {
            let mut reservation = self.node_ports.begin().await?;
            let result = self.allocate_node_ports(&mut reservation, service, old);
            if let Err(e) = result {
                self.release(&allocated.ips).await;
                return Err(e);
            }
            allocated._ports = Some(reservation);
        }
        Ok(allocated)
    }

    async fn allocate_ip(
        &self,
        ips: &IpAllocator,
        wanted: &str,
        owner: ip_allocator::Owner<'_>,
        dry_run: bool,
    ) -> Result<IpAddr, ApiError> {
        if wanted.is_empty() {
            return ips.allocate_next(owner, dry_run).await.map_err(|e| {
                ApiError::internal(format!("failed to allocate a serviceIP: {}", e.message("", &ips.range)))
            });
        }
        let refuse = |detail: String| {
            let errs = [FieldError::invalid(
                &Path::new("spec").child("clusterIPs"),
                kube_apimachinery::validation::BadValue::Other(format!("[]string{{{wanted:?}}}")),
                format!("failed to allocate IP {wanted}: {detail}"),
            )];
            invalid(owner.1, &errs)
        };
        let ip: IpAddr = wanted
            .parse()
            .map_err(|_| refuse("must be a valid IP address".into()))?;
        match ips.allocate(&ip, owner, dry_run).await {
            Ok(()) => Ok(ip),
            Err(Refused::Store(e)) => Err(e),
            Err(e) => Err(refuse(e.message(wanted, &ips.range))),
        }
    }

    /// Kubernetes' `initNodePorts` and health check port: a port asked for is allocated, one
    /// left at zero gets the node port of an earlier port with the same number or a free one;
    /// ports the stored Service held are kept without allocating.
    fn allocate_node_ports(
        &self,
        reservation: &mut Reservation<'_>,
        service: &mut Value,
        old: Option<&Value>,
    ) -> Result<(), ApiError> {
        let name = meta::name(service).to_string();
        let held = old.map(port_allocator::node_ports).unwrap_or_default();
        let allocate_all = fields::allocates_node_ports(service);
        let ports_path = Path::new("spec");
        let ports_path = ports_path.child("ports");
        let ports = service["spec"]["ports"].as_array().cloned().unwrap_or_default();
        let mut by_port: Vec<(i64, i64)> = Vec::new();
        let mut assigned = Vec::new();
        for (i, port) in ports.iter().enumerate() {
            let number = port["port"].as_i64().unwrap_or(0);
            let asked = port["nodePort"].as_i64().unwrap_or(0);
            if asked == 0 && !allocate_all {
                assigned.push(0);
                continue;
            }
            let refuse = |r: &Refused, reservation: &Reservation<'_>, value: i64| {
                let path = ports_path.index(i);
                let errs = [FieldError::invalid(
                    &path.child("nodePort"),
                    value,
                    reservation.message(r),
                )];
                invalid(&name, &errs)
            };
            let earlier = by_port.iter().find(|(p, _)| *p == number).map(|(_, np)| *np);
            let node_port = match (earlier, asked) {
                (Some(np), 0) => np,
                (Some(np), asked) if asked == np => np,
                (_, asked) if asked != 0 => {
                    if !held.contains(&(asked as i32)) {
                        reservation
                            .allocate(asked as i32)
                            .map_err(|r| refuse(&r, reservation, asked))?;
                    }
                    asked
                }
                _ => {
                    // Go looks ahead for a port of the same number that asks for a node port.
                    let requested = ports
                        .iter()
                        .skip(i + 1)
                        .find(|p| p["port"].as_i64() == Some(number) && p["nodePort"].as_i64().unwrap_or(0) != 0)
                        .and_then(|p| p["nodePort"].as_i64());
                    match requested {
                        Some(np) => {
                            if !held.contains(&(np as i32)) {
                                reservation
                                    .allocate(np as i32)
                                    .map_err(|r| refuse(&r, reservation, np))?;
                            }
                            np
                        }
                        None => i64::from(reservation.allocate_next().map_err(|r| {
                            ApiError::internal(format!("failed to allocate a nodePort: {}", reservation.message(&r)))
                        })?),
                    }
                }
            };
            if earlier.is_none() {
                by_port.push((number, node_port));
            }
            assigned.push(node_port);
        }
        for (port, node_port) in service["spec"]["ports"]
            .as_array_mut()
            .into_iter()
            .flatten()
            .zip(assigned)
        {
            if node_port != 0 {
                port["nodePort"] = json!(node_port);
            }
        }
        if fields::needs_health_check_node_port(service) {
            let asked = service["spec"]["healthCheckNodePort"].as_i64().unwrap_or(0);
            let port = if asked == 0 {
                i64::from(reservation.allocate_next().map_err(|r| {
                    ApiError::internal(format!("failed to allocate a nodePort: {}", reservation.message(&r)))
                })?)
            } else {
                if !held.contains(&(asked as i32)) {
                    reservation.allocate(asked as i32).map_err(|r| {
                        let errs = [FieldError::invalid(
                            &Path::new("spec").child("healthCheckNodePort"),
                            asked,
                            reservation.message(&r),
                        )];
                        invalid(&name, &errs)
                    })?;
                }
                asked
            };
            service["spec"]["healthCheckNodePort"] = json!(port);
        }
        Ok(())
    }

    /// Releases addresses (after a failed write, a delete, or a type change).
    async fn release(&self, ips: &[IpAddr]) {
        if let Some(allocator) = &self.ips {
            for ip in ips {
                allocator.release(ip).await;
            }
        }
    }

    /// The addresses `old` held that `new` does not.
    fn dropped(old: &Value, new: Option<&Value>) -> Vec<IpAddr> {
        let kept = new.map(cluster_ips).unwrap_or_default();
        cluster_ips(old)
            .into_iter()
            .filter(|ip| !kept.contains(ip))
            .filter_map(|ip| ip.parse().ok())
            .collect()
    }

    /// An update: the next state from `next`, allocated values kept, new ones allocated, and
    /// the write made at the revision read (retried when another write came in between, unless
    /// the client gave a precondition).
    async fn write(
        &self,
        namespace: Option<&str>,
        name: &str,
        precondition: Option<Revision>,
        dry_run: bool,
        next: Mutation<'_>,
    ) -> Result<Value, ApiError> {
        let mut last = None;
        for _ in 0..RETRIES {
            let old = self.services.get(namespace, name).await?;
            let rev = meta::resource_version(&old).ok().flatten().unwrap_or(0);
            let mut new = next(&old)?;
            fields::drop_type_dependent_fields(&mut new, &old);
            fields::patch_allocated_values(&mut new, &old);
            let allocated = self
                .allocate(&mut new, Some(&old), namespace.unwrap_or_default(), dry_run)
                .await?;
            let written = self
                .services
                .guaranteed_update(
                    namespace,
                    name,
                    Some(precondition.unwrap_or(rev)),
                    dry_run,
                    |_| Ok(new.clone()),
                    Target::Main,
                )
                .await;
            match written {
                Ok(written) => {
                    if !dry_run {
                        // A Service whose last finalizer went is gone: everything it held goes.
                        let gone = meta::deleting(&written) && !meta::has_finalizers(&written);
                        let kept = (!gone).then_some(&written);
                        self.release(&Self::dropped(&old, kept)).await;
                    }
                    return Ok(written);
                }
                Err(e) => {
                    self.release(&allocated.ips).await;
                    if e.code == 409 && precondition.is_none() {
                        last = Some(e);
                        continue;
                    }
                    return Err(e);
                }
            }
        }
        Err(last.unwrap_or_else(|| ApiError::conflict("", "services", name, "too many concurrent writes; try again")))
    }

    /// Creates a Service: its name settled, then what it needs allocated, then stored (what was
    /// allocated is released when the store refuses it).
    pub async fn create_service(
        &self,
        namespace: Option<&str>,
        mut obj: Value,
        dry_run: bool,
    ) -> Result<Value, ApiError> {
        // The name is settled before allocating: the IPAddress names its Service.
        let generate = meta::field(&obj, "generateName").to_string();
        if meta::name(&obj).is_empty() && !generate.is_empty() {
            meta::meta_mut(&mut obj).insert("name".into(), json!(meta::generate_name(&generate)));
        }
        let allocated = self
            .allocate(&mut obj, None, namespace.unwrap_or_default(), dry_run)
            .await?;
        let created = self.services.create(namespace, obj, dry_run).await;
        if created.is_err() {
            self.release(&allocated.ips).await;
        }
        created
    }
}

#[async_trait]
impl Creater for ServiceStorage {
    async fn create(
        &self,
        _ctx: &Context<'_>,
        namespace: Option<&str>,
        obj: Value,
        dry_run: bool,
    ) -> Result<Value, ApiError> {
        self.create_service(namespace, obj, dry_run).await
    }
}

#[async_trait]
impl Updater for ServiceStorage {
    async fn update(&self, namespace: Option<&str>, name: &str, obj: Value, dry_run: bool) -> Result<Value, ApiError> {
        let precondition = meta::resource_version(&obj)
            .map_err(ApiError::bad_request)?
            .filter(|rv| *rv != 0);
        self.write(namespace, name, precondition, dry_run, &|_| Ok(obj.clone()))
            .await
    }
}

#[async_trait]
impl Patcher for ServiceStorage {
    async fn patch(
        &self,
        namespace: Option<&str>,
        name: &str,
        precondition: Option<Revision>,
        dry_run: bool,
        mutation: Mutation<'_>,
    ) -> Result<Value, ApiError> {
        self.write(namespace, name, precondition, dry_run, mutation).await
    }
}

#[async_trait]
impl GracefulDeleter for ServiceStorage {
    async fn delete(
        &self,
        namespace: Option<&str>,
        name: &str,
        preconditions: &Preconditions,
        dry_run: bool,
    ) -> Result<Deleted, ApiError> {
        let deleted = self.services.delete(namespace, name, preconditions, dry_run).await?;
        if let (Deleted::Gone(old), false) = (&deleted, dry_run) {
            self.release(&Self::dropped(old, None)).await;
        }
        Ok(deleted)
    }

    fn returns_deleted_object(&self) -> bool {
        self.services.returns_deleted_object()
    }
}

/// Reads, lists and watches are the store's; writes allocate first.
impl RestStorage for ServiceStorage {
    fn getter(&self) -> Option<&dyn Getter> {
        self.services.getter()
    }
    fn lister(&self) -> Option<&dyn Lister> {
        self.services.lister()
    }
    fn creater(&self) -> Option<&dyn Creater> {
        Some(self)
    }
    fn updater(&self) -> Option<&dyn Updater> {
        Some(self)
    }
    fn patcher(&self) -> Option<&dyn Patcher> {
        Some(self)
    }
    fn graceful_deleter(&self) -> Option<&dyn GracefulDeleter> {
        Some(self)
    }
    fn collection_deleter(&self) -> Option<&dyn CollectionDeleter> {
        self.services.collection_deleter()
    }
    fn watcher(&self) -> Option<&dyn Watcher> {
        self.services.watcher()
    }
}
