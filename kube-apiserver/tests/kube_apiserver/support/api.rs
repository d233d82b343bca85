//! A JSON client of the sample server for the HTTP tests: it creates namespace `ns` and sends
//! bodies with a content type, answering the status and the parsed body; and reads watch events.

use reqwest::{Client, StatusCode};
use serde_json::{Value, json};

/// A client of one running server.
pub struct Api {
    /// The server's URL.
    pub url: String,
    /// The HTTP client.
    pub client: Client,
}

impl Api {
    /// A server on the embedded store, with namespace `ns`.
    pub async fn new() -> Api {
        Self::on(super::start()).await
    }

    /// A client of `server`, which creates nothing on it.
    pub fn bare(server: super::Running) -> Api {
        Api {
            url: server.url,
            client: Client::new(),
        }
    }

    /// A client of `server`, which gets namespace `ns`.
    pub async fn on(server: super::Running) -> Api {
        let api = Self::bare(server);
        let ns = json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "ns"}});
        assert_eq!(
            api.send("POST", "/api/v1/namespaces", "application/json", ns.to_string())
                .await
                .0,
            StatusCode::CREATED
        );
        api
    }

    /// Sends `body` as `content_type`.
    pub async fn send(&self, method: &str, path: &str, content_type: &str, body: String) -> (StatusCode, Value) {
        let method = reqwest::Method::from_bytes(method.as_bytes()).unwrap();
        let r = self
            .client
            .request(method, format!("{}{path}", self.url))
            .header("content-type", content_type)
            .body(body)
            .send()
            .await
            .unwrap();
        let code = r.status();
        let text = r.text().await.unwrap();
        (code, serde_json::from_str(&text).unwrap_or(Value::String(text)))
    }

    /// A watch of `path` from `resource_version`, open.
    pub async fn watch(&self, path: &str, resource_version: &str) -> reqwest::Response {
        self.client
            .get(format!(
                "{}{path}?watch=true&resourceVersion={resource_version}",
                self.url
            ))
            .send()
            .await
            .unwrap()
    }

    /// A GET accepting `accept` (a Table, aggregated discovery), its body parsed.
    pub async fn get_as(&self, path: &str, accept: &str) -> Value {
        self.client
            .get(format!("{}{path}", self.url))
            .header("accept", accept)
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap()
    }

    /// A GET.
    pub async fn get(&self, path: &str) -> (StatusCode, Value) {
        self.send("GET", path, "application/json", String::new()).await
    }
}

/// The first `n` events of a watch response (JSON lines), each within 10 s of the last.
pub async fn events(stream: &mut reqwest::Response, n: usize) -> Vec<Value> {
    let mut events = Vec::new();
    let mut buf = Vec::new();
    while events.len() < n {
        let chunk = tokio::time::timeout(std::time::Duration::from_secs(10), stream.chunk())
            .await
            .expect("events within 10 s")
            .unwrap()
            .expect("the watch stays open");
        buf.extend_from_slice(&chunk);
        while let Some(end) = buf.iter().position(|b| *b == b'\n') {
            let line: Vec<u8> = buf.drain(..=end).collect();
            events.push(serde_json::from_slice(&line).unwrap());
        }
    }
    events
}
