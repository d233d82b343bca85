//! Scheme tests through `apis::install`: every kind is registered under its GVK, `new_object`
//! builds the right type, version priorities are as declared, and external kinds work as
//! kube-rs resources.

use apis::{apiextensions, apps, core};
use kube_apimachinery::{GroupKind, GroupVersion, GroupVersionKind, Object, Scheme};

fn scheme() -> Scheme {
    apis::scheme().expect("install succeeds")
}

/// The kinds of a few group-versions, as k8s.io/api and this crate's own groups declare them.
const KINDS: &[(&str, &str, &[&str])] = &[
    ("apiextensions.k8s.io", "__internal", CRD_KINDS),
    ("apiextensions.k8s.io", "v1", CRD_KINDS),
    ("apiextensions.k8s.io", "v1beta1", CRD_KINDS),
    ("apps", "v1", APPS_KINDS),
    (
        "apps",
        "v1beta1",
        &[
            "ControllerRevision",
            "ControllerRevisionList",
            "Deployment",
            "DeploymentList",
            "DeploymentRollback",
            "Scale",
            "StatefulSet",
            "StatefulSetList",
        ],
    ),
    (
        "autoscaling",
        "v1",
        &["HorizontalPodAutoscaler", "HorizontalPodAutoscalerList", "Scale"],
    ),
    ("coordination.k8s.io", "v1", &["Lease", "LeaseList"]),
    ("rbac.authorization.k8s.io", "v1", RBAC_KINDS),
    ("widgets.example.dev", "__internal", WIDGET_KINDS),
    ("widgets.example.dev", "v1", WIDGET_KINDS),
    ("widgets.example.dev", "v1alpha1", WIDGET_KINDS),
];
const RBAC_KINDS: &[&str] = &[
    "ClusterRole",
    "ClusterRoleBinding",
    "ClusterRoleBindingList",
    "ClusterRoleList",
    "Role",
    "RoleBinding",
    "RoleBindingList",
    "RoleList",
];
const WIDGET_KINDS: &[&str] = &["Widget", "WidgetClass", "WidgetClassList", "WidgetList"];
const APPS_KINDS: &[&str] = &[
    "ControllerRevision",
    "ControllerRevisionList",
    "DaemonSet",
    "DaemonSetList",
    "Deployment",
    "DeploymentList",
    "ReplicaSet",
    "ReplicaSetList",
    "StatefulSet",
    "StatefulSetList",
];
const CRD_KINDS: &[&str] = &["CustomResourceDefinition", "CustomResourceDefinitionList"];

/// The kinds of k8s.io/api v0.36.3: its 316 structs that embed TypeMeta (kinds, lists and options
/// kinds; `grep -rE '^\s+(metav1\.|v1\.)?TypeMeta\b' --include=types.go` over the tag), and core/v1's
/// `List`, which is `metav1.List` under core's name (register.go adds it too).
const K8S_API_KINDS: usize = 317;

#[test]
fn every_kind_is_recognised_under_its_gvk() {
    let scheme = scheme();
    for (group, version, kinds) in KINDS {
        let gv = GroupVersion::new(*group, *version);
        let known: Vec<String> = scheme.known_types(&gv).into_keys().collect();
        assert_eq!(known, *kinds, "kinds of {gv}");
        for kind in *kinds {
            let gvk = gv.with_kind(*kind);
            assert!(scheme.recognizes(&gvk), "{gvk}");
        }
    }
    let ours = ["apiextensions.k8s.io", "widgets.example.dev"];
    let imported = scheme
        .all_known_types()
        .into_keys()
        .filter(|gvk| !ours.contains(&gvk.group.as_ref()))
        .count();
    assert_eq!(imported, K8S_API_KINDS, "every kind of k8s.io/api is registered");
}

#[test]
fn new_object_builds_the_registered_type() {
    let scheme = scheme();
    for (gvk, type_name) in scheme.all_known_types() {
        let obj = scheme.new_object(&gvk).unwrap();
        assert_eq!(obj.type_name(), type_name, "{gvk}");
        assert_eq!(obj.group_version_kind().as_ref(), Some(&gvk));
        assert_eq!(scheme.object_kinds(obj.as_ref()).unwrap(), std::slice::from_ref(&gvk));
    }
    let d = scheme
        .new_object(&apps::v1::SCHEME_GROUP_VERSION.with_kind("Deployment"))
        .unwrap();
    assert!(d.downcast_ref::<apps::v1::Deployment>().is_some());
    let crd = scheme
        .new_object(&apiextensions::SCHEME_GROUP_VERSION.with_kind("CustomResourceDefinition"))
        .unwrap();
    assert!(crd.downcast_ref::<apiextensions::CustomResourceDefinition>().is_some());
    let p = scheme.new_object(&GroupVersionKind::new("", "v1", "Pod")).unwrap();
    assert!(p.downcast_ref::<core::v1::Pod>().is_some());
    assert!(scheme.new_object(&GroupVersionKind::new("apps", "v1", "Pod")).is_err());
}

#[test]
fn priorities_are_as_declared() {
    let scheme = scheme();
    let apps_v1 = GroupVersion::new("apps", "v1");
    let apps_v1beta1 = GroupVersion::new("apps", "v1beta1");
    let apps_v1beta2 = GroupVersion::new("apps", "v1beta2");
    // As Kubernetes' apps install: v1, then v1beta2, then v1beta1 (no priority is set: the
    // Scheme orders versions as Kubernetes does).
    assert_eq!(
        scheme.prioritized_versions_for_group("apps"),
        [apps_v1.clone(), apps_v1beta2.clone(), apps_v1beta1.clone()]
    );
    assert_eq!(scheme.prioritized_versions_for_group(""), [GroupVersion::new("", "v1")]);
    assert_eq!(
        scheme.versions_for_group_kind(&GroupKind::new("apps", "Deployment")),
        [apps_v1.clone(), apps_v1beta2.clone(), apps_v1beta1.clone()]
    );
    assert_eq!(
        scheme.versions_for_group_kind(&GroupKind::new("apps", "StatefulSet")),
        [apps_v1.clone(), apps_v1beta2.clone(), apps_v1beta1.clone()]
    );
    // apps/v1beta1 has no ReplicaSet.
    assert_eq!(
        scheme.versions_for_group_kind(&GroupKind::new("apps", "ReplicaSet")),
        [apps_v1.clone(), apps_v1beta2.clone()]
    );
    assert!(scheme.is_group_registered("apps") && scheme.is_group_registered(""));
    assert!(scheme.is_version_registered(&apps_v1));
    assert!(scheme.is_version_registered(&apps_v1beta1));
    assert!(scheme.is_version_registered(&apps_v1beta2));
    assert!(!scheme.is_version_registered(&GroupVersion::new("apps", "v1alpha1")));
    assert!(!scheme.is_group_registered("example.com"));
    // autoscaling prefers v2, then v1 (k8s.io/api v0.36 has no v2beta1 or v2beta2 any more).
    assert_eq!(
        scheme.prioritized_versions_for_group("autoscaling"),
        ["v2", "v1"].map(|v| GroupVersion::new("autoscaling", v))
    );
}

#[test]
fn installing_twice_is_a_no_op() {
    let mut scheme = scheme();
    let before = scheme.all_known_types();
    apis::install(&mut scheme).unwrap();
    assert_eq!(scheme.all_known_types(), before);
}

#[test]
fn external_kinds_are_kube_resources() {
    use kube_core::Resource;
    assert_eq!(apps::v1::Deployment::plural(&()), "deployments");
    assert_eq!(apps::v1::Deployment::api_version(&()), "apps/v1");
    assert_eq!(
        apps::v1::Deployment::url_path(&(), Some("ns")),
        "/apis/apps/v1/namespaces/ns/deployments"
    );
    assert_eq!(apps::v1::StatefulSet::plural(&()), "statefulsets");
    assert_eq!(apps::v1beta1::Deployment::api_version(&()), "apps/v1beta1");
    assert_eq!(
        apps::v1beta2::StatefulSet::url_path(&(), Some("ns")),
        "/apis/apps/v1beta2/namespaces/ns/statefulsets"
    );
    assert_eq!(core::v1::Pod::url_path(&(), Some("ns")), "/api/v1/namespaces/ns/pods");
    assert_eq!(core::v1::ConfigMap::plural(&()), "configmaps");
    // Namespace is cluster-scoped: its URL never carries a namespace segment.
    assert_eq!(core::v1::Namespace::url_path(&(), None), "/api/v1/namespaces");
    assert_eq!(
        <core::v1::Namespace as k8s_openapi::Resource>::URL_PATH_SEGMENT,
        "namespaces"
    );
    assert_eq!(
        <apps::v1::Deployment as k8s_openapi::ListableResource>::LIST_KIND,
        "DeploymentList"
    );
    let mut d = apps::v1::Deployment::default();
    d.meta_mut().name = Some("web".into());
    assert_eq!(d.meta().name.as_deref(), Some("web"));
}

#[test]
fn namespace_scope_is_cluster() {
    fn cluster<K: k8s_openapi::Resource<Scope = k8s_openapi::ClusterResourceScope>>() {}
    fn namespaced<K: k8s_openapi::Resource<Scope = k8s_openapi::NamespaceResourceScope>>() {}
    cluster::<core::v1::Namespace>();
    namespaced::<core::v1::Pod>();
    namespaced::<apps::v1::Deployment>();
}

#[test]
fn deep_copy_object_is_independent() {
    let mut d = apps::v1::Deployment::default();
    d.metadata.name = Some("a".into());
    let copy: Box<dyn Object> = d.deep_copy_object();
    d.metadata.name = Some("b".into());
    assert_eq!(
        copy.downcast_ref::<apps::v1::Deployment>()
            .unwrap()
            .metadata
            .name
            .as_deref(),
        Some("a")
    );
}

/// Our kinds' k8s-openapi metadata equals k8s-openapi's own for the same Kubernetes kinds.
#[test]
fn resource_metadata_matches_k8s_openapi() {
    use k8s_openapi::{ListableResource, Resource};
    fn same<A: Resource, B: Resource>() {
        assert_eq!(
            (A::API_VERSION, A::GROUP, A::KIND, A::VERSION, A::URL_PATH_SEGMENT),
            (B::API_VERSION, B::GROUP, B::KIND, B::VERSION, B::URL_PATH_SEGMENT),
            "{}",
            A::KIND
        );
        assert_eq!(
            std::any::type_name::<A::Scope>().rsplit("::").next(),
            std::any::type_name::<B::Scope>().rsplit("::").next()
        );
    }
    fn same_list<A: ListableResource, B: ListableResource>() {
        assert_eq!(A::LIST_KIND, B::LIST_KIND);
    }
    use k8s_openapi::api as k;
    same::<apps::v1::Deployment, k::apps::v1::Deployment>();
    same::<apps::v1::StatefulSet, k::apps::v1::StatefulSet>();
    same::<apps::v1::ReplicaSet, k::apps::v1::ReplicaSet>();
    same::<core::v1::Pod, k::core::v1::Pod>();
    same::<core::v1::ConfigMap, k::core::v1::ConfigMap>();
    same::<core::v1::Namespace, k::core::v1::Namespace>();
    same::<core::v1::PodTemplate, k::core::v1::PodTemplate>();
    same::<core::v1::ServiceAccount, k::core::v1::ServiceAccount>();
    same::<apis::autoscaling::v1::Scale, k::autoscaling::v1::Scale>();
    same::<
        apis::apiextensions::v1::CustomResourceDefinition,
        k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition,
    >();
    same_list::<apps::v1::Deployment, k::apps::v1::Deployment>();
    same_list::<core::v1::Pod, k::core::v1::Pod>();
}

/// `+k8s:conversion-gen:explicit-from=net/url.Values`: the Scheme decodes PodLogOptions from a log
/// request's query, by Go's rules (first value, `0`/`false` are false, absent is unset), and the
/// generated `FromQuery` reports a value that does not parse with its parameter.
#[test]
fn options_kinds_decode_from_query_parameters() {
    use apis::core::v1::PodLogOptions;
    use kube_apimachinery::query::{FromQuery, Values};
    let scheme = scheme();
    let gvk = GroupVersion::new("", "v1").with_kind("PodLogOptions");
    let query =
        Values::parse("follow=true&tailLines=10&container=app&previous=0&sinceTime=2024-01-02T03:04:05Z&extra=x");
    let obj = scheme.decode_query(&gvk, &query).unwrap();
    assert_eq!(obj.group_version_kind(), Some(gvk.clone()));
    let opts = obj.downcast_ref::<PodLogOptions>().unwrap();
    assert_eq!(opts.follow, Some(true));
    assert_eq!(opts.previous, Some(false));
    assert_eq!(opts.tail_lines, Some(10));
    assert_eq!(opts.container.as_deref(), Some("app"));
    assert_eq!(opts.limit_bytes, None);
    assert_eq!(
        serde_json::to_value(&opts.since_time).unwrap(),
        serde_json::json!("2024-01-02T03:04:05Z")
    );
    let err = PodLogOptions::from_query_str("tailLines=ten").unwrap_err();
    assert_eq!(err.parameter, "tailLines");
    assert!(
        scheme
            .decode_query(&GroupVersion::new("", "v1").with_kind("Pod"), &query)
            .is_err()
    );
}

#[test]
fn pods_and_namespaces_select_on_their_indexed_fields_only() {
    let scheme = scheme();
    let pod = core::v1::SCHEME_GROUP_VERSION.with_kind("Pod");
    assert_eq!(
        scheme.convert_field_label(&pod, "status.phase", "Running").unwrap(),
        ("status.phase".to_string(), "Running".to_string())
    );
    assert!(scheme.convert_field_label(&pod, "metadata.name", "p").is_ok());
    assert!(scheme.convert_field_label(&pod, "spec.containers", "x").is_err());
    let ns = core::v1::SCHEME_GROUP_VERSION.with_kind("Namespace");
    assert!(scheme.convert_field_label(&ns, "status.phase", "Active").is_ok());
    assert!(scheme.convert_field_label(&ns, "spec.nodeName", "n").is_err());
}
