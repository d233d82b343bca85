//! Deep-copy properties of every external (v1) kind, over random values from
//! `kube_apimachinery::testing::fill` (the Rust counterpart of Go's randfill): a copy equals the original;
//! mutating the copy leaves the original unchanged; `clone_from` into an existing value equals
//! `clone`; `deep_copy_object` gives an equal value of the same type. The JSON rendering is the
//! reference representation, since it does not depend on the Clone impls under test.

use std::fmt::Debug;

use apis::{apps, core};
use kube_apimachinery::Object;
use proptest::prelude::*;
use serde::Serialize;
use serde::de::DeserializeOwned;

fn json<T: Serialize>(v: &T) -> serde_json::Value {
    serde_json::to_value(v).expect("API types serialize")
}

/// A random `T`, with most optional fields present: k8s.io/api wraps nearly every field in an
/// `Option` (the spec of a Deployment too), and half of them absent leaves little to copy.
fn filled<T: DeserializeOwned>(seed: u64) -> Result<T, kube_apimachinery::testing::FillError> {
    let options = kube_apimachinery::testing::FillOptions {
        none_chance: 0.1,
        ..Default::default()
    };
    kube_apimachinery::testing::fill_with(seed, &options)
}

/// Every property for one type, on values filled from two seeds.
fn check<T>(seed: u64, other_seed: u64, mutate: fn(&mut T)) -> Result<(), TestCaseError>
where
    T: Object + Clone + PartialEq + Debug + Serialize + DeserializeOwned,
{
    let original: T = filled(seed).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let other: T = filled(other_seed).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let before = json(&original);

    let mut copy = original.clone();
    prop_assert_eq!(&copy, &original);
    prop_assert_eq!(json(&copy), before.clone());

    // Mutate the copy through clone_from and directly; the original must not see either.
    copy.clone_from(&other);
    mutate(&mut copy);
    prop_assert_eq!(json(&original), before.clone());

    let mut target = other.clone();
    target.clone_from(&original);
    prop_assert_eq!(&target, &original);
    prop_assert_eq!(json(&target), before.clone());

    let boxed = original.deep_copy_object();
    prop_assert_eq!(boxed.downcast_ref::<T>(), Some(&original));
    Ok(())
}

/// Stamps out one proptest per type, with a mutation reaching into nested data.
macro_rules! deepcopy_props {
    ($($name:ident: $ty:ty => |$v:ident| $mutate:expr;)*) => {
        proptest! {
            #![proptest_config(ProptestConfig::with_cases(64))]
            $(
                #[test]
                fn $name(seed in any::<u64>(), other in any::<u64>()) {
                    check::<$ty>(seed, other, |$v: &mut $ty| { $mutate; })?;
                }
            )*
        }
    };
}

fn push_label(meta: &mut k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta) {
    meta.labels
        .get_or_insert_with(Default::default)
        .insert("mutated".into(), "yes".into());
}

deepcopy_props! {
    deployment: apps::v1::Deployment => |d| {
        push_label(&mut d.metadata);
        let spec = d.spec.get_or_insert_default();
        spec.replicas = Some(spec.replicas.unwrap_or(0) + 1);
        if let Some(spec) = spec.template.spec.as_mut() {
            spec.containers.push(Default::default());
        }
    };
    deployment_list: apps::v1::DeploymentList => |l| l.items.push(Default::default());
    replica_set: apps::v1::ReplicaSet => |r| {
        push_label(&mut r.metadata);
        r.status.get_or_insert_with(Default::default).replicas += 1;
    };
    replica_set_list: apps::v1::ReplicaSetList => |l| l.items.clear();
    stateful_set: apps::v1::StatefulSet => |s| {
        let spec = s.spec.get_or_insert_default();
        spec.service_name = "mutated".into();
        spec.volume_claim_templates.get_or_insert_with(Vec::new).push(Default::default());
    };
    stateful_set_list: apps::v1::StatefulSetList => |l| l.items.push(Default::default());
    pod: core::v1::Pod => |p| {
        push_label(&mut p.metadata);
        if let Some(spec) = p.spec.as_mut() {
            spec.containers.push(Default::default());
            if let Some(c) = spec.containers.first_mut() {
                c.args.get_or_insert_with(Vec::new).push("--mutated".into());
            }
        }
    };
    pod_list: core::v1::PodList => |l| l.items.push(Default::default());
    pod_template: core::v1::PodTemplate => |t| push_label(&mut t.metadata);
    pod_template_list: core::v1::PodTemplateList => |l| l.items.truncate(0);
    config_map: core::v1::ConfigMap => |c| {
        c.data.get_or_insert_with(Default::default).insert("k".into(), "mutated".into());
    };
    config_map_list: core::v1::ConfigMapList => |l| l.items.push(Default::default());
    namespace: core::v1::Namespace => |n| push_label(&mut n.metadata);
    namespace_list: core::v1::NamespaceList => |l| l.items.push(Default::default());
    service_account: core::v1::ServiceAccount => |s| {
        s.secrets.get_or_insert_with(Vec::new).push(Default::default());
    };
}

/// The fill really produces nested data (not empty defaults), so the properties above are
/// exercised on populated objects.
#[test]
fn filled_objects_are_populated() {
    let populated = (0..32u64)
        .filter_map(|seed| filled::<apps::v1::Deployment>(seed).ok())
        .filter(|d| {
            d.spec
                .as_ref()
                .and_then(|s| s.template.spec.as_ref())
                .is_some_and(|s| !s.containers.is_empty())
                && d.metadata.name.is_some()
        })
        .count();
    assert!(
        populated >= 8,
        "only {populated} of 32 random deployments had containers and a name"
    );
}
