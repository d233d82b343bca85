//! `GroupVersion`, `GroupVersionKind` and `GroupVersionResource`: the keys of a scheme, and
//! `GroupKind` and `GroupResource`, a kind or resource without its version (they key questions
//! that span versions, such as "which versions serve this kind", and print in Go's `Kind.group`
//! form): apimachinery's `runtime/schema` package (conversions to kube-core's forms are in
//! `kube_interop.rs`).
//!
//! Fields are `Cow<'static, str>` so generated code can build them in `const` items without allocating,
//! while values parsed at run time own their strings. Equality, ordering and hashing compare the text
//! only, so a borrowed and an owned value with the same text are the same key.

use crate::API_VERSION_INTERNAL;
use std::borrow::Cow;
use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// An API group and one of its versions, such as `apps/v1`; the core group is the empty string.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct GroupVersion {
    /// The API group, empty for the core group.
    pub group: Cow<'static, str>,
    /// The version, such as `v1` or [`API_VERSION_INTERNAL`].
    pub version: Cow<'static, str>,
}

/// A kind in one version of a group, such as `apps/v1, Kind=Deployment`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct GroupVersionKind {
    /// The API group, empty for the core group.
    pub group: Cow<'static, str>,
    /// The version.
    pub version: Cow<'static, str>,
    /// The kind, such as `Deployment`.
    pub kind: Cow<'static, str>,
}

/// A resource in one version of a group, such as `apps/v1, Resource=deployments`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct GroupVersionResource {
    /// The API group, empty for the core group.
    pub group: Cow<'static, str>,
    /// The version.
    pub version: Cow<'static, str>,
    /// The plural resource name, such as `deployments`.
    pub resource: Cow<'static, str>,
}

impl GroupVersion {
    /// Builds a group version from static strings, usable in `const` items.
    pub const fn from_static(group: &'static str, version: &'static str) -> Self {
        Self {
            group: Cow::Borrowed(group),
            version: Cow::Borrowed(version),
        }
    }

    /// Builds a group version from owned or borrowed strings.
    pub fn new(group: impl Into<String>, version: impl Into<String>) -> Self {
        Self {
            group: Cow::Owned(group.into()),
            version: Cow::Owned(version.into()),
        }
    }

    /// The kind `kind` in this group version.
    pub fn with_kind(&self, kind: impl Into<String>) -> GroupVersionKind {
        GroupVersionKind {
            group: self.group.clone(),
            version: self.version.clone(),
            kind: Cow::Owned(kind.into()),
        }
    }

    /// The resource `resource` in this group version.
    pub fn with_resource(&self, resource: impl Into<String>) -> GroupVersionResource {
        GroupVersionResource {
            group: self.group.clone(),
            version: self.version.clone(),
            resource: Cow::Owned(resource.into()),
        }
    }

    /// The `apiVersion` string: `v1` for the core group, `apps/v1` otherwise.
    pub fn api_version(&self) -> String {
        if self.group.is_empty() {
            self.version.to_string()
        } else {
            format!("{}/{}", self.group, self.version)
        }
    }

    /// Parses an `apiVersion` string: `v1` is the core group, `apps/v1` is group `apps`.
    ///
    /// Unlike Go's `ParseGroupVersion`, the empty string is an error rather than the empty group version,
    /// because a missing `apiVersion` should not silently name the core group.
    pub fn parse_api_version(s: &str) -> Result<Self, ParseError> {
        let (group, version) = s.split_once('/').unwrap_or(("", s));
        if version.is_empty() || version.contains('/') {
            return Err(ParseError::InvalidGroupVersion(s.to_owned()));
        }
        Ok(Self::new(group, version))
    }

    /// Whether this is the internal (hub) version of its group.
    pub fn is_internal(&self) -> bool {
        self.version == API_VERSION_INTERNAL
    }
}

impl FromStr for GroupVersion {
    type Err = ParseError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::parse_api_version(s)
    }
}

impl fmt::Display for GroupVersion {
    /// Writes the `apiVersion` form, which for internal versions is `apps/__internal` or `__internal`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.group.is_empty() {
            write!(f, "{}/", self.group)?;
        }
        f.write_str(&self.version)
    }
}

impl GroupVersionKind {
    /// Builds a GVK from static strings, usable in `const` items.
    pub const fn from_static(group: &'static str, version: &'static str, kind: &'static str) -> Self {
        Self {
            group: Cow::Borrowed(group),
            version: Cow::Borrowed(version),
            kind: Cow::Borrowed(kind),
        }
    }

    /// Builds a GVK from owned or borrowed strings.
    pub fn new(group: impl Into<String>, version: impl Into<String>, kind: impl Into<String>) -> Self {
        Self {
            group: Cow::Owned(group.into()),
            version: Cow::Owned(version.into()),
            kind: Cow::Owned(kind.into()),
        }
    }

    /// The group version this kind belongs to.
    pub fn group_version(&self) -> GroupVersion {
        GroupVersion {
            group: self.group.clone(),
            version: self.version.clone(),
        }
    }

    /// The kind without its version.
    pub fn group_kind(&self) -> GroupKind {
        GroupKind {
            group: self.group.clone(),
            kind: self.kind.clone(),
        }
    }

    /// The `apiVersion` string of this kind's group version.
    pub fn api_version(&self) -> String {
        self.group_version().api_version()
    }
}

impl fmt::Display for GroupVersionKind {
    /// Writes Go's `GroupVersionKind.String()` form, which always keeps the slash: `apps/v1, Kind=Deployment`
    /// and `/v1, Kind=Pod`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}, Kind={}", self.group, self.version, self.kind)
    }
}

impl GroupVersionResource {
    /// Builds a GVR from static strings, usable in `const` items.
    pub const fn from_static(group: &'static str, version: &'static str, resource: &'static str) -> Self {
        Self {
            group: Cow::Borrowed(group),
            version: Cow::Borrowed(version),
            resource: Cow::Borrowed(resource),
        }
    }

    /// Builds a GVR from owned or borrowed strings.
    pub fn new(group: impl Into<String>, version: impl Into<String>, resource: impl Into<String>) -> Self {
        Self {
            group: Cow::Owned(group.into()),
            version: Cow::Owned(version.into()),
            resource: Cow::Owned(resource.into()),
        }
    }

    /// The group version this resource belongs to.
    pub fn group_version(&self) -> GroupVersion {
        GroupVersion {
            group: self.group.clone(),
            version: self.version.clone(),
        }
    }

    /// The resource without its version.
    pub fn group_resource(&self) -> GroupResource {
        GroupResource {
            group: self.group.clone(),
            resource: self.resource.clone(),
        }
    }
}

impl fmt::Display for GroupVersionResource {
    /// Writes Go's `GroupVersionResource.String()` form: `apps/v1, Resource=deployments`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}, Resource={}", self.group, self.version, self.resource)
    }
}

/// An error from parsing a string form such as an `apiVersion`.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum ParseError {
    /// The string is not `version` or `group/version` with a non-empty version.
    #[error("unexpected GroupVersion string: {0:?}")]
    InvalidGroupVersion(String),
}

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

/// The sort key of a version as Kubernetes orders versions (a CRD's, and a group's without a set
/// priority) (apimachinery's
/// `CompareKubeAwareVersionStrings`): GA before beta before alpha, higher numbers first, then
/// versions that do not look like Kubernetes' alphabetically.
pub fn kube_aware_version_key(version: &str) -> (u8, std::cmp::Reverse<u64>, std::cmp::Reverse<u64>, String) {
    use std::cmp::Reverse;
    let parsed = version.strip_prefix('v').and_then(|rest| {
        let digits = rest.find(|c: char| !c.is_ascii_digit()).unwrap_or(rest.len());
        let major: u64 = rest[..digits].parse().ok()?;
        let tail = &rest[digits..];
        if tail.is_empty() {
            return Some((0, major, 0));
        }
        for (stage, word) in [(1u8, "beta"), (2, "alpha")] {
            if let Some(minor) = tail.strip_prefix(word) {
                return Some((stage, major, minor.parse().ok()?));
            }
        }
        None
    });
    match parsed {
        Some((stage, major, minor)) => (stage, Reverse(major), Reverse(minor), String::new()),
        None => (3, Reverse(0), Reverse(0), version.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_api_version_accepts_core_and_named_groups() {
        assert_eq!(
            GroupVersion::parse_api_version("v1"),
            Ok(GroupVersion::from_static("", "v1"))
        );
        assert_eq!(
            GroupVersion::parse_api_version("apps/v1"),
            Ok(GroupVersion::from_static("apps", "v1"))
        );
        assert_eq!(
            GroupVersion::parse_api_version("/v1"),
            Ok(GroupVersion::from_static("", "v1"))
        );
        assert_eq!("batch/v1".parse::<GroupVersion>(), Ok(GroupVersion::new("batch", "v1")));
    }

    #[test]
    fn parse_api_version_rejects_malformed_strings() {
        for bad in ["", "/", "apps/", "a/b/c"] {
            assert_eq!(
                GroupVersion::parse_api_version(bad),
                Err(ParseError::InvalidGroupVersion(bad.to_owned())),
                "{bad:?}"
            );
        }
    }

    #[test]
    fn group_version_display_and_api_version() {
        let apps = GroupVersion::from_static("apps", "v1");
        assert_eq!(apps.api_version(), "apps/v1");
        assert_eq!(apps.to_string(), "apps/v1");
        let core = GroupVersion::from_static("", "v1");
        assert_eq!(core.api_version(), "v1");
        assert_eq!(core.to_string(), "v1");
        assert_eq!(
            GroupVersion::from_static("apps", API_VERSION_INTERNAL).to_string(),
            "apps/__internal"
        );
        assert_eq!(
            GroupVersion::from_static("", API_VERSION_INTERNAL).to_string(),
            "__internal"
        );
    }

    #[test]
    fn is_internal_checks_the_version_only() {
        assert!(GroupVersion::from_static("apps", API_VERSION_INTERNAL).is_internal());
        assert!(GroupVersion::from_static("", API_VERSION_INTERNAL).is_internal());
        assert!(!GroupVersion::from_static("apps", "v1").is_internal());
    }

    #[test]
    fn borrowed_and_owned_values_are_the_same_key() {
        let borrowed = GroupVersionKind::from_static("apps", "v1", "Deployment");
        let owned = GroupVersion::new("apps", "v1").with_kind("Deployment");
        assert_eq!(borrowed, owned);
        assert_eq!(borrowed.cmp(&owned), std::cmp::Ordering::Equal);
        let mut set = std::collections::HashSet::new();
        set.insert(borrowed);
        assert!(set.contains(&owned));
    }

    #[test]
    fn gvk_and_gvr_display_like_go() {
        let gvk = GroupVersion::from_static("apps", "v1").with_kind("Deployment");
        assert_eq!(gvk.to_string(), "apps/v1, Kind=Deployment");
        assert_eq!(
            GroupVersionKind::from_static("", "v1", "Pod").to_string(),
            "/v1, Kind=Pod"
        );
        assert_eq!(gvk.api_version(), "apps/v1");
        assert_eq!(gvk.group_version(), GroupVersion::from_static("apps", "v1"));
        assert_eq!(gvk.group_kind(), GroupKind::from_static("apps", "Deployment"));

        let gvr = GroupVersion::from_static("apps", "v1").with_resource("deployments");
        assert_eq!(gvr.to_string(), "apps/v1, Resource=deployments");
        assert_eq!(gvr, GroupVersionResource::from_static("apps", "v1", "deployments"));
        assert_eq!(gvr.group_version(), GroupVersion::from_static("apps", "v1"));
        assert_eq!(gvr.group_resource(), GroupResource::from_static("apps", "deployments"));
    }
}

#[cfg(test)]
mod group_kind_tests {
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
