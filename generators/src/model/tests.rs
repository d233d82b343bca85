//! The model as generators see it: packages with group and version, types with docs and tags,
//! fields with JSON names, optionality, flattening and resolved types, and the hand-written
//! functions of each package.

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
