//! The resource handlers (k8s.io/apiserver's `endpoints/handlers`): get, list, create, update and
//! patch (delete and watch have files of their own), each calling one capability of the
//! resource's storage with objects converted from the request's version to the storage version
//! and back.

use axum::http::StatusCode;
use axum::response::Response;
use bytes::Bytes;
use serde_json::{Value, json};

use super::scope::Scope;
use crate::admission::Operation;
use crate::convert::FieldValidation;
use crate::endpoints::respond::{self};
use crate::meta;
use crate::patch;
use crate::query::{self, ListFrom};
use crate::status::ApiError;
use crate::stored::Stored;

/// `GET .../{name}`.
pub async fn get(c: &Scope<'_>) -> Result<Response, ApiError> {
    let getter = c.resource.storage.getter().ok_or_else(|| c.not_supported())?;
    // In the storage version, as JSON or protobuf, the object is written from its stored bytes:
    // parsing them into a tree of values and writing that back was half of a GET's CPU.
    if c.answers_stored_bytes()
        && let Some(stored) = getter.get_stored(c.namespace(), c.name()).await?
    {
        let stored = c.as_read(stored)?;
        if !c.negotiated.protobuf {
            return Ok(respond::json_bytes(StatusCode::OK, stored.to_json()?));
        }
        let gvk = c.request_version().with_kind(c.resource.mapping.kind);
        if let Some(body) = c.edges().protobuf_stored(&gvk, &stored)? {
            return Ok(respond::protobuf(StatusCode::OK, body, &[]));
        }
        return c.object(StatusCode::OK, stored.value()?, &[]);
    }
    let obj = getter.get(c.namespace(), c.name()).await?;
    c.object(StatusCode::OK, c.out(obj)?, &[])
}

/// `GET .../<resource>`: a page of the selected objects.
pub async fn list(c: &Scope<'_>) -> Result<Response, ApiError> {
    let lister = c.resource.storage.lister().ok_or_else(|| c.not_supported())?;
    let (labels, fields) = c.selectors()?;
    let from = c.params.list_from()?;
    let (mut after, at) = match &from {
        ListFrom::Continue(revision, key) => (Some(key.clone()), Some(*revision)),
        ListFrom::Exact(revision) => (None, Some(*revision)),
        ListFrom::Latest | ListFrom::NotOlderThan(_) => (None, None),
    };
    // A JSON or protobuf list in the storage version without a field selector is written from
    // the stored bytes; anything else parses each object into a value.
    let spliced = c.answers_stored_bytes() && fields.is_empty();
    let want = c.params.limit;
    let (mut raw, mut parsed) = (Vec::new(), Vec::new());
    let (revision, next, remaining) = loop {
        let limit = want.map(|w| w - raw.len() - parsed.len());
        let page = match lister.list(c.namespace(), after.clone(), limit, at).await {
            Err(e) if e.code == 410 && matches!(from, ListFrom::Continue(..)) => {
                return Err(ApiError::gone(
                    "The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter.",
                ));
            }
            page => page?,
        };
        if let ListFrom::NotOlderThan(wanted) = from
            && page.revision < wanted
        {
            return Err(ApiError::timeout(format!(
                "Too large resource version: {wanted}, current: {}",
                page.revision
            )));
        }
        for obj in page.items {
            if spliced {
                if labels.is_empty() || labels.matches(obj.labels()?.as_ref()) {
                    raw.push(c.as_read(obj)?);
                }
                continue;
            }
            let obj = obj.value()?;
            if labels.matches(meta::labels(&obj)) && fields.matches(&obj) {
                parsed.push(obj);
            }
        }
        match page.next {
            Some(key) if want.is_some_and(|w| raw.len() + parsed.len() < w) => after = Some(key),
            next => break (page.revision, next, page.remaining),
        }
    };
    let mut metadata = json!({"resourceVersion": revision.to_string()});
    if let Some(key) = next {
        metadata["continue"] = json!(query::encode_continue(revision, &key));
        // Only an unfiltered list knows how many objects the rest of it holds.
        if labels.is_empty() && fields.is_empty() {
            metadata["remainingItemCount"] = json!(remaining);
        }
    }
    let list_kind = c
        .resource
        .mapping
        .list_kind
        .map(str::to_string)
        .unwrap_or_else(|| format!("{}List", c.resource.mapping.kind));
    let api_version = c.request_version().api_version();
    if spliced && !c.negotiated.protobuf {
        return spliced_list(&api_version, &list_kind, &metadata, &raw);
    }
    if spliced {
        let list_gvk = c.request_version().with_kind(list_kind.clone());
        let item_gvk = c.request_version().with_kind(c.resource.mapping.kind);
        if let Some(body) = c.edges().protobuf_list(&list_gvk, &item_gvk, &metadata, &raw)? {
            return Ok(respond::protobuf(StatusCode::OK, body, &[]));
        }
        // A kind without a protobuf form (or an item its type does not read): the general path.
        for obj in raw.drain(..) {
            parsed.push(obj.value()?);
        }
    }
    let mut out = Vec::with_capacity(parsed.len());
    let converted = c
        .edges()
        .to_version_all(parsed, &c.storage_version(), &c.request_version())?;
    for mut obj in converted {
        // List items carry no apiVersion and kind of their own, as Kubernetes encodes them.
        if let Some(m) = obj.as_object_mut() {
            m.remove("apiVersion");
            m.remove("kind");
        }
        out.push(obj);
    }
    let list = json!({
        "kind": list_kind,
        "apiVersion": api_version,
        "metadata": metadata,
        "items": out,
    });
    c.list(list)
}

/// A JSON list written around the stored objects' bytes, with the keys in the order the parsed
/// path writes them (sorted).
fn spliced_list(api_version: &str, kind: &str, metadata: &Value, items: &[Stored]) -> Result<Response, ApiError> {
    let size: usize = items.iter().map(|i| i.bytes.len() + 32).sum();
    let mut body = Vec::with_capacity(size + 256);
    body.extend_from_slice(b"{\"apiVersion\":");
    serde_json::to_writer(&mut body, api_version).map_err(|e| ApiError::internal(e.to_string()))?;
    body.extend_from_slice(b",\"items\":[");
    for (index, item) in items.iter().enumerate() {
        if index > 0 {
            body.push(b',');
        }
        item.write_list_item(&mut body)?;
    }
    body.extend_from_slice(b"],\"kind\":");
    serde_json::to_writer(&mut body, kind).map_err(|e| ApiError::internal(e.to_string()))?;
    body.extend_from_slice(b",\"metadata\":");
    serde_json::to_writer(&mut body, metadata).map_err(|e| ApiError::internal(e.to_string()))?;
    body.push(b'}');
    Ok(respond::json_bytes(StatusCode::OK, body))
}

/// `POST .../<resource>`.
pub async fn create(c: &Scope<'_>, body: &Bytes) -> Result<Response, ApiError> {
    let creater = c.resource.storage.creater().ok_or_else(|| c.not_supported())?;
    c.check_field_manager("CreateOptions")?;
    if c.resource.mapping.namespaced() && c.info.path_namespace().is_none() {
        return Err(ApiError::bad_request(
            "a namespaced resource is created in a namespace: POST to .../namespaces/{namespace}/<resource>",
        ));
    }
    let (mut obj, warnings) = c.decode_body(body)?;
    c.admit(Operation::Create, &mut obj).await?;
    c.record(None, &mut obj);
    let created = creater
        .create(&c.context(), c.namespace(), obj, c.params.dry_run)
        .await?;
    c.object(StatusCode::CREATED, c.out(created)?, &warnings)
}

/// `PUT .../{name}`.
pub async fn update(c: &Scope<'_>, body: &Bytes) -> Result<Response, ApiError> {
    let updater = c.resource.storage.updater().ok_or_else(|| c.not_supported())?;
    c.check_field_manager("UpdateOptions")?;
    let (mut obj, warnings) = c.decode_body(body)?;
    if meta::name(&obj) != c.name() {
        return Err(ApiError::bad_request(format!(
            "the name of the object ({}) does not match the name on the URL ({})",
            meta::name(&obj),
            c.name()
        )));
    }
    // The stored object, for what this update changes (ownership only: the write itself is
    // still a compare-and-swap on the client's resourceVersion).
    if let Some(getter) = c.resource.storage.getter()
        && let Ok(current) = getter.get(c.namespace(), c.name()).await
    {
        c.record(Some(&current), &mut obj);
    }
    c.admit(Operation::Update, &mut obj).await?;
    let updated = updater.update(c.namespace(), c.name(), obj, c.params.dry_run).await?;
    c.object(StatusCode::OK, c.out(updated)?, &warnings)
}

/// `PATCH .../{name}`: the patch applies to the object in the request's version.
pub async fn patch(c: &Scope<'_>, body: &Bytes) -> Result<Response, ApiError> {
    let patcher = c.resource.storage.patcher().ok_or_else(|| c.not_supported())?;
    c.check_field_manager("PatchOptions")?;
    let content_type = c
        .headers
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    if content_type.split(';').next().map(str::trim) == Some("application/apply-patch+yaml") {
        return server_side_apply(c, body).await;
    }
    let patch = patch::Patch::parse(content_type, body, c.api.max_body_bytes)?;
    // A custom resource has no patch strategies to merge by: Kubernetes refuses the media type.
    if !c.edges().strategic_merge() && matches!(patch, patch::Patch::Strategic(_)) {
        return Err(ApiError::unsupported_media_type_of(
            "application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml",
        ));
    }
    let (storage, request) = (c.storage_version(), c.request_version());
    let kind = c.resource.kind.clone();
    let versions = c.edges();
    let validation = c.params.field_validation.unwrap_or(FieldValidation::Warn);
    let schema = c.registry.openapi.kind_schema(&kind);
    // The unknown fields of the patched object: warnings under Warn, and under Strict the 422
    // Kubernetes' patcher answers (not the 400 of a create), so they are decoded as warnings.
    let warnings = std::sync::Mutex::new(Vec::new());
    let decode_as = match validation {
        FieldValidation::Strict => FieldValidation::Warn,
        other => other,
    };
    let mutation = |current: &Value| -> Result<Value, ApiError> {
        let mut before = versions.to_version(current.clone(), &storage, &request)?;
        if let Some(m) = before.as_object_mut() {
            m.insert("apiVersion".into(), json!(request.api_version()));
            m.insert("kind".into(), json!(kind.kind));
        }
        let after = patch.apply(&before, schema.as_ref().map(|(d, n)| (*d, n.as_str())))?;
        let decoded = versions.to_storage(&after, &kind, &storage, decode_as)?;
        if validation == FieldValidation::Strict && !decoded.warnings.is_empty() {
            return Err(strict_patch_error(&after, &decoded.warnings));
        }
        let mut stored = decoded.object;
        *warnings.lock().unwrap_or_else(|e| e.into_inner()) = decoded.warnings;
        c.record(Some(current), &mut stored);
        c.mutate(&mut stored)?;
        Ok(stored)
    };
    let patched = patcher
        .patch(c.namespace(), c.name(), None, c.params.dry_run, &mutation)
        .await?;
    let warnings = warnings.into_inner().unwrap_or_else(|e| e.into_inner());
    c.object(StatusCode::OK, c.out(patched)?, &warnings)
}

/// Kubernetes' answer to a patch whose result has unknown fields under `fieldValidation=Strict`:
/// 422 about no kind and no name, at the path `patch`, showing the patched object as Go's JSON
/// encoder writes it (keys sorted, as serde_json's ordered maps write them).
fn strict_patch_error(patched: &Value, unknown: &[String]) -> ApiError {
    let shown = serde_json::to_string(patched).unwrap_or_default();
    let error = kube_apimachinery::validation::FieldError::invalid(
        &kube_apimachinery::validation::Path::ROOT.child("patch"),
        kube_apimachinery::validation::BadValue::String(shown),
        format!("strict decoding error: {}", unknown.join(", ")),
    );
    ApiError::invalid("", "", "", vec![crate::meta::cause(&error)])
}

/// `PATCH` with `application/apply-patch+yaml`: server-side apply by `?fieldManager=` (`server_side_apply.rs`);
/// an object that does not exist yet is created.
async fn server_side_apply(c: &Scope<'_>, body: &Bytes) -> Result<Response, ApiError> {
    let manager = c
        .params
        .field_manager
        .clone()
        .filter(|m| !m.is_empty())
        .ok_or_else(|| {
            ApiError::bad_request(
                "PatchOptions.meta.k8s.io \"\" is invalid: fieldManager: Required value: is required for apply patch",
            )
        })?;
    let kind = c.resource.kind.clone();
    let applied = crate::convert::parse_body(body, &kind)?;
    if meta::name(&applied) != c.name() {
        return Err(ApiError::bad_request(format!(
            "the name of the object ({}) does not match the name on the URL ({})",
            meta::name(&applied),
            c.name()
        )));
    }
    let (storage, request) = (c.storage_version(), c.request_version());
    let api_version = request.api_version();
    let versions = c.edges();
    let validation = c.params.field_validation.unwrap_or(FieldValidation::Strict);
    let schema = c.registry.openapi.kind_schema(&kind);
    let doc = schema.as_ref().map(|(d, _)| *d).unwrap_or(&Value::Null);
    let schemas = crate::strategic::Schemas::new(doc);
    let root = schema.as_ref().and_then(|(_, name)| schemas.named(name));
    let force = c.params.force;
    let getter = c.resource.storage.getter().ok_or_else(|| c.not_supported())?;
    match getter.get(c.namespace(), c.name()).await {
        Ok(_) => {
            let patcher = c.resource.storage.patcher().ok_or_else(|| c.not_supported())?;
            let mutation = |current: &Value| -> Result<Value, ApiError> {
                let mut before = versions.to_version(current.clone(), &storage, &request)?;
                before["apiVersion"] = json!(api_version);
                before["kind"] = json!(kind.kind);
                let after = crate::server_side_apply::apply(
                    Some(&before),
                    &applied,
                    &manager,
                    force,
                    &api_version,
                    &schemas,
                    root,
                )?;
                let mut obj = versions.to_storage(&after, &kind, &storage, validation)?.object;
                c.mutate(&mut obj)?;
                Ok(obj)
            };
            let patched = patcher
                .patch(c.namespace(), c.name(), None, c.params.dry_run, &mutation)
                .await?;
            c.object(StatusCode::OK, c.out(patched)?, &[])
        }
        Err(e) if e.code == 404 => {
            let creater = c.resource.storage.creater().ok_or_else(|| c.not_supported())?;
            let created =
                crate::server_side_apply::apply(None, &applied, &manager, force, &api_version, &schemas, root)?;
            let mut obj = versions.to_storage(&created, &kind, &storage, validation)?.object;
            c.admit(Operation::Create, &mut obj).await?;
            let created = creater
                .create(&c.context(), c.namespace(), obj, c.params.dry_run)
                .await?;
            c.object(StatusCode::CREATED, c.out(created)?, &[])
        }
        Err(e) => Err(e),
    }
}
