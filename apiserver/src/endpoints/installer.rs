//! The route installer, as k8s.io/apiserver's `APIInstaller` builds routes: for every served
//! group-version and resource, the storage's capabilities decide the action table: which verbs on
//! which paths, each with Kubernetes' operation id. Discovery's verbs and the OpenAPI paths are
//! read off the same table, so what is advertised is exactly what is served.

use std::collections::BTreeMap;
use std::sync::Arc;

use kube_apimachinery::{GroupVersion, GroupVersionKind, RestMapping};

use crate::convert::Edges;
use crate::registry::rest::RestStorage;

/// One installed route: an action verb on a path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Action {
    /// Kubernetes' action verb: `LIST`, `POST`, `GET`, `PUT`, `PATCH`, `DELETE`,
    /// `DELETECOLLECTION`, `WATCH`, `WATCHLIST`.
    pub verb: &'static str,
    /// The path with `{namespace}` and `{name}` holes.
    pub path: String,
    /// The OpenAPI operation id (`listAppsV1NamespacedDeployment`).
    pub operation_id: String,
    /// The kind the route's bodies carry.
    pub kind: GroupVersionKind,
    /// The subresource, if the route is one.
    pub subresource: Option<&'static str>,
}

/// A served resource or subresource: its mapping, its storage and its routes.
pub struct ApiResource {
    /// How the resource is served.
    pub mapping: RestMapping,
    /// The kind its bodies carry (the subresource's kind for `/scale`).
    pub kind: GroupVersionKind,
    /// The subresource name, if this is one.
    pub subresource: Option<&'static str>,
    /// Its storage.
    pub storage: Arc<dyn RestStorage>,
    /// The routes installed for it.
    pub actions: Vec<Action>,
    /// Its version edges when they are not the Scheme's (a custom resource defined at run time).
    pub edges: Option<Arc<dyn Edges>>,
}

impl ApiResource {
    /// The discovery verbs of its capabilities, sorted as Kubernetes lists them.
    pub fn verbs(&self) -> Vec<&'static str> {
        let s = self.storage.as_ref();
        let mut verbs = Vec::new();
        for (has, verb) in [
            (s.creater().is_some(), "create"),
            (s.graceful_deleter().is_some(), "delete"),
            (
                s.collection_deleter().is_some() && s.lister().is_some(),
                "deletecollection",
            ),
            (s.getter().is_some(), "get"),
            (s.lister().is_some(), "list"),
            (s.patcher().is_some(), "patch"),
            (s.updater().is_some(), "update"),
            (s.watcher().is_some(), "watch"),
        ] {
            if has {
                verbs.push(verb);
            }
        }
        verbs
    }

    /// The name discovery lists it under (`deployments`, `deployments/status`).
    pub fn discovery_name(&self) -> String {
        match self.subresource {
            Some(sub) => format!("{}/{sub}", self.mapping.resource),
            None => self.mapping.resource.to_string(),
        }
    }
}

/// Every served resource, keyed by (group-version, discovery name). Cloning it is cheap: the
/// resources are shared.
#[derive(Clone, Default)]
pub struct Installed {
    /// The resources, in group-version then registration order.
    pub resources: BTreeMap<GroupVersion, Vec<Arc<ApiResource>>>,
}

impl Installed {
    /// The resource or subresource a request names.
    pub fn find(&self, gv: &GroupVersion, resource: &str, subresource: Option<&str>) -> Option<&Arc<ApiResource>> {
        self.resources
            .get(gv)?
            .iter()
            .find(|r| r.mapping.resource == resource && r.subresource == subresource)
    }

    /// Removes `resource` of `gv` and its subresources; whether it was there.
    pub fn uninstall(&mut self, gv: &GroupVersion, resource: &str) -> bool {
        let Some(resources) = self.resources.get_mut(gv) else {
            return false;
        };
        let before = resources.len();
        resources.retain(|r| r.mapping.resource != resource);
        let removed = resources.len() != before;
        if resources.is_empty() {
            self.resources.remove(gv);
        }
        removed
    }

    /// Installs `storage` for `mapping` (a subresource when `subresource` is set), converted by
    /// `edges` (the Scheme's when `None`).
    pub fn install(
        &mut self,
        mapping: RestMapping,
        subresource: Option<&'static str>,
        kind: GroupVersionKind,
        storage: Arc<dyn RestStorage>,
        edges: Option<Arc<dyn Edges>>,
    ) {
        let mut r = ApiResource {
            mapping,
            kind,
            subresource,
            storage,
            actions: Vec::new(),
            edges,
        };
        r.actions = actions(&r);
        let gv = GroupVersion::from_static(mapping.group, mapping.version);
        self.resources.entry(gv).or_default().push(Arc::new(r));
    }
}

/// `Apps`, `Core`, `Apiextensions` (`.k8s.io` dropped), `WidgetsExampleDev`: the group as it
/// appears in operation ids.
pub(crate) fn group_camel(group: &str) -> String {
    let group = if group.is_empty() {
        "core"
    } else {
        group.strip_suffix(".k8s.io").unwrap_or(group)
    };
    let mut out = String::new();
    let mut upper = true;
    for c in group.chars() {
        if c == '.' || c == '-' {
            upper = true;
        } else if upper {
            out.extend(c.to_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

pub(crate) fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// The action table of one resource, from its capabilities (installer.go's `registerResourceHandlers`).
fn actions(r: &ApiResource) -> Vec<Action> {
    let m = &r.mapping;
    let s = r.storage.as_ref();
    let root = if m.group.is_empty() {
        format!("/api/{}", m.version)
    } else {
        format!("/apis/{}/{}", m.group, m.version)
    };
    let gv = format!("{}{}", group_camel(m.group), capitalize(m.version));
    let kind = m.kind;
    let suffix = r.subresource.map(capitalize).unwrap_or_default();
    let sub_path = r.subresource.map(|s| format!("/{s}")).unwrap_or_default();
    let mut out = Vec::new();
    let mut add = |verb: &'static str, path: String, op: String| {
        out.push(Action {
            verb,
            path,
            operation_id: op,
            kind: r.kind.clone(),
            subresource: r.subresource,
        });
    };
    let (collection, item, scope) = if m.namespaced() {
        (
            format!("{root}/namespaces/{{namespace}}/{}", m.resource),
            format!("{root}/namespaces/{{namespace}}/{}/{{name}}{sub_path}", m.resource),
            "Namespaced",
        )
    } else {
        (
            format!("{root}/{}", m.resource),
            format!("{root}/{}/{{name}}{sub_path}", m.resource),
            "",
        )
    };
    let is_sub = r.subresource.is_some();
    if !is_sub && s.lister().is_some() {
        add("LIST", collection.clone(), format!("list{gv}{scope}{kind}"));
    }
    if !is_sub && s.creater().is_some() {
        add("POST", collection.clone(), format!("create{gv}{scope}{kind}"));
    }
    if !is_sub && s.collection_deleter().is_some() && s.lister().is_some() {
        add(
            "DELETECOLLECTION",
            collection.clone(),
            format!("delete{gv}Collection{scope}{kind}"),
        );
    }
    if !is_sub && s.watcher().is_some() {
        let watch_collection = collection.replacen(&root, &format!("{root}/watch"), 1);
        add("WATCHLIST", watch_collection, format!("watch{gv}{scope}{kind}List"));
    }
    // A subresource that creates (`serviceaccounts/{name}/token`) takes POST on the object.
    if is_sub && s.creater().is_some() {
        add("POST", item.clone(), format!("create{gv}{scope}{kind}{suffix}"));
    }
    if s.getter().is_some() {
        add("GET", item.clone(), format!("read{gv}{scope}{kind}{suffix}"));
    }
    if s.updater().is_some() {
        add("PUT", item.clone(), format!("replace{gv}{scope}{kind}{suffix}"));
    }
    if s.patcher().is_some() {
        add("PATCH", item.clone(), format!("patch{gv}{scope}{kind}{suffix}"));
    }
    if !is_sub && s.graceful_deleter().is_some() {
        add("DELETE", item.clone(), format!("delete{gv}{scope}{kind}"));
    }
    if !is_sub && s.watcher().is_some() {
        let watch_item = item.replacen(&root, &format!("{root}/watch"), 1);
        add("WATCH", watch_item, format!("watch{gv}{scope}{kind}"));
    }
    // Lists and watches across namespaces.
    if m.namespaced() && !is_sub {
        let all = format!("{root}/{}", m.resource);
        if s.lister().is_some() {
            add("LIST", all.clone(), format!("list{gv}{kind}ForAllNamespaces"));
        }
        if s.watcher().is_some() {
            add(
                "WATCHLIST",
                format!("{root}/watch/{}", m.resource),
                format!("watch{gv}{kind}ListForAllNamespaces"),
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_are_camel_cased_as_in_kubernetes_operation_ids() {
        assert_eq!(group_camel(""), "Core");
        assert_eq!(group_camel("apps"), "Apps");
        assert_eq!(group_camel("apiextensions.k8s.io"), "Apiextensions");
        assert_eq!(group_camel("widgets.example.dev"), "WidgetsExampleDev");
        assert_eq!(group_camel("rbac.authorization.k8s.io"), "RbacAuthorization");
    }
}
