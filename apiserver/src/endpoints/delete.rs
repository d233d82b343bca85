//! The delete handlers (k8s.io/apiserver's `endpoints/handlers/delete.go`): `DeleteOptions` read
//! from the body or, without one, from the query, validated as Kubernetes validates them, and the
//! answer Kubernetes gives: the deleted object where the kind's strategy returns it (or while
//! finalizers keep the object), else a Success Status naming what went.

use axum::http::StatusCode;
use axum::response::Response;
use bytes::Bytes;
use k8s_openapi::apimachinery::pkg::apis::meta::v1 as meta_v1;
use serde_json::{Value, json};

use crate::endpoints::scope::Scope;
use crate::meta;
use crate::query::Params;
use crate::registry::store::{Deleted, Preconditions};
use crate::status::{ApiError, Cause};
use crate::stored::Stored;

/// The propagation policies Kubernetes knows.
const POLICIES: [&str; 3] = ["Foreground", "Background", "Orphan"];

/// The finalizer of an owner whose dependents are orphaned before it goes (metav1's
/// `FinalizerOrphanDependents`); the garbage collector removes it.
pub const ORPHAN: &str = "orphan";
/// The finalizer of an owner whose dependents are deleted before it goes (metav1's
/// `FinalizerDeleteDependents`); the garbage collector removes it.
pub const FOREGROUND: &str = "foregroundDeletion";

/// What a delete was asked to do (`metav1.DeleteOptions`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DeleteOptions {
    /// The resourceVersion and uid the object must have.
    pub preconditions: Preconditions,
    /// `dryRun: ["All"]`: nothing is deleted.
    pub dry_run: bool,
    /// `propagationPolicy`.
    pub propagation_policy: Option<String>,
    /// `orphanDependents` (deprecated, still honoured by Kubernetes' answer code).
    pub orphan_dependents: Option<bool>,
}

impl DeleteOptions {
    /// The options of a request: its body's when it has one (JSON or protobuf), else the query's,
    /// as kube-apiserver reads them. A dry run asked for in the query is honoured either way: a
    /// client that says dry run in either place must not lose data.
    pub fn read(body: &Bytes, params: &Params) -> Result<DeleteOptions, ApiError> {
        let mut options = if body.iter().all(u8::is_ascii_whitespace) {
            DeleteOptions {
                preconditions: Preconditions::default(),
                dry_run: params.dry_run,
                propagation_policy: params.propagation_policy.clone(),
                orphan_dependents: params.orphan_dependents,
            }
        } else {
            Self::decode(body)?
        };
        options.dry_run |= params.dry_run;
        options.validate()?;
        Ok(options)
    }

    fn decode(body: &Bytes) -> Result<DeleteOptions, ApiError> {
        let bad = |e: &dyn std::fmt::Display| ApiError::bad_request(format!("DeleteOptions: {e}"));
        let options: meta_v1::DeleteOptions = if kube_apimachinery::protobuf::is_protobuf(body) {
            // client-go's typed clients send their DeleteOptions as protobuf, in the envelope of
            // the group-version they talk to.
            let envelope = kube_apimachinery::protobuf::Unknown::decode(body).map_err(|e| bad(&e))?;
            if envelope.kind != "DeleteOptions" {
                return Err(ApiError::bad_request(format!(
                    "the body of a delete is DeleteOptions, not {}",
                    envelope.kind
                )));
            }
            envelope.object().map_err(|e| bad(&e))?
        } else {
            serde_json::from_slice(body).map_err(|e| bad(&e))?
        };
        let dry_run = match options.dry_run.as_deref().unwrap_or_default() {
            [] => false,
            [all] if all == "All" => true,
            other => {
                let cause = Cause {
                    reason: "FieldValueNotSupported",
                    message: format!("Unsupported value: {other:?}: supported values: \"All\""),
                    field: "dryRun".into(),
                };
                return Err(ApiError::invalid("meta.k8s.io", "DeleteOptions", "", vec![cause]));
            }
        };
        let preconditions = options.preconditions.unwrap_or_default();
        let resource_version = match preconditions.resource_version.as_deref() {
            Some(rv) => Some(rv.parse().map_err(|_| {
                ApiError::bad_request(format!("preconditions.resourceVersion \"{rv}\" is not an integer"))
            })?),
            None => None,
        };
        Ok(DeleteOptions {
            preconditions: Preconditions {
                resource_version,
                uid: preconditions.uid,
            },
            dry_run,
            propagation_policy: options.propagation_policy,
            orphan_dependents: options.orphan_dependents,
        })
    }

    /// The finalizer the policy asks the object to keep while the garbage collector handles its
    /// dependents (k8s.io/apiserver's `deletionFinalizersForGarbageCollection`): `orphan` for
    /// Orphan (or the deprecated `orphanDependents: true`), `foregroundDeletion` for Foreground;
    /// none for Background, the default, where the collector deletes dependents after the owner.
    pub fn gc_finalizer(&self) -> Option<&'static str> {
        match (self.propagation_policy.as_deref(), self.orphan_dependents) {
            (Some("Orphan"), _) | (None, Some(true)) => Some(ORPHAN),
            (Some("Foreground"), _) => Some(FOREGROUND),
            _ => None,
        }
    }

    /// apimachinery's `ValidateDeleteOptions`: 422 with its causes.
    fn validate(&self) -> Result<(), ApiError> {
        let mut causes = Vec::new();
        if let (Some(policy), Some(_)) = (&self.propagation_policy, self.orphan_dependents) {
            causes.push(Cause {
                reason: "FieldValueInvalid",
                message: format!(
                    "Invalid value: \"{policy}\": orphanDependents and deletionPropagation cannot be both set"
                ),
                field: "propagationPolicy".into(),
            });
        }
        if let Some(policy) = &self.propagation_policy
            && !POLICIES.contains(&policy.as_str())
        {
            causes.push(Cause {
                reason: "FieldValueNotSupported",
                message: format!(
                    "Unsupported value: \"{policy}\": supported values: \"Foreground\", \"Background\", \"Orphan\", \"nil\""
                ),
                field: "propagationPolicy".into(),
            });
        }
        if causes.is_empty() {
            return Ok(());
        }
        Err(ApiError::invalid("meta.k8s.io", "DeleteOptions", "", causes))
    }
}

/// The Success Status a delete answers for a kind whose strategy does not return the deleted
/// object: its name, group, resource (in `kind`, as Kubernetes fills it) and uid.
fn success(group: &str, resource: &str, obj: &Value) -> Value {
    let mut details = json!({"name": meta::name(obj), "kind": resource});
    if !group.is_empty() {
        details["group"] = json!(group);
    }
    let uid = meta::field(obj, "uid");
    if !uid.is_empty() {
        details["uid"] = json!(uid);
    }
    json!({
        "kind": "Status",
        "apiVersion": "v1",
        "metadata": {},
        "status": "Success",
        "details": details,
    })
}

/// `DELETE .../{name}`: 200 with a Success Status, or with the object where the strategy returns
/// it or finalizers keep it; 202 for an object kept when the client asked for its dependents to go
/// first (`orphanDependents: false`), as Kubernetes answers.
pub async fn delete(c: &Scope<'_>, body: &Bytes) -> Result<Response, ApiError> {
    let deleter = c.resource.storage.graceful_deleter().ok_or_else(|| c.not_supported())?;
    let options = DeleteOptions::read(body, c.params)?;
    if let (Some(finalizer), false) = (options.gc_finalizer(), options.dry_run) {
        keep_for_collector(c, c.namespace(), c.name(), &options, finalizer).await?;
    }
    let deleted = deleter
        .delete(c.namespace(), c.name(), &options.preconditions, options.dry_run)
        .await?;
    match deleted {
        Deleted::Gone(obj) if !deleter.returns_deleted_object() => {
            let mapping = &c.resource.mapping;
            let status = success(mapping.group, mapping.resource, &obj);
            respond_status(c, status)
        }
        Deleted::Gone(obj) => c.object(StatusCode::OK, c.out(obj)?, &[]),
        Deleted::Marked(obj) => {
            let code = if options.orphan_dependents == Some(false) {
                StatusCode::ACCEPTED
            } else {
                StatusCode::OK
            };
            c.object(code, c.out(obj)?, &[])
        }
    }
}

/// Adds the garbage collector's `finalizer` to the object before it is deleted, so the deletion
/// marks it and the collector orphans or deletes its dependents before it goes. An object
/// already being deleted keeps what it has (no finalizer may be added then).
async fn keep_for_collector(
    c: &Scope<'_>,
    namespace: Option<&str>,
    name: &str,
    options: &DeleteOptions,
    finalizer: &str,
) -> Result<(), ApiError> {
    let Some(patcher) = c.resource.storage.patcher() else {
        return Ok(());
    };
    let resource = c.resource.mapping.resource;
    let add = |current: &Value| -> Result<Value, ApiError> {
        options
            .preconditions
            .check_uid(current, c.resource.mapping.group, resource, name)?;
        let mut next = current.clone();
        if !meta::deleting(current) {
            meta::add_finalizer(&mut next, finalizer);
        }
        Ok(next)
    };
    patcher
        .patch(namespace, name, options.preconditions.resource_version, false, &add)
        .await
        .map(drop)
}

/// A Success Status as negotiated: protobuf (meta's own message, not a Scheme kind), JSON or YAML.
fn respond_status(c: &Scope<'_>, status: Value) -> Result<Response, ApiError> {
    if c.negotiated.protobuf {
        let typed: meta_v1::Status = serde_json::from_value(status).map_err(|e| ApiError::internal(e.to_string()))?;
        let body = kube_apimachinery::protobuf::Unknown::wrap("v1", "Status", &typed).encode();
        return Ok(crate::endpoints::respond::protobuf(StatusCode::OK, body, &[]));
    }
    let mut negotiated = c.negotiated;
    negotiated.table = false;
    negotiated.protobuf = false;
    crate::endpoints::respond::object(&negotiated, StatusCode::OK, status, &[], &*c.table())
}

/// `DELETE .../<resource>`: deletes every selected object with the request's options, and answers
/// with the list of them.
pub async fn delete_collection(c: &Scope<'_>, body: &Bytes) -> Result<Response, ApiError> {
    let (Some(_), Some(lister), Some(deleter)) = (
        c.resource.storage.collection_deleter(),
        c.resource.storage.lister(),
        c.resource.storage.graceful_deleter(),
    ) else {
        return Err(c.not_supported());
    };
    let options = DeleteOptions::read(body, c.params)?;
    let (labels, fields) = c.selectors()?;
    let page = lister.list(c.namespace(), None, None, None).await?;
    let mut items = Vec::new();
    let objects = page.items.iter().map(Stored::value).collect::<Result<Vec<_>, _>>()?;
    for obj in objects
        .into_iter()
        .filter(|o| labels.matches(meta::labels(o)) && fields.matches(o))
    {
        let ns = meta::field(&obj, "namespace").to_string();
        let ns = (!ns.is_empty()).then_some(ns.as_str());
        if let (Some(finalizer), false) = (options.gc_finalizer(), options.dry_run) {
            let each = DeleteOptions::default();
            match keep_for_collector(c, ns, meta::name(&obj), &each, finalizer).await {
                Err(e) if e.code == 404 => continue,
                other => other?,
            }
        }
        match deleter
            .delete(ns, meta::name(&obj), &Preconditions::default(), options.dry_run)
            .await
        {
            Ok(Deleted::Gone(o) | Deleted::Marked(o)) => items.push(c.out(o)?),
            // Deleted by someone else in between: nothing left to do.
            Err(e) if e.code == 404 => {}
            Err(e) => return Err(e),
        }
    }
    let list = json!({
        "kind": c.resource.mapping.list_kind.unwrap_or("List"),
        "apiVersion": c.request_version().api_version(),
        "metadata": {"resourceVersion": page.revision.to_string()},
        "items": items,
    });
    c.object(StatusCode::OK, list, &[])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(body: &str, query: &str) -> Result<DeleteOptions, ApiError> {
        DeleteOptions::read(&Bytes::from(body.to_string()), &Params::parse(Some(query)).unwrap())
    }

    #[test]
    fn options_come_from_the_body_or_the_query() {
        let body = r#"{"kind":"DeleteOptions","apiVersion":"v1","dryRun":["All"],"preconditions":{"uid":"u","resourceVersion":"7"}}"#;
        let o = read(body, "").unwrap();
        assert!(o.dry_run, "a dry run in the body is a dry run");
        assert_eq!(o.preconditions.uid.as_deref(), Some("u"));
        assert_eq!(o.preconditions.resource_version, Some(7));
        assert!(read("", "dryRun=All").unwrap().dry_run);
        assert!(read("{}", "dryRun=All").unwrap().dry_run, "the query's dry run is kept");
        assert_eq!(
            read("", "propagationPolicy=Orphan")
                .unwrap()
                .propagation_policy
                .as_deref(),
            Some("Orphan")
        );
    }

    #[test]
    fn invalid_options_are_kubernetes_422() {
        let e = read("", "propagationPolicy=Bogus").unwrap_err();
        assert_eq!((e.code, e.reason), (422, "Invalid"));
        assert_eq!(
            e.message,
            "DeleteOptions.meta.k8s.io \"\" is invalid: propagationPolicy: Unsupported value: \"Bogus\": supported values: \"Foreground\", \"Background\", \"Orphan\", \"nil\""
        );
        let both = read(r#"{"propagationPolicy":"Orphan","orphanDependents":true}"#, "").unwrap_err();
        assert_eq!(both.details.causes[0].field, "propagationPolicy");
        assert_eq!(read(r#"{"dryRun":["Some"]}"#, "").unwrap_err().code, 422);
        assert_eq!(read("{", "").unwrap_err().code, 400);
    }
}
