//! Extracting one field manager's apply configuration from an object (client-go's
//! `ExtractX`): the object's fields that the manager's `Apply` entry of `managedFields` owns,
//! read through the entry's `fieldsV1` set.
//!
//! A `fieldsV1` set is a JSON object whose keys name children: `f:<field>` a field of an object,
//! `k:<json>` the item of a list-map whose key fields have these values, `v:<json>` the item of
//! a set with this value, `i:<n>` the item at an index; `.` marks the node itself as owned. A
//! child with an empty set (or only `.`) is owned whole.

use serde_json::{Map, Value};

/// The object's fields that `manager` applied through `subresource` (`""` for the main
/// resource), plus its name and namespace, which every apply configuration needs; `{}` apart
/// from those when the manager applied nothing.
pub fn extract(object: &Value, manager: &str, subresource: &str) -> Value {
    let mut owned = Map::new();
    let entries = object["metadata"]["managedFields"].as_array().into_iter().flatten();
    for entry in entries.filter(|e| {
        e["manager"] == manager && e["operation"] == "Apply" && e["subresource"].as_str().unwrap_or("") == subresource
    }) {
        if let Some(set) = entry["fieldsV1"].as_object() {
            merge_sets(&mut owned, set);
        }
    }
    // No entry owns nothing (an empty set further down owns its node whole).
    let mut out = if owned.is_empty() {
        Value::Object(Map::new())
    } else {
        filter(object, &owned)
    };
    if !out.is_object() {
        out = Value::Object(Map::new());
    }
    for key in ["name", "namespace"] {
        if let Some(v) = object["metadata"].get(key) {
            if out.get("metadata").is_none_or(|m| !m.is_object()) {
                out["metadata"] = Value::Object(Map::new());
            }
            out["metadata"][key] = v.clone();
        }
    }
    out
}

/// Joins two sets (a manager with several entries for one subresource).
fn merge_sets(into: &mut Map<String, Value>, set: &Map<String, Value>) {
    for (k, v) in set {
        match (into.get_mut(k), v) {
            (Some(Value::Object(a)), Value::Object(b)) => merge_sets(a, b),
            _ => {
                into.insert(k.clone(), v.clone());
            }
        }
    }
}

/// Whether a set owns its node whole: no children named.
fn whole(set: &Map<String, Value>) -> bool {
    set.keys().all(|k| k == ".")
}

/// The parts of `value` the set names.
fn filter(value: &Value, set: &Map<String, Value>) -> Value {
    if whole(set) {
        return value.clone();
    }
    match value {
        Value::Object(fields) => {
            let mut out = Map::new();
            for (key, sub) in set {
                let (Some(name), Some(sub)) = (key.strip_prefix("f:"), sub.as_object()) else {
                    continue;
                };
                if let Some(child) = fields.get(name) {
                    out.insert(name.to_string(), filter(child, sub));
                }
            }
            Value::Object(out)
        }
        Value::Array(items) => {
            let mut out = Vec::new();
            for (key, sub) in set {
                let Some(sub) = sub.as_object() else { continue };
                if let Some(k) = key.strip_prefix("k:") {
                    let Ok(Value::Object(keys)) = serde_json::from_str::<Value>(k) else {
                        continue;
                    };
                    let matching = items
                        .iter()
                        .filter(|item| keys.iter().all(|(f, v)| item.get(f) == Some(v)));
                    for item in matching {
                        let mut kept = filter(item, sub);
                        // The key fields identify the item: they go with it.
                        if let Value::Object(m) = &mut kept {
                            for (f, v) in &keys {
                                m.insert(f.clone(), v.clone());
                            }
                        }
                        out.push(kept);
                    }
                } else if let Some(v) = key.strip_prefix("v:") {
                    if let Ok(v) = serde_json::from_str::<Value>(v)
                        && items.contains(&v)
                    {
                        out.push(v);
                    }
                } else if let Some(i) = key.strip_prefix("i:").and_then(|i| i.parse::<usize>().ok())
                    && let Some(item) = items.get(i)
                {
                    out.push(filter(item, sub));
                }
            }
            Value::Array(out)
        }
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn object() -> Value {
        json!({
            "apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": "web", "namespace": "ns", "labels": {"app": "web", "team": "a"},
                "managedFields": [
                    {"manager": "kubectl", "operation": "Apply", "fieldsV1": {
                        "f:metadata": {"f:labels": {"f:app": {}}},
                        "f:spec": {"f:replicas": {}, "f:template": {"f:spec": {"f:containers": {
                            "k:{\"name\":\"app\"}": {".": {}, "f:image": {}, "f:name": {}}}}}}}},
                    {"manager": "kubectl", "operation": "Apply", "subresource": "status", "fieldsV1": {
                        "f:status": {"f:replicas": {}}}},
                    {"manager": "other", "operation": "Update", "fieldsV1": {"f:metadata": {"f:labels": {"f:team": {}}}}}
                ]},
            "spec": {"replicas": 3, "paused": false, "template": {"spec": {"containers": [
                {"name": "app", "image": "nginx", "imagePullPolicy": "Always"},
                {"name": "sidecar", "image": "envoy"}]}}},
            "status": {"replicas": 3, "readyReplicas": 1}
        })
    }

    #[test]
    fn a_manager_gets_back_what_it_applied() {
        assert_eq!(
            extract(&object(), "kubectl", ""),
            json!({"metadata": {"name": "web", "namespace": "ns", "labels": {"app": "web"}},
                   "spec": {"replicas": 3, "template": {"spec": {"containers": [{"name": "app", "image": "nginx"}]}}}})
        );
        assert_eq!(
            extract(&object(), "kubectl", "status"),
            json!({"metadata": {"name": "web", "namespace": "ns"}, "status": {"replicas": 3}})
        );
    }

    #[test]
    fn updates_and_other_managers_are_not_extracted() {
        assert_eq!(
            extract(&object(), "other", ""),
            json!({"metadata": {"name": "web", "namespace": "ns"}})
        );
        assert_eq!(
            extract(&object(), "nobody", ""),
            json!({"metadata": {"name": "web", "namespace": "ns"}})
        );
    }

    #[test]
    fn set_items_and_whole_nodes() {
        let obj = json!({"metadata": {"name": "x", "finalizers": ["a", "b"], "managedFields": [
            {"manager": "m", "operation": "Apply", "fieldsV1": {
                "f:metadata": {"f:finalizers": {"v:\"b\"": {}}}, "f:data": {}}}]},
            "data": {"k": "v", "l": "w"}});
        assert_eq!(
            extract(&obj, "m", ""),
            json!({"metadata": {"name": "x", "finalizers": ["b"]}, "data": {"k": "v", "l": "w"}})
        );
    }
}
