//! What apiextensions-apiserver does to a custom object's shape before anything validates it:
//! pruning the fields its schema does not know (`structuralpruning.Prune`, whose paths
//! `fieldValidation` turns into errors or warnings), and defaulting (`structuraldefaulting`:
//! a non-nullable `null` without a default is dropped, a missing or `null` field with one gets it).

use serde_json::Value;

use super::Structural;

/// Removes from `value` (a whole object) what `schema` does not describe, answering the paths
/// removed (`spec.foo`, `spec.items[0].bar`) in the order met. `apiVersion`, `kind` and
/// `metadata` of the object and of embedded resources are the server's to check, not the schema's.
pub fn prune(schema: &Structural, value: &mut Value) -> Vec<String> {
    let mut unknown = Vec::new();
    prune_node(schema, value, "", true, &mut unknown);
    unknown
}

fn prune_node(schema: &Structural, value: &mut Value, path: &str, resource: bool, unknown: &mut Vec<String>) {
    match value {
        Value::Object(map) => map.retain(|key, child| {
            if resource && matches!(key.as_str(), "apiVersion" | "kind" | "metadata") {
                return true;
            }
            let at = if path.is_empty() {
                key.clone()
            } else {
                format!("{path}.{key}")
            };
            match schema.field(key) {
                Some(field) => {
                    prune_node(field, child, &at, field.embedded, unknown);
                    true
                }
                None if schema.preserve_unknown => true,
                None => {
                    unknown.push(at);
                    false
                }
            }
        }),
        Value::Array(items) => {
            if let Some(item) = &schema.items {
                for (i, child) in items.iter_mut().enumerate() {
                    prune_node(item, child, &format!("{path}[{i}]"), item.embedded, unknown);
                }
            }
        }
        _ => {}
    }
}

/// Whether any node of `schema` has a default.
pub fn has_defaults(schema: &Structural) -> bool {
    schema.default.is_some()
        || schema.properties.values().any(has_defaults)
        || schema.items.as_deref().is_some_and(has_defaults)
        || schema.additional.as_deref().is_some_and(has_defaults)
}

/// Applies `schema`'s defaults to `value` (a whole object), top down: a default placed is
/// itself defaulted below. The object's `metadata` is left alone.
pub fn default(schema: &Structural, value: &mut Value) {
    default_node(schema, value, true);
}

fn default_node(schema: &Structural, value: &mut Value, resource: bool) {
    match value {
        Value::Object(map) => {
            for (key, field) in &schema.properties {
                if resource && key == "metadata" {
                    continue;
                }
                match map.get(key) {
                    None => {
                        if let Some(d) = &field.default {
                            map.insert(key.clone(), d.clone());
                        }
                    }
                    Some(Value::Null) if !field.nullable => match &field.default {
                        Some(d) => {
                            map.insert(key.clone(), d.clone());
                        }
                        None => {
                            map.remove(key);
                        }
                    },
                    _ => {}
                }
            }
            if let Some(additional) = &schema.additional
                && !additional.nullable
            {
                map.retain(|key, v| {
                    !v.is_null() || schema.properties.contains_key(key) || additional.default.is_some()
                });
            }
            for (key, child) in map.iter_mut() {
                if resource && key == "metadata" {
                    continue;
                }
                let Some(field) = schema.field(key) else { continue };
                if child.is_null()
                    && !field.nullable
                    && let Some(d) = &field.default
                {
                    *child = d.clone();
                }
                default_node(field, child, field.embedded);
            }
        }
        Value::Array(items) => {
            if let Some(item) = &schema.items {
                for child in items {
                    if child.is_null()
                        && !item.nullable
                        && let Some(d) = &item.default
                    {
                        *child = d.clone();
                    }
                    default_node(item, child, item.embedded);
                }
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn schema(v: Value) -> Structural {
        let mut errors = Vec::new();
        let s = Structural::read(&v, "openAPIV3Schema", &mut errors);
        assert!(errors.is_empty(), "{errors:?}");
        s
    }

    #[test]
    fn prunes_unknown_fields_but_keeps_preserved_and_type_meta() {
        let s = schema(json!({"type": "object", "properties": {
            "spec": {"type": "object", "properties": {
                "a": {"type": "string"},
                "list": {"type": "array", "items": {"type": "object", "properties": {"x": {"type": "integer"}}}},
                "free": {"type": "object", "x-kubernetes-preserve-unknown-fields": true},
                "map": {"type": "object", "additionalProperties": {"type": "string"}},
                "embedded": {"type": "object", "x-kubernetes-embedded-resource": true,
                             "x-kubernetes-preserve-unknown-fields": true}
            }}
        }}));
        let mut v = json!({"apiVersion": "ex.com/v1", "kind": "Foo", "metadata": {"name": "a"},
            "spec": {"a": "x", "b": 1, "list": [{"x": 1, "y": 2}], "free": {"z": {"deep": 1}},
                     "map": {"k": "v"}, "embedded": {"apiVersion": "v1", "kind": "Pod", "other": 1}},
            "status": {}});
        let unknown = prune(&s, &mut v);
        assert_eq!(unknown, ["spec.b", "spec.list[0].y", "status"]);
        assert_eq!(
            v,
            json!({"apiVersion": "ex.com/v1", "kind": "Foo", "metadata": {"name": "a"},
                "spec": {"a": "x", "list": [{"x": 1}], "free": {"z": {"deep": 1}}, "map": {"k": "v"},
                         "embedded": {"apiVersion": "v1", "kind": "Pod", "other": 1}}})
        );
    }

    #[test]
    fn defaults_missing_and_null_fields_top_down() {
        let s = schema(json!({"type": "object", "properties": {
            "spec": {"type": "object", "default": {}, "properties": {
                "replicas": {"type": "integer", "default": 1},
                "mode": {"type": "string", "default": "fast"},
                "gone": {"type": "string"},
                "kept": {"type": "string", "nullable": true},
                "ports": {"type": "array", "items": {"type": "object", "properties": {
                    "protocol": {"type": "string", "default": "TCP"}}}}
            }}
        }}));
        let mut v = json!({"metadata": {"name": "a"}});
        default(&s, &mut v);
        assert_eq!(
            v,
            json!({"metadata": {"name": "a"}, "spec": {"replicas": 1, "mode": "fast"}})
        );
        let mut v = json!({"spec": {"mode": null, "gone": null, "kept": null, "ports": [{}, {"protocol": "UDP"}]}});
        default(&s, &mut v);
        assert_eq!(
            v,
            json!({"spec": {"replicas": 1, "mode": "fast", "kept": null,
                            "ports": [{"protocol": "TCP"}, {"protocol": "UDP"}]}})
        );
    }
}
