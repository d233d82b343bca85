//! The internal Event: a report about an object, kept for the server's `--event-ttl`.

use k8s_openapi::apimachinery::pkg::apis::meta::v1::{ListMeta, MicroTime, ObjectMeta, Time};
use kube_core::TypeMeta;

use super::ObjectReference;

/// Event is a report of an event somewhere in the cluster. Events have a limited retention time.
/// +k8s:deepcopy-gen:interfaces=runtime::Object
#[derive(Debug, Default, PartialEq)]
pub struct Event {
    /// Standard type metadata (apiVersion and kind).
    pub type_meta: TypeMeta,
    /// Standard object's metadata.
    pub metadata: ObjectMeta,
    /// The object that this event is about.
    pub involved_object: ObjectReference,
    /// A short, machine understandable reason for the transition into the object's current status.
    /// +optional
    pub reason: Option<String>,
    /// A human-readable description of the status of this operation.
    /// +optional
    pub message: Option<String>,
    /// The component reporting this event.
    /// +optional
    pub source: Option<EventSource>,
    /// The time at which the event was first recorded.
    /// +optional
    pub first_timestamp: Option<Time>,
    /// The time at which the most recent occurrence of this event was recorded.
    /// +optional
    pub last_timestamp: Option<Time>,
    /// The number of times this event has occurred.
    /// +optional
    pub count: Option<i32>,
    /// Type of this event (Normal, Warning).
    /// +optional
    pub type_: Option<String>,
    /// Time when this Event was first observed.
    /// +optional
    pub event_time: Option<MicroTime>,
    /// Data about the Event series this event represents, if it is one.
    /// +optional
    pub series: Option<EventSeries>,
    /// What action was taken/failed regarding to the involved object.
    /// +optional
    pub action: Option<String>,
    /// Optional secondary object for more complex actions.
    /// +optional
    pub related: Option<ObjectReference>,
    /// Name of the controller that emitted this Event.
    /// +optional
    pub reporting_component: String,
    /// ID of the controller instance.
    /// +optional
    pub reporting_instance: String,
}

/// EventSource contains information for an event.
#[derive(Debug, Default, PartialEq)]
pub struct EventSource {
    /// Component from which the event is generated.
    /// +optional
    pub component: Option<String>,
    /// Node name on which the event is generated.
    /// +optional
    pub host: Option<String>,
}

/// EventSeries contain information on series of events.
#[derive(Debug, Default, PartialEq)]
pub struct EventSeries {
    /// Number of occurrences in this series up to the last heartbeat time.
    pub count: Option<i32>,
    /// Time of the last occurrence observed.
    pub last_observed_time: Option<MicroTime>,
}

/// EventList is a list of events.
/// +k8s:deepcopy-gen:interfaces=runtime::Object
#[derive(Debug, Default, PartialEq)]
pub struct EventList {
    /// Standard type metadata (apiVersion and kind).
    pub type_meta: TypeMeta,
    /// Standard list metadata.
    /// +optional
    pub metadata: ListMeta,
    /// List of events.
    pub items: Vec<Event>,
}
