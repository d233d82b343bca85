//! The model as generators see it: packages with group and version, types with docs and tags,
//! fields with JSON names, optionality, flattening and resolved types, and the hand-written
//! functions of each package.

use super::verb::Verb;
use super::version::INTERNAL_VERSION;
use super::{External, TypeId, TypeRef, Universe};
use crate::diag::Diagnostics;
use crate::parse::tree::{Memory, load};

/// The model of an in-memory tree; any error fails the test.
pub(crate) fn universe(files: &[(&str, &str)]) -> Universe {
    let (u, errors) = universe_with_errors(files);
    assert!(errors.is_empty(), "{errors:#?}");
    u
}

/// The model of an in-memory tree and every error, as `file:line:col: message`.
pub(crate) fn universe_with_errors(files: &[(&str, &str)]) -> (Universe, Vec<String>) {
    let mut d = Diagnostics::new();
    let sources = Memory(files.iter().map(|(p, t)| (p.to_string(), t.to_string())).collect());
    let loaded = load("src", &sources, &mut d);
    let u = super::build(&loaded.files, &mut d);
    super::check::check(&u, &mut d);
    let errors = d
        .into_vec()
        .into_iter()
        .map(|e| format!("{}: {}", e.loc, e.message))
        .collect();
    (u, errors)
}

const GROUP: &str = "//! Internal.\n//! +groupName=apps\n//! +k8s:deepcopy-gen=package\npub mod v1;\nmod conversion;\n";
const V1: &str = "//! V1.\n//! +k8s:deepcopy-gen=package\nmod types;\npub use types::*;\n";
const TYPES: &str = r#"//! Types.
use std::collections::BTreeMap;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use kube_core::TypeMeta;
use crate::core::v1 as corev1;

/// Deployment enables declarative updates.
///
/// Second paragraph.
/// +genclient
#[derive(Debug, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Deployment {
    /// Type meta.
    #[serde(flatten, default)]
    pub type_meta: Option<TypeMeta>,
    /// Metadata.
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// Host IP.
    /// +optional
    #[serde(rename = "hostIP")]
    pub host_ip: String,
    /// Labels.
    pub match_labels: BTreeMap<String, String>,
    /// Template.
    /// +required
    pub template: Option<corev1::PodTemplateSpec>,
    /// Count.
    #[serde(default)]
    pub min_ready_seconds: i32,
}
"#;
const CONVERSION: &str = "//! Hand-written.\npub fn convert_v1_deployment_to_apps_deployment(a: &super::v1::Deployment, b: &mut Deployment, s: &mut runtime::Scheme) -> Result<(), String> { Ok(()) }\n";
const CORE: &str = "//! Core.\n//! +groupName=\nmod types;\npub use types::*;\n";
const CORE_TYPES: &str = "//! T.\n/// Template.\npub struct PodTemplateSpec { pub name: String }\n";

#[test]
fn packages_types_fields_and_functions() {
    let u = universe(&[
        ("apps/mod.rs", GROUP),
        ("apps/conversion.rs", CONVERSION),
        ("apps/v1/mod.rs", V1),
        ("apps/v1/types.rs", TYPES),
        ("core/mod.rs", "pub mod v1;\n"),
        ("core/v1/mod.rs", CORE),
        ("core/v1/types.rs", CORE_TYPES),
        ("lib.rs", "//! Root.\npub mod apps;\npub mod core;\n"),
    ]);
    assert_eq!(
        u.packages.keys().collect::<Vec<_>>(),
        ["crate::apps", "crate::apps::v1", "crate::core::v1"]
    );
    let internal = &u.packages["crate::apps"];
    assert_eq!(
        (
            internal.group.as_str(),
            internal.version.as_str(),
            internal.dir.as_str()
        ),
        ("apps", INTERNAL_VERSION, "apps")
    );
    let f = &internal.functions["convert_v1_deployment_to_apps_deployment"];
    assert_eq!(f.module, "crate::apps::conversion");
    let written: Vec<&str> = f.params.iter().map(|p| p.written.as_str()).collect();
    assert_eq!(
        written,
        ["&super::v1::Deployment", "&mut Deployment", "&mut runtime::Scheme"]
    );
    assert_eq!(f.returns, super::Returns::Other("Result<(), String>".into()));
    let (v1, apps) = (
        TypeId {
            package: "crate::apps::v1".into(),
            name: "Deployment".into(),
        },
        TypeId {
            package: "crate::apps".into(),
            name: "Deployment".into(),
        },
    );
    assert_eq!(f.params[0].ty, Some(TypeRef::Named(v1.clone())));
    assert!(!f.has_signature(
        &[(super::Pass::Ref, &v1), (super::Pass::RefMut, &apps)],
        &super::Returns::ConversionResult
    ));
    assert_eq!((f.loc.line, f.loc.col), (2, 8));

    let v1 = &u.packages["crate::apps::v1"];
    assert_eq!(
        (v1.group.as_str(), v1.version.as_str()),
        ("apps", "v1"),
        "a version inherits its parent's group"
    );
    assert_eq!(u.packages["crate::core::v1"].group, "");
    let d = &v1.types["Deployment"];
    assert_eq!(d.module, "crate::apps::v1::types");
    assert_eq!(
        d.docs,
        ["Deployment enables declarative updates.", "", "Second paragraph."]
    );
    assert!(d.tags.has("genclient") && d.is_kind() && d.serde);
    assert_eq!((d.loc.line, d.loc.col), (13, 12));
    let fields: Vec<(&str, &str, bool, bool)> = d
        .fields()
        .iter()
        .map(|f| (f.name.as_str(), f.json_name.as_str(), f.optional, f.flatten))
        .collect();
    assert_eq!(
        fields,
        [
            ("type_meta", "typeMeta", true, true),
            ("metadata", "metadata", true, false),
            ("host_ip", "hostIP", true, false),
            ("match_labels", "matchLabels", false, false),
            ("template", "template", false, false),
            ("min_ready_seconds", "minReadySeconds", true, false),
        ]
    );
    let ty = |name: &str| &d.fields().iter().find(|f| f.name == name).unwrap().ty;
    assert!(ty("metadata").is_external(External::ObjectMeta));
    assert!(matches!(ty("match_labels"), TypeRef::Map { ordered: true, .. }));
    assert_eq!(
        ty("template"),
        &TypeRef::Option(Box::new(TypeRef::Named(TypeId {
            package: "crate::core::v1".into(),
            name: "PodTemplateSpec".into()
        })))
    );
    let host = d.fields().iter().find(|f| f.name == "host_ip").unwrap();
    assert_eq!((host.tags.0[0].loc.line, host.tags.0[0].loc.col), (21, 9));
}

/// A package `crate::g::v1` (group `g.example.dev`) with `types` as its types file.
fn package(package_tags: &str, types: &str) -> (Universe, Vec<String>) {
    let header =
        "use k8s_openapi::apimachinery::pkg::apis::meta::v1::{ListMeta, ObjectMeta};\nuse kube_core::TypeMeta;\n";
    let types = format!("{header}{types}");
    let mod_rs = format!("//! +groupName=g.example.dev\n{package_tags}mod types;\npub use types::*;\n");
    universe_with_errors(&[
        ("lib.rs", "pub mod g;"),
        ("g/mod.rs", "pub mod v1;"),
        ("g/v1/mod.rs", &mod_rs),
        ("g/v1/types.rs", &types),
    ])
}

/// A kind `K` with the given type tags and optionally a status field.
fn kind(tags: &str, status: bool) -> String {
    let status = if status { "pub status: Option<String>," } else { "" };
    format!(
        "{tags}\n#[derive(serde::Serialize)]\npub struct K {{ #[serde(flatten)] pub type_meta: Option<TypeMeta>, pub metadata: ObjectMeta, {status} }}\n\
         #[derive(serde::Serialize)]\npub struct KList {{ #[serde(flatten)] pub type_meta: Option<TypeMeta>, pub metadata: ListMeta, pub items: Vec<K> }}\n"
    )
}

fn verbs(tags: &str, status: bool) -> Vec<&'static str> {
    let (u, errors) = package("", &kind(tags, status));
    assert!(errors.is_empty(), "{errors:?}");
    let ty = &u.packages["crate::g::v1"].types["K"];
    let client = ty.resource().unwrap().client.as_ref().expect("a client");
    client.verbs.iter().map(|v| v.as_str()).collect()
}

#[test]
fn client_verbs_follow_every_genclient_variant() {
    let all = [
        "create",
        "update",
        "updateStatus",
        "delete",
        "deleteCollection",
        "get",
        "list",
        "watch",
        "patch",
        "apply",
        "applyStatus",
    ];
    assert_eq!(verbs("/// +genclient", true), all);
    let without_status: Vec<&str> = all.iter().copied().filter(|v| !v.ends_with("Status")).collect();
    assert_eq!(verbs("/// +genclient", false), without_status, "no status field");
    assert_eq!(verbs("/// +genclient\n/// +genclient:noStatus", true), without_status);
    assert_eq!(
        verbs("/// +genclient\n/// +genclient:readonly", true),
        ["get", "list", "watch"]
    );
    assert_eq!(
        verbs("/// +genclient\n/// +genclient:onlyVerbs=create,get", true),
        ["create", "get"]
    );
    assert_eq!(
        verbs(
            "/// +genclient\n/// +genclient:skipVerbs=delete,deleteCollection,watch",
            true
        ),
        [
            "create",
            "update",
            "updateStatus",
            "get",
            "list",
            "patch",
            "apply",
            "applyStatus"
        ]
    );
    assert!(verbs("/// +genclient\n/// +genclient:noVerbs", true).is_empty());
    let (_, errors) = package(
        "",
        &kind(
            "/// +genclient\n/// +genclient:readonly\n/// +genclient:skipVerbs=list",
            true,
        ),
    );
    assert_eq!(
        errors,
        ["src/g/v1/types.rs:5:5: verb `list` is both skipped and the only verbs of `K`"]
    );
    let (_, errors) = package(
        "",
        &kind(
            "/// +genclient\n/// +genclient:onlyVerbs=get,list\n/// +genclient:skipVerbs=watch",
            true,
        ),
    );
    assert_eq!(
        errors,
        ["src/g/v1/types.rs:5:5: `K` has both `+genclient:onlyVerbs` and `+genclient:skipVerbs`"]
    );
}

#[test]
fn resources_decide_plural_scope_subresources_and_methods() {
    let types = kind(
        "/// +genclient\n/// +genclient:nonNamespaced\n/// +resourceName=kays\n\
         /// +genclient:method=GetScale,verb=get,subresource=scale,result=Scale\n\
         /// +genclient:method=ListOthers,verb=list",
        true,
    ) + "#[derive(serde::Serialize)]\npub struct Scale { #[serde(flatten)] pub type_meta: Option<TypeMeta>, pub metadata: ObjectMeta }\n";
    let (u, errors) = package("", &types);
    assert!(errors.is_empty(), "{errors:?}");
    let pkg = &u.packages["crate::g::v1"];
    let k = pkg.types["K"].kind.as_ref().unwrap();
    assert_eq!(k.list.as_deref(), Some("KList"));
    assert!(!k.is_list && k.object_meta.as_deref() == Some("metadata"));
    let r = k.resource.as_ref().unwrap();
    assert_eq!(
        (r.plural.as_str(), r.singular.as_str(), r.scope),
        ("kays", "k", super::Scope::Cluster)
    );
    let subresources: Vec<&str> = r.subresources.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(
        subresources,
        ["status", "scale"],
        "status from the field, scale from the method"
    );
    let methods = &r.client.as_ref().unwrap().methods;
    assert_eq!(methods[0].result, TypeRef::Named(pkg.id("Scale")));
    assert_eq!(methods[0].input, TypeRef::Named(pkg.id("K")));
    assert_eq!(
        methods[1].result,
        TypeRef::Named(pkg.id("KList")),
        "a list method answers with the list"
    );
    assert!(pkg.types["KList"].kind.as_ref().unwrap().is_list);
    assert!(pkg.types["KList"].resource().is_none(), "lists are no resources");
    assert_eq!(pkg.api_version, "g.example.dev/v1");
    assert_eq!(
        (pkg.accessor.as_str(), pkg.model_package.as_str()),
        ("g_v1", "dev.example.g.v1")
    );
}

/// lister-gen selects kinds whose client can list and get, informer-gen those that can list and
/// watch; the model decides both once, with their names.
#[test]
fn listers_and_informers_follow_the_client_verbs() {
    let cases = [
        ("/// +genclient", true, true),
        ("/// +genclient\n/// +genclient:readonly", true, true),
        ("/// +genclient\n/// +genclient:onlyVerbs=list,get", true, false),
        ("/// +genclient\n/// +genclient:onlyVerbs=list,watch", false, true),
        ("/// +genclient\n/// +genclient:skipVerbs=watch", true, false),
        ("/// +genclient\n/// +genclient:noVerbs", false, false),
    ];
    for (tags, lister, informer) in cases {
        let (u, errors) = package("", &kind(tags, true));
        assert!(errors.is_empty(), "{tags}: {errors:?}");
        let pkg = &u.packages["crate::g::v1"];
        let client = pkg.types["K"].client().unwrap();
        assert_eq!(client.listers.is_some(), lister, "{tags}: lister");
        assert_eq!(client.informer.is_some(), informer, "{tags}: informer");
        if lister && informer {
            assert_eq!(
                client.listers.clone().unwrap(),
                ("KLister".into(), "KNamespaceLister".into())
            );
            assert_eq!(client.informer.as_deref(), Some("KInformer"));
            assert_eq!(pkg.informer_group, ("g".into(), "GInformers".into()));
            assert_eq!(pkg.informer_version, ("v1".into(), "GV1Informers".into()));
        }
    }
}

/// Three versions of group `g.example.dev`, each with `K` and its list; `tagged` versions carry
/// `+k8s:crd-gen:storageversion` on `K`.
fn versions(tagged: &[&str]) -> Universe {
    let header =
        "use k8s_openapi::apimachinery::pkg::apis::meta::v1::{ListMeta, ObjectMeta};\nuse kube_core::TypeMeta;\n";
    let mut files = vec![
        ("lib.rs".to_string(), "pub mod g;".to_string()),
        (
            "g/mod.rs".to_string(),
            "//! +groupName=g.example.dev\npub mod v1;\npub mod v1beta1;\npub mod v2alpha1;\n".to_string(),
        ),
    ];
    for v in ["v1", "v1beta1", "v2alpha1"] {
        let tag = if tagged.contains(&v) {
            "/// +k8s:crd-gen:storageversion"
        } else {
            "/// K."
        };
        files.push((
            format!("g/{v}/mod.rs"),
            "//! +k8s:crd-gen=true\nmod types;\npub use types::*;\n".to_string(),
        ));
        let tags = format!("{tag}\n/// +k8s:crd-gen:subresource:status");
        files.push((format!("g/{v}/types.rs"), format!("{header}{}", kind(&tags, true))));
    }
    let files: Vec<(&str, &str)> = files.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
    universe(&files)
}

#[test]
fn storage_versions_are_decided_per_group_resource() {
    let storage = |u: &Universe| -> Vec<String> {
        ["v1", "v1beta1", "v2alpha1"]
            .iter()
            .map(|v| {
                u.packages[&format!("crate::g::{v}")].types["K"]
                    .resource()
                    .unwrap()
                    .storage_version
                    .clone()
            })
            .collect()
    };
    assert_eq!(storage(&versions(&[])), ["v1", "v1", "v1"], "the preferred version");
    assert_eq!(
        storage(&versions(&["v1beta1"])),
        ["v1beta1", "v1beta1", "v1beta1"],
        "the tagged version"
    );
    let u = versions(&[]);
    let subs = &u.packages["crate::g::v1beta1"].types["K"]
        .resource()
        .unwrap()
        .subresources;
    assert_eq!(
        subs.iter()
            .map(|s| (s.name.as_str(), s.version.as_str(), s.kind.as_str()))
            .collect::<Vec<_>>(),
        [("status", "v1beta1", "K")]
    );

    // A custom resource has only the subresources its CRD names, whatever its fields.
    let (u, errors) = package("//! +k8s:crd-gen=true\n", &kind("/// +genclient", true));
    assert!(errors.is_empty(), "{errors:?}");
    let r = u.packages["crate::g::v1"].types["K"].resource().unwrap();
    assert!(r.subresources.is_empty(), "{:?}", r.subresources);
    assert!(!r.client.as_ref().unwrap().verbs.contains(&Verb::UpdateStatus));
}

#[test]
fn a_scale_method_names_the_kind_its_subresource_serves() {
    let types = kind(
        "/// +genclient\n/// +genclient:method=GetScale,verb=get,subresource=scale,result=Scale",
        true,
    ) + "#[derive(serde::Serialize)]\npub struct Scale { #[serde(flatten)] pub type_meta: Option<TypeMeta>, pub metadata: ObjectMeta }\n";
    let (u, errors) = package("", &types);
    assert!(errors.is_empty(), "{errors:?}");
    let subs = &u.packages["crate::g::v1"].types["K"].resource().unwrap().subresources;
    assert_eq!(
        subs.iter()
            .map(|s| (s.name.as_str(), s.group.as_str(), s.kind.as_str()))
            .collect::<Vec<_>>(),
        [("status", "g.example.dev", "K"), ("scale", "g.example.dev", "Scale")]
    );
}

#[test]
fn clients_get_apply_verbs_only_with_an_apply_configuration() {
    let (u, errors) = package("", &kind("/// +genclient", true));
    assert!(errors.is_empty(), "{errors:?}");
    let client = u.packages["crate::g::v1"].types["K"].client().unwrap();
    assert_eq!(
        client.apply_configuration,
        Some(super::kind::ApplyConfigurationRef {
            module: "g_v1".into(),
            name: "KApplyConfiguration".into()
        })
    );
    assert!(client.verbs.contains(&Verb::Apply) && client.verbs.contains(&Verb::ApplyStatus));
    assert_eq!(
        (client.verbs_marker.as_str(), client.extension.as_deref()),
        ("KVerbs", None)
    );
}

#[test]
fn namespaces_count_no_generation() {
    let types = "/// +genclient\n/// +genclient:nonNamespaced\n#[derive(serde::Serialize)]\n\
                 pub struct Namespace { #[serde(flatten)] pub type_meta: Option<TypeMeta>, pub metadata: ObjectMeta, pub spec: Option<String> }\n";
    let (u, errors) = universe_with_errors(&[
        ("lib.rs", "pub mod core;"),
        ("core/mod.rs", "pub mod v1;"),
        ("core/v1/mod.rs", "//! +groupName=\nmod types;\npub use types::*;\n"),
        (
            "core/v1/types.rs",
            &format!(
                "use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;\nuse kube_core::TypeMeta;\n{types}"
            ),
        ),
    ]);
    assert!(errors.is_empty(), "{errors:?}");
    let r = u.packages["crate::core::v1"].types["Namespace"].resource().unwrap();
    assert!(
        !r.generation && !r.namespaced(),
        "Kubernetes' namespace strategy counts none"
    );
    let (u, _) = package(
        "",
        &kind("/// +genclient", false).replace(
            "pub metadata: ObjectMeta,",
            "pub metadata: ObjectMeta, pub spec: Option<String>,",
        ),
    );
    let r = u.packages["crate::g::v1"].types["K"].resource().unwrap();
    assert!(r.generation && r.namespaced(), "a kind with a spec counts generations");
}

#[test]
fn kinds_without_object_meta_and_subresource_kinds() {
    let types = "#[derive(serde::Serialize)]\npub struct Review { #[serde(flatten)] pub type_meta: Option<TypeMeta>, pub request: Option<String> }\n\
                 /// +genclient\n/// +k8s:isSubresource=/scale\n#[derive(serde::Serialize)]\npub struct Scale { #[serde(flatten)] pub type_meta: Option<TypeMeta>, pub metadata: ObjectMeta }\n";
    let (u, errors) = package("", types);
    assert!(errors.is_empty(), "{errors:?}");
    let pkg = &u.packages["crate::g::v1"];
    let review = pkg.types["Review"].kind.as_ref().unwrap();
    assert!(
        review.object_meta.is_none() && review.resource.is_none(),
        "a kind, but not a resource"
    );
    let scale = pkg.types["Scale"].resource().unwrap();
    assert_eq!(
        (scale.plural.as_str(), scale.scope),
        ("scale", super::Scope::Subresource)
    );
    assert!(scale.client.is_none(), "a subresource kind has no client of its own");
}

#[test]
fn lifecycles_apply_upstreams_defaults() {
    let tags = "//! +k8s:prerelease-lifecycle-gen=true\n";
    let (u, errors) = package(tags, &kind("/// +k8s:prerelease-lifecycle-gen:introduced=1.20", false));
    assert_eq!(
        errors,
        ["src/g/v1/types.rs:7:12: kind `KList` has no `+k8s:prerelease-lifecycle-gen:introduced` tag"]
    );
    let l = u.packages["crate::g::v1"].types["K"]
        .kind
        .as_ref()
        .unwrap()
        .lifecycle
        .clone()
        .unwrap();
    assert_eq!(
        (l.introduced, l.deprecated, l.removed),
        ((1, 20), None, None),
        "GA: only when tagged"
    );
    let beta = universe_with_errors(&[
        ("lib.rs", "pub mod g;"),
        ("g/mod.rs", "pub mod v1beta1;"),
        (
            "g/v1beta1/mod.rs",
            "//! +groupName=g.example.dev\n//! +k8s:prerelease-lifecycle-gen=true\nmod types;\n",
        ),
        (
            "g/v1beta1/types.rs",
            "use kube_core::TypeMeta;\n/// +k8s:prerelease-lifecycle-gen:introduced=1.20\n/// +k8s:prerelease-lifecycle-gen:replacement=g.example.dev,v1,K\npub struct K { #[serde(flatten)] pub type_meta: Option<TypeMeta> }\n",
        ),
    ]);
    assert!(beta.1.is_empty(), "{:?}", beta.1);
    let l = beta.0.packages["crate::g::v1beta1"].types["K"]
        .kind
        .as_ref()
        .unwrap()
        .lifecycle
        .clone()
        .unwrap();
    assert_eq!((l.deprecated, l.removed), (Some((1, 23)), Some((1, 26))));
    assert_eq!(
        l.deprecation_warning("g.example.dev/v1beta1", "K").as_deref(),
        Some("g.example.dev/v1beta1 K is deprecated in v1.23+, unavailable in v1.26+; use g.example.dev/v1 K")
    );
}

#[test]
fn typed_tags_and_selections() {
    let tags = "//! +k8s:deepcopy-gen=package\n//! +k8s:defaulter-gen=ObjectMeta\n//! +k8s:openapi-gen=true\n";
    let types = "#[derive(serde::Serialize)]\n#[serde(rename_all = \"camelCase\")]\n/// +k8s:openapi-gen=false\npub struct A {\n\
                 /// +default={\"a\": 1}\n/// +listType=map\n/// +listMapKey=name\n/// +listMapKey=port\n/// +k8s:validation:maxItems=3\n\
                 pub items: Vec<B>,\n}\n/// +k8s:deepcopy-gen=false\n#[derive(serde::Serialize)]\npub struct B { pub name: String, pub port: i32 }\n\
                 pub struct G<T> { pub t: T }\n";
    let (u, errors) = package(tags, types);
    assert!(errors.is_empty(), "{errors:?}");
    let pkg = &u.packages["crate::g::v1"];
    assert_eq!(
        pkg.attrs.defaulter,
        Some(super::attrs::DefaulterRoots::Meta(External::ObjectMeta))
    );
    let (a, b, g) = (&pkg.types["A"], &pkg.types["B"], &pkg.types["G"]);
    assert!(a.selection.deepcopy && !a.selection.openapi && a.selection.defaults);
    assert!(!b.selection.deepcopy && b.selection.openapi);
    assert_eq!(
        g.selection,
        super::Selection {
            conversion: true,
            ..Default::default()
        },
        "generic types are never selected"
    );
    let f = &a.fields()[0].attrs;
    assert_eq!(f.default, Some(serde_json::json!({ "a": 1 })));
    assert_eq!(f.list_type, Some(super::attrs::ListType::Map));
    assert_eq!(f.list_map_keys, ["name", "port"]);
    assert_eq!(f.validations.get("maxItems"), Some(&serde_json::json!(3)));
}

#[test]
fn type_aliases_resolve_in_their_package_and_from_others() {
    let (u, errors) = universe_with_errors(&[
        ("lib.rs", "pub mod a;\npub mod b;"),
        ("a/mod.rs", "pub mod v1;"),
        (
            "a/v1/mod.rs",
            "//! +groupName=a.example.dev\nmod types;\npub use types::*;\n",
        ),
        (
            "a/v1/types.rs",
            "use std::collections::BTreeMap;\nuse k8s_openapi::apimachinery::pkg::api::resource::Quantity;\n\
             /// +k8s:validation:maxLength=6\npub type Protocol = String;\npub type ResourceList = BTreeMap<String, Quantity>;\n\
             pub struct P { pub protocol: Option<Protocol>, pub limits: ResourceList }\n",
        ),
        ("b/mod.rs", "pub mod v1;"),
        (
            "b/v1/mod.rs",
            "//! +groupName=b.example.dev\nmod types;\npub use types::*;\n",
        ),
        (
            "b/v1/types.rs",
            "use crate::a::v1::Protocol;\npub struct Q { pub p: Protocol, pub r: crate::a::v1::ResourceList }\n",
        ),
    ]);
    assert!(errors.is_empty(), "{errors:?}");
    let p = &u.packages["crate::a::v1"].types["P"];
    assert_eq!(p.fields()[0].ty, TypeRef::Option(Box::new(TypeRef::String)));
    assert!(matches!(&p.fields()[1].ty, TypeRef::Map { value, .. } if value.is_external(External::Quantity)));
    let q = &u.packages["crate::b::v1"].types["Q"];
    assert_eq!(q.fields()[0].ty, TypeRef::String);
    let alias = q.fields()[0].alias.as_ref().unwrap();
    assert_eq!(
        (alias.package.as_str(), alias.name.as_str()),
        ("crate::a::v1", "Protocol")
    );
    assert_eq!(
        u.alias(alias).unwrap().attrs.validations.get("maxLength"),
        Some(&serde_json::json!(6))
    );
    assert!(matches!(&q.fields()[1].ty, TypeRef::Map { .. }));
}

#[test]
fn the_2018_layout_and_cfg_test_modules() {
    let (u, errors) = universe_with_errors(&[
        ("lib.rs", "pub mod g;"),
        ("g.rs", "pub mod v1;"),
        (
            "g/v1.rs",
            "//! +groupName=g.example.dev\nmod types;\n#[cfg(test)]\nmod tests;\n",
        ),
        ("g/v1/types.rs", "pub struct T { pub a: String }\n"),
        ("g/v1/tests.rs", "/// +k8s:deepcopy-gen=maybe\npub struct Ignored;\n"),
    ]);
    assert!(errors.is_empty(), "{errors:?}");
    let pkg = &u.packages["crate::g::v1"];
    assert_eq!(
        (pkg.dir.as_str(), pkg.mod_dir.as_str(), &*pkg.mod_file),
        ("g/v1", "g", "src/g/v1.rs")
    );
    assert_eq!(pkg.types.keys().collect::<Vec<_>>(), ["T"]);
}

/// What Kubernetes' own generators accept although it means nothing is a warning, not an error:
/// `+listType=atomic` on a scalar, a `+unionDiscriminator` without members, and
/// `+k8s:isSubresource` with a quoted value (k8s.io/api v0.36.0 has all three).
#[test]
fn upstream_oddities_are_warnings() {
    let mut d = Diagnostics::new();
    let files = [
        ("lib.rs", "pub mod g;"),
        ("g/mod.rs", "pub mod v1;"),
        (
            "g/v1/mod.rs",
            "//! +groupName=g.example.dev\nmod types;\npub use types::*;\n",
        ),
        (
            "g/v1/types.rs",
            concat!(
                "/// +k8s:isSubresource=\"/scale\"\n",
                "#[derive(serde::Serialize, serde::Deserialize)]\n",
                "pub struct S {\n",
                "    /// +listType=atomic\n",
                "    pub side_effects: String,\n",
                "    /// +unionDiscriminator\n",
                "    pub patch_type: String,\n",
                "}\n",
            ),
        ),
    ];
    let sources = Memory(files.iter().map(|(p, t)| (p.to_string(), t.to_string())).collect());
    let loaded = load("src", &sources, &mut d);
    let u = super::build(&loaded.files, &mut d);
    super::check::check(&u, &mut d);
    let warnings = d.take_warnings();
    let errors = d.into_vec();
    assert!(errors.is_empty(), "{errors:#?}");
    assert!(
        warnings
            .iter()
            .any(|w| w.contains("warning: field `side_effects` of `S` is not a list")),
        "{warnings:?}"
    );
    assert!(
        warnings
            .iter()
            .any(|w| w.contains("warning: discriminator `patch_type` of `S` selects no member")),
        "{warnings:?}"
    );
    assert_eq!(
        u.packages["crate::g::v1"].types["S"].attrs.subresource_of.as_deref(),
        Some("scale")
    );
}

#[test]
fn zero_is_unset_is_read_on_options_of_scalars_only() {
    let types = "pub type Host = String;\n#[derive(serde::Serialize)]\npub struct A {\n\
                 /// +k8s:zeroIsUnset\npub host: Option<Host>,\n\
                 /// +k8s:zeroIsUnset\npub port: Option<i32>,\n\
                 /// +k8s:zeroIsUnset\npub plain: String,\n\
                 /// +k8s:zeroIsUnset\npub items: Option<Vec<String>>,\n}\n";
    let (u, errors) = package("", types);
    let a = &u.packages["crate::g::v1"].types["A"];
    let tagged: Vec<bool> = a.fields().iter().map(|f| f.attrs.zero_is_unset).collect();
    assert_eq!(tagged, [true, true, true, true]);
    assert_eq!(errors.len(), 2, "{errors:#?}");
    assert!(
        errors[0].contains("types.rs:10:5") && errors[0].contains("`plain`, which is not an `Option`"),
        "{errors:#?}"
    );
    assert!(
        errors[1].contains("types.rs:12:5")
            && errors[1].contains("`items`, whose value is not a string, number or bool"),
        "{errors:#?}"
    );
}
