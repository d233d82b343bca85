//! etcd 3.4+ as a [`Storage`], over etcd's v3 gRPC API: one HTTP/2 connection per member (tonic's
//! channel, requests multiplexed on it), unary KV calls, and every watch of the server on one
//! bidirectional Watch stream per member ([`watch`]). The revision is etcd's; every conditional
//! write is one transaction comparing the key's mod revision (compare-and-swap). Calls go to the
//! member that last answered and fail over to the others in turn, so a cluster keeps serving when
//! a member is down. The client is tonic's, generated from etcd's protos into `proto/` and checked
//! in (`hack/update-etcd-proto.sh`), so the server builds without protoc. `https://` members are
//! dialled over TLS (rustls) with the CA and client certificate of [`EtcdTls`]. Keys written with
//! a TTL are attached to leases shared as kube-apiserver shares them ([`lease`]).

mod lease;
mod watch;

use std::future::Future;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use async_trait::async_trait;
use bytes::Bytes;
use tonic::Code;
use tonic::transport::{Certificate, Channel, ClientTlsConfig, Endpoint, Identity};

use super::{KeyValue, ListOptions, ListResult, Revision, Storage, StorageError, Watch};
use proto::etcdserverpb::kv_client::KvClient;
use proto::etcdserverpb::lease_client::LeaseClient;
use proto::etcdserverpb::{
    Compare, DeleteRangeRequest, LeaseGrantRequest, PutRequest, RangeRequest, RequestOp, TxnRequest, TxnResponse,
    compare, request_op, response_op,
};

/// etcd's messages and tonic clients, as hack/update-etcd-proto.sh writes them from the trimmed
/// protos in hack/etcd-proto (public for the benchmark's raw etcd calls).
#[doc(hidden)]
#[allow(clippy::all, missing_docs, rustdoc::all)]
pub mod proto {
    /// etcdserverpb: the KV, Watch and Lease services.
    pub mod etcdserverpb {
        include!("proto/etcdserverpb.rs");
    }
    /// mvccpb: keys, values and events.
    pub mod mvccpb {
        include!("proto/mvccpb.rs");
    }
}

/// How long one unary call may take before the next member is tried.
const CALL_TIMEOUT: Duration = Duration::from_secs(5);

/// Receive windows large enough that a list of 10,000 objects (tens of MB) streams without waiting
/// on HTTP/2 flow control: the default 64 KiB window would cost a round trip per 64 KiB.
const STREAM_WINDOW: u32 = 16 << 20;
const CONNECTION_WINDOW: u32 = 64 << 20;

/// An etcd cluster.
pub struct EtcdStorage {
    members: Vec<Member>,
    preferred: AtomicUsize,
    leases: lease::Leases,
}

/// One member: its address, its connection (made on first use, inside the runtime) and the task
/// that carries its watches.
struct Member {
    url: String,
    endpoint: Endpoint,
    channel: OnceLock<Channel>,
    watches: watch::Mux,
}

impl Member {
    fn channel(&self) -> Channel {
        self.channel.get_or_init(|| self.endpoint.connect_lazy()).clone()
    }
}

fn kv(channel: Channel) -> KvClient<Channel> {
    KvClient::new(channel).max_decoding_message_size(usize::MAX)
}

/// etcd's answer to a put attached to a lease it no longer has (revoked, or expired while the
/// server kept it for reuse).
const LEASE_NOT_FOUND: &str = "requested lease not found";

/// The first key after every key with `prefix` (etcd's range end for a prefix).
fn prefix_end(prefix: &[u8]) -> Vec<u8> {
    let mut end = prefix.to_vec();
    while let Some(last) = end.pop() {
        if last < 0xff {
            end.push(last + 1);
            return end;
        }
    }
    vec![0]
}

fn revision(n: i64) -> Revision {
    n.max(0) as Revision
}

fn key_value(kv: proto::mvccpb::KeyValue) -> Result<KeyValue, StorageError> {
    Ok(KeyValue {
        key: String::from_utf8(kv.key.to_vec()).map_err(|e| StorageError::Unavailable(e.to_string()))?,
        value: kv.value,
        mod_revision: revision(kv.mod_revision),
    })
}

/// Whether another member may answer where this one did not: no connection, no leader, a timeout.
/// Anything else is etcd refusing the request itself (too large, out of space, compacted).
fn retryable(status: &tonic::Status) -> bool {
    matches!(
        status.code(),
        Code::Unavailable | Code::DeadlineExceeded | Code::Cancelled | Code::Unknown | Code::Internal
    )
}

/// A status's message and its causes: a transport error's message alone says only "transport
/// error", where its source says which (a refused connection, a rejected certificate).
fn describe(status: &tonic::Status) -> String {
    let mut text = status.message().to_string();
    let mut cause = std::error::Error::source(status);
    while let Some(e) = cause {
        let more = e.to_string();
        if !text.contains(&more) {
            text = format!("{text}: {more}");
        }
        cause = e.source();
    }
    text
}

fn key_compare(
    key: &[u8],
    target: compare::CompareTarget,
    result: compare::CompareResult,
    at: compare::TargetUnion,
) -> Compare {
    Compare {
        result: result as i32,
        target: target as i32,
        key: Bytes::copy_from_slice(key),
        target_union: Some(at),
        range_end: Bytes::new(),
    }
}

fn op(request: request_op::Request) -> RequestOp {
    RequestOp { request: Some(request) }
}

/// A put of `value` at `key` attached to `lease` (0: none; a put without a lease detaches the key
/// from any it had, so an update without a TTL makes the key permanent).
fn put(key: &[u8], value: &Bytes, lease: i64) -> RequestOp {
    op(request_op::Request::RequestPut(PutRequest {
        key: Bytes::copy_from_slice(key),
        value: value.clone(),
        lease,
        ..PutRequest::default()
    }))
}

fn range_of(key: &[u8]) -> RequestOp {
    op(request_op::Request::RequestRange(RangeRequest {
        key: Bytes::copy_from_slice(key),
        ..RangeRequest::default()
    }))
}

/// The key's current mod revision from a failed transaction's range response.
fn current(response: &TxnResponse) -> Option<Revision> {
    match response.responses.first()?.response.as_ref()? {
        response_op::Response::ResponseRange(r) => r.kvs.first().map(|kv| revision(kv.mod_revision)),
        _ => None,
    }
}

fn header_revision(header: Option<proto::etcdserverpb::ResponseHeader>) -> Revision {
    revision(header.map(|h| h.revision).unwrap_or_default())
}

/// What the server trusts and shows on TLS connections to etcd (kube-apiserver's
/// `--etcd-cafile`, `--etcd-certfile` and `--etcd-keyfile`), as PEM.
#[derive(Clone, Debug, Default)]
pub struct EtcdTls {
    /// The CA certificates that sign etcd's serving certificates.
    pub ca: Vec<u8>,
    /// The client certificate and its private key, for an etcd that asks for one
    /// (`--client-cert-auth`).
    pub identity: Option<(Vec<u8>, Vec<u8>)>,
}

impl EtcdStorage {
    /// A client of the cluster at `endpoints` (`http://127.0.0.1:2379`). Nothing is dialled until
    /// the first call.
    pub fn new(endpoints: Vec<String>) -> Result<Self, StorageError> {
        Self::with_tls(endpoints, None)
    }

    /// A client of the cluster at `endpoints`, `https://` ones over TLS with `tls`.
    pub fn with_tls(endpoints: Vec<String>, tls: Option<EtcdTls>) -> Result<Self, StorageError> {
        if endpoints.is_empty() {
            return Err(StorageError::Unavailable("no etcd endpoint given".into()));
        }
        let tls = tls.map(|tls| {
            let config = ClientTlsConfig::new().ca_certificate(Certificate::from_pem(&tls.ca));
            match tls.identity {
                Some((cert, key)) => config.identity(Identity::from_pem(cert, key)),
                None => config,
            }
        });
        let members = endpoints
            .into_iter()
            .map(|url| {
                let url = url.trim_end_matches('/').to_string();
                let secure = url.starts_with("https://");
                if !secure && !url.starts_with("http://") {
                    return Err(StorageError::Unavailable(format!(
                        "etcd endpoint {url}: give http://host:port or https://host:port"
                    )));
                }
                let mut endpoint = Endpoint::from_shared(url.clone())
                    .map_err(|e| StorageError::Unavailable(format!("etcd endpoint {url}: {e}")))?;
                if secure {
                    let Some(tls) = &tls else {
                        return Err(StorageError::Unavailable(format!(
                            "etcd endpoint {url} is https: give the CA that signs etcd's certificate (--etcd-cafile)"
                        )));
                    };
                    endpoint = endpoint
                        .tls_config(tls.clone())
                        .map_err(|e| StorageError::Unavailable(format!("etcd endpoint {url}: {e}")))?;
                }
                let endpoint = endpoint
                    .connect_timeout(Duration::from_secs(2))
                    .tcp_nodelay(true)
                    .initial_stream_window_size(STREAM_WINDOW)
                    .initial_connection_window_size(CONNECTION_WINDOW)
                    // A member that vanishes without closing the connection (a partition) is found
                    // by keepalive pings instead of waiting on TCP.
                    .http2_keep_alive_interval(Duration::from_secs(10))
                    .keep_alive_timeout(Duration::from_secs(5))
                    .keep_alive_while_idle(true);
                Ok(Member {
                    url,
                    endpoint,
                    channel: OnceLock::new(),
                    watches: watch::Mux::default(),
                })
            })
            .collect::<Result<_, _>>()?;
        Ok(EtcdStorage {
            members,
            preferred: AtomicUsize::new(0),
            leases: lease::Leases::default(),
        })
    }

    /// One unary call on the preferred member's connection, then on each other one until one
    /// answers.
    async fn call<T, F, Fut>(&self, call: F) -> Result<T, StorageError>
    where
        F: Fn(Channel) -> Fut,
        Fut: Future<Output = Result<tonic::Response<T>, tonic::Status>>,
    {
        let start = self.preferred.load(Ordering::Relaxed);
        let mut last = String::new();
        for i in 0..self.members.len() {
            let at = (start + i) % self.members.len();
            let member = &self.members[at];
            match tokio::time::timeout(CALL_TIMEOUT, call(member.channel())).await {
                Ok(Ok(response)) => {
                    self.preferred.store(at, Ordering::Relaxed);
                    return Ok(response.into_inner());
                }
                Ok(Err(status)) if retryable(&status) => last = format!("{}: {}", member.url, describe(&status)),
                // etcd's own words, without the member's address, which is no client's business.
                Ok(Err(status)) => return Err(StorageError::Refused(status.message().to_string())),
                Err(_) => last = format!("{}: no answer within {CALL_TIMEOUT:?}", member.url),
            }
        }
        Err(StorageError::Unavailable(last))
    }

    /// A transaction: `compare` all hold -> `success`, else `failure`.
    async fn txn(
        &self,
        compare: Vec<Compare>,
        success: Vec<RequestOp>,
        failure: Vec<RequestOp>,
    ) -> Result<TxnResponse, StorageError> {
        let request = TxnRequest {
            compare,
            success,
            failure,
        };
        self.call(|channel| {
            let request = request.clone();
            async move { kv(channel).txn(request).await }
        })
        .await
    }

    async fn range(&self, request: RangeRequest) -> Result<proto::etcdserverpb::RangeResponse, StorageError> {
        self.call(|channel| {
            let request = request.clone();
            async move { kv(channel).range(request).await }
        })
        .await
    }

    /// The lease a key that must live `ttl` is attached to (0: none): a shared one, or one
    /// granted now.
    async fn lease(&self, ttl: Option<Duration>) -> Result<i64, StorageError> {
        let Some(ttl) = ttl else {
            return Ok(0);
        };
        let now = Instant::now();
        let seconds = match self.leases.for_ttl(super::ttl_seconds(ttl), now) {
            lease::Lease::Reuse(id) => return Ok(id),
            lease::Lease::Grant(seconds) => seconds,
        };
        let granted = self
            .call(|channel| async move {
                LeaseClient::new(channel)
                    .lease_grant(LeaseGrantRequest { ttl: seconds, id: 0 })
                    .await
            })
            .await?;
        if !granted.error.is_empty() {
            return Err(StorageError::Refused(granted.error));
        }
        self.leases.granted(granted.id, seconds, now);
        Ok(granted.id)
    }

    /// A write attached to the lease for `ttl`, made again with a new lease when etcd no longer
    /// has the shared one.
    async fn with_lease<T, F, Fut>(&self, ttl: Option<Duration>, write: F) -> Result<T, StorageError>
    where
        F: Fn(i64) -> Fut,
        Fut: Future<Output = Result<T, StorageError>>,
    {
        let id = self.lease(ttl).await?;
        match write(id).await {
            Err(StorageError::Refused(m)) if id != 0 && m.contains(LEASE_NOT_FOUND) => {
                self.leases.forget(id);
                write(self.lease(ttl).await?).await
            }
            done => done,
        }
    }
}

#[async_trait]
impl Storage for EtcdStorage {
    async fn create_with_ttl(&self, key: &str, value: Bytes, ttl: Option<Duration>) -> Result<Revision, StorageError> {
        use compare::{CompareResult, CompareTarget, TargetUnion};
        let k = key.as_bytes();
        let r = self
            .with_lease(ttl, |lease| {
                self.txn(
                    vec![key_compare(
                        k,
                        CompareTarget::Create,
                        CompareResult::Equal,
                        TargetUnion::CreateRevision(0),
                    )],
                    vec![put(k, &value, lease)],
                    vec![],
                )
            })
            .await?;
        if !r.succeeded {
            return Err(StorageError::AlreadyExists(key.to_string()));
        }
        Ok(header_revision(r.header))
    }

    async fn get(&self, key: &str) -> Result<Option<KeyValue>, StorageError> {
        let r = self
            .range(RangeRequest {
                key: Bytes::copy_from_slice(key.as_bytes()),
                ..RangeRequest::default()
            })
            .await?;
        r.kvs.into_iter().next().map(key_value).transpose()
    }

    async fn list(&self, prefix: &str, options: &ListOptions) -> Result<ListResult, StorageError> {
        let start = match &options.after {
            // The first key after `after`: the same bytes with a zero byte appended.
            Some(after) => [after.as_bytes(), &[0]].concat(),
            None => prefix.as_bytes().to_vec(),
        };
        let request = RangeRequest {
            key: start.into(),
            range_end: prefix_end(prefix.as_bytes()).into(),
            limit: options.limit.filter(|l| *l > 0).unwrap_or(0) as i64,
            revision: options.revision.unwrap_or(0) as i64,
            ..RangeRequest::default()
        };
        let r = self.range(request).await.map_err(|e| match (e, options.revision) {
            (StorageError::Refused(m), Some(at)) if m.contains("compacted") => StorageError::Gone {
                requested: at,
                oldest: at + 1,
            },
            (StorageError::Refused(m), Some(at)) if m.contains("future revision") => {
                StorageError::TooNew { requested: at }
            }
            (e, _) => e,
        })?;
        let count = revision(r.count);
        let items: Vec<KeyValue> = r.kvs.into_iter().map(key_value).collect::<Result<_, _>>()?;
        Ok(ListResult {
            // etcd counts every key in the range, the page's and those after it.
            remaining: count.saturating_sub(items.len() as u64),
            items,
            revision: options.revision.unwrap_or_else(|| header_revision(r.header)),
            more: r.more,
        })
    }

    async fn update_with_ttl(
        &self,
        key: &str,
        value: Bytes,
        expected: Revision,
        ttl: Option<Duration>,
    ) -> Result<Revision, StorageError> {
        use compare::{CompareResult, CompareTarget, TargetUnion};
        let k = key.as_bytes();
        let r = self
            .with_lease(ttl, |lease| {
                self.txn(
                    vec![key_compare(
                        k,
                        CompareTarget::Mod,
                        CompareResult::Equal,
                        TargetUnion::ModRevision(expected as i64),
                    )],
                    vec![put(k, &value, lease)],
                    vec![range_of(k)],
                )
            })
            .await?;
        if r.succeeded {
            return Ok(header_revision(r.header));
        }
        match current(&r) {
            None => Err(StorageError::NotFound(key.to_string())),
            Some(actual) => Err(StorageError::Conflict {
                key: key.to_string(),
                expected,
                actual,
            }),
        }
    }

    async fn delete(&self, key: &str, expected: Option<Revision>) -> Result<(KeyValue, Revision), StorageError> {
        use compare::{CompareResult, CompareTarget, TargetUnion};
        let k = key.as_bytes();
        let compare = match expected {
            Some(rev) => key_compare(
                k,
                CompareTarget::Mod,
                CompareResult::Equal,
                TargetUnion::ModRevision(rev as i64),
            ),
            None => key_compare(
                k,
                CompareTarget::Create,
                CompareResult::Greater,
                TargetUnion::CreateRevision(0),
            ),
        };
        let delete = request_op::Request::RequestDeleteRange(DeleteRangeRequest {
            key: Bytes::copy_from_slice(k),
            prev_kv: true,
            ..DeleteRangeRequest::default()
        });
        let r = self.txn(vec![compare], vec![op(delete)], vec![range_of(k)]).await?;
        if r.succeeded {
            let at = header_revision(r.header);
            let prev = r.responses.into_iter().next().and_then(|r| match r.response {
                Some(response_op::Response::ResponseDeleteRange(d)) => d.prev_kvs.into_iter().next(),
                _ => None,
            });
            return match prev {
                Some(kv) => Ok((key_value(kv)?, at)),
                None => Err(StorageError::NotFound(key.to_string())),
            };
        }
        match (current(&r), expected) {
            (Some(actual), Some(expected)) => Err(StorageError::Conflict {
                key: key.to_string(),
                expected,
                actual,
            }),
            _ => Err(StorageError::NotFound(key.to_string())),
        }
    }

    async fn watch(&self, prefix: &str, after: Revision) -> Result<Watch, StorageError> {
        let request = proto::etcdserverpb::WatchCreateRequest {
            key: Bytes::copy_from_slice(prefix.as_bytes()),
            range_end: prefix_end(prefix.as_bytes()).into(),
            start_revision: (after + 1) as i64,
            prev_kv: true,
            ..Default::default()
        };
        let start = self.preferred.load(Ordering::Relaxed);
        let mut last = StorageError::Unavailable("no etcd member".into());
        for i in 0..self.members.len() {
            let member = &self.members[(start + i) % self.members.len()];
            match member.watches.create(member, request.clone(), after).await {
                Err(StorageError::Unavailable(m)) => last = StorageError::Unavailable(format!("{}: {m}", member.url)),
                done => return done,
            }
        }
        Err(last)
    }

    async fn revision(&self) -> Result<Revision, StorageError> {
        let r = self
            .range(RangeRequest {
                key: Bytes::from_static(b"/"),
                count_only: true,
                ..RangeRequest::default()
            })
            .await?;
        Ok(header_revision(r.header))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefix_ends() {
        assert_eq!(prefix_end(b"/registry/"), b"/registry0".to_vec());
        assert_eq!(prefix_end(b"a\xff"), b"b".to_vec());
        assert_eq!(prefix_end(b"\xff"), vec![0]);
    }

    #[test]
    fn https_endpoints_need_a_ca() {
        assert!(EtcdStorage::new(vec![]).is_err());
        assert!(EtcdStorage::new(vec!["127.0.0.1:2379".into()]).is_err());
        let https = vec!["https://127.0.0.1:2379".to_string()];
        let refused = EtcdStorage::new(https.clone()).err().unwrap().to_string();
        assert!(refused.contains("--etcd-cafile"), "{refused}");
        assert!(EtcdStorage::new(vec!["http://127.0.0.1:2379/".into()]).is_ok());
    }
}
