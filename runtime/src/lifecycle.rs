//! The API lifecycle of a served kind, as Kubernetes' prerelease-lifecycle-gen records it: the
//! release that introduced it, and for pre-release versions the releases that deprecate and
//! remove it and what replaces it. A server uses it to warn clients of deprecated versions.

use crate::GroupVersionKind;

/// A Kubernetes release `major.minor`.
pub type Release = (u32, u32);

/// Lifecycle facts of a kind; implemented by the generated `zz_generated_prerelease_lifecycle`.
pub trait ApiLifecycle {
    /// The release in which this version of the kind was introduced.
    fn api_lifecycle_introduced() -> Release;
    /// The release from which it is deprecated, if any.
    fn api_lifecycle_deprecated() -> Option<Release>;
    /// The release from which it is no longer served, if any.
    fn api_lifecycle_removed() -> Option<Release>;
    /// The kind to use instead, if any.
    fn api_lifecycle_replacement() -> Option<GroupVersionKind>;

    /// The warning a server sends with responses for this kind when `current` has deprecated it,
    /// worded as the API server words it; `None` while it is not deprecated.
    fn deprecation_warning(kind: &GroupVersionKind, current: Release) -> Option<String> {
        let deprecated = Self::api_lifecycle_deprecated().filter(|d| *d <= current)?;
        let mut warning = format!(
            "{} {} is deprecated in v{}.{}",
            kind.group_version(),
            kind.kind,
            deprecated.0,
            deprecated.1
        );
        if let Some(removed) = Self::api_lifecycle_removed() {
            warning.push_str(&format!("+, unavailable in v{}.{}+", removed.0, removed.1));
        } else {
            warning.push('+');
        }
        if let Some(r) = Self::api_lifecycle_replacement() {
            warning.push_str(&format!("; use {} {}", r.group_version(), r.kind));
        }
        Some(warning)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Beta;

    impl ApiLifecycle for Beta {
        fn api_lifecycle_introduced() -> Release {
            (1, 9)
        }
        fn api_lifecycle_deprecated() -> Option<Release> {
            Some((1, 12))
        }
        fn api_lifecycle_removed() -> Option<Release> {
            Some((1, 16))
        }
        fn api_lifecycle_replacement() -> Option<GroupVersionKind> {
            Some(GroupVersionKind::new("apps", "v1", "Deployment"))
        }
    }

    #[test]
    fn warning_once_deprecated() {
        let gvk = GroupVersionKind::new("apps", "v1beta2", "Deployment");
        assert_eq!(Beta::deprecation_warning(&gvk, (1, 11)), None);
        assert_eq!(
            Beta::deprecation_warning(&gvk, (1, 12)).as_deref(),
            Some("apps/v1beta2 Deployment is deprecated in v1.12+, unavailable in v1.16+; use apps/v1 Deployment")
        );
    }
}
