//! Prerelease lifecycle of the mirrored kinds, compared with the values Kubernetes' own
//! zz_generated.prerelease-lifecycle.go files return for them.

use apis::{apiextensions, apps, core};
use kube_apimachinery::{ApiLifecycle, GroupVersionKind, Release};

fn facts<T: ApiLifecycle>() -> (Release, Option<Release>, Option<Release>, Option<GroupVersionKind>) {
    (
        T::api_lifecycle_introduced(),
        T::api_lifecycle_deprecated(),
        T::api_lifecycle_removed(),
        T::api_lifecycle_replacement(),
    )
}

#[test]
fn beta_versions_follow_kubernetes() {
    let apps_v1 = |k: &str| Some(GroupVersionKind::new("apps", "v1", k));
    assert_eq!(
        facts::<apps::v1beta1::Deployment>(),
        ((1, 6), Some((1, 8)), Some((1, 16)), apps_v1("Deployment"))
    );
    assert_eq!(
        facts::<apps::v1beta1::StatefulSet>(),
        ((1, 5), Some((1, 8)), Some((1, 16)), apps_v1("StatefulSet"))
    );
    assert_eq!(
        facts::<apps::v1beta2::Deployment>(),
        ((1, 8), Some((1, 9)), Some((1, 16)), apps_v1("Deployment"))
    );
    assert_eq!(
        facts::<apps::v1beta2::ReplicaSet>(),
        ((1, 8), Some((1, 9)), Some((1, 16)), apps_v1("ReplicaSet"))
    );
    let crd_v1 = Some(GroupVersionKind::new(
        "apiextensions.k8s.io",
        "v1",
        "CustomResourceDefinition",
    ));
    assert_eq!(
        facts::<apiextensions::v1beta1::CustomResourceDefinition>(),
        ((1, 7), Some((1, 16)), Some((1, 22)), crd_v1)
    );
}

#[test]
fn ga_versions_are_never_deprecated_by_default() {
    assert_eq!(facts::<apps::v1::Deployment>(), ((1, 9), None, None, None));
    assert_eq!(facts::<core::v1::Pod>().1, None);
    assert_eq!(
        facts::<apiextensions::v1::CustomResourceDefinition>(),
        ((1, 16), None, None, None)
    );
}

#[test]
fn servers_can_word_the_deprecation_warning() {
    let gvk = apps::v1beta1::SCHEME_GROUP_VERSION.with_kind("Deployment");
    assert_eq!(
        apps::v1beta1::Deployment::deprecation_warning(&gvk, (1, 15)).as_deref(),
        Some("apps/v1beta1 Deployment is deprecated in v1.8+, unavailable in v1.16+; use apps/v1 Deployment")
    );
    assert_eq!(apps::v1beta1::Deployment::deprecation_warning(&gvk, (1, 7)), None);
}

/// The Scheme knows which kinds a release no longer serves: what kube-apiserver leaves out.
#[test]
fn the_scheme_knows_what_a_release_removed() {
    let scheme = apis::scheme().unwrap();
    let kind = |g: &str, v: &str, k: &str| GroupVersionKind::new(g, v, k);
    assert!(scheme.is_removed(&kind("apps", "v1beta1", "Deployment"), (1, 36)));
    assert!(!scheme.is_removed(&kind("apps", "v1beta1", "Deployment"), (1, 15)));
    assert!(scheme.is_removed(
        &kind("apiextensions.k8s.io", "v1beta1", "CustomResourceDefinition"),
        (1, 36)
    ));
    assert!(
        !scheme.is_removed(&kind("apps", "v1", "Deployment"), (1, 36)),
        "GA never goes"
    );
    assert!(!scheme.is_removed(&kind("widgets.example.dev", "v1alpha1", "Widget"), (1, 36)));
    assert!(scheme.is_removed(&kind("widgets.example.dev", "v1alpha1", "Widget"), (1, 37)));
}
