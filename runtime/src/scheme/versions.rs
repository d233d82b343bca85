//! Version priority and registration queries of a [`Scheme`]: which versions a group or kind has, and in
//! which order a client should prefer them (Go's `SetVersionPriority` and `PrioritizedVersions*`).
//!
//! The order is always "the versions set by priority, then the other observed versions as Kubernetes
//! orders versions" (GA before beta before alpha, higher numbers first: [`crate::kube_aware_version_key`]),
//! so a group installed without a priority (an imported k8s.io/api group) prefers what kube-apiserver
//! prefers. Go keeps registration order for those; nothing in Kubernetes relies on it. Go walks its
//! priority map in random order when it spans groups; here that map is a `BTreeMap`, so groups come in
//! name order and the answers are stable.

use super::Scheme;
use crate::{GroupKind, GroupVersion, SchemeError};
use std::collections::BTreeSet;

impl Scheme {
    /// Sets the preferred order of one group's versions, most preferred first, replacing any earlier order.
    ///
    /// Every version must belong to the same group, and none may be empty or internal, since the internal
    /// version is never served. A version listed twice keeps its first place.
    pub fn set_version_priority(&mut self, versions: &[GroupVersion]) -> Result<(), SchemeError> {
        let mut groups = BTreeSet::new();
        for gv in versions {
            if gv.version.is_empty() || gv.is_internal() {
                return Err(SchemeError::InternalVersionPriority(gv.clone()));
            }
            groups.insert(gv.group.as_ref());
        }
        let group = match groups.first() {
            Some(group) if groups.len() == 1 => (*group).to_owned(),
            _ => {
                return Err(SchemeError::MixedGroups {
                    groups: groups.into_iter().map(str::to_owned).collect(),
                });
            }
        };
        let mut order: Vec<GroupVersion> = Vec::with_capacity(versions.len());
        for gv in versions {
            push_unique(&mut order, gv);
        }
        self.version_priority.insert(group, order);
        Ok(())
    }

    /// The versions of `group` in priority order: the order set by [`Scheme::set_version_priority`], then
    /// the group's other observed versions in registration order. The internal version never appears.
    pub fn prioritized_versions_for_group(&self, group: &str) -> Vec<GroupVersion> {
        let mut ret = self.version_priority.get(group).cloned().unwrap_or_default();
        let mut rest: Vec<&GroupVersion> = self
            .observed_versions
            .iter()
            .filter(|gv| gv.group == group && !ret.contains(gv))
            .collect();
        rest.sort_by_key(|gv| crate::kube_aware_version_key(&gv.version));
        for observed in rest {
            push_unique(&mut ret, observed);
        }
        ret
    }

    /// Every version of every group: prioritized groups first, in group-name order, then the remaining
    /// groups in the order registration saw them, each in Kubernetes' version order.
    pub fn prioritized_versions_all_groups(&self) -> Vec<GroupVersion> {
        let mut ret: Vec<GroupVersion> = self.version_priority.values().flatten().cloned().collect();
        for observed in &self.observed_versions {
            if ret.contains(observed) {
                continue;
            }
            if self.version_priority.contains_key(observed.group.as_ref()) {
                ret.push(observed.clone());
            } else {
                ret.extend(self.prioritized_versions_for_group(&observed.group));
            }
        }
        ret
    }

    /// The most preferred version of each group: the first priority of prioritized groups, in group-name
    /// order, then the best version (Kubernetes' version order) of each remaining group, in the order
    /// registration saw the groups.
    pub fn preferred_version_all_groups(&self) -> Vec<GroupVersion> {
        let mut ret: Vec<GroupVersion> = self
            .version_priority
            .values()
            .filter_map(|v| v.first())
            .cloned()
            .collect();
        for observed in &self.observed_versions {
            if !ret.iter().any(|gv| gv.group == observed.group)
                && let Some(best) = self.prioritized_versions_for_group(&observed.group).into_iter().next()
            {
                ret.push(best);
            }
        }
        ret
    }

    /// The versions of its group that have the kind, in the group's priority order (Go's
    /// `VersionsForGroupKind`); the internal version is left out, as it is from the priority order.
    pub fn versions_for_group_kind(&self, gk: &GroupKind) -> Vec<GroupVersion> {
        self.prioritized_versions_for_group(&gk.group)
            .into_iter()
            .filter(|gv| self.recognizes(&gv.with_kind(gk.kind.as_ref())))
            .collect()
    }

    /// Whether any external version of `group` has registered types. As in Go, a group with only an
    /// internal version is not registered, because the internal version is never observed.
    pub fn is_group_registered(&self, group: &str) -> bool {
        self.observed_versions.iter().any(|gv| gv.group == group)
    }

    /// Whether `gv` has registered types; always false for an internal version, as in Go.
    pub fn is_version_registered(&self, gv: &GroupVersion) -> bool {
        self.observed_versions.contains(gv)
    }
}

/// Appends `gv` unless `list` already holds it; the lists are a handful long, so a scan is cheapest.
fn push_unique(list: &mut Vec<GroupVersion>, gv: &GroupVersion) {
    if !list.contains(gv) {
        list.push(gv.clone());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{Bar, Baz, Foo};
    use crate::{API_VERSION_INTERNAL, GroupVersionKind};

    const APPS_V1: GroupVersion = GroupVersion::from_static("apps", "v1");
    const APPS_V1BETA1: GroupVersion = GroupVersion::from_static("apps", "v1beta1");
    const APPS_V1BETA2: GroupVersion = GroupVersion::from_static("apps", "v1beta2");
    const APPS_INTERNAL: GroupVersion = GroupVersion::from_static("apps", API_VERSION_INTERNAL);
    const BATCH_V1: GroupVersion = GroupVersion::from_static("batch", "v1");
    const CORE_V1: GroupVersion = GroupVersion::from_static("", "v1");

    /// Registers apps in the order internal, v1beta1, v1beta2, v1 (as an install package does), plus
    /// batch/v1 and core v1; Foo is in every apps version, Bar only in v1beta1 and v1.
    fn scheme() -> Result<Scheme, SchemeError> {
        let mut scheme = Scheme::new();
        scheme.add_known_type::<Foo>(APPS_INTERNAL.with_kind("Foo"))?;
        scheme.add_known_type::<Foo>(APPS_V1BETA1.with_kind("Foo"))?;
        scheme.add_known_type::<Bar>(APPS_V1BETA1.with_kind("Bar"))?;
        scheme.add_known_type::<Foo>(BATCH_V1.with_kind("Foo"))?;
        scheme.add_known_type::<Foo>(APPS_V1BETA2.with_kind("Foo"))?;
        scheme.add_known_type::<Foo>(APPS_V1.with_kind("Foo"))?;
        scheme.add_known_type::<Bar>(APPS_V1.with_kind("Bar"))?;
        scheme.add_known_type::<Baz>(CORE_V1.with_kind("Baz"))?;
        Ok(scheme)
    }

    #[test]
    fn without_priority_versions_come_in_kubernetes_order() -> Result<(), SchemeError> {
        let scheme = scheme()?;
        // Registered v1beta1, v1beta2, v1: preferred as kube-apiserver prefers them.
        assert_eq!(
            scheme.prioritized_versions_for_group("apps"),
            vec![APPS_V1, APPS_V1BETA2, APPS_V1BETA1]
        );
        assert_eq!(scheme.prioritized_versions_for_group(""), vec![CORE_V1]);
        assert!(scheme.prioritized_versions_for_group("policy").is_empty());
        Ok(())
    }

    #[test]
    fn priority_comes_first_then_unlisted_observed_versions() -> Result<(), SchemeError> {
        let mut scheme = scheme()?;
        scheme.set_version_priority(&[APPS_V1, APPS_V1BETA2])?;
        assert_eq!(
            scheme.prioritized_versions_for_group("apps"),
            vec![APPS_V1, APPS_V1BETA2, APPS_V1BETA1]
        );
        // A later call overwrites the group's order rather than merging with it; the versions it
        // leaves out follow in Kubernetes' order.
        scheme.set_version_priority(&[APPS_V1BETA1, APPS_V1BETA1])?;
        assert_eq!(
            scheme.prioritized_versions_for_group("apps"),
            vec![APPS_V1BETA1, APPS_V1, APPS_V1BETA2]
        );
        Ok(())
    }

    #[test]
    fn the_internal_version_is_never_prioritized() -> Result<(), SchemeError> {
        let mut scheme = scheme()?;
        assert!(!scheme.prioritized_versions_for_group("apps").contains(&APPS_INTERNAL));
        assert_eq!(
            scheme.set_version_priority(&[APPS_V1, APPS_INTERNAL]),
            Err(SchemeError::InternalVersionPriority(APPS_INTERNAL))
        );
        let empty = GroupVersion::from_static("apps", "");
        assert_eq!(
            scheme.set_version_priority(std::slice::from_ref(&empty)),
            Err(SchemeError::InternalVersionPriority(empty))
        );
        Ok(())
    }

    #[test]
    fn priority_must_name_exactly_one_group() -> Result<(), SchemeError> {
        let mut scheme = scheme()?;
        assert_eq!(
            scheme.set_version_priority(&[APPS_V1, BATCH_V1, CORE_V1]),
            Err(SchemeError::MixedGroups {
                groups: vec![String::new(), "apps".to_owned(), "batch".to_owned()]
            })
        );
        assert_eq!(
            scheme.set_version_priority(&[]),
            Err(SchemeError::MixedGroups { groups: Vec::new() })
        );
        // A rejected call leaves the earlier (unset) order alone.
        assert_eq!(
            scheme.prioritized_versions_for_group("apps"),
            vec![APPS_V1, APPS_V1BETA2, APPS_V1BETA1]
        );
        Ok(())
    }

    #[test]
    fn versions_for_group_kind_follow_priority() -> Result<(), SchemeError> {
        let mut scheme = scheme()?;
        let foo = GroupKind::from_static("apps", "Foo");
        let bar = GroupKind::from_static("apps", "Bar");
        assert_eq!(
            scheme.versions_for_group_kind(&foo),
            vec![APPS_V1, APPS_V1BETA2, APPS_V1BETA1]
        );
        assert_eq!(scheme.versions_for_group_kind(&bar), vec![APPS_V1, APPS_V1BETA1]);
        scheme.set_version_priority(&[APPS_V1BETA2, APPS_V1])?;
        assert_eq!(
            scheme.versions_for_group_kind(&foo),
            vec![APPS_V1BETA2, APPS_V1, APPS_V1BETA1]
        );
        assert_eq!(scheme.versions_for_group_kind(&bar), vec![APPS_V1, APPS_V1BETA1]);
        assert!(
            scheme
                .versions_for_group_kind(&GroupKind::from_static("apps", "Baz"))
                .is_empty()
        );
        Ok(())
    }

    #[test]
    fn all_groups_lists_prioritized_groups_first() -> Result<(), SchemeError> {
        let mut scheme = scheme()?;
        // Unprioritized groups come in the order registration saw them, each in Kubernetes' order.
        assert_eq!(
            scheme.prioritized_versions_all_groups(),
            vec![APPS_V1, APPS_V1BETA2, APPS_V1BETA1, BATCH_V1, CORE_V1]
        );
        assert_eq!(scheme.preferred_version_all_groups(), vec![APPS_V1, BATCH_V1, CORE_V1]);
        scheme.set_version_priority(&[APPS_V1, APPS_V1BETA2])?;
        scheme.set_version_priority(&[BATCH_V1])?;
        assert_eq!(
            scheme.prioritized_versions_all_groups(),
            vec![APPS_V1, APPS_V1BETA2, BATCH_V1, APPS_V1BETA1, CORE_V1]
        );
        assert_eq!(scheme.preferred_version_all_groups(), vec![APPS_V1, BATCH_V1, CORE_V1]);
        Ok(())
    }

    #[test]
    fn group_and_version_registration() -> Result<(), SchemeError> {
        let mut scheme = scheme()?;
        assert!(scheme.is_group_registered("apps"));
        assert!(scheme.is_group_registered(""));
        assert!(!scheme.is_group_registered("policy"));
        assert!(scheme.is_version_registered(&APPS_V1));
        assert!(scheme.is_version_registered(&CORE_V1));
        assert!(!scheme.is_version_registered(&GroupVersion::from_static("apps", "v2")));
        // The internal version is registered as types but, as in Go, not observed as a version.
        assert!(scheme.recognizes(&APPS_INTERNAL.with_kind("Foo")));
        assert!(!scheme.is_version_registered(&APPS_INTERNAL));
        scheme.add_known_type::<Foo>(GroupVersionKind::from_static("policy", API_VERSION_INTERNAL, "Foo"))?;
        assert!(!scheme.is_group_registered("policy"));
        Ok(())
    }
}
