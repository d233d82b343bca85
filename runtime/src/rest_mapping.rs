//! The REST mapping of a served resource (apimachinery's `meta.RESTMapping` plus what discovery
//! publishes): resource <-> kind, scope, singular, short names, categories, subresources and the
//! version the group stores it in. The register generator writes one per resource into the Scheme,
//! so an API server needs no hand-written table per kind.

use crate::{GroupResource, GroupVersion, GroupVersionKind, GroupVersionResource};

/// Whether a resource lives in a namespace.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RestScope {
    /// Below `/namespaces/{namespace}/`.
    Namespaced,
    /// Cluster-wide.
    Cluster,
}

/// A subresource served below a resource (`status`, `scale`) and the kind it carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SubresourceMapping {
    /// The path segment after the object's name.
    pub name: &'static str,
    /// The group of the kind its requests and responses carry.
    pub group: &'static str,
    /// That kind's version.
    pub version: &'static str,
    /// The kind (`Deployment` for status, `Scale` for scale).
    pub kind: &'static str,
    /// For `scale`: where the object keeps its replicas and selector.
    pub scale: Option<ScalePaths>,
}

/// Where a scalable object keeps what its `/scale` shows, as JSON paths (`.spec.replicas`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScalePaths {
    /// The desired replicas.
    pub spec_replicas: &'static str,
    /// The observed replicas.
    pub status_replicas: &'static str,
    /// The label selector: a string, or a LabelSelector object that `/scale` writes as a string.
    pub label_selector: Option<&'static str>,
}

impl SubresourceMapping {
    /// The kind the subresource's bodies carry.
    pub fn group_version_kind(&self) -> GroupVersionKind {
        GroupVersionKind::from_static(self.group, self.version, self.kind)
    }
}

/// How one resource of one group-version is served.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RestMapping {
    /// The API group, empty for the core group.
    pub group: &'static str,
    /// The version.
    pub version: &'static str,
    /// The plural resource name (`deployments`).
    pub resource: &'static str,
    /// The kind (`Deployment`).
    pub kind: &'static str,
    /// The list kind (`DeploymentList`), when the kind has one.
    pub list_kind: Option<&'static str>,
    /// The lower-case singular (`deployment`).
    pub singular: &'static str,
    /// Namespaced or cluster-wide.
    pub scope: RestScope,
    /// Short names (`deploy`).
    pub short_names: &'static [&'static str],
    /// Categories (`all`).
    pub categories: &'static [&'static str],
    /// Subresources in name order.
    pub subresources: &'static [SubresourceMapping],
    /// The version of this group that storage keeps the resource in.
    pub storage_version: &'static str,
    /// The columns a Table of the resource shows after the name (a CRD's printer columns).
    pub printer_columns: &'static [PrinterColumn],
    /// Whether `metadata.generation` counts changes of the desired state (custom resources, and
    /// kinds with a `spec` or a `template`); a ConfigMap's objects carry no generation.
    pub generation: bool,
}

/// A column of the resource's Table: a CRD's `additionalPrinterColumns` entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PrinterColumn {
    /// The header (`Ready`).
    pub name: &'static str,
    /// `integer`, `number`, `string`, `boolean` or `date`.
    pub type_: &'static str,
    /// An OpenAPI format (`int32`, `date-time`), or empty.
    pub format: &'static str,
    /// What the column shows, or empty.
    pub description: &'static str,
    /// 0 for the default view, higher for `-o wide`.
    pub priority: u32,
    /// Where the value is, as a JSON path (`.status.readyReplicas`).
    pub json_path: &'static str,
}

impl RestMapping {
    /// The group, version and resource.
    pub fn group_version_resource(&self) -> GroupVersionResource {
        GroupVersionResource::from_static(self.group, self.version, self.resource)
    }

    /// The group, version and kind.
    pub fn group_version_kind(&self) -> GroupVersionKind {
        GroupVersionKind::from_static(self.group, self.version, self.kind)
    }

    /// The group-version of the list kind, when there is one.
    pub fn list_group_version_kind(&self) -> Option<GroupVersionKind> {
        self.list_kind
            .map(|k| GroupVersionKind::from_static(self.group, self.version, k))
    }

    /// The group and resource, without version.
    pub fn group_resource(&self) -> GroupResource {
        GroupResource::from_static(self.group, self.resource)
    }

    /// The group-version storage keeps this resource in.
    pub fn storage_group_version(&self) -> GroupVersion {
        GroupVersion::from_static(self.group, self.storage_version)
    }

    /// Whether the resource lives in a namespace.
    pub fn namespaced(&self) -> bool {
        self.scope == RestScope::Namespaced
    }

    /// The subresource named `name`.
    pub fn subresource(&self, name: &str) -> Option<&'static SubresourceMapping> {
        self.subresources.iter().find(|s| s.name == name)
    }
}
