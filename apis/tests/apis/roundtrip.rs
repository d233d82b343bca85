//! Kubernetes' apitesting round trip for every external kind: a random value `x` (from
//! `kube_apimachinery::testing::fill`, the Rust counterpart of Go's randfill) converted to its
//! group's hub (apiextensions' and widgets' internal version; apps/v1 for apps/v1beta1 and
//! v1beta2; a preferred version is its own hub and only copies) and back to its own version through
//! `Scheme::convert_to_version` gives `x` again, and its JSON reads back to the same JSON.
//!
//! Three properties per kind and version:
//!
//! - **round trip**: `x -> hub -> x's version` equals `x` after [`omitempty`] normalization of
//!   both JSON forms. Our external types use `Option` for every optional field (k8s-openapi style)
//!   where Go has plain values with `omitempty`, so `Some("")` and `None` (or `Some(false)`,
//!   `Some(0)`, `Some(vec![])` and `None`) are two Rust forms of one Go/JSON meaning, and an internal
//!   version, with plain values, keeps only one of them.
//! - **fixpoint**: converting the round-tripped value once more changes nothing at all (exact `==`):
//!   whichever of the two forms the first trip picked, it picks it again.
//! - **JSON**: serializing `x`, deserializing and serializing again gives an identical
//!   `serde_json::Value`.
//!
//! Inputs are constrained only where Kubernetes' own round-trip fuzzing constrains them, by its
//! fuzzer functions or by fuzzing the internal version; each constraint says why where it is applied.
//! `PROPTEST_CASES=n` runs more than the default 64 cases per property.

use std::fmt::Debug;
use std::sync::LazyLock;

use apis::{apiextensions, apps, autoscaling, core, widgets};
use kube_apimachinery::testing::FillOptions;
use kube_apimachinery::{GroupVersion, Object, Scheme};
use proptest::prelude::*;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

/// One scheme for every test: it is immutable, `Send + Sync` once installed.
static SCHEME: LazyLock<Scheme> = LazyLock::new(|| apis::scheme().expect("install succeeds"));

/// Removes, recursively and bottom-up, every object key whose value is `null`, `""`, `0`, `false`,
/// `[]` or `{}` (after its own members were removed), as Go's `omitempty` omits zero values: two JSON
/// documents equal after this normalization have the same meaning to a Go client. Array elements are
/// normalized but never removed, since their positions carry meaning.
///
/// JSON does not tell a struct from a map, so an empty value under a map key (a label `"a": ""`) is
/// removed as well, and a conversion that dropped such an entry would pass this comparison. None
/// does: the generated map conversions copy every entry (generators/.../conversion/value.rs), and
/// the only hand-written removal is that of the rollback annotation, whose values are integers here.
fn omitempty(value: &mut Value) {
    match value {
        Value::Object(map) => {
            map.values_mut().for_each(omitempty);
            map.retain(|_, v| !is_empty(v));
        }
        Value::Array(items) => items.iter_mut().for_each(omitempty),
        _ => {}
    }
}

/// Whether `omitempty` drops a value: Go's zero values, and `{}`, the JSON of a struct whose fields
/// all are.
fn is_empty(value: &Value) -> bool {
    match value {
        Value::Null => true,
        Value::Bool(b) => !b,
        Value::Number(n) => n.as_f64() == Some(0.0),
        Value::String(s) => s.is_empty(),
        Value::Array(a) => a.is_empty(),
        Value::Object(o) => o.is_empty(),
    }
}

fn json<T: Serialize>(v: &T) -> Value {
    serde_json::to_value(v).expect("API types serialize")
}

fn normalized<T: Serialize>(v: &T) -> Value {
    let mut j = json(v);
    omitempty(&mut j);
    j
}

/// The places where `a` and `b` differ, one line each: a JSON path and both values.
fn differences(a: &Value, b: &Value) -> String {
    fn walk(path: &str, a: Option<&Value>, b: Option<&Value>, out: &mut Vec<String>) {
        match (a, b) {
            (Some(Value::Object(x)), Some(Value::Object(y))) => {
                let keys: std::collections::BTreeSet<_> = x.keys().chain(y.keys()).collect();
                for k in keys {
                    walk(&format!("{path}.{k}"), x.get(k), y.get(k), out);
                }
            }
            (Some(Value::Array(x)), Some(Value::Array(y))) if x.len() == y.len() => {
                for (i, (x, y)) in x.iter().zip(y).enumerate() {
                    walk(&format!("{path}[{i}]"), Some(x), Some(y), out);
                }
            }
            _ if a == b => {}
            _ => out.push(format!("  {path}: {} | {}", show(a), show(b))),
        }
    }
    fn show(v: Option<&Value>) -> String {
        v.map_or_else(|| "(absent)".into(), Value::to_string)
    }
    let mut out = Vec::new();
    walk("$", Some(a), Some(b), &mut out);
    out.join("\n")
}

fn fail(e: impl ToString) -> TestCaseError {
    TestCaseError::fail(e.to_string())
}

/// `x` converted to its group's hub (the internal version, or the preferred version of a group
/// without one) and back to `gv`.
fn round_trip<T: Object + Clone>(x: &T, gv: &GroupVersion) -> Result<T, TestCaseError> {
    let kind = SCHEME
        .object_kinds(x)
        .map_err(fail)?
        .into_iter()
        .find(|k| k.group == gv.group && k.version == gv.version)
        .ok_or_else(|| fail(format!("{} is not registered in {gv}", x.type_name())))?;
    let hub_kind = SCHEME.hub_kind(&kind);
    let hub = SCHEME
        .convert_to_version(
            x,
            &GroupVersion::new(hub_kind.group.to_string(), hub_kind.version.to_string()),
        )
        .map_err(fail)?;
    let back = SCHEME.convert_to_version(hub.as_ref(), gv).map_err(fail)?;
    back.downcast_ref::<T>()
        .cloned()
        .ok_or_else(|| fail(format!("converting back gave a {}", back.type_name())))
}

/// The fill depth of most kinds: at the default 6 a DeploymentList's pod templates come out without
/// containers; at 12 they reach the env entries of containers (deeper changes nothing).
const DEPTH: usize = 12;
/// The fill depth of CRDs, the default. `fill` answers the untyped `JSONSchemaPropsOrBool` with
/// random JSON, and any scalar but a bool is rejected and refilled, so the deeper schemas go, the
/// likelier one of them holds a rejected value: at 6 about half of all v1 CRDs have a per-version
/// schema, at 7 a sixth, at 8 none.
const CRD_DEPTH: usize = 6;

/// What one kind's properties are checked on.
struct Case<T> {
    /// The version `x` has, and converts back to.
    gv: GroupVersion,
    kind: &'static str,
    /// How deep the random values nest ([`FillOptions::max_depth`]): deep enough to reach the leaves
    /// of pod templates, but shallow for CRDs, whose schemas nest recursively.
    depth: usize,
    /// The input constraint (see the constraints below).
    constrain: fn(&mut T, u64),
}

impl<T: Object + DeserializeOwned> Case<T> {
    /// A random `T` from `seed`, constrained, carrying its own apiVersion and kind as a decoded
    /// object does (the conversion sets them on its output).
    fn input(&self, seed: u64) -> T {
        let options = FillOptions {
            max_depth: self.depth,
            ..FillOptions::default()
        };
        let mut x: T = kube_apimachinery::testing::fill_with(seed, &options).expect("every API type fills");
        (self.constrain)(&mut x, seed);
        x.set_group_version_kind(&self.gv.with_kind(self.kind));
        x
    }
}

/// The round-trip and fixpoint properties for one value.
fn check_conversion<T>(case: &Case<T>, seed: u64) -> Result<(), TestCaseError>
where
    T: Object + Clone + PartialEq + Debug + Serialize + DeserializeOwned,
{
    let (x, gv) = (case.input(seed), &case.gv);
    let once = round_trip(&x, gv)?;
    let (want, got) = (normalized(&x), normalized(&once));
    prop_assert!(
        want == got,
        "x -> internal -> {gv} changed (x | result):\n{}",
        differences(&want, &got)
    );
    let twice = round_trip(&once, gv)?;
    prop_assert!(
        twice == once,
        "a second round trip changed the value (first | second):\n{}",
        differences(&json(&once), &json(&twice))
    );
    Ok(())
}

/// The JSON property for one value.
fn check_json<T>(case: &Case<T>, seed: u64) -> Result<(), TestCaseError>
where
    T: Object + Serialize + DeserializeOwned,
{
    let first = json(&case.input(seed));
    let read: T = serde_json::from_value(first.clone()).map_err(fail)?;
    let again = json(&read);
    prop_assert!(
        again == first,
        "JSON -> {} -> JSON changed (first | second):\n{}",
        case.kind,
        differences(&first, &again)
    );
    Ok(())
}

/// No constraint.
fn any_value<T>(_: &mut T, _: u64) {}

/// Applies `constrain` to every item of a list.
macro_rules! each_item {
    ($constrain:path) => {
        |list, seed| {
            for (i, item) in list.items.iter_mut().enumerate() {
                $constrain(item, seed.wrapping_add(i as u64));
            }
        }
    };
}

// ---------------------------------------------------------------------------------------------
// Constraints, each mirroring what Kubernetes' round-trip fuzzing feeds its conversions.
// ---------------------------------------------------------------------------------------------

/// One of `values`, chosen by `seed`.
fn pick(seed: u64, values: &[&str]) -> String {
    values[(seed % values.len() as u64) as usize].to_string()
}

/// apps/v1beta1 and v1beta2 keep as strings what apps/v1, their hub, declares as enums: only the
/// enums' values convert. Kubernetes' validation accepts no others, so no stored object has one;
/// its fuzzer fills the internal version, whose strings the conversions copy.
macro_rules! known_apps_values {
    ($deployment:ident, $stateful_set:ident, $version:ident) => {
        fn $deployment(d: &mut apps::$version::Deployment, seed: u64) {
            let strategy = d.spec.as_mut().and_then(|s| s.strategy.as_mut());
            if let Some(t) = strategy.and_then(|s| s.type_.as_mut()) {
                *t = pick(seed, &["Recreate", "RollingUpdate"]);
            }
        }

        fn $stateful_set(s: &mut apps::$version::StatefulSet, seed: u64) {
            let Some(spec) = s.spec.as_mut() else {
                return;
            };
            if let Some(p) = spec.pod_management_policy.as_mut() {
                *p = pick(seed, &["OrderedReady", "Parallel"]);
            }
            if let Some(t) = spec.update_strategy.as_mut().and_then(|u| u.type_.as_mut()) {
                *t = pick(seed >> 1, &["OnDelete", "RollingUpdate"]);
            }
        }
    };
}
known_apps_values!(deployment_v1beta1, stateful_set_v1beta1, v1beta1);
known_apps_values!(deployment_v1beta2, stateful_set_v1beta2, v1beta2);

/// On every other seed, the annotation `widgets.example.dev/paused` holds `true` or `false`, so
/// the hand-written v1alpha1 conversion is exercised; on the others any random value under that
/// key is removed. The annotation is how v1alpha1 carries the hub's `spec.paused`: only a bool
/// parses (anything else is a conversion error), as fuzzing the internal Widget would produce.
fn paused_annotation(w: &mut widgets::v1alpha1::Widget, seed: u64) {
    let annotations = w.metadata.annotations.get_or_insert_with(Default::default);
    if seed.is_multiple_of(2) {
        annotations.insert(
            widgets::v1alpha1::PAUSED_ANNOTATION.into(),
            seed.is_multiple_of(4).to_string(),
        );
    } else {
        annotations.remove(widgets::v1alpha1::PAUSED_ANNOTATION);
    }
}

/// The `JSONSchemaProps` fixes shared by both CRD versions, as a module per version: Kubernetes'
/// apiextensions fuzzer never generates a `JSONSchemaPropsOrArray` holding neither a schema nor an
/// array of schemas ("disallow both Schema and JSONSchemas to be nil"), because its JSON form is
/// `null`, which reads back as an absent `items` (in Go as here). `fill` makes one whenever it
/// answers the untyped `items` with a scalar; such an `items` becomes absent here.
macro_rules! schema_fixes {
    ($module:ident, $version:ident) => {
        mod $module {
            use apis::apiextensions::$version::{JSONSchemaProps, JSONSchemaPropsOrArray};

            pub fn fix(s: &mut JSONSchemaProps) {
                if s.items
                    .as_ref()
                    .is_some_and(|i| i.schema.is_none() && i.json_schemas.is_empty())
                {
                    s.items = None;
                }
                if let Some(JSONSchemaPropsOrArray { schema, json_schemas }) = s.items.as_mut() {
                    schema.iter_mut().for_each(|s| fix(s));
                    json_schemas.iter_mut().for_each(fix);
                }
                for list in [&mut s.all_of, &mut s.one_of, &mut s.any_of] {
                    list.iter_mut().flatten().for_each(fix);
                }
                for map in [&mut s.properties, &mut s.pattern_properties, &mut s.definitions] {
                    map.iter_mut().flat_map(|m| m.values_mut()).for_each(fix);
                }
                s.not.iter_mut().for_each(|s| fix(s));
                for or_bool in [&mut s.additional_properties, &mut s.additional_items] {
                    or_bool
                        .iter_mut()
                        .flat_map(|b| b.schema.iter_mut())
                        .for_each(|s| fix(s));
                }
                s.dependencies
                    .iter_mut()
                    .flat_map(|m| m.values_mut())
                    .flat_map(|d| d.schema.iter_mut())
                    .for_each(|s| fix(s));
            }
        }
    };
}
schema_fixes!(schema_v1, v1);
schema_fixes!(schema_v1beta1, v1beta1);

/// A v1 CRD: the schema fixes, and on every other seed the per-version `schema`, `subresources`,
/// `additionalPrinterColumns` and `selectableFields` of every version equal those of the first.
///
/// Converting v1 to internal moves each of these to the top level when it is the same in every
/// version (apiextensions v1/conversion.go), and back copies it into every version; random versions
/// almost never agree, so without this only the per-version path would be tested. Kubernetes'
/// fuzzer likewise moves the fields of a lone version to the top level ("required by round-tripping
/// in v1"). Both paths must round trip.
fn crd_v1(crd: &mut apiextensions::v1::CustomResourceDefinition, seed: u64) {
    let versions = &mut crd.spec.versions;
    for v in versions.iter_mut() {
        v.schema
            .iter_mut()
            .flat_map(|s| s.open_api_v3_schema.as_mut())
            .for_each(schema_v1::fix);
    }
    if seed.is_multiple_of(2)
        && let Some((first, rest)) = versions.split_first_mut()
    {
        for v in rest {
            v.schema.clone_from(&first.schema);
            v.subresources.clone_from(&first.subresources);
            v.additional_printer_columns
                .clone_from(&first.additional_printer_columns);
            v.selectable_fields.clone_from(&first.selectable_fields);
        }
    }
}

/// A v1beta1 CRD: the schema fixes, in the top-level and in every per-version schema.
fn crd_v1beta1(crd: &mut apiextensions::v1beta1::CustomResourceDefinition, _: u64) {
    let spec = &mut crd.spec;
    let per_version = spec.versions.iter_mut().flatten().flat_map(|v| v.schema.as_mut());
    for validation in spec.validation.iter_mut().chain(per_version) {
        validation.open_api_v3_schema.iter_mut().for_each(schema_v1beta1::fix);
    }
}

/// Stamps out a module per kind and version with the conversion and the JSON property.
macro_rules! roundtrip_props {
    ($($name:ident: $ty:ty, $gv:expr, $kind:literal, $depth:expr, $constrain:expr;)*) => {$(
        mod $name {
            use super::*;
            fn case() -> Case<$ty> {
                Case { gv: $gv, kind: $kind, depth: $depth, constrain: $constrain }
            }
            proptest! {
                #![proptest_config(config())]
                #[test]
                fn converts_back(seed in any::<u64>()) {
                    check_conversion(&case(), seed)?;
                }
                #[test]
                fn json_is_stable(seed in any::<u64>()) {
                    check_json(&case(), seed)?;
                }
            }
        }
    )*};
}

/// 64 cases per property unless `PROPTEST_CASES` asks for more; no regression files (a failure
/// names its seed, which reproduces it).
fn config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(64);
    ProptestConfig {
        failure_persistence: None,
        ..ProptestConfig::with_cases(cases)
    }
}

roundtrip_props! {
    core_v1_pod: core::v1::Pod, core::v1::SCHEME_GROUP_VERSION, "Pod", DEPTH, any_value;
    core_v1_pod_list: core::v1::PodList, core::v1::SCHEME_GROUP_VERSION, "PodList", DEPTH, any_value;
    core_v1_pod_template: core::v1::PodTemplate, core::v1::SCHEME_GROUP_VERSION, "PodTemplate", DEPTH, any_value;
    core_v1_pod_template_list: core::v1::PodTemplateList, core::v1::SCHEME_GROUP_VERSION, "PodTemplateList", DEPTH, any_value;
    core_v1_config_map: core::v1::ConfigMap, core::v1::SCHEME_GROUP_VERSION, "ConfigMap", DEPTH, any_value;
    core_v1_config_map_list: core::v1::ConfigMapList, core::v1::SCHEME_GROUP_VERSION, "ConfigMapList", DEPTH, any_value;
    core_v1_namespace: core::v1::Namespace, core::v1::SCHEME_GROUP_VERSION, "Namespace", DEPTH, any_value;
    core_v1_namespace_list: core::v1::NamespaceList, core::v1::SCHEME_GROUP_VERSION, "NamespaceList", DEPTH, any_value;
    core_v1_service_account: core::v1::ServiceAccount, core::v1::SCHEME_GROUP_VERSION, "ServiceAccount", DEPTH, any_value;
    core_v1_event: core::v1::Event, core::v1::SCHEME_GROUP_VERSION, "Event", DEPTH, any_value;

    apps_v1_deployment: apps::v1::Deployment, apps::v1::SCHEME_GROUP_VERSION, "Deployment", DEPTH, any_value;
    apps_v1_deployment_list: apps::v1::DeploymentList, apps::v1::SCHEME_GROUP_VERSION, "DeploymentList", DEPTH, any_value;
    apps_v1_replica_set: apps::v1::ReplicaSet, apps::v1::SCHEME_GROUP_VERSION, "ReplicaSet", DEPTH, any_value;
    apps_v1_replica_set_list: apps::v1::ReplicaSetList, apps::v1::SCHEME_GROUP_VERSION, "ReplicaSetList", DEPTH, any_value;
    apps_v1_stateful_set: apps::v1::StatefulSet, apps::v1::SCHEME_GROUP_VERSION, "StatefulSet", DEPTH, any_value;
    apps_v1_stateful_set_list: apps::v1::StatefulSetList, apps::v1::SCHEME_GROUP_VERSION, "StatefulSetList", DEPTH, any_value;

    apps_v1beta2_deployment: apps::v1beta2::Deployment, apps::v1beta2::SCHEME_GROUP_VERSION, "Deployment", DEPTH, deployment_v1beta2;
    apps_v1beta2_deployment_list: apps::v1beta2::DeploymentList, apps::v1beta2::SCHEME_GROUP_VERSION, "DeploymentList", DEPTH, each_item!(deployment_v1beta2);
    apps_v1beta2_replica_set: apps::v1beta2::ReplicaSet, apps::v1beta2::SCHEME_GROUP_VERSION, "ReplicaSet", DEPTH, any_value;
    apps_v1beta2_replica_set_list: apps::v1beta2::ReplicaSetList, apps::v1beta2::SCHEME_GROUP_VERSION, "ReplicaSetList", DEPTH, any_value;
    apps_v1beta2_stateful_set: apps::v1beta2::StatefulSet, apps::v1beta2::SCHEME_GROUP_VERSION, "StatefulSet", DEPTH, stateful_set_v1beta2;
    apps_v1beta2_stateful_set_list: apps::v1beta2::StatefulSetList, apps::v1beta2::SCHEME_GROUP_VERSION, "StatefulSetList", DEPTH, each_item!(stateful_set_v1beta2);

    apps_v1beta1_deployment: apps::v1beta1::Deployment, apps::v1beta1::SCHEME_GROUP_VERSION, "Deployment", DEPTH, deployment_v1beta1;
    apps_v1beta1_deployment_list: apps::v1beta1::DeploymentList, apps::v1beta1::SCHEME_GROUP_VERSION, "DeploymentList", DEPTH, each_item!(deployment_v1beta1);
    apps_v1beta1_stateful_set: apps::v1beta1::StatefulSet, apps::v1beta1::SCHEME_GROUP_VERSION, "StatefulSet", DEPTH, stateful_set_v1beta1;
    apps_v1beta1_stateful_set_list: apps::v1beta1::StatefulSetList, apps::v1beta1::SCHEME_GROUP_VERSION, "StatefulSetList", DEPTH, each_item!(stateful_set_v1beta1);

    apiextensions_v1_crd: apiextensions::v1::CustomResourceDefinition, apiextensions::v1::SCHEME_GROUP_VERSION, "CustomResourceDefinition", CRD_DEPTH, crd_v1;
    apiextensions_v1_crd_list: apiextensions::v1::CustomResourceDefinitionList, apiextensions::v1::SCHEME_GROUP_VERSION, "CustomResourceDefinitionList", CRD_DEPTH, each_item!(crd_v1);
    apiextensions_v1beta1_crd: apiextensions::v1beta1::CustomResourceDefinition, apiextensions::v1beta1::SCHEME_GROUP_VERSION, "CustomResourceDefinition", CRD_DEPTH, crd_v1beta1;
    apiextensions_v1beta1_crd_list: apiextensions::v1beta1::CustomResourceDefinitionList, apiextensions::v1beta1::SCHEME_GROUP_VERSION, "CustomResourceDefinitionList", CRD_DEPTH, each_item!(crd_v1beta1);

    autoscaling_v1_scale: autoscaling::v1::Scale, autoscaling::v1::SCHEME_GROUP_VERSION, "Scale", DEPTH, any_value;

    widgets_v1_widget: widgets::v1::Widget, widgets::v1::SCHEME_GROUP_VERSION, "Widget", DEPTH, any_value;
    widgets_v1_widget_list: widgets::v1::WidgetList, widgets::v1::SCHEME_GROUP_VERSION, "WidgetList", DEPTH, any_value;
    widgets_v1_widget_class: widgets::v1::WidgetClass, widgets::v1::SCHEME_GROUP_VERSION, "WidgetClass", DEPTH, any_value;
    widgets_v1_widget_class_list: widgets::v1::WidgetClassList, widgets::v1::SCHEME_GROUP_VERSION, "WidgetClassList", DEPTH, any_value;
    widgets_v1alpha1_widget: widgets::v1alpha1::Widget, widgets::v1alpha1::SCHEME_GROUP_VERSION, "Widget", DEPTH, paused_annotation;
    widgets_v1alpha1_widget_list: widgets::v1alpha1::WidgetList, widgets::v1alpha1::SCHEME_GROUP_VERSION, "WidgetList", DEPTH, each_item!(paused_annotation);
    widgets_v1alpha1_widget_class: widgets::v1alpha1::WidgetClass, widgets::v1alpha1::SCHEME_GROUP_VERSION, "WidgetClass", DEPTH, any_value;
    widgets_v1alpha1_widget_class_list: widgets::v1alpha1::WidgetClassList, widgets::v1alpha1::SCHEME_GROUP_VERSION, "WidgetClassList", DEPTH, any_value;
}
