//! Deep-copy properties of the internal (`apis::core`, `apis::apps`) kinds, whose `Clone` impls come from
//! deepcopy-gen: a copy equals its original, mutating the copy never shows through to the original,
//! `clone_from` into an existing value equals `clone`, and `kube_apimachinery::Object::deep_copy_object` returns an
//! equal value of the same concrete type. `Debug` output is the reference representation, since it does not
//! depend on the `Clone` impls under test.

use std::fmt::Debug;

use crate::support::internal as strat;
use apis::apps::{
    Deployment, DeploymentCondition, DeploymentList, DeploymentSpec, ReplicaSet, ReplicaSetCondition, ReplicaSetList,
    RollingUpdateStatefulSetStrategy, StatefulSet, StatefulSetList,
};
use apis::core::{
    ConfigMap, ConfigMapList, Container, ContainerPort, EnvVar, Namespace, NamespaceList, Pod, PodCondition, PodList,
    PodSpec, PodTemplate, PodTemplateList, PodTemplateSpec,
};
use k8s_openapi::ByteString;
use k8s_openapi::api::core::v1::PersistentVolumeClaim;
use k8s_openapi::apimachinery::pkg::api::resource::Quantity;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{LabelSelector, ObjectMeta};
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
use kube_apimachinery::Object;
use proptest::prelude::*;

// ---------------------------------------------------------------------------------------------
// The four properties, generic over the kind.
// ---------------------------------------------------------------------------------------------

/// `clone` gives a value equal to the original, with the same Debug rendering.
fn check_clone_equals<T: Clone + PartialEq + Debug>(original: &T) -> Result<(), TestCaseError> {
    let copy = original.clone();
    prop_assert_eq!(&copy, original);
    prop_assert_eq!(format!("{copy:?}"), format!("{original:?}"));
    Ok(())
}

/// Mutating a copy, both directly and by `clone_from` of another value followed by a direct mutation,
/// leaves the original (and the `clone_from` source) unchanged.
fn check_copy_is_independent<T: Clone + PartialEq + Debug>(
    original: &T,
    other: &T,
    mutate: impl Fn(&mut T),
) -> Result<(), TestCaseError> {
    let before = format!("{original:?}");
    let other_before = format!("{other:?}");

    // Mutate a fresh copy directly.
    let mut copy = original.clone();
    let pre = format!("{copy:?}");
    mutate(&mut copy);
    prop_assert_ne!(format!("{copy:?}"), pre, "the mutation must change the copy");
    prop_assert_eq!(
        format!("{original:?}"),
        before.clone(),
        "mutating a clone changed the original"
    );

    // Overwrite the copy with another value, then mutate it again.
    let mut copy = original.clone();
    copy.clone_from(other);
    prop_assert_eq!(format!("{copy:?}"), other_before.clone());
    prop_assert_eq!(
        format!("{original:?}"),
        before.clone(),
        "clone_from into a clone changed the original"
    );
    mutate(&mut copy);
    prop_assert_eq!(
        format!("{original:?}"),
        before,
        "mutating a clone_from target changed the original"
    );
    prop_assert_eq!(
        format!("{other:?}"),
        other_before,
        "mutating a clone_from target changed its source"
    );
    Ok(())
}

/// `clone_from` into an existing, different value gives the same value as `clone`.
fn check_clone_from_equals_clone<T: Clone + PartialEq + Debug>(original: &T, other: &T) -> Result<(), TestCaseError> {
    let mut target = other.clone();
    target.clone_from(original);
    prop_assert_eq!(&target, original);
    prop_assert_eq!(format!("{target:?}"), format!("{original:?}"));
    prop_assert_eq!(&target, &original.clone());
    // And back again: the target can be re-overwritten with the other value.
    target.clone_from(other);
    prop_assert_eq!(&target, other);
    prop_assert_eq!(format!("{target:?}"), format!("{other:?}"));
    Ok(())
}

/// `deep_copy_object` gives a box that downcasts to `T` and equals the original.
fn check_deep_copy_object<T: Object + PartialEq + Debug>(original: &T) -> Result<(), TestCaseError> {
    let boxed: Box<dyn Object> = original.deep_copy_object();
    prop_assert!(boxed.is::<T>(), "deep_copy_object returned a {}", boxed.type_name());
    let copy = boxed.downcast_ref::<T>();
    prop_assert!(copy.is_some(), "deep_copy_object's box does not downcast to its type");
    let copy = copy.unwrap();
    prop_assert!(!std::ptr::eq(copy, original));
    prop_assert_eq!(copy, original);
    prop_assert_eq!(format!("{copy:?}"), format!("{original:?}"));
    prop_assert_eq!(format!("{boxed:?}"), format!("{original:?}"));
    prop_assert_eq!(boxed.group_version_kind(), original.group_version_kind());
    Ok(())
}

/// Stamps out one module per kind with one proptest per property. `$mutate` is a `fn(&mut $ty)` that
/// changes some nested field of the value.
macro_rules! deepcopy_properties {
    ($($module:ident: $ty:ty = $strategy:expr, $mutate:expr;)+) => {$(
        mod $module {
            use super::*;

            proptest! {
                #[test]
                fn clone_equals_original(original in $strategy) {
                    check_clone_equals::<$ty>(&original)?;
                }

                #[test]
                fn mutating_a_copy_leaves_the_original_unchanged(original in $strategy, other in $strategy) {
                    check_copy_is_independent::<$ty>(&original, &other, $mutate)?;
                }

                #[test]
                fn clone_from_equals_clone(original in $strategy, other in $strategy) {
                    check_clone_from_equals_clone::<$ty>(&original, &other)?;
                }

                #[test]
                fn deep_copy_object_downcasts_to_an_equal_value(original in $strategy) {
                    check_deep_copy_object::<$ty>(&original)?;
                }
            }
        }
    )+};
}

// ---------------------------------------------------------------------------------------------
// Mutations of nested fields.
// ---------------------------------------------------------------------------------------------

fn mutate_meta(meta: &mut ObjectMeta) {
    meta.labels
        .get_or_insert_with(Default::default)
        .insert("mutated-label".into(), "yes".into());
    meta.annotations
        .get_or_insert_with(Default::default)
        .insert("mutated-annotation".into(), "yes".into());
    meta.name.get_or_insert_with(String::new).push_str("-mutated");
    meta.generation = Some(meta.generation.unwrap_or_default().wrapping_add(1));
}

fn mutate_selector(selector: &mut Option<LabelSelector>) {
    selector
        .get_or_insert_with(Default::default)
        .match_labels
        .get_or_insert_with(Default::default)
        .insert("mutated-selector".into(), "yes".into());
}

/// Pushes a container and reaches into the existing ones: env, ports, resources, command.
fn mutate_pod_spec(spec: &mut PodSpec) {
    for container in spec.containers.iter_mut().chain(spec.init_containers.iter_mut()) {
        container.image.push_str(":mutated");
        container.command.push("mutated".into());
        container.env.push(EnvVar {
            name: "MUTATED".into(),
            value: "1".into(),
        });
        if let Some(port) = container.ports.first_mut() {
            port.container_port = port.container_port.wrapping_add(1);
        }
        container.ports.push(ContainerPort {
            container_port: 8080,
            ..Default::default()
        });
        container
            .resources
            .limits
            .insert("mutated".into(), Quantity("1".into()));
        container.resources.requests.clear();
    }
    spec.containers.push(Container {
        name: "mutated".into(),
        image: "busybox".into(),
        ..Default::default()
    });
    spec.node_selector.insert("mutated".into(), "yes".into());
    spec.priority = Some(spec.priority.unwrap_or_default().wrapping_add(1));
    spec.security_context.get_or_insert_with(Default::default).host_network ^= true;
}

fn mutate_template(template: &mut PodTemplateSpec) {
    mutate_meta(&mut template.metadata);
    mutate_pod_spec(&mut template.spec);
}

fn mutate_pod(pod: &mut Pod) {
    mutate_meta(&mut pod.metadata);
    mutate_pod_spec(&mut pod.spec);
    pod.status.phase.push_str("-mutated");
    pod.status.conditions.push(PodCondition {
        type_: "Mutated".into(),
        ..Default::default()
    });
    pod.type_meta.kind.push_str("-mutated");
}

fn mutate_pod_template(template: &mut PodTemplate) {
    mutate_meta(&mut template.metadata);
    mutate_template(&mut template.template);
}

fn mutate_config_map(config_map: &mut ConfigMap) {
    mutate_meta(&mut config_map.metadata);
    for value in config_map.data.values_mut() {
        value.push_str("-mutated");
    }
    config_map.data.insert("mutated".into(), "yes".into());
    for value in config_map.binary_data.values_mut() {
        value.0.push(0xff);
    }
    config_map
        .binary_data
        .insert("mutated".into(), ByteString(vec![1, 2, 3]));
    config_map.immutable = Some(!config_map.immutable.unwrap_or_default());
}

fn mutate_namespace(namespace: &mut Namespace) {
    mutate_meta(&mut namespace.metadata);
    namespace.spec.finalizers.push("mutated".into());
    namespace.status.phase.push_str("-mutated");
}

fn mutate_deployment(deployment: &mut Deployment) {
    mutate_meta(&mut deployment.metadata);
    let spec: &mut DeploymentSpec = &mut deployment.spec;
    spec.replicas = spec.replicas.wrapping_add(1);
    mutate_selector(&mut spec.selector);
    mutate_template(&mut spec.template);
    spec.strategy
        .rolling_update
        .get_or_insert_with(Default::default)
        .max_surge = IntOrString::String("mutated".into());
    spec.rollback_to.get_or_insert_with(Default::default).revision ^= 1;
    deployment.status.conditions.push(DeploymentCondition {
        type_: "Mutated".into(),
        ..Default::default()
    });
    deployment.status.observed_generation = deployment.status.observed_generation.wrapping_add(1);
}

fn mutate_replica_set(replica_set: &mut ReplicaSet) {
    mutate_meta(&mut replica_set.metadata);
    replica_set.spec.replicas = replica_set.spec.replicas.wrapping_add(1);
    mutate_selector(&mut replica_set.spec.selector);
    mutate_template(&mut replica_set.spec.template);
    replica_set.status.conditions.push(ReplicaSetCondition {
        type_: "Mutated".into(),
        ..Default::default()
    });
    replica_set.status.terminating_replicas = Some(replica_set.status.terminating_replicas.unwrap_or_default() ^ 1);
}

fn mutate_stateful_set(stateful_set: &mut StatefulSet) {
    mutate_meta(&mut stateful_set.metadata);
    let spec = &mut stateful_set.spec;
    spec.replicas = spec.replicas.wrapping_add(1);
    mutate_selector(&mut spec.selector);
    mutate_template(&mut spec.template);
    for claim in &mut spec.volume_claim_templates {
        mutate_meta(&mut claim.metadata);
        claim.spec.get_or_insert_with(Default::default).storage_class_name = Some("mutated".into());
    }
    spec.volume_claim_templates.push(PersistentVolumeClaim {
        metadata: ObjectMeta {
            name: Some("mutated-claim".into()),
            ..Default::default()
        },
        ..Default::default()
    });
    let rolling_update = spec
        .update_strategy
        .rolling_update
        .get_or_insert_with(RollingUpdateStatefulSetStrategy::default);
    rolling_update.partition = rolling_update.partition.wrapping_add(1);
    rolling_update.max_unavailable = Some(IntOrString::Int(42));
    spec.ordinals.get_or_insert_with(Default::default).start ^= 1;
    stateful_set.status.collision_count = Some(stateful_set.status.collision_count.unwrap_or_default() ^ 1);
    stateful_set.status.current_revision.push_str("-mutated");
}

/// Mutates the list's items in place (each one deeply) and appends a default item.
fn mutate_items<T: Default>(items: &mut Vec<T>, mutate: fn(&mut T)) {
    items.iter_mut().for_each(mutate);
    items.push(T::default());
}

deepcopy_properties! {
    pod: Pod = strat::pod(), mutate_pod;
    pod_list: PodList = strat::pod_list(), |list: &mut PodList| mutate_items(&mut list.items, mutate_pod);
    pod_template: PodTemplate = strat::pod_template(), mutate_pod_template;
    pod_template_list: PodTemplateList = strat::pod_template_list(),
        |list: &mut PodTemplateList| mutate_items(&mut list.items, mutate_pod_template);
    config_map: ConfigMap = strat::config_map(), mutate_config_map;
    config_map_list: ConfigMapList = strat::config_map_list(),
        |list: &mut ConfigMapList| mutate_items(&mut list.items, mutate_config_map);
    namespace: Namespace = strat::namespace(), mutate_namespace;
    namespace_list: NamespaceList = strat::namespace_list(),
        |list: &mut NamespaceList| mutate_items(&mut list.items, mutate_namespace);
    deployment: Deployment = strat::deployment(), mutate_deployment;
    deployment_list: DeploymentList = strat::deployment_list(),
        |list: &mut DeploymentList| mutate_items(&mut list.items, mutate_deployment);
    replica_set: ReplicaSet = strat::replica_set(), mutate_replica_set;
    replica_set_list: ReplicaSetList = strat::replica_set_list(),
        |list: &mut ReplicaSetList| mutate_items(&mut list.items, mutate_replica_set);
    stateful_set: StatefulSet = strat::stateful_set(), mutate_stateful_set;
    stateful_set_list: StatefulSetList = strat::stateful_set_list(),
        |list: &mut StatefulSetList| mutate_items(&mut list.items, mutate_stateful_set);
}

// ---------------------------------------------------------------------------------------------
// clone_from reuses allocations.
// ---------------------------------------------------------------------------------------------

fn container(name: &str) -> Container {
    Container {
        name: name.into(),
        image: format!("{name}:latest"),
        ..Default::default()
    }
}

/// `clone_from` on a Deployment reaches, field by field, down to the pod template's containers Vec (and to
/// the Strings inside its elements), reusing their buffers instead of replacing the whole value.
#[test]
fn clone_from_reuses_nested_allocations() {
    let mut source = Deployment::default();
    source.metadata.name = Some("source".into());
    source.spec.replicas = 3;
    source.spec.template.spec.containers = vec![container("a"), container("b")];

    let mut target = Deployment::default();
    target.metadata.name = Some("a-much-longer-target-name".into());
    let mut containers = Vec::with_capacity(8);
    containers.extend(["x", "y", "z", "w"].map(container));
    containers[0].name = String::with_capacity(64);
    containers[0].name.push_str("first-container-with-a-long-name");
    target.spec.template.spec.containers = containers;

    let containers_ptr = target.spec.template.spec.containers.as_ptr();
    let first_name_ptr = target.spec.template.spec.containers[0].name.as_ptr();
    assert!(target.spec.template.spec.containers.capacity() >= source.spec.template.spec.containers.len());

    target.clone_from(&source);

    assert_eq!(target, source);
    assert_eq!(format!("{target:?}"), format!("{source:?}"));
    assert_eq!(
        target.spec.template.spec.containers.as_ptr(),
        containers_ptr,
        "the containers Vec was reallocated: clone_from did not reach it field by field"
    );
    assert_eq!(target.spec.template.spec.containers.capacity(), 8);
    assert_eq!(
        target.spec.template.spec.containers[0].name.as_ptr(),
        first_name_ptr,
        "the first container's name was reallocated: Container::clone_from is not field-wise"
    );
}

/// The same through a list kind: `DeploymentList::clone_from` reuses the items Vec and reaches into each
/// item's nested containers.
#[test]
fn list_clone_from_reuses_items_allocation() {
    let mut item = Deployment::default();
    item.spec.template.spec.containers = vec![container("only")];
    let source = DeploymentList {
        items: vec![item],
        ..Default::default()
    };

    let mut target = DeploymentList {
        items: Vec::with_capacity(4),
        ..Default::default()
    };
    let mut target_item = Deployment::default();
    target_item.spec.template.spec.containers = Vec::with_capacity(4);
    target_item.spec.template.spec.containers.push(container("old"));
    target.items.push(target_item);
    target.items.push(Deployment::default());

    let items_ptr = target.items.as_ptr();
    let containers_ptr = target.items[0].spec.template.spec.containers.as_ptr();

    target.clone_from(&source);

    assert_eq!(target, source);
    assert_eq!(target.items.as_ptr(), items_ptr, "the items Vec was reallocated");
    assert_eq!(
        target.items[0].spec.template.spec.containers.as_ptr(),
        containers_ptr,
        "the first item's containers Vec was reallocated"
    );
}
