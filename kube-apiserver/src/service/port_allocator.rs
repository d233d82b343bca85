//! NodePorts from `--service-node-port-range`. What is taken is read from the Services
//! themselves at each allocation, with the ports of writes in flight held in memory until their
//! write lands, so a Service deleted by any path (its own DELETE, its namespace's, the garbage
//! collector) frees its ports at once. Dynamic ports come from the upper band of the range
//! first, from a random start (KEP-3668), leaving the lower band to ports clients ask for.
//!
//! Kubernetes keeps a bitmap in etcd instead; two servers on one etcd could here hand out one
//! port to two Services created in the same instant.

use std::collections::BTreeSet;
use std::fmt;
use std::sync::{Arc, Mutex};

use serde_json::Value;

use super::ip_allocator::Refused;
use kube_generic_apiserver::registry::store::Store;
use kube_generic_apiserver::status::ApiError;

/// A range of ports, both ends included.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PortRange {
    /// The lowest port.
    pub base: i32,
    /// How many ports.
    pub size: i32,
}

impl PortRange {
    /// Parses `30000-32767`, `30000+2767` or a single port, as kube-apiserver's flag does.
    pub fn parse(text: &str) -> Result<PortRange, String> {
        let bad = || format!("{text:?} is not a port range (30000-32767, 30000+2767)");
        let port = |s: &str| -> Result<i32, String> { s.trim().parse::<u16>().map(i32::from).map_err(|_| bad()) };
        let (base, last) = if let Some((low, high)) = text.split_once('-') {
            (port(low)?, port(high)?)
        } else if let Some((low, offset)) = text.split_once('+') {
            let base = port(low)?;
            (base, base + port(offset)?)
        } else {
            let p = port(text)?;
            (p, p)
        };
        if base == 0 || last < base || last > i32::from(u16::MAX) {
            return Err(bad());
        }
        Ok(PortRange {
            base,
            size: last - base + 1,
        })
    }

    /// Whether the range holds `port`.
    pub fn contains(&self, port: i32) -> bool {
        (self.base..self.base + self.size).contains(&port)
    }

    /// How many ports at the bottom are kept for clients that ask for them (Kubernetes'
    /// min(max(16, size/32), 128)).
    fn static_band(&self) -> i32 {
        if self.size <= 16 {
            0
        } else {
            (self.size / 32).clamp(16, 128)
        }
    }

    /// The ports in the order a dynamic allocation tries them.
    fn candidates(&self) -> impl Iterator<Item = i32> {
        let split = self.base + self.static_band();
        let band = |low: i32, high: i32| {
            let size = high + 1 - low;
            let start = rand::random_range(0..size);
            (0..size).map(move |i| low + (start + i) % size)
        };
        let upper = band(split, self.base + self.size - 1);
        let lower = (split > self.base).then(|| band(self.base, split - 1));
        upper.chain(lower.into_iter().flatten())
    }
}

impl fmt::Display for PortRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.base, self.base + self.size - 1)
    }
}

/// The NodePort allocator.
pub struct NodePorts {
    /// The range.
    pub range: PortRange,
    /// The Services, whose ports are taken.
    pub services: Arc<Store>,
    /// The ports of writes not yet stored.
    pending: Mutex<BTreeSet<i32>>,
}

impl NodePorts {
    /// The allocator of `range` over the Services of `services`.
    pub fn new(range: PortRange, services: Arc<Store>) -> NodePorts {
        NodePorts {
            range,
            services,
            pending: Mutex::default(),
        }
    }

    /// Starts allocating for one write: reads which ports the stored Services hold.
    pub async fn begin(&self) -> Result<Reservation<'_>, ApiError> {
        let mut used = BTreeSet::new();
        let page = self.services.list(None, None, None, None).await?;
        for stored in page.items {
            used.extend(node_ports(&stored.value()?));
        }
        Ok(Reservation {
            ports: self,
            used,
            mine: Vec::new(),
        })
    }

    fn pending(&self) -> std::sync::MutexGuard<'_, BTreeSet<i32>> {
        self.pending.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The ports one write allocates, held until it is dropped (after the write is stored or has
/// failed).
pub struct Reservation<'a> {
    ports: &'a NodePorts,
    used: BTreeSet<i32>,
    mine: Vec<i32>,
}

impl Reservation<'_> {
    /// Allocates `port`, which a client asked for.
    pub fn allocate(&mut self, port: i32) -> Result<(), Refused> {
        if !self.ports.range.contains(port) {
            return Err(Refused::NotInRange);
        }
        if self.mine.contains(&port) || !self.take(port) {
            return Err(Refused::Allocated);
        }
        Ok(())
    }

    /// Allocates a free port.
    pub fn allocate_next(&mut self) -> Result<i32, Refused> {
        for port in self.ports.range.candidates() {
            if !self.mine.contains(&port) && self.take(port) {
                return Ok(port);
            }
        }
        Err(Refused::Full)
    }

    fn take(&mut self, port: i32) -> bool {
        if self.used.contains(&port) || !self.ports.pending().insert(port) {
            return false;
        }
        self.mine.push(port);
        true
    }

    /// Kubernetes' words for the refusal of `port`.
    pub fn message(&self, refused: &Refused) -> String {
        match refused {
            Refused::NotInRange => format!(
                "provided port is not in the valid range. The range of valid ports is {}",
                self.ports.range
            ),
            Refused::Allocated => "provided port is already allocated".into(),
            Refused::Full => "range is full".into(),
            Refused::Store(e) => e.message.clone(),
        }
    }
}

impl Drop for Reservation<'_> {
    fn drop(&mut self) {
        let mut pending = self.ports.pending();
        for port in &self.mine {
            pending.remove(port);
        }
    }
}

/// The node ports a Service holds: its ports' `nodePort` and its `healthCheckNodePort`.
pub fn node_ports(service: &Value) -> BTreeSet<i32> {
    let spec = &service["spec"];
    let ports = spec["ports"].as_array().into_iter().flatten();
    ports
        .map(|p| &p["nodePort"])
        .chain([&spec["healthCheckNodePort"]])
        .filter_map(Value::as_i64)
        .filter(|p| *p > 0)
        .map(|p| p as i32)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_parse_as_the_flag_reads_them() {
        let r = PortRange::parse("30000-32767").unwrap();
        assert_eq!((r.base, r.size), (30000, 2768));
        assert_eq!(r.to_string(), "30000-32767");
        assert_eq!(PortRange::parse("30000+2767").unwrap(), r);
        assert_eq!(PortRange::parse("8080").unwrap().size, 1);
        for bad in ["", "a-b", "32767-30000", "0-10", "1-70000"] {
            assert!(PortRange::parse(bad).is_err(), "{bad}");
        }
        // 2768 ports keep their lowest 86 for clients: dynamic ones come from above first.
        assert_eq!(r.static_band(), 86);
        assert!(r.candidates().take(2768 - 86).all(|p| p >= 30086));
        assert_eq!(r.candidates().collect::<BTreeSet<_>>().len(), 2768);
    }
}
