//! What a handler knows of one request (k8s.io/apiserver's `RequestScope`): the resource the path
//! names and its version edges, the query, the negotiated answer, the user, and what the
//! endpoints of the server share ([`Api`]), never the server itself.

use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use bytes::Bytes;
use kube_apimachinery::GroupVersion;
use serde_json::Value;

use super::Api;
use super::installer::ApiResource;
use super::registrar::Registry;
use super::respond::{self, Negotiated};
use crate::admission::{Attributes, Operation};
use crate::convert::{Edges, FieldValidation};
use crate::meta;
use crate::query::Params;
use crate::registry::rest::Context;
use crate::request::RequestInfo;
use crate::selector::{FieldSelector, LabelSelector};
use crate::status::ApiError;
use crate::stored::Stored;

/// Everything a handler needs about one request.
pub struct Scope<'a> {
    /// What the endpoints of the server share.
    pub api: &'a Api,
    /// What the server serves, as the request found it.
    pub registry: &'a Registry,
    /// The path's parts.
    pub info: &'a RequestInfo,
    /// The resource the path names.
    pub resource: &'a ApiResource,
    /// The query.
    pub params: &'a Params,
    /// The request headers.
    pub headers: &'a HeaderMap,
    /// How to answer.
    pub negotiated: Negotiated,
    /// Who asks.
    pub user: crate::authentication::UserInfo,
}

impl Scope<'_> {
    pub(crate) fn namespace(&self) -> Option<&str> {
        self.info
            .path_namespace()
            .filter(|_| self.resource.mapping.namespaced())
    }

    /// Whether the route carries a kind of its own (`/scale` speaks autoscaling/v1 Scale).
    pub(super) fn own_kind(&self) -> bool {
        self.resource.kind.kind != self.resource.mapping.kind
    }

    pub(crate) fn request_version(&self) -> GroupVersion {
        if self.own_kind() {
            return self.resource.kind.group_version();
        }
        GroupVersion::from_static(self.resource.mapping.group, self.resource.mapping.version)
    }

    pub(super) fn storage_version(&self) -> GroupVersion {
        if self.own_kind() {
            return self.resource.kind.group_version();
        }
        self.resource.mapping.storage_group_version()
    }

    /// The version edges of the resource: its own (a custom resource's) or the Scheme's.
    pub(crate) fn edges(&self) -> &dyn Edges {
        self.api.edges(self.resource)
    }

    /// A stored object in the request's version.
    pub(crate) fn out(&self, stored: Value) -> Result<Value, ApiError> {
        self.edges()
            .to_version(stored, &self.storage_version(), &self.request_version())
    }

    /// Whether the answer can be written from stored bytes: JSON or protobuf in the storage
    /// version, not a Table, a metadata view, YAML or indented JSON.
    pub(super) fn answers_stored_bytes(&self) -> bool {
        !self.negotiated.table
            && !self.negotiated.pretty
            && self.negotiated.partial.is_none()
            && !self.negotiated.yaml
            && self.storage_version() == self.request_version()
    }

    /// A stored object in its stored version as a read answers it: its bytes, or, where the
    /// edges change what reads return, the bytes of what they return.
    pub(super) fn as_read(&self, stored: Stored) -> Result<Stored, ApiError> {
        if self.edges().reads_stored_bytes(stored.revision) {
            return Ok(stored);
        }
        let value: Value = serde_json::from_slice(&stored.bytes).map_err(|e| ApiError::internal(e.to_string()))?;
        let read = self.out(value)?;
        let bytes = serde_json::to_vec(&read).map_err(|e| ApiError::internal(e.to_string()))?;
        Ok(Stored {
            bytes: bytes.into(),
            revision: stored.revision,
        })
    }

    /// One object as negotiated: protobuf when the client prefers it and the kind has a protobuf
    /// form, else JSON, YAML or a Table.
    pub(crate) fn object(&self, code: StatusCode, obj: Value, warnings: &[String]) -> Result<Response, ApiError> {
        if let Some(body) = self.protobuf(&obj)? {
            return Ok(respond::protobuf(code, body, warnings));
        }
        respond::object(&self.negotiated, code, obj, warnings, &*self.table())
    }

    /// A list as negotiated, as [`Scope::object`] answers.
    pub(super) fn list(&self, list: Value) -> Result<Response, ApiError> {
        if let Some(body) = self.protobuf(&list)? {
            return Ok(respond::protobuf(StatusCode::OK, body, &[]));
        }
        respond::list(&self.negotiated, list, &*self.table())
    }

    /// The protobuf body of `value`, when the client asked for protobuf and its kind has one.
    pub(super) fn protobuf(&self, value: &Value) -> Result<Option<Vec<u8>>, ApiError> {
        if !self.negotiated.protobuf {
            return Ok(None);
        }
        self.edges().protobuf(value)
    }

    /// The resource's table convertor (its own, or the default).
    pub(crate) fn table(&self) -> std::sync::Arc<dyn crate::table::TableConvertor> {
        self.api.tables.of(&self.resource.mapping, self.resource.subresource)
    }

    /// What a storage call knows of the request beyond the object.
    pub fn context(&self) -> Context<'_> {
        Context {
            user: &self.user,
            name: self.info.path_name(),
        }
    }

    pub(crate) fn name(&self) -> &str {
        self.info.path_name().unwrap_or("")
    }

    /// Records a write that is not an apply in managedFields (`server_side_apply::record_update`): of the
    /// object, all but its status when `/status` writes that; of `/status`, the status only; of
    /// a Scale, its spec (the scale storage moves that onto the object's replicas).
    pub(super) fn record(&self, before: Option<&Value>, after: &mut Value) {
        let written = match self.resource.subresource {
            None if self.resource.mapping.subresources.iter().any(|s| s.name == "status") => {
                crate::server_side_apply::Written::AllButStatus
            }
            None => crate::server_side_apply::Written::Whole,
            Some("status") => crate::server_side_apply::Written::Status,
            Some("scale") => crate::server_side_apply::Written::AllButStatus,
            Some(_) => return,
        };
        let agent = self
            .headers
            .get("user-agent")
            .and_then(|v| v.to_str().ok())
            .unwrap_or("");
        let manager = crate::server_side_apply::manager_of(self.params.field_manager.as_deref(), agent);
        let kind = &self.resource.kind;
        let schema = self.registry.openapi.kind_schema(kind);
        let doc = schema.as_ref().map(|(d, _)| *d).unwrap_or(&Value::Null);
        let schemas = crate::strategic::Schemas::new(doc);
        let root = schema.as_ref().and_then(|(_, name)| schemas.named(name));
        let api_version = self.request_version().api_version();
        crate::server_side_apply::record_update(before, after, &manager, &api_version, written, &schemas, root);
    }

    /// The request's admission attributes for a write of `obj`.
    pub(super) fn attributes<'a>(&'a self, operation: Operation, name: &'a str) -> Attributes<'a> {
        Attributes {
            operation,
            mapping: &self.resource.mapping,
            subresource: self.resource.subresource,
            kind: &self.resource.kind,
            namespace: self.namespace(),
            name,
            user: &self.user,
        }
    }

    /// Runs both admission chains on `obj`.
    pub(super) async fn admit(&self, operation: Operation, obj: &mut Value) -> Result<(), ApiError> {
        let name = meta::name(obj).to_string();
        self.api.admission.admit(&self.attributes(operation, &name), obj).await
    }

    /// Runs the mutating chain on an updated `obj` (patches, which cannot wait for validation).
    pub(super) fn mutate(&self, obj: &mut Value) -> Result<(), ApiError> {
        let name = meta::name(obj).to_string();
        self.api
            .admission
            .mutate(&self.attributes(Operation::Update, &name), obj)
    }

    pub(crate) fn not_supported(&self) -> ApiError {
        ApiError::method_not_supported(
            self.resource.mapping.group,
            &self.resource.discovery_name(),
            &self.info.verb,
        )
    }

    /// `?fieldManager=` checked as apimachinery checks it: 422 on the write's options kind.
    pub(super) fn check_field_manager(&self, options_kind: &str) -> Result<(), ApiError> {
        let manager = self.params.field_manager.as_deref().unwrap_or_default();
        let errors = meta::field_manager_errors(manager, &kube_apimachinery::validation::Path::new("fieldManager"));
        if errors.is_empty() {
            return Ok(());
        }
        let causes = errors.iter().map(meta::cause).collect();
        Err(ApiError::invalid("meta.k8s.io", options_kind, "", causes))
    }

    /// The body as an object in the storage version, checked against the path.
    pub(super) fn decode_body(&self, body: &Bytes) -> Result<(Value, Vec<String>), ApiError> {
        let kind = &self.resource.kind;
        let validation = self.params.field_validation.unwrap_or(FieldValidation::Warn);
        let decoded = self
            .edges()
            .decode_body(body, kind, &self.storage_version(), validation)?;
        let body_ns = meta::field(&decoded.object, "namespace");
        if let Some(ns) = self.namespace()
            && !body_ns.is_empty()
            && body_ns != ns
        {
            return Err(ApiError::bad_request(format!(
                "the namespace of the provided object does not match the namespace sent on the request ({body_ns} != {ns})"
            )));
        }
        Ok((decoded.object, decoded.warnings))
    }

    pub(crate) fn selectors(&self) -> Result<(LabelSelector, FieldSelector), ApiError> {
        let labels = LabelSelector::parse(&self.params.label_selector).map_err(ApiError::bad_request)?;
        let edges = self.edges();
        let gvk = self.resource.mapping.group_version_kind();
        let fields = FieldSelector::parse(&self.params.field_selector, |f, v| {
            edges
                .field_label(&gvk, f, v)
                .map_err(|e| format!("field label not supported: {f} ({e})"))
        })
        .map_err(ApiError::bad_request)?;
        Ok((labels, fields))
    }
}
