//! Watch (`?watch=true` and the `/watch/` paths): a stream of JSON lines
//! `{"type": "ADDED"|"MODIFIED"|"DELETED"|"BOOKMARK"|"ERROR", "object": ...}` from a
//! resourceVersion, with label and field selectors applied to both sides of each change, so an
//! object leaving the selection arrives as DELETED and one entering it as ADDED; a client that
//! asks for Tables gets each object as a Table of one row.

use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use bytes::Bytes;
use kube_apimachinery::GroupVersion;
use serde_json::{Value, json};
use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;

use super::Api;
use crate::endpoints::installer::ApiResource;
use crate::endpoints::scope::Scope;
use crate::meta;
use crate::selector::{FieldSelector, LabelSelector};
use crate::status::ApiError;
use kube_apiserver_storage::{Event, EventType, StorageError};

/// How long a watch without `timeoutSeconds` lasts (Kubernetes' default minimum request timeout).
const DEFAULT_TIMEOUT: Duration = Duration::from_secs(1800);

/// How often a watch that allows bookmarks gets one.
const BOOKMARK_EVERY: Duration = Duration::from_secs(30);

/// Starts a watch and answers with its stream.
pub async fn watch(c: &Scope<'_>, api: Arc<Api>, resource: Arc<ApiResource>) -> Result<Response, ApiError> {
    let watcher = resource
        .storage
        .watcher()
        .ok_or_else(|| ApiError::method_not_supported(resource.mapping.group, &resource.discovery_name(), "watch"))?;
    let selected = selection(c, &resource)?;
    let namespace = c
        .info
        .path_namespace()
        .map(str::to_string)
        .filter(|_| resource.mapping.namespaced());
    let (initial, from) = match c.params.revision()? {
        Some(rev) => (Vec::new(), rev),
        None => current_state(&resource, watcher, namespace.as_deref(), &selected).await?,
    };
    let (tx, rx) = mpsc::channel::<Result<Bytes, std::io::Error>>(64);
    let out = Out {
        request: GroupVersion::from_static(resource.mapping.group, resource.mapping.version),
        // `kubectl get -w` asks for Tables: each event's object is then a Table of its one row.
        table: c
            .negotiated
            .table
            .then(|| api.tables.of(&resource.mapping, resource.subresource)),
        partial: c.negotiated.partial,
        api,
        resource: resource.clone(),
        tx,
    };
    match watcher.watch(namespace.as_deref(), from).await {
        Ok(events) => {
            let timing = Timing {
                timeout: c
                    .params
                    .timeout_seconds
                    .map(Duration::from_secs)
                    .unwrap_or(DEFAULT_TIMEOUT),
                bookmarks: c.params.bookmarks,
            };
            tokio::spawn(out.stream(initial, events, from, timing, selected));
        }
        Err(e) if e.code == 410 => {
            let _ = out.tx.try_send(Ok(line("ERROR", e.to_status())));
        }
        Err(e) => return Err(e),
    }
    let body = Body::from_stream(ReceiverStream::new(rx));
    Ok((
        StatusCode::OK,
        [("content-type", "application/json"), ("transfer-encoding", "chunked")],
        body,
    )
        .into_response())
}

/// Which objects the watch sees: its label and field selectors, and for a single-object watch
/// (`/watch/.../{name}`) that object's name.
fn selection(
    c: &Scope<'_>,
    resource: &ApiResource,
) -> Result<impl Fn(&Value) -> bool + Send + Sync + 'static, ApiError> {
    let labels = LabelSelector::parse(&c.params.label_selector).map_err(ApiError::bad_request)?;
    let gvk = resource.mapping.group_version_kind();
    let fields = FieldSelector::parse(&c.params.field_selector, |f, v| {
        c.api
            .edges(resource)
            .field_label(&gvk, f, v)
            .map_err(|e| format!("field label not supported: {f} ({e})"))
    })
    .map_err(ApiError::bad_request)?;
    let name = c.info.path_name().map(str::to_string);
    Ok(move |obj: &Value| {
        labels.matches(meta::labels(obj)) && fields.matches(obj) && name.as_deref().is_none_or(|n| meta::name(obj) == n)
    })
}

/// Where a watch without resourceVersion starts: the selected objects as they are now (sent as
/// ADDED events) and the revision they were read at.
async fn current_state(
    resource: &ApiResource,
    watcher: &dyn crate::registry::rest::Watcher,
    namespace: Option<&str>,
    selected: &impl Fn(&Value) -> bool,
) -> Result<(Vec<Value>, kube_apiserver_storage::Revision), ApiError> {
    let Some(lister) = resource.storage.lister() else {
        return Ok((Vec::new(), watcher.revision().await?));
    };
    let page = lister.list(namespace, None, None, None).await?;
    let mut initial = Vec::new();
    for obj in &page.items {
        let obj = obj.value()?;
        if selected(&obj) {
            initial.push(obj);
        }
    }
    Ok((initial, page.revision))
}

/// How long a watch lasts and whether it gets bookmarks.
struct Timing {
    timeout: Duration,
    bookmarks: bool,
}

/// Where a watch's events go: converted to the request's version (or a Table of one row) and
/// written as JSON lines.
struct Out {
    api: Arc<Api>,
    resource: Arc<ApiResource>,
    request: GroupVersion,
    table: Option<Arc<dyn crate::table::TableConvertor>>,
    /// Metadata only: each event's object a `PartialObjectMetadata` (kube-rs' `metadata_watcher`).
    partial: Option<crate::endpoints::respond::Partial>,
    tx: mpsc::Sender<Result<Bytes, std::io::Error>>,
}

impl Out {
    /// Sends one event; false once the client is gone.
    async fn send(&self, kind: &str, obj: Value) -> bool {
        let edges = self.api.edges(&self.resource);
        let obj = match edges.to_version(obj, &self.resource.mapping.storage_group_version(), &self.request) {
            Ok(o) => match (&self.table, self.partial) {
                (Some(convertor), _) => {
                    let rv = o["metadata"]["resourceVersion"].clone();
                    crate::table::table(&**convertor, &[o], &rv)
                }
                (None, Some(partial)) => partial.object(&o),
                (None, None) => o,
            },
            Err(e) => e.to_status(),
        };
        self.tx.send(Ok(line(kind, obj))).await.is_ok()
    }

    /// The stream of one watch: the initial objects, then each selected change, bookmarks when
    /// asked, until the client goes, the timeout passes, or the store ends the watch (an ERROR
    /// event: 410 Gone for a revision it no longer has).
    async fn stream(
        self,
        initial: Vec<Value>,
        mut events: kube_apiserver_storage::Watch,
        from: kube_apiserver_storage::Revision,
        timing: Timing,
        selected: impl Fn(&Value) -> bool,
    ) {
        for obj in initial {
            if !self.send("ADDED", obj).await {
                return;
            }
        }
        let deadline = tokio::time::sleep(timing.timeout);
        tokio::pin!(deadline);
        let stopped = self.api.stopped();
        tokio::pin!(stopped);
        let mut ticker = tokio::time::interval(BOOKMARK_EVERY);
        ticker.tick().await;
        let mut last = from;
        loop {
            tokio::select! {
                _ = &mut deadline => return,
                () = &mut stopped => return,
                _ = ticker.tick(), if timing.bookmarks => {
                    let mut mark = json!({"kind": self.resource.mapping.kind, "apiVersion": self.request.api_version(), "metadata": {"resourceVersion": last.to_string()}});
                    if let Some(partial) = self.partial {
                        mark = partial.object(&mark);
                    }
                    if self.tx.send(Ok(line("BOOKMARK", mark))).await.is_err() { return; }
                }
                event = events.recv() => {
                    let Some(event) = event else { return };
                    let event = match event {
                        Ok(e) => e,
                        Err(StorageError::Gone { requested, oldest }) => {
                            let e = ApiError::gone(format!("too old resource version: {requested} ({oldest})"));
                            let _ = self.tx.send(Ok(line("ERROR", e.to_status()))).await;
                            return;
                        }
                        Err(e) => {
                            let _ = self.tx.send(Ok(line("ERROR", ApiError::unavailable(e.to_string()).to_status()))).await;
                            return;
                        }
                    };
                    last = event.kv.mod_revision;
                    let Some((kind, obj)) = classify(&self.resource, &event, &selected) else { continue };
                    if !self.send(kind, obj).await { return; }
                }
            }
        }
    }
}

/// The watch event type and object for one storage event, seen through the selection.
fn classify(
    resource: &ApiResource,
    event: &Event,
    selected: &impl Fn(&Value) -> bool,
) -> Option<(&'static str, Value)> {
    let decode = |bytes: &Bytes| -> Option<Value> {
        let mut v: Value = serde_json::from_slice(bytes).ok()?;
        meta::set_resource_version(&mut v, event.kv.mod_revision);
        Some(v)
    };
    let _ = resource;
    let now = decode(&event.kv.value)?;
    match event.kind {
        EventType::Added => selected(&now).then_some(("ADDED", now)),
        EventType::Deleted => selected(&now).then_some(("DELETED", now)),
        EventType::Modified => {
            let was = event
                .prev
                .as_ref()
                .and_then(decode)
                .map(|p| selected(&p))
                .unwrap_or(true);
            match (was, selected(&now)) {
                (true, true) => Some(("MODIFIED", now)),
                (false, true) => Some(("ADDED", now)),
                (true, false) => Some(("DELETED", now)),
                (false, false) => None,
            }
        }
    }
}

/// One JSON line of the stream.
fn line(kind: &str, object: Value) -> Bytes {
    let mut bytes = serde_json::to_vec(&json!({"type": kind, "object": object})).unwrap_or_default();
    bytes.push(b'\n');
    Bytes::from(bytes)
}
