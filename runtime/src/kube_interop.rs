//! Conversions between this crate's keys and kube-core's (`GroupVersionKind`, `GroupVersion`,
//! `GroupVersionResource`), so a GVK from the scheme can drive `kube::Api` and a kube discovery result can
//! be looked up in the scheme.
//!
//! kube-core's types own plain `String`s, so converting into them always allocates, and converting back
//! yields owned `Cow`s; both directions keep the text unchanged, including the empty core group.

use crate::{GroupVersion, GroupVersionKind, GroupVersionResource};

impl From<&GroupVersionKind> for kube_core::GroupVersionKind {
    fn from(gvk: &GroupVersionKind) -> Self {
        kube_core::GroupVersionKind::gvk(&gvk.group, &gvk.version, &gvk.kind)
    }
}

impl From<GroupVersionKind> for kube_core::GroupVersionKind {
    fn from(gvk: GroupVersionKind) -> Self {
        Self::from(&gvk)
    }
}

impl From<kube_core::GroupVersionKind> for GroupVersionKind {
    fn from(gvk: kube_core::GroupVersionKind) -> Self {
        Self::new(gvk.group, gvk.version, gvk.kind)
    }
}

impl From<&kube_core::GroupVersionKind> for GroupVersionKind {
    fn from(gvk: &kube_core::GroupVersionKind) -> Self {
        Self::new(gvk.group.as_str(), gvk.version.as_str(), gvk.kind.as_str())
    }
}

impl From<&GroupVersion> for kube_core::GroupVersion {
    fn from(gv: &GroupVersion) -> Self {
        kube_core::GroupVersion::gv(&gv.group, &gv.version)
    }
}

impl From<kube_core::GroupVersion> for GroupVersion {
    fn from(gv: kube_core::GroupVersion) -> Self {
        Self::new(gv.group, gv.version)
    }
}

impl From<&GroupVersionResource> for kube_core::GroupVersionResource {
    fn from(gvr: &GroupVersionResource) -> Self {
        kube_core::GroupVersionResource::gvr(&gvr.group, &gvr.version, &gvr.resource)
    }
}

impl From<kube_core::GroupVersionResource> for GroupVersionResource {
    fn from(gvr: kube_core::GroupVersionResource) -> Self {
        Self::new(gvr.group, gvr.version, gvr.resource)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kube_core_round_trips() {
        let gvk = GroupVersionKind::from_static("apps", "v1", "Deployment");
        let kube: kube_core::GroupVersionKind = (&gvk).into();
        assert_eq!(
            (kube.group.as_str(), kube.version.as_str(), kube.kind.as_str()),
            ("apps", "v1", "Deployment")
        );
        assert_eq!(GroupVersionKind::from(&kube), gvk);
        assert_eq!(GroupVersionKind::from(kube), gvk);

        let gv = GroupVersion::from_static("", "v1");
        let kube_gv: kube_core::GroupVersion = (&gv).into();
        assert_eq!(kube_gv.api_version(), "v1");
        assert_eq!(GroupVersion::from(kube_gv), gv);

        let gvr = GroupVersionResource::from_static("apps", "v1", "deployments");
        let kube_gvr: kube_core::GroupVersionResource = (&gvr).into();
        assert_eq!(kube_gvr.resource, "deployments");
        assert_eq!(GroupVersionResource::from(kube_gvr), gvr);
    }
}
