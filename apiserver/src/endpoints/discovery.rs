//! Discovery: legacy (`/api`, `/apis`, `/apis/<group>`, and the `APIResourceList` of each
//! group-version) and aggregated (`apidiscovery.k8s.io/v2` by `Accept`), whose verbs come from the
//! installed storages' capabilities.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use kube_apimachinery::{GroupVersion, Scheme};
use serde_json::{Value, json};

use super::Api;
use super::installer::Installed;
use super::respond::json_response;
use crate::status::ApiError;

/// `GET /api`.
pub async fn api_root(State(api): State<Arc<Api>>, headers: HeaderMap) -> Response {
    root(&api, &headers, true)
}

/// `GET /apis`.
pub async fn apis_root(State(api): State<Arc<Api>>, headers: HeaderMap) -> Response {
    root(&api, &headers, false)
}

/// `/api` or `/apis`: aggregated discovery when the client asks for it, else the legacy lists.
fn root(api: &Api, headers: &HeaderMap, core: bool) -> Response {
    let registry = api.registrar.registry();
    let scheme = api.versions.scheme();
    let accept = headers.get("accept").and_then(|v| v.to_str().ok()).unwrap_or("");
    if let Some(media) = aggregated_media_type(accept) {
        let version = if media.contains("v=v2beta1") {
            "apidiscovery.k8s.io/v2beta1"
        } else {
            "apidiscovery.k8s.io/v2"
        };
        let body = serde_json::to_vec(&aggregated(scheme, &registry.installed, core, version)).unwrap_or_default();
        return (StatusCode::OK, [("content-type", media)], body).into_response();
    }
    json_response(if core {
        api_versions(&registry.installed)
    } else {
        api_group_list(scheme, &registry.installed)
    })
}

/// `GET /api/{version}`.
pub async fn core_resources(
    State(api): State<Arc<Api>>,
    Path(version): Path<String>,
    uri: Uri,
) -> Result<Response, ApiError> {
    resource_list(&api, GroupVersion::new("", version), &uri)
}

/// `GET /apis/{group}/{version}`.
pub async fn group_resources(
    State(api): State<Arc<Api>>,
    Path((group, version)): Path<(String, String)>,
    uri: Uri,
) -> Result<Response, ApiError> {
    resource_list(&api, GroupVersion::new(group, version), &uri)
}

fn resource_list(api: &Api, gv: GroupVersion, uri: &Uri) -> Result<Response, ApiError> {
    api_resource_list(&api.registrar.registry().installed, &gv)
        .map(json_response)
        .ok_or_else(|| ApiError::no_route(uri.path()))
}

/// `GET /apis/{group}`.
pub async fn group(State(api): State<Arc<Api>>, Path(group): Path<String>, uri: Uri) -> Result<Response, ApiError> {
    api_group(api.versions.scheme(), &api.registrar.registry().installed, &group)
        .map(json_response)
        .ok_or_else(|| ApiError::no_route(uri.path()))
}

/// `/api`: the core group's versions.
pub fn api_versions(installed: &Installed) -> Value {
    let versions: Vec<&str> = installed
        .resources
        .keys()
        .filter(|gv| gv.group.is_empty())
        .map(|gv| gv.version.as_ref())
        .collect();
    json!({
        "kind": "APIVersions",
        "versions": versions,
        "serverAddressByClientCIDRs": [{"clientCIDR": "0.0.0.0/0", "serverAddress": ""}],
    })
}

/// The served versions of `group`, most preferred first.
fn group_versions(scheme: &Scheme, installed: &Installed, group: &str) -> Vec<GroupVersion> {
    let served: Vec<&GroupVersion> = installed.resources.keys().filter(|gv| gv.group == group).collect();
    let mut ordered: Vec<GroupVersion> = scheme
        .prioritized_versions_for_group(group)
        .into_iter()
        .filter(|gv| served.contains(&gv))
        .collect();
    // Versions the Scheme does not order (a CRD's) follow Kubernetes' version priority.
    let mut rest: Vec<GroupVersion> = served.into_iter().filter(|gv| !ordered.contains(gv)).cloned().collect();
    rest.sort_by_key(|gv| kube_apimachinery::kube_aware_version_key(&gv.version));
    ordered.extend(rest);
    ordered
}

/// One `APIGroup`.
pub fn api_group(scheme: &Scheme, installed: &Installed, group: &str) -> Option<Value> {
    let versions = group_versions(scheme, installed, group);
    let entry = |gv: &GroupVersion| json!({"groupVersion": gv.to_string(), "version": gv.version});
    let preferred = entry(versions.first()?);
    Some(json!({
        "kind": "APIGroup",
        "apiVersion": "v1",
        "name": group,
        "versions": versions.iter().map(entry).collect::<Vec<_>>(),
        "preferredVersion": preferred,
    }))
}

/// `/apis`: every named group.
pub fn api_group_list(scheme: &Scheme, installed: &Installed) -> Value {
    let mut groups: Vec<&str> = installed
        .resources
        .keys()
        .map(|gv| gv.group.as_ref())
        .filter(|g| !g.is_empty())
        .collect();
    groups.dedup();
    let groups: Vec<Value> = groups.iter().filter_map(|g| api_group(scheme, installed, g)).collect();
    json!({"kind": "APIGroupList", "apiVersion": "v1", "groups": groups})
}

/// `/api/v1`, `/apis/<group>/<version>`: the resources of one group-version.
pub fn api_resource_list(installed: &Installed, gv: &GroupVersion) -> Option<Value> {
    let resources = installed.resources.get(gv)?;
    let entries: Vec<Value> = resources
        .iter()
        .map(|r| {
            let m = &r.mapping;
            let mut e = json!({
                "name": r.discovery_name(),
                "singularName": if r.subresource.is_some() { "" } else { m.singular },
                "namespaced": m.namespaced(),
                "kind": r.kind.kind,
                "verbs": r.verbs(),
            });
            if r.kind.group != m.group || r.kind.version != m.version {
                e["group"] = json!(r.kind.group);
                e["version"] = json!(r.kind.version);
            }
            if r.subresource.is_none() {
                if !m.short_names.is_empty() {
                    e["shortNames"] = json!(m.short_names);
                }
                if !m.categories.is_empty() {
                    e["categories"] = json!(m.categories);
                }
                e["storageVersionHash"] = json!(storage_version_hash(m.group, m.storage_version, m.kind));
            }
            e
        })
        .collect();
    Some(json!({
        "kind": "APIResourceList",
        "apiVersion": "v1",
        "groupVersion": gv.to_string(),
        "resources": entries,
    }))
}

/// An opaque hash of the storage version, as Kubernetes publishes it so that storage migration
/// can tell when it changed (its own is a SHA-256 prefix; this one is FNV-1a, base64-encoded).
fn storage_version_hash(group: &str, version: &str, kind: &str) -> String {
    let mut h: u64 = 0xcbf29ce484222325;
    for b in format!("{group}/{version}/{kind}").bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x100000001b3);
    }
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    (0..11)
        .map(|i| ALPHABET[((h >> (i * 6)) & 63) as usize] as char)
        .collect::<String>()
        + "="
}

/// The media type of aggregated discovery (`apidiscovery.k8s.io/v2`), when `accept` asks for it.
pub fn aggregated_media_type(accept: &str) -> Option<&'static str> {
    accept.split(',').find_map(|clause| {
        let params: Vec<&str> = clause.split(';').map(str::trim).collect();
        let has = |p: &str| params.contains(&p);
        if !(has("g=apidiscovery.k8s.io") && has("as=APIGroupDiscoveryList")) {
            return None;
        }
        if has("v=v2") {
            Some("application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList")
        } else if has("v=v2beta1") {
            Some("application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList")
        } else {
            None
        }
    })
}

/// Aggregated discovery (`/api` or `/apis` as one `APIGroupDiscoveryList`): every group, its
/// versions most preferred first, each resource with its scope, verbs, names and subresources,
/// so a client learns everything in one request.
pub fn aggregated(scheme: &Scheme, installed: &Installed, core: bool, api_version: &str) -> Value {
    let mut groups: Vec<&str> = installed
        .resources
        .keys()
        .map(|gv| gv.group.as_ref())
        .filter(|g| g.is_empty() == core)
        .collect();
    groups.dedup();
    let items: Vec<Value> = groups
        .iter()
        .map(|group| {
            let versions: Vec<Value> = group_versions(scheme, installed, group)
                .iter()
                .map(|gv| {
                    let all = installed.resources.get(gv).map(Vec::as_slice).unwrap_or_default();
                    let resources: Vec<Value> = all
                        .iter()
                        .filter(|r| r.subresource.is_none())
                        .map(|r| {
                            let m = &r.mapping;
                            let kind = |k: &kube_apimachinery::GroupVersionKind| json!({"group": k.group, "version": k.version, "kind": k.kind});
                            let subresources: Vec<Value> = all
                                .iter()
                                .filter(|s| s.mapping.resource == m.resource && s.subresource.is_some())
                                .map(|s| json!({"subresource": s.subresource, "responseKind": kind(&s.kind), "verbs": s.verbs()}))
                                .collect();
                            let mut e = json!({
                                "resource": m.resource,
                                "responseKind": kind(&r.kind),
                                "scope": if m.namespaced() { "Namespaced" } else { "Cluster" },
                                "singularResource": m.singular,
                                "verbs": r.verbs(),
                            });
                            if !m.short_names.is_empty() {
                                e["shortNames"] = json!(m.short_names);
                            }
                            if !m.categories.is_empty() {
                                e["categories"] = json!(m.categories);
                            }
                            if !subresources.is_empty() {
                                e["subresources"] = json!(subresources);
                            }
                            e
                        })
                        .collect();
                    json!({"version": gv.version, "resources": resources, "freshness": "Current"})
                })
                .collect();
            json!({"metadata": {"name": group}, "versions": versions})
        })
        .collect();
    json!({"kind": "APIGroupDiscoveryList", "apiVersion": api_version, "metadata": {}, "items": items})
}

#[cfg(test)]
mod tests {
    #[test]
    fn versions_follow_kubernetes_priority() {
        let mut versions = vec!["foo", "v1alpha1", "v1", "v2beta1", "v1beta2", "v2", "v11alpha2", "bar"];
        versions.sort_by_key(|v| kube_apimachinery::kube_aware_version_key(v));
        assert_eq!(
            versions,
            ["v2", "v1", "v2beta1", "v1beta2", "v11alpha2", "v1alpha1", "bar", "foo"]
        );
    }
}
