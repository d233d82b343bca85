//! Kubernetes' network CEL libraries: `ip`, `cidr` and `url`, with the checks and messages of
//! k8s.io/apiserver's `library` package (IPv4-mapped IPv6 addresses and zones refused, URLs
//! read as Go's `url.ParseRequestURI` reads them).

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Arc;

use cel::extractors::This;
use cel::objects::{Key, Map, Opaque};
use cel::{Context, ExecutionError, FunctionContext, Value};

use super::{add, fail, opaque};

/// An IP address.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Ip(IpAddr);

impl Opaque for Ip {
    fn runtime_type_name(&self) -> &str {
        "net.IP"
    }
}

/// A CIDR: an address and a prefix length, the address not necessarily masked.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Cidr {
    addr: IpAddr,
    prefix: u8,
}

impl Opaque for Cidr {
    fn runtime_type_name(&self) -> &str {
        "net.CIDR"
    }
}

/// A URL, in the parts the library exposes.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Url {
    scheme: String,
    host: String,
    path: String,
    query: String,
}

impl Opaque for Url {
    fn runtime_type_name(&self) -> &str {
        "kubernetes.URL"
    }
}

/// `text` as an address the library accepts.
fn parse_ip(text: &str) -> Result<IpAddr, String> {
    if text.contains('%') {
        return Err(format!("IP address {text:?} with zone value is not allowed"));
    }
    let addr: IpAddr = text.parse().map_err(|_| {
        format!(
            "IP Address {text:?} parse error during conversion from string: ParseAddr({text:?}): unable to parse IP"
        )
    })?;
    if let IpAddr::V6(v6) = addr
        && v6.to_ipv4_mapped().is_some()
    {
        return Err(format!("IPv4-mapped IPv6 address {text:?} is not allowed"));
    }
    Ok(addr)
}

/// `text` as a CIDR the library accepts.
fn parse_cidr(text: &str) -> Result<Cidr, String> {
    let bad = || {
        format!("network address parse error during conversion from string: netip.ParsePrefix({text:?}): bad prefix")
    };
    let (addr, bits) = text.split_once('/').ok_or_else(bad)?;
    let addr = parse_ip(addr).map_err(|_| bad())?;
    let most = if addr.is_ipv4() { 32 } else { 128 };
    let prefix: u8 = bits
        .parse()
        .ok()
        .filter(|b| *b <= most && !bits.starts_with('+') && (bits == "0" || !bits.starts_with('0')))
        .ok_or_else(bad)?;
    Ok(Cidr { addr, prefix })
}

impl Cidr {
    /// The address with the bits past the prefix cleared.
    fn masked(&self) -> IpAddr {
        match self.addr {
            IpAddr::V4(a) => {
                let mask = u32::MAX.checked_shl(32 - u32::from(self.prefix)).unwrap_or(0);
                IpAddr::V4((u32::from(a) & mask).into())
            }
            IpAddr::V6(a) => {
                let mask = u128::MAX.checked_shl(128 - u32::from(self.prefix)).unwrap_or(0);
                IpAddr::V6((u128::from(a) & mask).into())
            }
        }
    }

    fn contains(&self, ip: IpAddr) -> bool {
        ip.is_ipv4() == self.addr.is_ipv4()
            && Cidr {
                addr: ip,
                prefix: self.prefix,
            }
            .masked()
                == self.masked()
    }
}

/// Go's `netip.Addr.IsGlobalUnicast`: not unspecified, loopback, multicast, link-local or the
/// IPv4 broadcast address (private addresses count).
fn global_unicast(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(a) => {
            !(a.is_unspecified() || a.is_loopback() || a.is_multicast() || a.is_link_local() || a.is_broadcast())
        }
        IpAddr::V6(a) => !(a.is_unspecified() || a.is_loopback() || a.is_multicast() || link_local_unicast(ip)),
    }
}

fn link_local_unicast(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(a) => a.is_link_local(),
        IpAddr::V6(a) => a.segments()[0] & 0xffc0 == 0xfe80,
    }
}

fn link_local_multicast(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(a) => a.octets()[..3] == [224, 0, 0],
        IpAddr::V6(a) => a.segments()[0] & 0xff0f == 0xff02,
    }
}

/// `text` read as Go's `url.ParseRequestURI` reads it: an absolute URL or an absolute path.
pub(super) fn request_uri(text: &str) -> Result<Url, String> {
    let invalid = || format!("parse {text:?}: invalid URI for request");
    if text.is_empty() {
        return Err(format!("parse {text:?}: empty url"));
    }
    let (rest, query) = text.split_once('?').unwrap_or((text, ""));
    let scheme_end = rest.find(':').filter(|&i| !rest[..i].contains('/'));
    let (scheme, rest) = match scheme_end {
        Some(0) => return Err(format!("parse {text:?}: missing protocol scheme")),
        Some(i) => {
            let scheme = &rest[..i];
            let mut chars = scheme.chars();
            let valid = chars.next().is_some_and(|c| c.is_ascii_alphabetic())
                && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
            if !valid {
                return Err(format!(
                    "parse {text:?}: first path segment in URL cannot contain colon"
                ));
            }
            (scheme.to_ascii_lowercase(), &rest[i + 1..])
        }
        None if rest.starts_with('/') => (String::new(), rest),
        None => return Err(invalid()),
    };
    let (host, path) = match rest.strip_prefix("//") {
        Some(authority) => {
            let end = authority.find('/').unwrap_or(authority.len());
            let host = &authority[..end];
            let host = host.rsplit_once('@').map_or(host, |(_, h)| h);
            (host.to_string(), authority[end..].to_string())
        }
        None => (String::new(), rest.to_string()),
    };
    if host.contains(' ') || path.contains(' ') {
        return Err(format!("parse {text:?}: invalid character \" \" in host name"));
    }
    Ok(Url {
        scheme,
        host,
        path,
        query: query.to_string(),
    })
}

impl Url {
    fn hostname(&self) -> &str {
        if let Some(inner) = self.host.strip_prefix('[') {
            return inner.split(']').next().unwrap_or_default();
        }
        self.host.split(':').next().unwrap_or_default()
    }

    fn port(&self) -> &str {
        let after = match self.host.rfind(']') {
            Some(i) => &self.host[i + 1..],
            None => &self.host,
        };
        after.rsplit_once(':').map_or("", |(_, p)| p)
    }

    /// The query as Go's `url.ParseQuery` decodes it: keys to every value given, in order.
    fn query(&self) -> Value {
        let mut entries: HashMap<Key, Vec<Value>> = HashMap::new();
        for pair in self.query.split('&').filter(|p| !p.is_empty()) {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            entries
                .entry(Key::String(Arc::new(unescape(k))))
                .or_default()
                .push(Value::String(Arc::new(unescape(v))));
        }
        let map = entries
            .into_iter()
            .map(|(k, v)| (k, Value::List(Arc::new(v))))
            .collect();
        Value::Map(Map { map: Arc::new(map) })
    }
}

/// A query component with `+` as space and `%XX` decoded.
fn unescape(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => {
                let hex = |b: u8| (b as char).to_digit(16);
                match (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                    (Some(hi), Some(lo)) => {
                        out.push((hi * 16 + lo) as u8);
                        i += 2;
                    }
                    _ => out.push(b'%'),
                }
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn string(s: impl Into<String>) -> Value {
    Value::String(Arc::new(s.into()))
}

/// The library value `this` as `T`, or the function's type error.
fn this<'a, T: Opaque>(ftx: &FunctionContext, this: &'a Value, what: &str) -> Result<&'a T, ExecutionError> {
    opaque::<T>(this).ok_or_else(|| fail(ftx, format!("{} applies to {what}", ftx.name)))
}

/// An IP given as an `ip` or as text.
fn ip_arg(ftx: &FunctionContext, v: &Value) -> Result<IpAddr, ExecutionError> {
    match v {
        Value::String(s) => parse_ip(s).map_err(|e| fail(ftx, e)),
        other => Ok(this::<Ip>(ftx, other, "an ip")?.0),
    }
}

pub(super) fn register(context: &mut Context<'static, 'static>) {
    // `ip(text)` makes an address; `cidr.ip()` is the CIDR's address.
    add(
        context,
        "ip",
        |ftx: &FunctionContext, This(v): This<Value>| -> Result<Value, ExecutionError> {
            let addr = match &v {
                Value::String(s) => parse_ip(s).map_err(|e| fail(ftx, e))?,
                other => this::<Cidr>(ftx, other, "a cidr")?.addr,
            };
            Ok(Value::Opaque(Arc::new(Ip(addr))))
        },
    );
    add(context, "isIP", |s: Arc<String>| parse_ip(&s).is_ok());
    add(
        context,
        "ip.isCanonical",
        |ftx: &FunctionContext, s: Arc<String>| -> Result<bool, ExecutionError> {
            let addr = parse_ip(&s).map_err(|e| fail(ftx, e))?;
            Ok(addr.to_string() == *s)
        },
    );
    add(
        context,
        "family",
        |ftx: &FunctionContext, This(v): This<Value>| -> Result<i64, ExecutionError> {
            Ok(if this::<Ip>(ftx, &v, "an ip")?.0.is_ipv4() {
                4
            } else {
                6
            })
        },
    );
    type Test = fn(IpAddr) -> bool;
    let tests: [(&str, Test); 5] = [
        ("isUnspecified", |ip| ip.is_unspecified()),
        ("isLoopback", |ip| ip.is_loopback()),
        ("isLinkLocalMulticast", link_local_multicast),
        ("isLinkLocalUnicast", link_local_unicast),
        ("isGlobalUnicast", global_unicast),
    ];
    for (name, test) in tests {
        add(
            context,
            name,
            move |ftx: &FunctionContext, This(v): This<Value>| -> Result<bool, ExecutionError> {
                Ok(test(this::<Ip>(ftx, &v, "an ip")?.0))
            },
        );
    }

    add(
        context,
        "cidr",
        |ftx: &FunctionContext, s: Arc<String>| -> Result<Value, ExecutionError> {
            let cidr = parse_cidr(&s).map_err(|e| fail(ftx, e))?;
            Ok(Value::Opaque(Arc::new(cidr)))
        },
    );
    add(context, "isCIDR", |s: Arc<String>| parse_cidr(&s).is_ok());
    add(
        context,
        "containsIP",
        |ftx: &FunctionContext, This(v): This<Value>, ip: Value| -> Result<bool, ExecutionError> {
            let cidr = this::<Cidr>(ftx, &v, "a cidr")?;
            Ok(cidr.contains(ip_arg(ftx, &ip)?))
        },
    );
    add(
        context,
        "containsCIDR",
        |ftx: &FunctionContext, This(v): This<Value>, other: Value| -> Result<bool, ExecutionError> {
            let cidr = this::<Cidr>(ftx, &v, "a cidr")?;
            let parsed;
            let other = match &other {
                Value::String(s) => {
                    parsed = parse_cidr(s).map_err(|e| fail(ftx, e))?;
                    &parsed
                }
                o => this::<Cidr>(ftx, o, "a cidr")?,
            };
            Ok(other.prefix >= cidr.prefix && cidr.contains(other.addr))
        },
    );
    add(
        context,
        "masked",
        |ftx: &FunctionContext, This(v): This<Value>| -> Result<Value, ExecutionError> {
            let cidr = this::<Cidr>(ftx, &v, "a cidr")?;
            Ok(Value::Opaque(Arc::new(Cidr {
                addr: cidr.masked(),
                prefix: cidr.prefix,
            })))
        },
    );
    add(
        context,
        "prefixLength",
        |ftx: &FunctionContext, This(v): This<Value>| -> Result<i64, ExecutionError> {
            Ok(i64::from(this::<Cidr>(ftx, &v, "a cidr")?.prefix))
        },
    );

    add(
        context,
        "url",
        |ftx: &FunctionContext, s: Arc<String>| -> Result<Value, ExecutionError> {
            let url = request_uri(&s)
                .map_err(|e| fail(ftx, format!("URL parse error during conversion from string: {e}")))?;
            Ok(Value::Opaque(Arc::new(url)))
        },
    );
    add(context, "isURL", |s: Arc<String>| request_uri(&s).is_ok());
    type Part = fn(&Url) -> Value;
    let parts: [(&str, Part); 6] = [
        ("getScheme", |u| string(u.scheme.clone())),
        ("getHost", |u| string(u.host.clone())),
        ("getHostname", |u| string(u.hostname())),
        ("getPort", |u| string(u.port())),
        ("getEscapedPath", |u| string(u.path.clone())),
        ("getQuery", Url::query),
    ];
    for (name, part) in parts {
        add(
            context,
            name,
            move |ftx: &FunctionContext, This(v): This<Value>| -> Result<Value, ExecutionError> {
                Ok(part(this::<Url>(ftx, &v, "a url")?))
            },
        );
    }
}
