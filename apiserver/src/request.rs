//! What a request asks for (k8s.io/apiserver's `RequestInfoFactory`): the API group and version,
//! namespace, resource, name and subresource read off the path, and the verb from the method, the
//! name's presence and `?watch=`.

use axum::http::Method;

/// A resource request's parts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RequestInfo {
    /// `get`, `list`, `watch`, `create`, `update`, `patch`, `delete` or `deletecollection`.
    pub verb: &'static str,
    /// The API group (empty for `/api`).
    pub group: String,
    /// The version.
    pub version: String,
    /// The namespace, when the path names one.
    pub namespace: Option<String>,
    /// The resource (plural).
    pub resource: String,
    /// The object's name, when the path names one.
    pub name: Option<String>,
    /// The subresource (`status`, `scale`).
    pub subresource: Option<String>,
}

/// Subresources of a namespace that are not a resource inside it.
const NAMESPACE_SUBRESOURCES: [&str; 2] = ["status", "finalize"];

/// Parses a resource path, or `None` for any other path (discovery, documents, health).
pub fn parse(method: &Method, path: &str, watch_param: bool) -> Option<RequestInfo> {
    // An empty segment (`namespaces//configmaps`) names nothing: dropping it would change the
    // target, so the path serves nothing, as in Kubernetes.
    let parts: Vec<&str> = path.trim_matches('/').split('/').collect();
    if parts.iter().any(|p| p.is_empty()) {
        return None;
    }
    let (group, version, rest) = match parts.as_slice() {
        ["api", version, rest @ ..] => (String::new(), version.to_string(), rest),
        ["apis", group, version, rest @ ..] => (group.to_string(), version.to_string(), rest),
        _ => return None,
    };
    let (watch_prefix, mut rest) = match rest {
        ["watch", r @ ..] => (true, r),
        r => (false, r),
    };
    let mut namespace = None;
    if let ["namespaces", ns, after @ ..] = rest
        && !after.is_empty()
        && !NAMESPACE_SUBRESOURCES.contains(&after[0])
    {
        // `/namespaces/{ns}/<resource>...`: a resource in a namespace. Otherwise the path names
        // a namespace itself (`/namespaces/{name}`, `/namespaces/{name}/status`).
        namespace = Some(ns.to_string());
        rest = after;
    }
    let (resource, name, subresource) = match rest {
        [] => return None,
        [r] => (r.to_string(), None, None),
        [r, n] => (r.to_string(), Some(n.to_string()), None),
        [r, n, s] => (r.to_string(), Some(n.to_string()), Some(s.to_string())),
        _ => return None,
    };
    let verb = match (method.as_str(), name.is_some()) {
        _ if watch_prefix => "watch",
        ("GET" | "HEAD", false) if watch_param => "watch",
        ("GET" | "HEAD", false) => "list",
        ("GET" | "HEAD", true) => "get",
        ("POST", _) => "create",
        ("PUT", _) => "update",
        ("PATCH", _) => "patch",
        ("DELETE", false) => "deletecollection",
        ("DELETE", true) => "delete",
        _ => return None,
    };
    Some(RequestInfo {
        verb,
        group,
        version,
        namespace,
        resource,
        name,
        subresource,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(method: Method, path: &str) -> (String, String, Option<String>, String, Option<String>, Option<String>) {
        let i = parse(&method, path, false).unwrap();
        (
            i.verb.to_string(),
            i.group,
            i.namespace,
            i.resource,
            i.name,
            i.subresource,
        )
    }

    #[test]
    fn paths_read_as_kubernetes_reads_them() {
        let s = |x: &str| Some(x.to_string());
        assert_eq!(
            info(Method::GET, "/apis/apps/v1/namespaces/ns/deployments/web/status"),
            (
                "get".into(),
                "apps".into(),
                s("ns"),
                "deployments".into(),
                s("web"),
                s("status")
            )
        );
        assert_eq!(
            info(Method::GET, "/api/v1/pods"),
            ("list".into(), "".into(), None, "pods".into(), None, None)
        );
        assert_eq!(
            info(Method::DELETE, "/api/v1/namespaces/ns/configmaps"),
            (
                "deletecollection".into(),
                "".into(),
                s("ns"),
                "configmaps".into(),
                None,
                None
            )
        );
        assert_eq!(
            info(Method::GET, "/api/v1/namespaces/ns"),
            ("get".into(), "".into(), None, "namespaces".into(), s("ns"), None)
        );
        assert_eq!(
            info(Method::PUT, "/api/v1/namespaces/ns/status"),
            (
                "update".into(),
                "".into(),
                None,
                "namespaces".into(),
                s("ns"),
                s("status")
            )
        );
        assert_eq!(
            info(Method::GET, "/apis/apps/v1/watch/namespaces/ns/deployments").0,
            "watch"
        );
        assert_eq!(
            parse(&Method::GET, "/apis/apps/v1/deployments", true).unwrap().verb,
            "watch"
        );
        assert!(parse(&Method::GET, "/apis/apps/v1", false).is_none());
        assert!(
            parse(&Method::DELETE, "/api/v1/namespaces//configmaps", false).is_none(),
            "an empty namespace is not the namespace named configmaps"
        );
        assert!(parse(&Method::GET, "/api/v1/namespaces/ns//configmaps", false).is_none());
        assert_eq!(
            info(Method::GET, "/api/v1/namespaces/ns/namespaces").2,
            s("ns"),
            "namespaces inside a namespace: a path the router refuses, not the namespace list"
        );
        assert!(parse(&Method::GET, "/version", false).is_none());
    }
}
