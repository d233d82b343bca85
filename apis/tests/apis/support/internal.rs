//! Proptest strategies for every internal (`apis::core`, `apis::apps`) type, filling every field with random values.
//!
//! Collections are kept small (0..3 entries) so that deeply nested kinds, such as a `DeploymentList` of
//! Deployments whose pod templates hold containers with ports, env and resources, stay cheap to
//! generate. The nested strategies are boxed to keep the strategy types (and compile times) small.

#![allow(dead_code)]

use std::collections::BTreeMap;

use apis::apps::{
    Deployment, DeploymentCondition, DeploymentList, DeploymentSpec, DeploymentStatus, DeploymentStrategy, ReplicaSet,
    ReplicaSetCondition, ReplicaSetList, ReplicaSetSpec, ReplicaSetStatus, RollbackConfig, RollingUpdateDeployment,
    RollingUpdateStatefulSetStrategy, StatefulSet, StatefulSetCondition, StatefulSetList, StatefulSetOrdinals,
    StatefulSetPersistentVolumeClaimRetentionPolicy, StatefulSetSpec, StatefulSetStatus, StatefulSetUpdateStrategy,
};
use apis::core::{
    ConfigMap, ConfigMapList, Container, ContainerPort, EnvVar, LocalObjectReference, Namespace, NamespaceList,
    NamespaceSpec, NamespaceStatus, Pod, PodCondition, PodIP, PodList, PodSecurityContext, PodSpec, PodStatus,
    PodTemplate, PodTemplateList, PodTemplateSpec, ResourceRequirements,
};
use k8s_openapi::ByteString;
use k8s_openapi::api::core::v1::{PersistentVolumeClaim, PersistentVolumeClaimSpec};
use k8s_openapi::apimachinery::pkg::api::resource::Quantity;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{LabelSelector, ListMeta, ObjectMeta, Time};
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
use kube_core::TypeMeta;
use proptest::collection::{btree_map, vec};
use proptest::option::of;
use proptest::prelude::*;

// ---------------------------------------------------------------------------------------------
// Scalars and k8s-openapi / kube-core building blocks.
// ---------------------------------------------------------------------------------------------

/// Words that short strings are built from.
const WORDS: &[&str] = &["web", "nginx", "app", "kube-system", "default", "TCP", "Running", "x"];

/// A short string: usually a DNS-label-like word, sometimes arbitrary Unicode or empty. (Built from
/// `select` and `char`s rather than a regex strategy, which is several times slower in debug builds.)
pub fn s() -> impl Strategy<Value = String> + Clone {
    prop_oneof![
        4 => (proptest::sample::select(WORDS), 0u16..1000).prop_map(|(word, n)| format!("{word}-{n}")),
        1 => vec(any::<char>(), 0..6).prop_map(String::from_iter),
        1 => Just(String::new()),
    ]
}

/// A small list of short strings.
pub fn strings() -> impl Strategy<Value = Vec<String>> + Clone {
    vec(s(), 0..3)
}

/// A small string-to-string map (labels, annotations, node selectors, ConfigMap data).
pub fn string_map() -> impl Strategy<Value = BTreeMap<String, String>> + Clone {
    btree_map(s(), s(), 0..3)
}

prop_compose! {
    /// A `Time` anywhere between 1970 and about 2096, at whole seconds.
    pub fn time()(secs in 0i64..4_000_000_000) -> Time {
        Time(k8s_openapi::jiff::Timestamp::from_second(secs).unwrap())
    }
}

prop_compose! {
    pub fn quantity()(n in 0u32..100_000, unit in prop_oneof![Just(""), Just("m"), Just("Mi"), Just("Gi"), Just("k")]) -> Quantity {
        Quantity(format!("{n}{unit}"))
    }
}

prop_compose! {
    pub fn byte_string()(bytes in vec(any::<u8>(), 0..8)) -> ByteString {
        ByteString(bytes)
    }
}

pub fn int_or_string() -> impl Strategy<Value = IntOrString> + Clone {
    prop_oneof![
        any::<i32>().prop_map(IntOrString::Int),
        prop_oneof![(0u8..=100).prop_map(|p| format!("{p}%")), s()].prop_map(IntOrString::String),
    ]
}

prop_compose! {
    pub fn type_meta()(api_version in s(), kind in s()) -> TypeMeta {
        TypeMeta { api_version, kind }
    }
}

prop_compose! {
    pub fn object_meta()(
        name in of(s()),
        generate_name in of(s()),
        namespace in of(s()),
        labels in of(string_map()),
        annotations in of(string_map()),
        generation in of(any::<i64>()),
        uid in of(s()),
        resource_version in of(s()),
        creation_timestamp in of(time()),
        finalizers in of(strings()),
    ) -> ObjectMeta {
        ObjectMeta {
            name,
            generate_name,
            namespace,
            labels,
            annotations,
            generation,
            uid,
            resource_version,
            creation_timestamp,
            finalizers,
            ..ObjectMeta::default()
        }
    }
}

prop_compose! {
    pub fn list_meta()(
        resource_version in of(s()),
        continue_ in of(s()),
        remaining_item_count in of(any::<i64>()),
        self_link in of(s()),
    ) -> ListMeta {
        ListMeta { resource_version, continue_, remaining_item_count, self_link, ..ListMeta::default() }
    }
}

prop_compose! {
    pub fn label_selector()(match_labels in of(string_map())) -> LabelSelector {
        LabelSelector { match_labels, ..LabelSelector::default() }
    }
}

/// A volume claim template: either the default claim or one with random metadata (name, labels, ...)
/// and a small spec.
pub fn persistent_volume_claim() -> BoxedStrategy<PersistentVolumeClaim> {
    prop_oneof![
        1 => Just(PersistentVolumeClaim::default()),
        3 => (object_meta(), of((of(vec(s(), 0..3)), of(s())))).prop_map(|(metadata, spec)| PersistentVolumeClaim {
            metadata,
            spec: spec.map(|(access_modes, storage_class_name)| PersistentVolumeClaimSpec {
                access_modes,
                storage_class_name,
                ..PersistentVolumeClaimSpec::default()
            }),
            status: None,
        }),
    ]
    .boxed()
}

// ---------------------------------------------------------------------------------------------
// apis::core
// ---------------------------------------------------------------------------------------------

prop_compose! {
    pub fn container_port()(
        name in s(),
        host_port in any::<i32>(),
        container_port in any::<i32>(),
        protocol in prop_oneof![Just("TCP".to_owned()), Just("UDP".to_owned()), s()],
        host_ip in s(),
    ) -> ContainerPort {
        ContainerPort { name, host_port, container_port, protocol, host_ip }
    }
}

prop_compose! {
    pub fn env_var()(name in s(), value in s()) -> EnvVar {
        EnvVar { name, value }
    }
}

prop_compose! {
    pub fn resource_requirements()(
        limits in btree_map(s(), quantity(), 0..3),
        requests in btree_map(s(), quantity(), 0..3),
    ) -> ResourceRequirements {
        ResourceRequirements { limits, requests }
    }
}

prop_compose! {
    pub fn local_object_reference()(name in s()) -> LocalObjectReference {
        LocalObjectReference { name }
    }
}

prop_compose! {
    fn container_inner()(
        name in s(),
        image in s(),
        command in strings(),
        args in strings(),
        working_dir in s(),
        ports in vec(container_port(), 0..3),
        env in vec(env_var(), 0..3),
        resources in resource_requirements(),
        termination_message_path in s(),
        termination_message_policy in s(),
        image_pull_policy in s(),
    ) -> Container {
        Container {
            name,
            image,
            command,
            args,
            working_dir,
            ports,
            env,
            resources,
            termination_message_path,
            termination_message_policy,
            image_pull_policy,
        }
    }
}

pub fn container() -> BoxedStrategy<Container> {
    container_inner().boxed()
}

prop_compose! {
    pub fn pod_security_context()(host_network in any::<bool>()) -> PodSecurityContext {
        PodSecurityContext { host_network }
    }
}

prop_compose! {
    fn pod_spec_inner()(
        init_containers in vec(container(), 0..3),
        containers in vec(container(), 0..3),
        restart_policy in s(),
        termination_grace_period_seconds in of(any::<i64>()),
        active_deadline_seconds in of(any::<i64>()),
        dns_policy in s(),
        node_selector in string_map(),
        service_account_name in s(),
        automount_service_account_token in of(any::<bool>()),
        node_name in s(),
        security_context in of(pod_security_context()),
        image_pull_secrets in vec(local_object_reference(), 0..3),
        scheduler_name in s(),
        priority_class_name in s(),
        priority in of(any::<i32>()),
    ) -> PodSpec {
        PodSpec {
            init_containers,
            containers,
            restart_policy,
            termination_grace_period_seconds,
            active_deadline_seconds,
            dns_policy,
            node_selector,
            service_account_name,
            automount_service_account_token,
            node_name,
            security_context,
            image_pull_secrets,
            scheduler_name,
            priority_class_name,
            priority,
        }
    }
}

pub fn pod_spec() -> BoxedStrategy<PodSpec> {
    pod_spec_inner().boxed()
}

prop_compose! {
    pub fn pod_condition()(
        type_ in s(),
        observed_generation in any::<i64>(),
        status in prop_oneof![Just("True".to_owned()), Just("False".to_owned()), Just("Unknown".to_owned())],
        last_probe_time in of(time()),
        last_transition_time in of(time()),
        reason in s(),
        message in s(),
    ) -> PodCondition {
        PodCondition { type_, observed_generation, status, last_probe_time, last_transition_time, reason, message }
    }
}

prop_compose! {
    pub fn pod_ip()(ip in s()) -> PodIP {
        PodIP { ip }
    }
}

prop_compose! {
    pub fn pod_status()(
        phase in s(),
        conditions in vec(pod_condition(), 0..3),
        message in s(),
        reason in s(),
        host_ip in s(),
        pod_ips in vec(pod_ip(), 0..3),
        start_time in of(time()),
    ) -> PodStatus {
        PodStatus { phase, conditions, message, reason, host_ip, pod_ips, start_time }
    }
}

prop_compose! {
    fn pod_inner()(type_meta in type_meta(), metadata in object_meta(), spec in pod_spec(), status in pod_status()) -> Pod {
        Pod { type_meta, metadata, spec, status }
    }
}

pub fn pod() -> BoxedStrategy<Pod> {
    pod_inner().boxed()
}

prop_compose! {
    pub fn pod_list()(type_meta in type_meta(), metadata in list_meta(), items in vec(pod(), 0..3)) -> PodList {
        PodList { type_meta, metadata, items }
    }
}

prop_compose! {
    fn pod_template_spec_inner()(metadata in object_meta(), spec in pod_spec()) -> PodTemplateSpec {
        PodTemplateSpec { metadata, spec }
    }
}

pub fn pod_template_spec() -> BoxedStrategy<PodTemplateSpec> {
    pod_template_spec_inner().boxed()
}

prop_compose! {
    fn pod_template_inner()(type_meta in type_meta(), metadata in object_meta(), template in pod_template_spec()) -> PodTemplate {
        PodTemplate { type_meta, metadata, template }
    }
}

pub fn pod_template() -> BoxedStrategy<PodTemplate> {
    pod_template_inner().boxed()
}

prop_compose! {
    pub fn pod_template_list()(type_meta in type_meta(), metadata in list_meta(), items in vec(pod_template(), 0..3)) -> PodTemplateList {
        PodTemplateList { type_meta, metadata, items }
    }
}

prop_compose! {
    pub fn config_map()(
        type_meta in type_meta(),
        metadata in object_meta(),
        immutable in of(any::<bool>()),
        data in string_map(),
        binary_data in btree_map(s(), byte_string(), 0..3),
    ) -> ConfigMap {
        ConfigMap { type_meta, metadata, immutable, data, binary_data }
    }
}

prop_compose! {
    pub fn config_map_list()(type_meta in type_meta(), metadata in list_meta(), items in vec(config_map(), 0..3)) -> ConfigMapList {
        ConfigMapList { type_meta, metadata, items }
    }
}

prop_compose! {
    pub fn namespace_spec()(finalizers in strings()) -> NamespaceSpec {
        NamespaceSpec { finalizers }
    }
}

prop_compose! {
    pub fn namespace_status()(phase in prop_oneof![Just("Active".to_owned()), Just("Terminating".to_owned()), s()]) -> NamespaceStatus {
        NamespaceStatus { phase }
    }
}

prop_compose! {
    pub fn namespace()(type_meta in type_meta(), metadata in object_meta(), spec in namespace_spec(), status in namespace_status()) -> Namespace {
        Namespace { type_meta, metadata, spec, status }
    }
}

prop_compose! {
    pub fn namespace_list()(type_meta in type_meta(), metadata in list_meta(), items in vec(namespace(), 0..3)) -> NamespaceList {
        NamespaceList { type_meta, metadata, items }
    }
}

// ---------------------------------------------------------------------------------------------
// apis::apps
// ---------------------------------------------------------------------------------------------

prop_compose! {
    pub fn rolling_update_stateful_set_strategy()(partition in any::<i32>(), max_unavailable in of(int_or_string())) -> RollingUpdateStatefulSetStrategy {
        RollingUpdateStatefulSetStrategy { partition, max_unavailable }
    }
}

prop_compose! {
    pub fn stateful_set_update_strategy()(
        type_ in prop_oneof![Just("RollingUpdate".to_owned()), Just("OnDelete".to_owned()), s()],
        rolling_update in of(rolling_update_stateful_set_strategy()),
    ) -> StatefulSetUpdateStrategy {
        StatefulSetUpdateStrategy { type_, rolling_update }
    }
}

prop_compose! {
    pub fn stateful_set_persistent_volume_claim_retention_policy()(when_deleted in s(), when_scaled in s())
        -> StatefulSetPersistentVolumeClaimRetentionPolicy {
        StatefulSetPersistentVolumeClaimRetentionPolicy { when_deleted, when_scaled }
    }
}

prop_compose! {
    pub fn stateful_set_ordinals()(start in any::<i32>()) -> StatefulSetOrdinals {
        StatefulSetOrdinals { start }
    }
}

prop_compose! {
    fn stateful_set_spec_inner()(
        replicas in any::<i32>(),
        selector in of(label_selector()),
        template in pod_template_spec(),
        volume_claim_templates in vec(persistent_volume_claim(), 0..3),
        service_name in s(),
        pod_management_policy in prop_oneof![Just("OrderedReady".to_owned()), Just("Parallel".to_owned()), s()],
        update_strategy in stateful_set_update_strategy(),
        revision_history_limit in of(any::<i32>()),
        min_ready_seconds in any::<i32>(),
        persistent_volume_claim_retention_policy in of(stateful_set_persistent_volume_claim_retention_policy()),
        ordinals in of(stateful_set_ordinals()),
    ) -> StatefulSetSpec {
        StatefulSetSpec {
            replicas,
            selector,
            template,
            volume_claim_templates,
            service_name,
            pod_management_policy,
            update_strategy,
            revision_history_limit,
            min_ready_seconds,
            persistent_volume_claim_retention_policy,
            ordinals,
        }
    }
}

pub fn stateful_set_spec() -> BoxedStrategy<StatefulSetSpec> {
    stateful_set_spec_inner().boxed()
}

prop_compose! {
    pub fn stateful_set_condition()(
        type_ in s(),
        status in s(),
        last_transition_time in of(time()),
        reason in s(),
        message in s(),
    ) -> StatefulSetCondition {
        StatefulSetCondition { type_, status, last_transition_time, reason, message }
    }
}

prop_compose! {
    pub fn stateful_set_status()(
        observed_generation in of(any::<i64>()),
        replicas in any::<i32>(),
        ready_replicas in any::<i32>(),
        current_replicas in any::<i32>(),
        updated_replicas in any::<i32>(),
        current_revision in s(),
        update_revision in s(),
        collision_count in of(any::<i32>()),
        conditions in vec(stateful_set_condition(), 0..3),
        available_replicas in any::<i32>(),
    ) -> StatefulSetStatus {
        StatefulSetStatus {
            observed_generation,
            replicas,
            ready_replicas,
            current_replicas,
            updated_replicas,
            current_revision,
            update_revision,
            collision_count,
            conditions,
            available_replicas,
        }
    }
}

prop_compose! {
    fn stateful_set_inner()(
        type_meta in type_meta(),
        metadata in object_meta(),
        spec in stateful_set_spec(),
        status in stateful_set_status(),
    ) -> StatefulSet {
        StatefulSet { type_meta, metadata, spec, status }
    }
}

pub fn stateful_set() -> BoxedStrategy<StatefulSet> {
    stateful_set_inner().boxed()
}

prop_compose! {
    pub fn stateful_set_list()(type_meta in type_meta(), metadata in list_meta(), items in vec(stateful_set(), 0..3)) -> StatefulSetList {
        StatefulSetList { type_meta, metadata, items }
    }
}

prop_compose! {
    pub fn rollback_config()(revision in any::<i64>()) -> RollbackConfig {
        RollbackConfig { revision }
    }
}

prop_compose! {
    pub fn rolling_update_deployment()(max_unavailable in int_or_string(), max_surge in int_or_string()) -> RollingUpdateDeployment {
        RollingUpdateDeployment { max_unavailable, max_surge }
    }
}

prop_compose! {
    pub fn deployment_strategy()(
        type_ in prop_oneof![Just("RollingUpdate".to_owned()), Just("Recreate".to_owned()), s()],
        rolling_update in of(rolling_update_deployment()),
    ) -> DeploymentStrategy {
        DeploymentStrategy { type_, rolling_update }
    }
}

prop_compose! {
    fn deployment_spec_inner()(
        replicas in any::<i32>(),
        selector in of(label_selector()),
        template in pod_template_spec(),
        strategy in deployment_strategy(),
        min_ready_seconds in any::<i32>(),
        revision_history_limit in of(any::<i32>()),
        paused in any::<bool>(),
        rollback_to in of(rollback_config()),
        progress_deadline_seconds in of(any::<i32>()),
    ) -> DeploymentSpec {
        DeploymentSpec {
            replicas,
            selector,
            template,
            strategy,
            min_ready_seconds,
            revision_history_limit,
            paused,
            rollback_to,
            progress_deadline_seconds,
        }
    }
}

pub fn deployment_spec() -> BoxedStrategy<DeploymentSpec> {
    deployment_spec_inner().boxed()
}

prop_compose! {
    pub fn deployment_condition()(
        type_ in s(),
        status in s(),
        last_update_time in of(time()),
        last_transition_time in of(time()),
        reason in s(),
        message in s(),
    ) -> DeploymentCondition {
        DeploymentCondition { type_, status, last_update_time, last_transition_time, reason, message }
    }
}

prop_compose! {
    pub fn deployment_status()(
        observed_generation in any::<i64>(),
        replicas in any::<i32>(),
        updated_replicas in any::<i32>(),
        ready_replicas in any::<i32>(),
        available_replicas in any::<i32>(),
        unavailable_replicas in any::<i32>(),
        terminating_replicas in of(any::<i32>()),
        conditions in vec(deployment_condition(), 0..3),
        collision_count in of(any::<i32>()),
    ) -> DeploymentStatus {
        DeploymentStatus {
            observed_generation,
            replicas,
            updated_replicas,
            ready_replicas,
            available_replicas,
            unavailable_replicas,
            terminating_replicas,
            conditions,
            collision_count,
        }
    }
}

prop_compose! {
    fn deployment_inner()(
        type_meta in type_meta(),
        metadata in object_meta(),
        spec in deployment_spec(),
        status in deployment_status(),
    ) -> Deployment {
        Deployment { type_meta, metadata, spec, status }
    }
}

pub fn deployment() -> BoxedStrategy<Deployment> {
    deployment_inner().boxed()
}

prop_compose! {
    pub fn deployment_list()(type_meta in type_meta(), metadata in list_meta(), items in vec(deployment(), 0..3)) -> DeploymentList {
        DeploymentList { type_meta, metadata, items }
    }
}

prop_compose! {
    fn replica_set_spec_inner()(
        replicas in any::<i32>(),
        min_ready_seconds in any::<i32>(),
        selector in of(label_selector()),
        template in pod_template_spec(),
    ) -> ReplicaSetSpec {
        ReplicaSetSpec { replicas, min_ready_seconds, selector, template }
    }
}

pub fn replica_set_spec() -> BoxedStrategy<ReplicaSetSpec> {
    replica_set_spec_inner().boxed()
}

prop_compose! {
    pub fn replica_set_condition()(
        type_ in s(),
        status in s(),
        last_transition_time in of(time()),
        reason in s(),
        message in s(),
    ) -> ReplicaSetCondition {
        ReplicaSetCondition { type_, status, last_transition_time, reason, message }
    }
}

prop_compose! {
    pub fn replica_set_status()(
        replicas in any::<i32>(),
        fully_labeled_replicas in any::<i32>(),
        ready_replicas in any::<i32>(),
        available_replicas in any::<i32>(),
        terminating_replicas in of(any::<i32>()),
        observed_generation in any::<i64>(),
        conditions in vec(replica_set_condition(), 0..3),
    ) -> ReplicaSetStatus {
        ReplicaSetStatus {
            replicas,
            fully_labeled_replicas,
            ready_replicas,
            available_replicas,
            terminating_replicas,
            observed_generation,
            conditions,
        }
    }
}

prop_compose! {
    fn replica_set_inner()(
        type_meta in type_meta(),
        metadata in object_meta(),
        spec in replica_set_spec(),
        status in replica_set_status(),
    ) -> ReplicaSet {
        ReplicaSet { type_meta, metadata, spec, status }
    }
}

pub fn replica_set() -> BoxedStrategy<ReplicaSet> {
    replica_set_inner().boxed()
}

prop_compose! {
    pub fn replica_set_list()(type_meta in type_meta(), metadata in list_meta(), items in vec(replica_set(), 0..3)) -> ReplicaSetList {
        ReplicaSetList { type_meta, metadata, items }
    }
}
