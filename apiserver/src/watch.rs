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
use runtime::GroupVersion;
use serde_json::{Value, json};
use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;

use crate::handlers::Call;
use crate::installer::ApiResource;
use crate::registry::meta;
use crate::selector::{FieldSelector, LabelSelector};
use crate::server::Server;
use crate::status::ApiError;
use crate::storage::{Event, EventType, StorageError};

/// How long a watch without `timeoutSeconds` lasts (Kubernetes' default minimum request timeout).
const DEFAULT_TIMEOUT: Duration = Duration::from_secs(1800);

/// How often a watch that allows bookmarks gets one.
const BOOKMARK_EVERY: Duration = Duration::from_secs(30);

/// Starts a watch and answers with its stream.
pub async fn watch(c: &Call<'_>, server: Arc<Server>, resource: Arc<ApiResource>) -> Result<Response, ApiError> {
    let watcher = resource
        .storage
        .watcher()
        .ok_or_else(|| ApiError::method_not_supported(resource.mapping.group, &resource.discovery_name(), "watch"))?;
    let lister = resource.storage.lister();
    let labels = LabelSelector::parse(&c.params.label_selector).map_err(ApiError::bad_request)?;
    let gvk = resource.mapping.group_version_kind();
    let fields = FieldSelector::parse(&c.params.field_selector, |f, v| {
        server
            .versions
            .scheme()
            .convert_field_label(&gvk, f, v)
            .map_err(|e| format!("field label not supported: {f} ({e})"))
    })
    .map_err(ApiError::bad_request)?;
    // The name of a single-object watch (`/watch/.../{name}`) selects that object.
    let name = c.info.name.clone();
    let namespace = c.info.namespace.clone().filter(|_| resource.mapping.namespaced());
    let start = c.params.revision()?;
    let (tx, rx) = mpsc::channel::<Result<Bytes, std::io::Error>>(64);
    let selected = move |obj: &Value| {
        labels.matches(meta::labels(obj)) && fields.matches(obj) && name.as_deref().is_none_or(|n| meta::name(obj) == n)
    };
    // Without a resourceVersion, a watch starts with the current state as ADDED events.
    let mut initial = Vec::new();
    let from = match start {
        Some(rev) => rev,
        None => match lister {
            Some(lister) => {
                let page = lister.list(namespace.as_deref(), None, None, None).await?;
                for obj in &page.items {
                    let obj = obj.value()?;
                    if selected(&obj) {
                        initial.push(obj);
                    }
                }
                page.revision
            }
            None => watcher.revision().await?,
        },
    };
    let timeout = c
        .params
        .timeout_seconds
        .map(Duration::from_secs)
        .unwrap_or(DEFAULT_TIMEOUT);
    let bookmarks = c.params.bookmarks;
    let request = GroupVersion::from_static(resource.mapping.group, resource.mapping.version);
    let events = match watcher.watch(namespace.as_deref(), from).await {
        Ok(events) => Some(events),
        Err(e) if e.code == 410 => {
            let _ = tx.try_send(Ok(line("ERROR", e.to_status())));
            None
        }
        Err(e) => return Err(e),
    };
    // `kubectl get -w` asks for Tables: each event's object is then a Table of its one row.
    let table = c.negotiated.table.then(|| server.table(&resource));
    if let Some(mut events) = events {
        let resource = resource.clone();
        tokio::spawn(async move {
            let send = |kind: &str, obj: Value| {
                let server = &server;
                let resource = &resource;
                let request = &request;
                let tx = &tx;
                let table = &table;
                let kind = kind.to_string();
                async move {
                    let obj = match server
                        .versions
                        .to_version(obj, &resource.mapping.storage_group_version(), request)
                    {
                        Ok(o) => match table {
                            Some(convertor) => {
                                let rv = o["metadata"]["resourceVersion"].clone();
                                crate::table::table(&**convertor, &[o], &rv)
                            }
                            None => o,
                        },
                        Err(e) => e.to_status(),
                    };
                    tx.send(Ok(line(&kind, obj))).await.is_ok()
                }
            };
            for obj in initial {
                if !send("ADDED", obj).await {
                    return;
                }
            }
            let deadline = tokio::time::sleep(timeout);
            tokio::pin!(deadline);
            let mut ticker = tokio::time::interval(BOOKMARK_EVERY);
            ticker.tick().await;
            let mut last = from;
            loop {
                tokio::select! {
                    _ = &mut deadline => return,
                    _ = ticker.tick(), if bookmarks => {
                        let mark = json!({"kind": resource.mapping.kind, "apiVersion": request.api_version(), "metadata": {"resourceVersion": last.to_string()}});
                        if tx.send(Ok(line("BOOKMARK", mark))).await.is_err() { return; }
                    }
                    event = events.recv() => {
                        let Some(event) = event else { return };
                        let event = match event {
                            Ok(e) => e,
                            Err(StorageError::Gone { requested, oldest }) => {
                                let e = ApiError::gone(format!("too old resource version: {requested} ({oldest})"));
                                let _ = tx.send(Ok(line("ERROR", e.to_status()))).await;
                                return;
                            }
                            Err(e) => {
                                let _ = tx.send(Ok(line("ERROR", ApiError::unavailable(e.to_string()).to_status()))).await;
                                return;
                            }
                        };
                        last = event.kv.mod_revision;
                        let Some((kind, obj)) = classify(&resource, &event, &selected) else { continue };
                        if !send(kind, obj).await { return; }
                    }
                }
            }
        });
    }
    let body = Body::from_stream(ReceiverStream::new(rx));
    Ok((
        StatusCode::OK,
        [("content-type", "application/json"), ("transfer-encoding", "chunked")],
        body,
    )
        .into_response())
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
