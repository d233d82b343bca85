//! What a request asks to do, read once from its method, path and query as k8s.io/apiserver's
//! `RequestInfoFactory` reads it: a resource request (verb, API group, version, namespace,
//! resource, subresource, name) under `/api` and `/apis`, or a non-resource request (a path and
//! the lower-case method) for everything else, discovery included. A filter puts it in the
//! request's extensions before authentication; authorization, audit, impersonation and the
//! routes read it from there.

/// A request's facts, as authorizers, audit and the routes read them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RequestInfo {
    /// Whether the request is about API resources (else a non-resource path).
    pub resource_request: bool,
    /// The path, as given.
    pub path: String,
    /// `get`, `list`, `watch`, `create`, `update`, `patch`, `delete`, `deletecollection`, `proxy`;
    /// for a non-resource request the lower-case HTTP method.
    pub verb: String,
    /// The API group (empty: the core group).
    pub api_group: String,
    /// The API version.
    pub api_version: String,
    /// The namespace, where the request names one.
    pub namespace: String,
    /// The resource.
    pub resource: String,
    /// The subresource (`status`, `scale`).
    pub subresource: String,
    /// The object's name, where the request names one: in the path, or for a list or watch in a
    /// `metadata.name` field selector (what authorizers see, as Kubernetes gives it them).
    pub name: String,
    /// Whether the path names a namespace the resource is inside (`/namespaces/{ns}/<resource>`),
    /// not a namespace itself (`/namespaces/{ns}`, `/namespaces/{ns}/status`).
    pub namespace_scoped: bool,
    /// The path's segments from the resource on (Go's `Parts`): `[resource]`,
    /// `[resource, name]` or `[resource, name, subresource]`, more for paths no route serves.
    pub parts: Vec<String>,
}

/// Subresources of a namespace, which stay under the `namespaces` resource.
const NAMESPACE_SUBRESOURCES: &[&str] = &["status", "finalize"];

/// A boolean query parameter as Go's `strconv.ParseBool` reads it (an empty value is true).
pub fn parse_bool(v: &str) -> Option<bool> {
    match v {
        "" | "1" | "t" | "T" | "true" | "True" | "TRUE" => Some(true),
        "0" | "f" | "F" | "false" | "False" | "FALSE" => Some(false),
        _ => None,
    }
}

impl RequestInfo {
    /// The request `method path?query` as Kubernetes reads it.
    /// The path is read decoded, as Go's `URL.Path` holds it: `clusterroles/system%3Aadmin`
    /// names `system:admin`, and an encoded `/` (`%2F`) splits segments as a written one does.
    pub fn new(method: &str, path: &str, query: Option<&str>) -> RequestInfo {
        let decoded = percent_encoding::percent_decode_str(path).decode_utf8_lossy();
        let path: &str = &decoded;
        let non_resource = || RequestInfo {
            resource_request: false,
            path: path.to_string(),
            verb: method.to_ascii_lowercase(),
            ..RequestInfo::default()
        };
        let mut parts: Vec<&str> = path.trim_matches('/').split('/').collect();
        let (group, rest) = match parts.first() {
            Some(&"api") if parts.len() >= 2 => (String::new(), 2),
            Some(&"apis") if parts.len() >= 3 => (parts[1].to_string(), 3),
            _ => return non_resource(),
        };
        let version = parts[rest - 1].to_string();
        parts.drain(..rest);
        // `/api/v1` and `/apis/apps/v1` are discovery: non-resource requests.
        if parts.is_empty() || parts == [""] {
            return non_resource();
        }
        let mut info = RequestInfo {
            resource_request: true,
            path: path.to_string(),
            api_group: group,
            api_version: version,
            ..RequestInfo::default()
        };
        let query_pairs = || form_urlencoded::parse(query.unwrap_or_default().as_bytes());
        if parts[0] == "watch" || parts[0] == "proxy" {
            if parts.len() < 2 {
                return non_resource();
            }
            info.verb = parts[0].to_string();
            parts.remove(0);
        } else {
            info.verb = match method {
                "POST" => "create",
                "GET" | "HEAD" => "get",
                "PUT" => "update",
                "PATCH" => "patch",
                "DELETE" => "delete",
                _ => "",
            }
            .to_string();
        }
        if parts[0] == "namespaces" && parts.len() > 1 {
            info.namespace = parts[1].to_string();
            if parts.len() > 2 && !NAMESPACE_SUBRESOURCES.contains(&parts[2]) {
                parts.drain(..2);
                info.namespace_scoped = true;
            }
        }
        if parts.len() >= 3 && info.verb != "proxy" {
            info.subresource = parts[2].to_string();
        }
        if parts.len() >= 2 {
            info.name = parts[1].to_string();
        }
        info.resource = parts[0].to_string();
        info.parts = parts.iter().map(|p| p.to_string()).collect();
        if info.name.is_empty() && info.verb == "get" {
            let watch = query_pairs().any(|(k, v)| k == "watch" && parse_bool(&v) == Some(true));
            info.verb = if watch { "watch" } else { "list" }.to_string();
            // A list or watch of one name by field selector is about that name.
            for (k, v) in query_pairs() {
                if k == "fieldSelector"
                    && let Some(name) = v
                        .strip_prefix("metadata.name=")
                        .or_else(|| v.strip_prefix("metadata.name=="))
                    && !name.contains([',', '/', '%'])
                    && !name.is_empty()
                    && name != "."
                    && name != ".."
                {
                    info.name = name.to_string();
                }
            }
        }
        if info.name.is_empty() && info.verb == "delete" {
            info.verb = "deletecollection".into();
        }
        info
    }

    /// The namespace the resource is inside, as the path names it (not a namespace the path
    /// is about: `/namespaces/{ns}` names none).
    pub fn path_namespace(&self) -> Option<&str> {
        Some(self.namespace.as_str()).filter(|_| self.namespace_scoped)
    }

    /// The object's name as the path gives it (never a field selector's).
    pub fn path_name(&self) -> Option<&str> {
        self.parts.get(1).map(String::as_str)
    }

    /// The subresource the path names, if any.
    pub fn path_subresource(&self) -> Option<&str> {
        Some(self.subresource.as_str()).filter(|s| !s.is_empty())
    }

    /// Whether a resource route can serve the path: `/api/<v>` or `/apis/<g>/<v>`, then a
    /// resource, its name and a subresource at most, no empty segment between, and a verb.
    pub fn routable(&self) -> bool {
        self.resource_request
            && (1..=3).contains(&self.parts.len())
            && !self.path.trim_matches('/').split('/').any(str::is_empty)
            && !matches!(self.verb.as_str(), "" | "proxy")
    }
}

#[cfg(test)]
mod tests {
    use super::RequestInfo;

    fn info(method: &str, uri: &str) -> RequestInfo {
        let (path, query) = uri.split_once('?').map_or((uri, None), |(p, q)| (p, Some(q)));
        RequestInfo::new(method, path, query)
    }

    fn summary(i: &RequestInfo) -> String {
        format!(
            "{} {}/{} ns={} {}/{} name={}",
            i.verb, i.api_group, i.api_version, i.namespace, i.resource, i.subresource, i.name
        )
    }

    #[test]
    fn paths_are_read_as_kubernetes_reads_them() {
        let cases = [
            ("GET", "/api/v1/namespaces/t/pods", "list /v1 ns=t pods/ name="),
            (
                "GET",
                "/api/v1/namespaces/t/pods?watch=true",
                "watch /v1 ns=t pods/ name=",
            ),
            ("GET", "/api/v1/watch/namespaces/t/pods", "watch /v1 ns=t pods/ name="),
            (
                "GET",
                "/apis/apps/v1/namespaces/t/deployments/web",
                "get apps/v1 ns=t deployments/ name=web",
            ),
            (
                "PUT",
                "/apis/apps/v1/namespaces/t/deployments/web/scale",
                "update apps/v1 ns=t deployments/scale name=web",
            ),
            (
                "PATCH",
                "/apis/apps/v1/namespaces/t/deployments/web/status",
                "patch apps/v1 ns=t deployments/status name=web",
            ),
            (
                "DELETE",
                "/api/v1/namespaces/t/pods",
                "deletecollection /v1 ns=t pods/ name=",
            ),
            ("POST", "/api/v1/namespaces", "create /v1 ns= namespaces/ name="),
            ("GET", "/api/v1/namespaces/t", "get /v1 ns=t namespaces/ name=t"),
            (
                "PUT",
                "/api/v1/namespaces/t/finalize",
                "update /v1 ns=t namespaces/finalize name=t",
            ),
            (
                "GET",
                "/api/v1/nodes?fieldSelector=metadata.name%3Dn1",
                "list /v1 ns= nodes/ name=n1",
            ),
        ];
        for (method, uri, want) in cases {
            let i = info(method, uri);
            assert!(i.resource_request, "{uri}");
            assert_eq!(summary(&i), want, "{method} {uri}");
        }
        for (method, uri, verb) in [
            ("GET", "/apis/apps/v1", "get"),
            ("GET", "/apis/apps/v1/", "get"),
            ("GET", "/healthz", "get"),
            ("POST", "/api", "post"),
        ] {
            let i = info(method, uri);
            assert!(!i.resource_request, "{uri}");
            assert_eq!(i.verb, verb);
        }
    }

    #[test]
    fn paths_are_read_decoded() {
        let i = info(
            "GET",
            "/apis/rbac.authorization.k8s.io/v1/clusterroles/system%3Aaggregate-to-admin",
        );
        assert_eq!(i.name, "system:aggregate-to-admin");
        assert_eq!(
            i.path,
            "/apis/rbac.authorization.k8s.io/v1/clusterroles/system:aggregate-to-admin"
        );
        let i = info("GET", "/api/v1/namespaces/a%2Fb/pods");
        assert_eq!((i.namespace.as_str(), i.resource.as_str()), ("a", "b"));
        assert_eq!(info("GET", "/api/v1/configmaps%3F").resource, "configmaps?");
    }

    #[test]
    fn routes_serve_only_the_paths_kubernetes_installs() {
        let routable = |method: &str, uri: &str| info(method, uri).routable();
        assert!(routable("GET", "/apis/apps/v1/namespaces/ns/deployments/web/status"));
        assert!(routable("GET", "/api/v1/pods"));
        assert!(routable("GET", "/api/v1/namespaces/ns"));
        assert!(
            !routable("DELETE", "/api/v1/namespaces//configmaps"),
            "an empty namespace is not the namespace named configmaps"
        );
        assert!(!routable("GET", "/api/v1/namespaces/ns//configmaps"));
        assert!(!routable("GET", "/api/v1/namespaces/ns/pods/a/b/c"));
        assert!(!routable("GET", "/version"));
        assert!(!routable("OPTIONS", "/api/v1/pods"));
        assert_eq!(info("GET", "/api/v1/namespaces/ns").path_namespace(), None);
        let nested = info("GET", "/api/v1/namespaces/ns/namespaces");
        assert_eq!(
            nested.path_namespace(),
            Some("ns"),
            "namespaces inside a namespace: a path the router refuses, not the namespace list"
        );
        let selected = info("GET", "/api/v1/nodes?fieldSelector=metadata.name%3Dn1");
        assert_eq!((selected.name.as_str(), selected.path_name()), ("n1", None));
    }
}
