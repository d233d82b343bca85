//! ClusterIPs from `--service-cluster-ip-range`, as kube-apiserver 1.36 allocates them: each
//! allocated address is an IPAddress object of networking.k8s.io named by the address, so a
//! create that finds the name taken is the compare-and-swap that keeps two servers on one etcd
//! from handing out the same address. Dynamic addresses come from the upper band of the range
//! first, from a random start (KEP-3070), leaving the lower band to addresses clients ask for.

use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::sync::Arc;

use serde_json::{Value, json};

use kube_generic_apiserver::registry::store::{Preconditions, Store};
use kube_generic_apiserver::status::ApiError;

/// The label naming an IPAddress's family.
const FAMILY_LABEL: &str = "ipaddress.kubernetes.io/ip-family";
/// The label naming who manages an IPAddress, and its value for the Service allocator.
const MANAGED_BY_LABEL: &str = "ipaddress.kubernetes.io/managed-by";
const MANAGED_BY: &str = "ipallocator.k8s.io";

/// An IP family as a Service names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// `IPv4`.
    V4,
    /// `IPv6`.
    V6,
}

impl Family {
    /// The family's name in a Service (`ipFamilies`) and an IPAddress label.
    pub fn name(self) -> &'static str {
        match self {
            Family::V4 => "IPv4",
            Family::V6 => "IPv6",
        }
    }

    /// The family of an address.
    pub fn of(ip: &IpAddr) -> Family {
        match ip {
            IpAddr::V4(_) => Family::V4,
            IpAddr::V6(_) => Family::V6,
        }
    }
}

/// A Service CIDR and the addresses it hands out: all but the network address (and, in IPv4,
/// the broadcast address).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IpRange {
    family: Family,
    text: String,
    first: u128,
    last: u128,
    /// How many addresses at the bottom of the range are kept for clients that ask for them.
    static_band: u128,
}

impl IpRange {
    /// Parses a CIDR (`10.0.0.0/24`, `fd00:10::/108`).
    pub fn parse(cidr: &str) -> Result<IpRange, String> {
        let bad = || format!("{cidr:?} is not a CIDR (an address, '/', a prefix length)");
        let (addr, bits) = cidr.split_once('/').ok_or_else(bad)?;
        let addr: IpAddr = addr.parse().map_err(|_| bad())?;
        let bits: u32 = bits.parse().map_err(|_| bad())?;
        let (family, width, value) = match addr {
            IpAddr::V4(a) => (Family::V4, 32, u32::from(a) as u128),
            IpAddr::V6(a) => (Family::V6, 128, u128::from(a)),
        };
        if bits > width {
            return Err(bad());
        }
        let host_bits = width - bits;
        let mask = if host_bits == 128 {
            u128::MAX
        } else {
            (1u128 << host_bits) - 1
        };
        let network = value & !mask;
        let broadcast = network | mask;
        let (first, last) = match family {
            Family::V4 => (network + 1, broadcast.saturating_sub(1)),
            Family::V6 => (network + 1, broadcast),
        };
        if last < first {
            return Err(format!("{cidr:?} has no address to allocate"));
        }
        // Kubernetes' calculateRangeOffset: min(max(16, size/16), 256) of the CIDR's size, none
        // for ranges of 16 addresses or fewer.
        let size = if host_bits >= 63 {
            i64::MAX as u128
        } else {
            1u128 << host_bits
        };
        let static_band = if size <= 16 { 0 } else { (size / 16).clamp(16, 256) };
        let text = format!("{}/{bits}", Self::address(family, network));
        Ok(IpRange {
            family,
            text,
            first,
            last,
            static_band,
        })
    }

    /// The range's family.
    pub fn family(&self) -> Family {
        self.family
    }

    /// The first address the range hands out: the `kubernetes` Service's.
    pub fn first(&self) -> IpAddr {
        Self::address(self.family, self.first)
    }

    fn address(family: Family, value: u128) -> IpAddr {
        match family {
            Family::V4 => IpAddr::V4(Ipv4Addr::from(value as u32)),
            Family::V6 => IpAddr::V6(Ipv6Addr::from(value)),
        }
    }

    fn value(ip: &IpAddr) -> u128 {
        match ip {
            IpAddr::V4(a) => u32::from(*a) as u128,
            IpAddr::V6(a) => u128::from(*a),
        }
    }

    /// Whether the range hands out `ip`.
    pub fn contains(&self, ip: &IpAddr) -> bool {
        Family::of(ip) == self.family && (self.first..=self.last).contains(&Self::value(ip))
    }

    /// Every address of the range in the order a dynamic allocation tries them: the upper band
    /// from a random start, wrapping, then the lower band likewise.
    fn candidates(&self) -> impl Iterator<Item = IpAddr> + '_ {
        let split = self.first + self.static_band;
        let band = |low: u128, high: u128| {
            let size = high + 1 - low;
            let start = rand::random::<u128>() % size;
            (0..size).map(move |i| low + (start + i) % size)
        };
        let upper = band(split, self.last);
        let lower = (self.static_band > 0).then(|| band(self.first, split - 1));
        upper
            .chain(lower.into_iter().flatten())
            .map(|v| Self::address(self.family, v))
    }
}

impl fmt::Display for IpRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// Why an address was not allocated.
#[derive(Debug)]
pub enum Refused {
    /// Outside the range (a client asked for it).
    NotInRange,
    /// Another Service holds it.
    Allocated,
    /// Every address is taken.
    Full,
    /// The IPAddress store failed.
    Store(ApiError),
}

impl Refused {
    /// Kubernetes' words for the refusal of `ip` from `range`.
    pub fn message(&self, ip: &str, range: &IpRange) -> String {
        match self {
            Refused::NotInRange => {
                format!("the provided IP ({ip}) is not in the valid range. The range of valid IPs is {range}")
            }
            Refused::Allocated => "provided IP is already allocated".into(),
            Refused::Full => "range is full".into(),
            Refused::Store(e) => e.message.clone(),
        }
    }
}

/// The ClusterIP allocator of one range over the IPAddress store.
pub struct IpAllocator {
    /// The range.
    pub range: IpRange,
    /// networking.k8s.io's IPAddresses.
    pub addresses: Arc<Store>,
    /// The Services, whose deletion through another path (a namespace's, the garbage
    /// collector's) leaves an IPAddress behind that an allocation then reclaims.
    pub services: Arc<Store>,
}

/// The Service an address is for: its namespace and name.
pub type Owner<'a> = (&'a str, &'a str);

impl IpAllocator {
    /// Allocates `ip` for the Service `owner`.
    pub async fn allocate(&self, ip: &IpAddr, owner: Owner<'_>, dry_run: bool) -> Result<(), Refused> {
        if !self.range.contains(ip) {
            return Err(Refused::NotInRange);
        }
        if dry_run {
            return Ok(());
        }
        self.claim(ip, owner).await
    }

    /// Allocates a free address for the Service `owner`.
    pub async fn allocate_next(&self, owner: Owner<'_>, dry_run: bool) -> Result<IpAddr, Refused> {
        if dry_run {
            // As Kubernetes: a dry run does not look for a free address, racy as that would be.
            return Ok(self.range.first());
        }
        for ip in self.range.candidates() {
            match self.claim(&ip, owner).await {
                Ok(()) => return Ok(ip),
                Err(Refused::Allocated) => continue,
                Err(e) => return Err(e),
            }
        }
        Err(Refused::Full)
    }

    /// Creates the IPAddress of `ip`; an existing one whose Service is gone (or holds another
    /// address now) is reclaimed.
    async fn claim(&self, ip: &IpAddr, (namespace, name): Owner<'_>) -> Result<(), Refused> {
        let object = json!({
            "apiVersion": "networking.k8s.io/v1",
            "kind": "IPAddress",
            "metadata": {
                "name": ip.to_string(),
                "labels": {FAMILY_LABEL: self.range.family.name(), MANAGED_BY_LABEL: MANAGED_BY},
            },
            "spec": {"parentRef": {"group": "", "resource": "services", "namespace": namespace, "name": name}},
        });
        match self.addresses.create(None, object.clone(), false).await {
            Ok(_) => Ok(()),
            Err(e) if e.code == 409 => {
                if !self.stale(ip).await {
                    return Err(Refused::Allocated);
                }
                self.release(ip).await;
                match self.addresses.create(None, object, false).await {
                    Ok(_) => Ok(()),
                    Err(e) if e.code == 409 => Err(Refused::Allocated),
                    Err(e) => Err(Refused::Store(e)),
                }
            }
            Err(e) => Err(Refused::Store(e)),
        }
    }

    /// Whether the IPAddress of `ip` names a Service that no longer holds it.
    async fn stale(&self, ip: &IpAddr) -> bool {
        let Ok(address) = self.addresses.get(None, &ip.to_string()).await else {
            return false;
        };
        let parent = &address["spec"]["parentRef"];
        if parent["resource"] != "services" || address["metadata"]["labels"][MANAGED_BY_LABEL] != MANAGED_BY {
            return false;
        }
        let namespace = parent["namespace"].as_str().unwrap_or_default();
        let name = parent["name"].as_str().unwrap_or_default();
        match self.services.get(Some(namespace), name).await {
            Ok(service) => !cluster_ips(&service).contains(&ip.to_string()),
            Err(e) => e.code == 404,
        }
    }

    /// Releases `ip` (deletes its IPAddress); releasing a free address does nothing.
    pub async fn release(&self, ip: &IpAddr) {
        let name = ip.to_string();
        if let Err(e) = self
            .addresses
            .delete(None, &name, &Preconditions::default(), false)
            .await
            && e.code != 404
        {
            tracing::warn!(ip = %name, error = %e.message, "releasing a ClusterIP");
        }
    }
}

/// The addresses of a Service's `spec.clusterIPs` (or `spec.clusterIP`), `None` left out.
pub fn cluster_ips(service: &Value) -> Vec<String> {
    let spec = &service["spec"];
    let mut ips: Vec<String> = spec["clusterIPs"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(str::to_string)
        .collect();
    if ips.is_empty()
        && let Some(ip) = spec["clusterIP"].as_str()
    {
        ips.push(ip.to_string());
    }
    ips.retain(|ip| !ip.is_empty() && ip != "None");
    ips
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_range_hands_out_all_but_its_network_and_broadcast_addresses() {
        let r = IpRange::parse("10.0.0.0/24").unwrap();
        assert_eq!(r.to_string(), "10.0.0.0/24");
        assert_eq!(r.first(), "10.0.0.1".parse::<IpAddr>().unwrap());
        assert!(r.contains(&"10.0.0.254".parse().unwrap()));
        assert!(!r.contains(&"10.0.0.255".parse().unwrap()));
        assert!(!r.contains(&"10.0.0.0".parse().unwrap()));
        assert!(!r.contains(&"fd00::1".parse().unwrap()));
        // A /24's static band is its first 16 addresses: dynamic ones come from above first.
        let first: Vec<IpAddr> = r.candidates().take(238).collect();
        assert!(first.iter().all(|ip| match ip {
            IpAddr::V4(a) => a.octets()[3] >= 17,
            IpAddr::V6(_) => false,
        }));
        let all: std::collections::BTreeSet<IpAddr> = r.candidates().collect();
        assert_eq!(all.len(), 254);
        let v6 = IpRange::parse("fd00:10::5/120").unwrap();
        assert_eq!(v6.to_string(), "fd00:10::/120");
        assert_eq!(v6.family(), Family::V6);
        assert!(v6.contains(&"fd00:10::ff".parse().unwrap()));
        assert!(IpRange::parse("10.0.0.0").is_err());
        assert!(IpRange::parse("10.0.0.0/33").is_err());
        assert!(IpRange::parse("10.0.0.0/32").is_err());
    }
}
