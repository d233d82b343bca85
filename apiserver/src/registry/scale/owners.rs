//! Who owns the replicas a `/scale` write changes (Kubernetes' scale handler of the field
//! manager): a Scale shows as owners of its `spec.replicas` the parent's managers that own the
//! parent's replicas field, and a Scale write moves that field on the parent to its writer, in an
//! entry marked `subresource: scale`.

use std::collections::BTreeSet;

use serde_json::{Value, json};

use crate::meta;
use crate::server_side_apply::{Path, from_fields_v1, managed, to_fields_v1};

/// A Scale's `spec.replicas` as a FieldsV1 path.
fn scale_replicas() -> Path {
    vec!["f:spec".into(), "f:replicas".into()]
}

/// A `.spec.replicas` JSON path as a FieldsV1 path.
pub fn fields_path(json_path: &str) -> Path {
    json_path
        .trim_start_matches('.')
        .split('.')
        .map(|s| format!("f:{s}"))
        .collect()
}

fn owns(entry: &Value, path: &Path) -> bool {
    let mut paths = Vec::new();
    from_fields_v1(&entry["fieldsV1"], &mut Vec::new(), &mut paths);
    paths.iter().any(|p| p == path)
}

/// The key that tells two entries of one manager apart.
fn identity(entry: &Value) -> (String, String, String) {
    let text = |k: &str| entry[k].as_str().unwrap_or("").to_string();
    (text("manager"), text("operation"), text("subresource"))
}

/// The Scale's managedFields: an entry owning `spec.replicas` (in `api_version`, the Scale's) for
/// each of the parent's entries that own its replicas field at `replicas`.
pub fn to_scale(parent: &Value, replicas: &Path, api_version: &str) -> Vec<Value> {
    managed(parent)
        .into_iter()
        .filter(|e| owns(e, replicas))
        .map(|mut e| {
            e["apiVersion"] = json!(api_version);
            e["fieldsV1"] = to_fields_v1(&[scale_replicas()]);
            e
        })
        .collect()
}

/// Moves the replicas field of `parent` to the owners `scale` names after a write, when they
/// changed: the parent's entries of managers who no longer own it lose it (and go when empty),
/// and each new owner gets it in an `Update` entry marked `subresource: scale`.
pub fn from_scale(parent: &mut Value, before: &Value, scale: &Value, replicas: &Path) {
    let owners = |obj: &Value, path: &Path| -> BTreeSet<(String, String, String)> {
        managed(obj).iter().filter(|e| owns(e, path)).map(identity).collect()
    };
    let (was, now) = (owners(before, &scale_replicas()), owners(scale, &scale_replicas()));
    if was == now {
        return;
    }
    let api_version = parent["apiVersion"].as_str().unwrap_or("").to_string();
    let mut entries = managed(parent);
    for entry in entries.iter_mut() {
        if now.contains(&identity(entry)) {
            continue;
        }
        let mut paths = Vec::new();
        from_fields_v1(&entry["fieldsV1"], &mut Vec::new(), &mut paths);
        paths.retain(|p| p != replicas);
        entry["fieldsV1"] = to_fields_v1(&paths);
    }
    entries.retain(|e| e["fieldsV1"].as_object().is_some_and(|m| !m.is_empty()));
    for new in managed(scale)
        .iter()
        .filter(|e| now.contains(&identity(e)) && !was.contains(&identity(e)))
    {
        entries.push(json!({
            "manager": new["manager"],
            "operation": "Update",
            "apiVersion": api_version,
            "time": new.get("time").cloned().unwrap_or_else(|| json!(meta::now())),
            "fieldsType": "FieldsV1",
            "fieldsV1": to_fields_v1(std::slice::from_ref(replicas)),
            "subresource": "scale",
        }));
    }
    meta::meta_mut(parent).insert("managedFields".into(), Value::Array(entries));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(manager: &str, fields: Value) -> Value {
        json!({"manager": manager, "operation": "Update", "apiVersion": "apps/v1", "fieldsType": "FieldsV1", "fieldsV1": fields})
    }

    #[test]
    fn a_scale_write_moves_the_replicas_to_its_writer() {
        let replicas = fields_path(".spec.replicas");
        let mut parent = json!({"apiVersion": "apps/v1", "metadata": {"managedFields": [
            entry("creator", json!({"f:spec": {"f:replicas": {}, "f:template": {}}})),
            entry("other", json!({"f:metadata": {"f:labels": {}}})),
        ]}});
        let scale_before = json!({"metadata": {"managedFields": to_scale(&parent, &replicas, "autoscaling/v1")}});
        assert_eq!(scale_before["metadata"]["managedFields"].as_array().unwrap().len(), 1);
        assert_eq!(
            scale_before["metadata"]["managedFields"][0]["apiVersion"],
            "autoscaling/v1"
        );
        let scale_after = json!({"metadata": {"managedFields": [
            {"manager": "scaler", "operation": "Update", "apiVersion": "autoscaling/v1", "fieldsV1": {"f:spec": {"f:replicas": {}}}}
        ]}});
        from_scale(&mut parent, &scale_before, &scale_after, &replicas);
        let entries = parent["metadata"]["managedFields"].as_array().unwrap();
        assert_eq!(entries[0]["fieldsV1"], json!({"f:spec": {"f:template": {}}}));
        assert_eq!(entries[1]["manager"], "other");
        assert_eq!(entries[2]["manager"], "scaler");
        assert_eq!(entries[2]["subresource"], "scale");
        assert_eq!(entries[2]["apiVersion"], "apps/v1");
        assert_eq!(entries[2]["fieldsV1"], json!({"f:spec": {"f:replicas": {}}}));
        // The same owners again: nothing moves.
        let unchanged = parent.clone();
        from_scale(&mut parent, &scale_after, &scale_after, &replicas);
        assert_eq!(parent, unchanged);
    }
}
