//! Events of core/v1 and events.k8s.io in one storage, as kube-apiserver keeps them: the
//! events.k8s.io resource is served over the core Events' store, its objects converted at the
//! edges (`regarding` is `involvedObject`, `note` is `message`, `reportingController` is
//! `reportingComponent`, the `deprecated*` fields are core's `source`, `firstTimestamp`,
//! `lastTimestamp` and `count`, as Kubernetes' events/v1 conversion maps them), so an Event
//! kube-runtime's Recorder posts to events.k8s.io is one `kubectl describe` finds through core/v1,
//! and the other way round.

use std::sync::Arc;

use serde_json::{Map, Value, json};

use kube_apimachinery::{GroupVersion, GroupVersionKind, Scheme};
use kube_generic_apiserver::convert::{Decoded, Edges, Versions};
use kube_generic_apiserver::query::FieldValidation;
use kube_generic_apiserver::status::ApiError;

/// core/v1's field names against events.k8s.io/v1's, for the fields that differ.
const RENAMES: [(&str, &str); 7] = [
    ("involvedObject", "regarding"),
    ("message", "note"),
    ("source", "deprecatedSource"),
    ("firstTimestamp", "deprecatedFirstTimestamp"),
    ("lastTimestamp", "deprecatedLastTimestamp"),
    ("count", "deprecatedCount"),
    ("reportingComponent", "reportingController"),
];

/// The version of events.k8s.io its Events are converted through.
fn events_v1() -> GroupVersion {
    GroupVersion::from_static("events.k8s.io", "v1")
}

fn rename(obj: Value, api_version: &str, from_core: bool) -> Value {
    let Value::Object(fields) = obj else { return obj };
    let mut out = Map::with_capacity(fields.len());
    for (k, v) in fields {
        let renamed = RENAMES.iter().find_map(|(core, events)| match from_core {
            true if k == *core => Some(*events),
            false if k == *events => Some(*core),
            _ => None,
        });
        out.insert(renamed.map_or(k, str::to_string), v);
    }
    out.insert("apiVersion".into(), json!(api_version));
    out.insert("kind".into(), json!("Event"));
    Value::Object(out)
}

/// A core/v1 Event as events.k8s.io/v1 has it.
pub fn to_events(core: Value) -> Value {
    rename(core, "events.k8s.io/v1", true)
}

/// An events.k8s.io/v1 Event as core/v1 has it.
pub fn to_core(events: Value) -> Value {
    rename(events, "v1", false)
}

/// The edges of events.k8s.io's Events over core/v1's store: bodies decoded (and defaulted) as
/// events.k8s.io's, stored as core's; stored objects answered as events.k8s.io's.
pub struct EventsEdges {
    versions: Versions,
}

impl EventsEdges {
    /// The edges over `scheme`'s events.k8s.io versions.
    pub fn new(scheme: Arc<Scheme>) -> EventsEdges {
        EventsEdges {
            versions: Versions::new(scheme),
        }
    }
}

impl Edges for EventsEdges {
    fn decode_body(
        &self,
        body: &[u8],
        expected: &GroupVersionKind,
        _storage: &GroupVersion,
        validation: FieldValidation,
    ) -> Result<Decoded, ApiError> {
        let decoded = self.versions.decode_body(body, expected, &events_v1(), validation)?;
        Ok(Decoded {
            object: to_core(decoded.object),
            warnings: decoded.warnings,
        })
    }

    fn to_storage(
        &self,
        value: &Value,
        expected: &GroupVersionKind,
        _storage: &GroupVersion,
        validation: FieldValidation,
    ) -> Result<Decoded, ApiError> {
        let decoded = self.versions.to_storage(value, expected, &events_v1(), validation)?;
        Ok(Decoded {
            object: to_core(decoded.object),
            warnings: decoded.warnings,
        })
    }

    fn to_version(&self, stored: Value, _storage: &GroupVersion, target: &GroupVersion) -> Result<Value, ApiError> {
        self.versions.to_version(to_events(stored), &events_v1(), target)
    }

    fn protobuf(&self, value: &Value) -> Result<Option<Vec<u8>>, ApiError> {
        Edges::protobuf(&self.versions, value)
    }

    /// events.k8s.io's field selectors on the stored core Events: the same fields by their core
    /// names (Kubernetes' events/v1 field label conversion).
    fn field_label(&self, _gvk: &GroupVersionKind, label: &str, value: &str) -> Result<(String, String), String> {
        let core = match label {
            "metadata.name" | "metadata.namespace" | "reason" | "type" => label.to_string(),
            "reportingController" => "reportingComponent".to_string(),
            _ => match label.strip_prefix("regarding.") {
                Some(
                    field @ ("kind" | "namespace" | "name" | "uid" | "apiVersion" | "resourceVersion" | "fieldPath"),
                ) => format!("involvedObject.{field}"),
                _ => return Err(format!("field label not supported: {label}")),
            },
        };
        Ok((core, value.to_string()))
    }

    fn deprecation_warning(&self, gvk: &GroupVersionKind, current: kube_apimachinery::Release) -> Option<String> {
        Edges::deprecation_warning(&self.versions, gvk, current)
    }

    /// The stored bytes are core/v1's: every read converts.
    fn reads_stored_bytes(&self, _revision: kube_apiserver_storage::Revision) -> bool {
        false
    }

    fn strategic_merge(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_convert_both_ways_as_kubernetes_maps_them() {
        let events = json!({
            "apiVersion": "events.k8s.io/v1", "kind": "Event", "metadata": {"name": "e"},
            "regarding": {"kind": "Pod", "name": "p"}, "note": "pulled", "reason": "Pulled",
            "reportingController": "kubelet", "reportingInstance": "n1", "action": "Pull",
            "deprecatedCount": 2, "eventTime": "2026-01-01T00:00:00.000000Z",
        });
        let core = to_core(events.clone());
        assert_eq!(
            core,
            json!({
                "apiVersion": "v1", "kind": "Event", "metadata": {"name": "e"},
                "involvedObject": {"kind": "Pod", "name": "p"}, "message": "pulled", "reason": "Pulled",
                "reportingComponent": "kubelet", "reportingInstance": "n1", "action": "Pull",
                "count": 2, "eventTime": "2026-01-01T00:00:00.000000Z",
            })
        );
        assert_eq!(to_events(core), events);
    }
}
