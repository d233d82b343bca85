//! etcd 3.4 as a [`Storage`], through etcd's JSON gateway (`/v3/kv/range`, `/v3/kv/txn`,
//! `/v3/watch`; keys and values base64): the revision is etcd's, every conditional write is one
//! transaction comparing the key's mod revision (compare-and-swap), and a watch streams from a
//! revision with the previous values. The gateway over gRPC needs no protoc or generated client,
//! and reqwest is already the HTTP client here; several endpoints are tried in turn, so a cluster
//! keeps serving when one member is down.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use async_trait::async_trait;
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use bytes::Bytes;
use futures::StreamExt;
use serde_json::{Value, json};
use tokio::sync::mpsc;

use super::{Event, EventType, KeyValue, ListOptions, ListResult, Revision, Storage, StorageError, Watch};

/// How long one unary call may take before the next endpoint is tried.
const CALL_TIMEOUT: Duration = Duration::from_secs(5);

/// An etcd cluster.
pub struct EtcdStorage {
    client: reqwest::Client,
    endpoints: Vec<String>,
    preferred: AtomicUsize,
}

fn b64(s: &[u8]) -> String {
    STANDARD.encode(s)
}

fn unb64(v: &Value) -> Result<Vec<u8>, StorageError> {
    STANDARD
        .decode(v.as_str().unwrap_or(""))
        .map_err(|e| StorageError::Unavailable(format!("etcd sent invalid base64: {e}")))
}

/// etcd writes 64-bit numbers as strings in JSON; absent means zero.
fn num(v: &Value) -> u64 {
    match v {
        Value::String(s) => s.parse().unwrap_or(0),
        Value::Number(n) => n.as_u64().unwrap_or(0),
        _ => 0,
    }
}

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

fn key_value(kv: &Value) -> Result<KeyValue, StorageError> {
    Ok(KeyValue {
        key: String::from_utf8(unb64(&kv["key"])?).map_err(|e| StorageError::Unavailable(e.to_string()))?,
        value: Bytes::from(unb64(&kv["value"])?),
        mod_revision: num(&kv["mod_revision"]),
    })
}

impl EtcdStorage {
    /// A client of the cluster at `endpoints` (`http://127.0.0.1:2379`).
    pub fn new(endpoints: Vec<String>) -> Result<Self, StorageError> {
        if endpoints.is_empty() {
            return Err(StorageError::Unavailable("no etcd endpoint given".into()));
        }
        let client = reqwest::Client::builder()
            .connect_timeout(Duration::from_secs(2))
            .build()
            .map_err(|e| StorageError::Unavailable(e.to_string()))?;
        Ok(EtcdStorage {
            client,
            endpoints: endpoints
                .into_iter()
                .map(|e| e.trim_end_matches('/').to_string())
                .collect(),
            preferred: AtomicUsize::new(0),
        })
    }

    /// POSTs `body` to `path` on the preferred endpoint, then on each other one until one answers.
    async fn call(&self, path: &str, body: &Value) -> Result<Value, StorageError> {
        let start = self.preferred.load(Ordering::Relaxed);
        let mut last = String::new();
        for i in 0..self.endpoints.len() {
            let at = (start + i) % self.endpoints.len();
            let url = format!("{}{path}", self.endpoints[at]);
            let sent = self.client.post(&url).timeout(CALL_TIMEOUT).json(body).send().await;
            match sent {
                Ok(r) if r.status().is_success() => {
                    self.preferred.store(at, Ordering::Relaxed);
                    return r.json().await.map_err(|e| StorageError::Unavailable(e.to_string()));
                }
                Ok(r) => {
                    let status = r.status();
                    let text = r.text().await.unwrap_or_default();
                    // A member without a leader answers 5xx; another member may have one. A 4xx
                    // is etcd refusing the request itself (too large, out of space): its own
                    // message, without the member's address, which is no client's business.
                    if !status.is_server_error() {
                        let message = serde_json::from_str::<Value>(&text)
                            .ok()
                            .and_then(|v| v.get("message").and_then(Value::as_str).map(str::to_string))
                            .unwrap_or(text);
                        return Err(StorageError::Refused(message));
                    }
                    last = format!("{url}: {status}: {text}");
                }
                Err(e) => last = format!("{url}: {e}"),
            }
        }
        Err(StorageError::Unavailable(last))
    }

    /// A transaction: `compare` all hold -> `success`, else `failure`; returns the response.
    async fn txn(&self, compare: Value, success: Value, failure: Value) -> Result<Value, StorageError> {
        self.call(
            "/v3/kv/txn",
            &json!({"compare": compare, "success": success, "failure": failure}),
        )
        .await
    }

    /// The key's current state from a failed transaction's range response.
    fn current(response: &Value) -> Option<Revision> {
        let kvs = response["responses"][0]["response_range"]["kvs"].as_array()?;
        kvs.first().map(|kv| num(&kv["mod_revision"]))
    }
}

#[async_trait]
impl Storage for EtcdStorage {
    async fn create(&self, key: &str, value: Bytes) -> Result<Revision, StorageError> {
        let k = b64(key.as_bytes());
        let r = self
            .txn(
                json!([{"key": k, "target": "CREATE", "result": "EQUAL", "create_revision": "0"}]),
                json!([{"request_put": {"key": k, "value": b64(&value)}}]),
                json!([]),
            )
            .await?;
        if r["succeeded"] != true {
            return Err(StorageError::AlreadyExists(key.to_string()));
        }
        Ok(num(&r["header"]["revision"]))
    }

    async fn get(&self, key: &str) -> Result<Option<KeyValue>, StorageError> {
        let r = self.call("/v3/kv/range", &json!({"key": b64(key.as_bytes())})).await?;
        r["kvs"]
            .as_array()
            .and_then(|kvs| kvs.first())
            .map(key_value)
            .transpose()
    }

    async fn list(&self, prefix: &str, options: &ListOptions) -> Result<ListResult, StorageError> {
        let start = match &options.after {
            // The first key after `after`: the same bytes with a zero byte appended.
            Some(after) => [after.as_bytes(), &[0]].concat(),
            None => prefix.as_bytes().to_vec(),
        };
        let mut body = json!({"key": b64(&start), "range_end": b64(&prefix_end(prefix.as_bytes()))});
        if let Some(limit) = options.limit.filter(|l| *l > 0) {
            body["limit"] = json!(limit.to_string());
        }
        if let Some(at) = options.revision {
            body["revision"] = json!(at.to_string());
        }
        let r = self
            .call("/v3/kv/range", &body)
            .await
            .map_err(|e| match (e, options.revision) {
                (StorageError::Unavailable(m), Some(at)) if m.contains("compacted") => StorageError::Gone {
                    requested: at,
                    oldest: at + 1,
                },
                (StorageError::Unavailable(m), Some(at)) if m.contains("future revision") => {
                    StorageError::TooNew { requested: at }
                }
                (e, _) => e,
            })?;
        let items: Vec<KeyValue> = r["kvs"]
            .as_array()
            .map(|kvs| kvs.iter().map(key_value).collect())
            .transpose()?
            .unwrap_or_default();
        // etcd counts every key in the range, the page's and those after it.
        let remaining = num(&r["count"]).saturating_sub(items.len() as u64);
        Ok(ListResult {
            items,
            revision: options.revision.unwrap_or_else(|| num(&r["header"]["revision"])),
            more: r["more"] == true,
            remaining,
        })
    }

    async fn update(&self, key: &str, value: Bytes, expected: Revision) -> Result<Revision, StorageError> {
        let k = b64(key.as_bytes());
        let r = self
            .txn(
                json!([{"key": k, "target": "MOD", "result": "EQUAL", "mod_revision": expected.to_string()}]),
                json!([{"request_put": {"key": k, "value": b64(&value)}}]),
                json!([{"request_range": {"key": k}}]),
            )
            .await?;
        if r["succeeded"] == true {
            return Ok(num(&r["header"]["revision"]));
        }
        match Self::current(&r) {
            None => Err(StorageError::NotFound(key.to_string())),
            Some(actual) => Err(StorageError::Conflict {
                key: key.to_string(),
                expected,
                actual,
            }),
        }
    }

    async fn delete(&self, key: &str, expected: Option<Revision>) -> Result<(KeyValue, Revision), StorageError> {
        let k = b64(key.as_bytes());
        let compare = match expected {
            Some(rev) => json!([{"key": k, "target": "MOD", "result": "EQUAL", "mod_revision": rev.to_string()}]),
            None => json!([{"key": k, "target": "CREATE", "result": "GREATER", "create_revision": "0"}]),
        };
        let r = self
            .txn(
                compare,
                json!([{"request_delete_range": {"key": k, "prev_kv": true}}]),
                json!([{"request_range": {"key": k}}]),
            )
            .await?;
        if r["succeeded"] == true {
            let prev = &r["responses"][0]["response_delete_range"]["prev_kvs"][0];
            if prev.is_null() {
                return Err(StorageError::NotFound(key.to_string()));
            }
            return Ok((key_value(prev)?, num(&r["header"]["revision"])));
        }
        match (Self::current(&r), expected) {
            (Some(actual), Some(expected)) => Err(StorageError::Conflict {
                key: key.to_string(),
                expected,
                actual,
            }),
            _ => Err(StorageError::NotFound(key.to_string())),
        }
    }

    async fn watch(&self, prefix: &str, after: Revision) -> Result<Watch, StorageError> {
        let body = json!({"create_request": {
            "key": b64(prefix.as_bytes()),
            "range_end": b64(&prefix_end(prefix.as_bytes())),
            "start_revision": (after + 1).to_string(),
            "prev_kv": true,
        }});
        let start = self.preferred.load(Ordering::Relaxed);
        let mut response = None;
        let mut last = String::new();
        for i in 0..self.endpoints.len() {
            let url = format!("{}/v3/watch", self.endpoints[(start + i) % self.endpoints.len()]);
            match self.client.post(&url).json(&body).send().await {
                Ok(r) if r.status().is_success() => {
                    response = Some(r);
                    break;
                }
                Ok(r) => last = format!("{url}: {}", r.status()),
                Err(e) => last = format!("{url}: {e}"),
            }
        }
        let response = response.ok_or(StorageError::Unavailable(last))?;
        let (tx, rx) = mpsc::channel(4096);
        let mut stream = response.bytes_stream();
        // The first message says whether the watch started; a compacted start revision is Gone.
        tokio::spawn(async move {
            let mut buf = Vec::new();
            while let Some(chunk) = stream.next().await {
                let Ok(chunk) = chunk else { return };
                buf.extend_from_slice(&chunk);
                while let Some(end) = buf.iter().position(|b| *b == b'\n') {
                    let line: Vec<u8> = buf.drain(..=end).collect();
                    let Ok(message) = serde_json::from_slice::<Value>(&line) else {
                        continue;
                    };
                    let result = &message["result"];
                    let compacted = num(&result["compact_revision"]);
                    if compacted > 0 {
                        let _ = tx
                            .send(Err(StorageError::Gone {
                                requested: after,
                                oldest: compacted,
                            }))
                            .await;
                        return;
                    }
                    for e in result["events"].as_array().into_iter().flatten() {
                        let event = match (e["type"].as_str(), key_value(&e["kv"])) {
                            (_, Err(err)) => Err(err),
                            (Some("DELETE"), Ok(mut kv)) => {
                                let prev = key_value(&e["prev_kv"]).ok();
                                kv.value = prev.map(|p| p.value).unwrap_or_default();
                                Ok(Event {
                                    kind: EventType::Deleted,
                                    kv,
                                    prev: None,
                                })
                            }
                            (_, Ok(kv)) => {
                                let created = num(&e["kv"]["create_revision"]) == kv.mod_revision;
                                let prev = e.get("prev_kv").and_then(|p| key_value(p).ok()).map(|p| p.value);
                                let kind = if created { EventType::Added } else { EventType::Modified };
                                Ok(Event { kind, kv, prev })
                            }
                        };
                        if tx.send(event).await.is_err() {
                            return;
                        }
                    }
                }
            }
        });
        Ok(rx)
    }

    async fn revision(&self) -> Result<Revision, StorageError> {
        let r = self
            .call("/v3/kv/range", &json!({"key": b64(b"/"), "count_only": true}))
            .await?;
        Ok(num(&r["header"]["revision"]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefix_ends() {
        assert_eq!(prefix_end(b"/registry/"), b"/registry0".to_vec());
        assert_eq!(prefix_end(b"a\xff"), b"b".to_vec());
        assert_eq!(num(&json!("42")), 42);
    }
}
