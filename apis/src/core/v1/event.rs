//! The core/v1 Event, field for field as k8s.io/api core/v1 serializes it: what controllers and
//! kubelets report about objects (`kubectl describe` lists them), kept for a limited time (the
//! server's `--event-ttl`).

use k8s_openapi::apimachinery::pkg::apis::meta::v1::{ListMeta, MicroTime, ObjectMeta, Time};
use kube_core::TypeMeta;

use super::ObjectReference;

/// Event is a report of an event somewhere in the cluster.  Events
/// have a limited retention time and triggers and messages may evolve
/// with time.  Event consumers should not rely on the timing of an event
/// with a given Reason reflecting a consistent underlying trigger, or the
/// continued existence of events with that Reason.  Events should be
/// treated as informative, best-effort, supplemental data.
///
/// +genclient
/// +k8s:deepcopy-gen:interfaces=runtime::Object
/// +k8s:prerelease-lifecycle-gen:introduced=1.0
/// +k8s:crd-gen:shortNames=ev
#[derive(Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Event {
    /// Standard type metadata (apiVersion and kind).
    #[serde(flatten, default)]
    pub type_meta: Option<TypeMeta>,
    /// Standard object's metadata.
    /// More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata
    /// +protobuf=1
    pub metadata: ObjectMeta,
    /// The object that this event is about.
    /// +protobuf=2
    pub involved_object: ObjectReference,
    /// This should be a short, machine understandable string that gives the reason
    /// for the transition into the object's current status.
    /// +optional
    /// +protobuf=3
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// A human-readable description of the status of this operation.
    /// +optional
    /// +protobuf=4
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// The component reporting this event. Should be a short machine understandable string.
    /// +optional
    /// +protobuf=5
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<EventSource>,
    /// The time at which the event was first recorded. (Time of server receipt is in TypeMeta.)
    /// +optional
    /// +protobuf=6
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_timestamp: Option<Time>,
    /// The time at which the most recent occurrence of this event was recorded.
    /// +optional
    /// +protobuf=7
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_timestamp: Option<Time>,
    /// The number of times this event has occurred.
    /// +optional
    /// +protobuf=8
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub count: Option<i32>,
    /// Type of this event (Normal, Warning), new types could be added in the future
    /// +optional
    /// +protobuf=9
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    pub type_: Option<String>,
    /// Time when this Event was first observed.
    /// +optional
    /// +protobuf=10
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event_time: Option<MicroTime>,
    /// Data about the Event series this event represents or nil if it's a singleton Event.
    /// +optional
    /// +protobuf=11
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub series: Option<EventSeries>,
    /// What action was taken/failed regarding to the Regarding object.
    /// +optional
    /// +protobuf=12
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action: Option<String>,
    /// Optional secondary object for more complex actions.
    /// +optional
    /// +protobuf=13
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub related: Option<ObjectReference>,
    /// Name of the controller that emitted this Event, e.g. `kubernetes.io/kubelet`.
    /// +optional
    /// +protobuf=14
    #[serde(default)]
    pub reporting_component: String,
    /// ID of the controller instance, e.g. `kubelet-xyzf`.
    /// +optional
    /// +protobuf=15
    #[serde(default)]
    pub reporting_instance: String,
}

/// EventSource contains information for an event.
#[derive(Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EventSource {
    /// Component from which the event is generated.
    /// +optional
    /// +protobuf=1
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub component: Option<String>,
    /// Node name on which the event is generated.
    /// +optional
    /// +protobuf=2
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host: Option<String>,
}

/// EventSeries contain information on series of events, i.e. thing that was/is happening
/// continuously for some time.
#[derive(Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EventSeries {
    /// Number of occurrences in this series up to the last heartbeat time
    /// +protobuf=1
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub count: Option<i32>,
    /// Time of the last occurrence observed
    /// +protobuf=2
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_observed_time: Option<MicroTime>,
}

/// EventList is a list of events.
/// +k8s:prerelease-lifecycle-gen:introduced=1.0
/// +k8s:deepcopy-gen:interfaces=runtime::Object
#[derive(Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EventList {
    /// Standard type metadata (apiVersion and kind).
    #[serde(flatten, default)]
    pub type_meta: Option<TypeMeta>,
    /// Standard list metadata.
    /// More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds
    /// +optional
    /// +protobuf=1
    #[serde(default)]
    pub metadata: ListMeta,
    /// List of events
    /// +protobuf=2
    pub items: Vec<Event>,
}
