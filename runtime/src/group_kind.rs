//! `GroupKind` and `GroupResource`: a kind or resource without its version, after apimachinery's
//! `schema.GroupKind` and `schema.GroupResource`.
//!
//! They key questions that span versions, such as "which versions serve this kind", so they carry no
//! version and print in Go's `Kind.group` form.

use crate::{GroupVersionKind, GroupVersionResource};
use std::borrow::Cow;
use std::fmt;

/// A kind in a group, in no particular version, such as `Deployment.apps`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct GroupKind {
    /// The API group, empty for the core group.
    pub group: Cow<'static, str>,
    /// The kind, such as `Deployment`.
    pub kind: Cow<'static, str>,
}

/// A resource in a group, in no particular version, such as `deployments.apps`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct GroupResource {
    /// The API group, empty for the core group.
    pub group: Cow<'static, str>,
    /// The plural resource name, such as `deployments`.
    pub resource: Cow<'static, str>,
}

impl GroupKind {
    /// Builds a group kind from static strings, usable in `const` items.
    pub const fn from_static(group: &'static str, kind: &'static str) -> Self {
        Self {
            group: Cow::Borrowed(group),
            kind: Cow::Borrowed(kind),
        }
    }

    /// Builds a group kind from owned or borrowed strings.
    pub fn new(group: impl Into<String>, kind: impl Into<String>) -> Self {
        Self {
            group: Cow::Owned(group.into()),
            kind: Cow::Owned(kind.into()),
        }
    }

    /// This kind in the version `version` of its group.
    pub fn with_version(&self, version: impl Into<String>) -> GroupVersionKind {
        GroupVersionKind {
            group: self.group.clone(),
            version: Cow::Owned(version.into()),
            kind: self.kind.clone(),
        }
    }
}

impl fmt::Display for GroupKind {
    /// Writes Go's form: `Deployment.apps`, or just `Pod` for the core group.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_dotted(f, &self.kind, &self.group)
    }
}

impl GroupResource {
    /// Builds a group resource from static strings, usable in `const` items.
    pub const fn from_static(group: &'static str, resource: &'static str) -> Self {
        Self {
            group: Cow::Borrowed(group),
            resource: Cow::Borrowed(resource),
        }
    }

    /// Builds a group resource from owned or borrowed strings.
    pub fn new(group: impl Into<String>, resource: impl Into<String>) -> Self {
        Self {
            group: Cow::Owned(group.into()),
            resource: Cow::Owned(resource.into()),
        }
    }

    /// This resource in the version `version` of its group.
    pub fn with_version(&self, version: impl Into<String>) -> GroupVersionResource {
        GroupVersionResource {
            group: self.group.clone(),
            version: Cow::Owned(version.into()),
            resource: self.resource.clone(),
        }
    }
}

impl fmt::Display for GroupResource {
    /// Writes Go's form: `deployments.apps`, or just `pods` for the core group.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_dotted(f, &self.resource, &self.group)
    }
}

/// Writes `name.group`, dropping the dot for the core group as Go's `String()` methods do.
fn write_dotted(f: &mut fmt::Formatter<'_>, name: &str, group: &str) -> fmt::Result {
    if group.is_empty() {
        f.write_str(name)
    } else {
        write!(f, "{name}.{group}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::GroupVersion;

    #[test]
    fn display_drops_the_core_group() {
        assert_eq!(
            GroupKind::from_static("apps", "Deployment").to_string(),
            "Deployment.apps"
        );
        assert_eq!(GroupKind::from_static("", "Pod").to_string(), "Pod");
        assert_eq!(
            GroupResource::from_static("apps", "deployments").to_string(),
            "deployments.apps"
        );
        assert_eq!(GroupResource::from_static("", "pods").to_string(), "pods");
    }

    #[test]
    fn with_version_rebuilds_the_versioned_key() {
        let gk = GroupKind::new("apps", "Deployment");
        assert_eq!(
            gk.with_version("v1"),
            GroupVersion::from_static("apps", "v1").with_kind("Deployment")
        );
        let gr = GroupResource::new("apps", "deployments");
        assert_eq!(
            gr.with_version("v1"),
            GroupVersion::from_static("apps", "v1").with_resource("deployments")
        );
    }

    #[test]
    fn borrowed_and_owned_compare_equal() {
        assert_eq!(GroupKind::from_static("", "Pod"), GroupKind::new("", "Pod"));
        assert_eq!(GroupResource::from_static("", "pods"), GroupResource::new("", "pods"));
    }
}
