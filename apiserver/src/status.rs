//! API errors as Kubernetes sends them: a `metav1.Status` with the HTTP code, a machine-readable
//! reason and details (apimachinery's `api/errors` constructors, by the same names).

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

/// One field-level cause of an Invalid error (`metav1.StatusCause`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cause {
    /// `FieldValueInvalid`, `FieldValueRequired`, `FieldValueNotSupported`, ...
    pub reason: &'static str,
    /// What is wrong.
    pub message: String,
    /// The JSON path of the field (`metadata.name`).
    pub field: String,
}

/// An error response: status code, reason, message and details.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiError {
    /// The HTTP status code.
    pub code: u16,
    /// `NotFound`, `AlreadyExists`, `Conflict`, `Invalid`, `BadRequest`, ...
    pub reason: &'static str,
    /// The human-readable message kubectl prints after `Error from server (<reason>):`.
    pub message: String,
    /// The `details` of the Status (boxed: errors travel in every `Result` of the request path).
    pub details: Box<Details>,
}

/// What a Status says beyond its message.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Details {
    /// The object's name, when the error is about one object.
    pub name: Option<String>,
    /// The group of the resource.
    pub group: Option<String>,
    /// The resource (plural) or kind the details name.
    pub kind: Option<String>,
    /// Per-field causes of an Invalid error.
    pub causes: Vec<Cause>,
    /// Seconds after which a retry may succeed (429 and 503).
    pub retry_after: Option<u64>,
}

impl ApiError {
    fn new(code: u16, reason: &'static str, message: impl Into<String>) -> Self {
        ApiError {
            code,
            reason,
            message: message.into(),
            details: Box::default(),
        }
    }

    fn about(mut self, group: &str, resource: &str, name: &str) -> Self {
        // The core group is the empty one, which Kubernetes' Status omits.
        self.details.group = (!group.is_empty()).then(|| group.to_string());
        self.details.kind = Some(resource.to_string());
        self.details.name = (!name.is_empty()).then(|| name.to_string());
        self
    }

    /// 404: `deployments.apps "web" not found`.
    pub fn not_found(group: &str, resource: &str, name: &str) -> Self {
        Self::new(
            404,
            "NotFound",
            format!("{} \"{name}\" not found", qualified(group, resource)),
        )
        .about(group, resource, name)
    }

    /// 409: `deployments.apps "web" already exists`.
    pub fn already_exists(group: &str, resource: &str, name: &str) -> Self {
        Self::new(
            409,
            "AlreadyExists",
            format!("{} \"{name}\" already exists", qualified(group, resource)),
        )
        .about(group, resource, name)
    }

    /// 409: an update based on a stale object.
    pub fn conflict(group: &str, resource: &str, name: &str, why: &str) -> Self {
        Self::new(
            409,
            "Conflict",
            format!(
                "Operation cannot be fulfilled on {} \"{name}\": {why}",
                qualified(group, resource)
            ),
        )
        .about(group, resource, name)
    }

    /// 409 for a server-side apply that changes fields another manager owns, one
    /// `FieldManagerConflict` cause per field.
    pub fn apply_conflict(message: impl Into<String>, causes: Vec<Cause>) -> Self {
        let mut e = Self::new(409, "Conflict", message);
        e.details.causes = causes;
        e
    }

    /// 422: `Deployment.apps "Web" is invalid: metadata.name: Invalid value: ...`.
    pub fn invalid(group: &str, kind: &str, name: &str, causes: Vec<Cause>) -> Self {
        let list: Vec<String> = causes.iter().map(|c| format!("{}: {}", c.field, c.message)).collect();
        let what = qualified(group, kind);
        let message = match list.as_slice() {
            [one] => format!("{what} \"{name}\" is invalid: {one}"),
            _ => format!("{what} \"{name}\" is invalid: [{}]", list.join(", ")),
        };
        let mut e = Self::new(422, "Invalid", message).about(group, kind, name);
        e.details.causes = causes;
        e
    }

    /// 401, as kube-apiserver answers a request no authenticator recognised.
    pub fn unauthorized() -> Self {
        Self::new(401, "Unauthorized", "Unauthorized")
    }

    /// 400.
    pub fn bad_request(message: impl Into<String>) -> Self {
        Self::new(400, "BadRequest", message)
    }

    /// 422 for a patch that cannot be applied.
    pub fn invalid_patch(message: impl Into<String>) -> Self {
        Self::new(422, "Invalid", message)
    }

    /// 403: the request is understood and refused (a create in a terminating namespace).
    pub fn forbidden(message: impl Into<String>) -> Self {
        Self::new(403, "Forbidden", message)
    }

    /// 403 for a request an authorizer refused: `deployments.apps "web" is forbidden: <why>`.
    pub fn forbidden_resource(group: &str, resource: &str, name: &str, why: &str) -> Self {
        let what = qualified(group, resource);
        let message = if name.is_empty() {
            format!("{what} is forbidden: {why}")
        } else {
            format!("{what} {name:?} is forbidden: {why}")
        };
        Self::new(403, "Forbidden", message).about(group, resource, name)
    }

    /// 405.
    pub fn method_not_supported(group: &str, resource: &str, verb: &str) -> Self {
        Self::new(
            405,
            "MethodNotAllowed",
            format!(
                "{verb} is not supported on resources of kind \"{}\"",
                qualified(group, resource)
            ),
        )
        .about(group, resource, "")
    }

    /// 405 for a method a path does not have (a PUT to a collection).
    pub fn method_not_allowed() -> Self {
        Self::new(
            405,
            "MethodNotAllowed",
            "the server does not allow this method on the requested resource",
        )
    }

    /// 404 for a path that serves nothing.
    pub fn no_route(path: &str) -> Self {
        Self::new(
            404,
            "NotFound",
            format!("the server could not find the requested resource ({path})"),
        )
    }

    /// 406.
    pub fn not_acceptable(accept: &str) -> Self {
        Self::new(
            406,
            "NotAcceptable",
            format!("only the following media types are accepted: application/json, application/yaml (not {accept})"),
        )
    }

    /// 406 for a view that does not fit the request (a list view of one object).
    pub fn not_acceptable_view(message: impl Into<String>) -> Self {
        Self::new(406, "NotAcceptable", message)
    }

    /// 410: the requested resourceVersion is older than the history kept.
    pub fn gone(message: impl Into<String>) -> Self {
        Self::new(410, "Expired", message)
    }

    /// 413.
    pub fn too_large(limit: usize) -> Self {
        Self::new(
            413,
            "RequestEntityTooLarge",
            format!("the request body is larger than {limit} bytes"),
        )
    }

    /// 413 with Kubernetes' `Request entity too large: ...`.
    pub fn entity_too_large(message: impl std::fmt::Display) -> Self {
        Self::new(
            413,
            "RequestEntityTooLarge",
            format!("Request entity too large: {message}"),
        )
    }

    /// 415.
    pub fn unsupported_media_type(content_type: &str) -> Self {
        Self::new(
            415,
            "UnsupportedMediaType",
            format!(
                "the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf (not {content_type})"
            ),
        )
    }

    /// 415 naming the media types the resource accepts instead.
    pub fn unsupported_media_type_of(accepted: &str) -> Self {
        Self::new(
            415,
            "UnsupportedMediaType",
            format!("the body of the request was in an unknown format - accepted media types include: {accepted}"),
        )
    }

    /// 429 with Retry-After.
    pub fn too_many_requests(retry_after: u64) -> Self {
        let mut e = Self::new(
            429,
            "TooManyRequests",
            "the server has received too many requests and has asked us to try again later",
        );
        e.details.retry_after = Some(retry_after);
        e
    }

    /// 500.
    pub fn internal(message: impl Into<String>) -> Self {
        Self::new(
            500,
            "InternalError",
            format!("Internal error occurred: {}", message.into()),
        )
    }

    /// 500 with no reason (`StatusReasonUnknown`): an error Kubernetes has no kind for, such as
    /// etcd's own refusals, passed on in the backend's words.
    pub fn unknown(message: impl Into<String>) -> Self {
        Self::new(500, "", message)
    }

    /// 503: storage unreachable.
    pub fn unavailable(message: impl Into<String>) -> Self {
        let mut e = Self::new(503, "ServiceUnavailable", message);
        e.details.retry_after = Some(1);
        e
    }

    /// 504.
    pub fn timeout(message: impl Into<String>) -> Self {
        Self::new(504, "Timeout", message)
    }

    /// The `metav1.Status` object.
    pub fn to_status(&self) -> Value {
        let mut details = serde_json::Map::new();
        if let Some(n) = &self.details.name {
            details.insert("name".into(), json!(n));
        }
        if let Some(g) = &self.details.group {
            details.insert("group".into(), json!(g));
        }
        if let Some(k) = &self.details.kind {
            details.insert("kind".into(), json!(k));
        }
        if !self.details.causes.is_empty() {
            let causes: Vec<Value> = self
                .details
                .causes
                .iter()
                .map(|c| {
                    // Each member is `omitempty` in Kubernetes' StatusCause.
                    let mut cause = serde_json::Map::new();
                    for (k, v) in [("reason", c.reason), ("message", &c.message), ("field", &c.field)] {
                        if !v.is_empty() {
                            cause.insert(k.into(), json!(v));
                        }
                    }
                    Value::Object(cause)
                })
                .collect();
            details.insert("causes".into(), Value::Array(causes));
        }
        if let Some(s) = self.details.retry_after {
            details.insert("retryAfterSeconds".into(), json!(s));
        }
        let mut status = json!({
            "kind": "Status",
            "apiVersion": "v1",
            "metadata": {},
            "status": "Failure",
            "message": self.message,
            "reason": self.reason,
            "code": self.code,
        });
        // An unknown reason is omitted, as Kubernetes writes it.
        if self.reason.is_empty()
            && let Some(m) = status.as_object_mut()
        {
            m.remove("reason");
        }
        if !details.is_empty() {
            status["details"] = Value::Object(details);
        }
        status
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({}): {}", self.code, self.reason, self.message)
    }
}

impl std::error::Error for ApiError {}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let code = StatusCode::from_u16(self.code).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        let body = serde_json::to_vec(&self.to_status()).unwrap_or_default();
        let mut response = (code, [("content-type", "application/json")], body).into_response();
        if let Some(s) = self.details.retry_after
            && let Ok(v) = s.to_string().parse()
        {
            response.headers_mut().insert("retry-after", v);
        }
        response
    }
}

/// `deployments.apps`, or `pods` for the core group.
pub fn qualified(group: &str, resource: &str) -> String {
    if group.is_empty() {
        resource.to_string()
    } else {
        format!("{resource}.{group}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses_read_as_kubernetes_writes_them() {
        let e = ApiError::not_found("apps", "deployments", "web");
        assert_eq!(e.message, "deployments.apps \"web\" not found");
        assert_eq!(
            e.to_status(),
            json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
                   "message": "deployments.apps \"web\" not found", "reason": "NotFound",
                   "details": {"name": "web", "group": "apps", "kind": "deployments"}, "code": 404})
        );
        let cause = |field: &str| Cause {
            reason: "FieldValueInvalid",
            message: "Invalid value: \"X\": bad".into(),
            field: field.into(),
        };
        let one = ApiError::invalid("", "ConfigMap", "X", vec![cause("metadata.name")]);
        assert_eq!(
            one.to_status()["details"]["group"],
            Value::Null,
            "the core group is omitted"
        );
        assert_eq!(
            one.message,
            "ConfigMap \"X\" is invalid: metadata.name: Invalid value: \"X\": bad"
        );
        let two = ApiError::invalid("apps", "Deployment", "X", vec![cause("a"), cause("b")]);
        assert!(two.message.starts_with("Deployment.apps \"X\" is invalid: [a: "));
        assert_eq!(two.to_status()["details"]["causes"].as_array().map(Vec::len), Some(2));
    }
}
