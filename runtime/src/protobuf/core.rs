//! The protobuf messages of the k8s-openapi core/v1 types that API types here embed: a
//! StatefulSet's `volumeClaimTemplates` are PersistentVolumeClaims. Field numbers are core/v1's
//! generated.proto; `field`, `value` and `time_value` say how Go holds each field (`meta.rs`).

use k8s_openapi::api::core::v1::{
    ModifyVolumeStatus, PersistentVolumeClaim, PersistentVolumeClaimCondition, PersistentVolumeClaimSpec,
    PersistentVolumeClaimStatus, TypedLocalObjectReference, TypedObjectReference, VolumeResourceRequirements,
};

use super::meta::{field, k8s_message, time_value, value};
use super::{DecodeError, WireType, skip};

k8s_message!(PersistentVolumeClaim {
    1 => metadata: field,
    2 => spec: field,
    3 => status: field,
});

k8s_message!(PersistentVolumeClaimSpec {
    1 => access_modes: field,
    2 => resources: field,
    3 => volume_name: value,
    4 => selector: field,
    5 => storage_class_name: field,
    6 => volume_mode: field,
    7 => data_source: field,
    8 => data_source_ref: field,
    9 => volume_attributes_class_name: field,
});

k8s_message!(PersistentVolumeClaimStatus {
    1 => phase: value,
    2 => access_modes: field,
    3 => capacity: field,
    4 => conditions: field,
    5 => allocated_resources: field,
    7 => allocated_resource_statuses: field,
    8 => current_volume_attributes_class_name: field,
    9 => modify_volume_status: field,
});

k8s_message!(PersistentVolumeClaimCondition {
    1 => type_: field,
    2 => status: field,
    3 => last_probe_time: time_value,
    4 => last_transition_time: time_value,
    5 => reason: value,
    6 => message: value,
});

k8s_message!(VolumeResourceRequirements {
    1 => limits: field,
    2 => requests: field,
});

k8s_message!(TypedLocalObjectReference {
    1 => api_group: field,
    2 => kind: field,
    3 => name: field,
});

k8s_message!(TypedObjectReference {
    1 => api_group: field,
    2 => kind: field,
    3 => name: field,
    4 => namespace: field,
});

k8s_message!(ModifyVolumeStatus {
    1 => target_volume_attributes_class_name: value,
    2 => status: field,
});
