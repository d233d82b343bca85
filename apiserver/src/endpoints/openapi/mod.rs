//! `/openapi/v3` (and from it `/openapi/v2`, [`v2`]): the generated v3 document of each group-version (its schemas) with the `paths` of
//! the routes the installer put up, each operation with Kubernetes' operation id,
//! `x-kubernetes-action`, `x-kubernetes-group-version-kind` and its query parameters. kubectl
//! reads these to learn that the server validates fields itself (`fieldValidation` on PATCH).

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::Uri;
use axum::response::Response;
use serde_json::{Map, Value, json};

use super::Api;
use super::installer::{Action, Installed};
use super::respond::json_response;
use crate::status::ApiError;

/// `GET /openapi/v3`: the index of the documents.
pub async fn v3_index(State(api): State<Arc<Api>>) -> Response {
    json_response(api.registrar.registry().openapi.index())
}

/// `GET /openapi/v2`: every document merged, as kube-apiserver serves swagger 2.0.
pub async fn v2_document(State(api): State<Arc<Api>>, uri: Uri) -> Result<Response, ApiError> {
    let registry = api.registrar.registry();
    match registry.openapi.v2() {
        v2 if v2.is_null() => Err(ApiError::no_route(uri.path())),
        v2 => Ok(json_response(v2.clone())),
    }
}

/// `GET /openapi/v3/{key}`: one group-version's document.
pub async fn v3_document(State(api): State<Arc<Api>>, Path(key): Path<String>, uri: Uri) -> Result<Response, ApiError> {
    api.registrar
        .registry()
        .openapi
        .get(key.trim_end_matches('/'))
        .cloned()
        .map(json_response)
        .ok_or_else(|| ApiError::no_route(uri.path()))
}

/// `docs` merged into `into`: a document already there gains the schemas, others are added.
pub fn merge(into: &mut BTreeMap<String, Value>, docs: &BTreeMap<String, Value>) {
    for (key, doc) in docs {
        match into.get_mut(key) {
            Some(existing) => {
                let schemas = doc.pointer("/components/schemas").and_then(Value::as_object);
                if let (Some(Value::Object(target)), Some(schemas)) =
                    (existing.pointer_mut("/components/schemas"), schemas)
                {
                    for (name, schema) in schemas {
                        target.entry(name.clone()).or_insert_with(|| schema.clone());
                    }
                }
            }
            None => {
                into.insert(key.clone(), doc.clone());
            }
        }
    }
}

pub mod v2;

/// The served documents, keyed by their path below `/openapi/v3/` (`apis/apps/v1`).
#[derive(Default)]
pub struct Documents {
    docs: BTreeMap<String, Value>,
    /// `/openapi/v2`, merged from `docs` once.
    v2: Value,
}

impl Documents {
    /// The generated documents (`generated::openapi_v3_documents()`) parsed, once per server: a
    /// document that does not parse is skipped with an error log.
    pub fn parse(generated: &BTreeMap<&'static str, &'static str>) -> BTreeMap<String, Value> {
        let mut docs = BTreeMap::new();
        for (key, text) in generated {
            let mut doc: Value = match serde_json::from_str(text) {
                Ok(d) => d,
                Err(e) => {
                    tracing::error!(document = key, error = %e, "an OpenAPI v3 document does not parse; it is not served");
                    continue;
                }
            };
            if let Some(m) = doc.as_object_mut() {
                m.remove("x-generated-by");
            }
            docs.insert(key.to_string(), doc);
        }
        docs
    }

    /// The parsed generated documents completed with the installed routes.
    pub fn new(generated: &BTreeMap<String, Value>, installed: &Installed) -> Self {
        let docs: BTreeMap<String, Value> = generated
            .iter()
            .map(|(key, doc)| {
                let mut doc = doc.clone();
                doc["paths"] = Value::Object(paths(&doc, key, installed));
                (key.clone(), doc)
            })
            .collect();
        let v2 = v2::document(docs.values());
        Documents { docs, v2 }
    }

    /// `/openapi/v2`: every document merged into one Swagger 2.0 document.
    pub fn v2(&self) -> &Value {
        &self.v2
    }

    /// `/openapi/v3`: where each document is, with a hash clients cache it by.
    pub fn index(&self) -> Value {
        let paths: Map<String, Value> = self
            .docs
            .iter()
            .map(|(k, d)| {
                (
                    k.clone(),
                    json!({"serverRelativeURL": format!("/openapi/v3/{k}?hash={}", hash(d))}),
                )
            })
            .collect();
        json!({"paths": paths})
    }

    /// One document.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.docs.get(key)
    }

    /// The document of `gvk`'s group-version and the name of the kind's schema in it (what a
    /// strategic merge patch walks).
    pub fn kind_schema(&self, gvk: &kube_apimachinery::GroupVersionKind) -> Option<(&Value, String)> {
        let key = if gvk.group.is_empty() {
            format!("api/{}", gvk.version)
        } else {
            format!("apis/{}/{}", gvk.group, gvk.version)
        };
        let doc = self.docs.get(&key)?;
        let name = schema_of(doc, &gvk.group, &gvk.version, &gvk.kind)?;
        Some((doc, name))
    }
}

fn hash(doc: &Value) -> String {
    let mut h: u64 = 0xcbf29ce484222325;
    for b in doc.to_string().bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x100000001b3);
    }
    format!("{h:016X}")
}

/// The schema name of a kind in `doc` (the one whose `x-kubernetes-group-version-kind` it is).
fn schema_of(doc: &Value, group: &str, version: &str, kind: &str) -> Option<String> {
    let schemas = doc.get("components")?.get("schemas")?.as_object()?;
    schemas.iter().find_map(|(name, s)| {
        let gvks = s.get("x-kubernetes-group-version-kind")?.as_array()?;
        gvks.iter()
            .any(|g| g["group"] == group && g["version"] == version && g["kind"] == kind)
            .then(|| name.clone())
    })
}

fn query(name: &str, description: &str, kind: &str) -> Value {
    json!({"name": name, "in": "query", "description": description, "schema": {"type": kind, "uniqueItems": true}})
}

/// The parameters of an action (the subset of Kubernetes' that this server reads).
fn parameters(a: &Action) -> Vec<Value> {
    let mut p = vec![query(
        "pretty",
        "If 'true', then the output is pretty printed. Defaults to 'false' unless the user-agent indicates a browser or command-line HTTP tool (curl and wget).",
        "string",
    )];
    if a.path.contains("{namespace}") {
        p.push(json!({"name": "namespace", "in": "path", "required": true, "description": "object name and auth scope, such as for teams and projects", "schema": {"type": "string", "uniqueItems": true}}));
    }
    if a.path.contains("{name}") {
        p.push(json!({"name": "name", "in": "path", "required": true, "description": "name of the object", "schema": {"type": "string", "uniqueItems": true}}));
    }
    let writes = matches!(a.verb, "POST" | "PUT" | "PATCH");
    if writes || matches!(a.verb, "DELETE" | "DELETECOLLECTION") {
        p.push(query(
            "dryRun",
            "When present, indicates that modifications should not be persisted. Valid value: All",
            "string",
        ));
    }
    if writes {
        p.push(query(
            "fieldManager",
            "fieldManager is a name associated with the actor or entity that is making these changes.",
            "string",
        ));
        p.push(query("fieldValidation", "fieldValidation instructs the server on how to handle objects in the request containing unknown or duplicate fields. Valid values are: Ignore, Warn (the default), Strict.", "string"));
    }
    if a.verb == "PATCH" {
        p.push(query("force", "Force is going to \"force\" Apply requests.", "boolean"));
    }
    if matches!(a.verb, "DELETE" | "DELETECOLLECTION") {
        for (n, d, t) in [
            (
                "gracePeriodSeconds",
                "The duration in seconds before the object should be deleted. Value must be non-negative integer. The value zero indicates delete immediately.",
                "integer",
            ),
            (
                "orphanDependents",
                "Deprecated: please use the PropagationPolicy, this field will be deprecated in 1.7. Should the dependent objects be orphaned.",
                "boolean",
            ),
            (
                "propagationPolicy",
                "Whether and how garbage collection will be performed. Either this field or OrphanDependents may be set, but not both. Acceptable values are: 'Orphan', 'Background' and 'Foreground'.",
                "string",
            ),
        ] {
            p.push(query(n, d, t));
        }
    }
    if matches!(a.verb, "LIST" | "WATCHLIST" | "WATCH" | "DELETECOLLECTION") {
        for (n, d, t) in [
            (
                "labelSelector",
                "A selector to restrict the list of returned objects by their labels.",
                "string",
            ),
            (
                "fieldSelector",
                "A selector to restrict the list of returned objects by their fields.",
                "string",
            ),
            (
                "limit",
                "limit is a maximum number of responses to return for a list call.",
                "integer",
            ),
            (
                "continue",
                "The continue option should be set when retrieving more results from the server.",
                "string",
            ),
            (
                "resourceVersion",
                "resourceVersion sets a constraint on what resource versions a request may be served from.",
                "string",
            ),
            (
                "resourceVersionMatch",
                "resourceVersionMatch determines how resourceVersion is applied to list calls.",
                "string",
            ),
            ("timeoutSeconds", "Timeout for the list/watch call.", "integer"),
            (
                "watch",
                "Watch for changes to the described resources and return them as a stream of add, update, and remove notifications.",
                "boolean",
            ),
            (
                "allowWatchBookmarks",
                "allowWatchBookmarks requests watch events with type \"BOOKMARK\".",
                "boolean",
            ),
        ] {
            p.push(query(n, d, t));
        }
    }
    p
}

/// The `paths` of one group-version document.
fn paths(doc: &Value, key: &str, installed: &Installed) -> Map<String, Value> {
    let mut paths = Map::new();
    for (gv, resources) in &installed.resources {
        let gv_key = if gv.group.is_empty() {
            format!("api/{}", gv.version)
        } else {
            format!("apis/{}/{}", gv.group, gv.version)
        };
        if gv_key != key {
            continue;
        }
        // The group-version's discovery document, which Kubernetes publishes beside its resources.
        let list = "io.k8s.apimachinery.pkg.apis.meta.v1.APIResourceList";
        let content = match doc.pointer(&format!("/components/schemas/{list}")) {
            Some(_) => json!({"application/json": {"schema": {"$ref": format!("#/components/schemas/{list}")}}}),
            None => json!({"application/json": {}}),
        };
        let op_id = format!(
            "get{}{}APIResources",
            crate::endpoints::installer::group_camel(&gv.group),
            crate::endpoints::installer::capitalize(&gv.version)
        );
        paths.insert(
            format!("/{gv_key}/"),
            json!({"get": {
                "description": "get available resources",
                "operationId": op_id,
                "responses": {"200": {"description": "OK", "content": content}, "401": {"description": "Unauthorized"}},
            }}),
        );
        for r in resources {
            for a in &r.actions {
                let method = match a.verb {
                    "LIST" | "GET" | "WATCH" | "WATCHLIST" => "get",
                    "POST" => "post",
                    "PUT" => "put",
                    "PATCH" => "patch",
                    _ => "delete",
                };
                let schema = schema_of(doc, &a.kind.group, &a.kind.version, &a.kind.kind);
                let response_schema = match (a.verb, &schema) {
                    ("LIST", Some(s)) => {
                        schema_of(doc, &a.kind.group, &a.kind.version, &format!("{}List", a.kind.kind))
                            .unwrap_or_else(|| s.clone())
                    }
                    (_, Some(s)) => s.clone(),
                    (_, None) => String::new(),
                };
                let content = if response_schema.is_empty() {
                    json!({"application/json": {}})
                } else {
                    json!({"application/json": {"schema": {"$ref": format!("#/components/schemas/{response_schema}")}}})
                };
                let mut op = json!({
                    "operationId": a.operation_id,
                    "x-kubernetes-action": a.verb.to_lowercase(),
                    "x-kubernetes-group-version-kind": {"group": a.kind.group, "version": a.kind.version, "kind": a.kind.kind},
                    "parameters": parameters(a),
                    "responses": {"200": {"description": "OK", "content": content}, "401": {"description": "Unauthorized"}},
                });
                if let (Some(s), "POST" | "PUT") = (&schema, a.verb) {
                    op["requestBody"] = json!({"content": {"*/*": {"schema": {"$ref": format!("#/components/schemas/{s}")}}}, "required": true});
                }
                if matches!(a.verb, "DELETE" | "DELETECOLLECTION")
                    && doc
                        .pointer("/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions")
                        .is_some()
                {
                    op["requestBody"] = json!({"content": {"*/*": {"schema": {"$ref": "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions"}}}});
                }
                if a.verb == "PATCH" {
                    op["requestBody"] = json!({"content": {
                        "application/json-patch+json": {"schema": {"type": "object"}},
                        "application/merge-patch+json": {"schema": {"type": "object"}},
                        "application/strategic-merge-patch+json": {"schema": {"type": "object"}},
                        "application/apply-patch+yaml": {"schema": {"type": "object"}},
                    }, "required": true});
                }
                let entry = paths.entry(a.path.clone()).or_insert_with(|| json!({}));
                entry[method] = op;
            }
        }
    }
    paths
}
