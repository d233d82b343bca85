//! Strategic merge patch (apimachinery's `strategicpatch`), driven by the generated OpenAPI
//! schema's `x-kubernetes-patch-strategy` and `x-kubernetes-patch-merge-key`: maps merge key by
//! key (`null` deletes), lists with strategy `merge` merge their items by the merge key (or, for
//! scalars, take the union), other lists are replaced. The directives kubectl sends are honoured:
//! `$patch: replace|delete|merge`, `$retainKeys`, `$setElementOrder/<list>` and
//! `$deleteFromPrimitiveList/<list>`.

use serde_json::{Map, Value};

/// The schemas of one OpenAPI v3 document (`components.schemas`), for walking a kind's fields.
pub struct Schemas<'a> {
    all: Option<&'a Map<String, Value>>,
}

impl<'a> Schemas<'a> {
    /// The schemas of `doc`.
    pub fn new(doc: &'a Value) -> Self {
        Schemas {
            all: doc
                .get("components")
                .and_then(|c| c.get("schemas"))
                .and_then(Value::as_object),
        }
    }

    /// A schema with its `$ref` (also one wrapped in `allOf`) followed.
    pub fn resolve(&self, schema: &'a Value) -> &'a Value {
        let reference = schema
            .get("$ref")
            .or_else(|| schema.get("allOf").and_then(|a| a.get(0)).and_then(|s| s.get("$ref")))
            .and_then(Value::as_str);
        match reference
            .and_then(|r| r.rsplit('/').next())
            .and_then(|name| self.all?.get(name))
        {
            Some(target) => target,
            None => schema,
        }
    }

    /// The named schema.
    pub fn named(&self, name: &str) -> Option<&'a Value> {
        self.all?.get(name)
    }
}

/// The schema of field `key` of an object whose schema is `schema`: its property, else the value
/// schema of a map of values (labels), which sits under additionalProperties.
pub fn field_schema<'a>(schema: Option<&'a Value>, key: &str) -> Option<&'a Value> {
    let schema = schema?;
    schema
        .get("properties")
        .and_then(|p| p.get(key))
        .or_else(|| schema.get("additionalProperties").filter(|a| a.is_object()))
}

/// Where the patch is inside the object: the schema of the current value, if known.
type At<'a> = Option<&'a Value>;

/// Applies a strategic merge `patch` to `original`, whose schema is `root`.
pub fn apply(original: &Value, patch: &Value, schemas: &Schemas<'_>, root: At<'_>) -> Result<Value, String> {
    merge_value(Some(original), patch, schemas, root)
}

fn merge_value(original: Option<&Value>, patch: &Value, schemas: &Schemas<'_>, at: At<'_>) -> Result<Value, String> {
    match (original, patch) {
        (Some(Value::Object(o)), Value::Object(p)) => merge_map(o, p, schemas, at).map(Value::Object),
        (_, Value::Object(p)) => merge_map(&Map::new(), p, schemas, at).map(Value::Object),
        (_, other) => Ok(other.clone()),
    }
}

fn merge_map(
    original: &Map<String, Value>,
    patch: &Map<String, Value>,
    schemas: &Schemas<'_>,
    at: At<'_>,
) -> Result<Map<String, Value>, String> {
    let schema = at.map(|s| schemas.resolve(s));
    match patch.get("$patch").and_then(Value::as_str) {
        Some("replace") => return Ok(without_directives(patch)),
        Some("delete") => return Ok(Map::new()),
        Some("merge") | None => {}
        Some(other) => return Err(format!("unknown patch type: {other}")),
    }
    let mut out = original.clone();
    if let Some(keep) = patch.get("$retainKeys") {
        let keep: Vec<&str> = keep
            .as_array()
            .ok_or("$retainKeys must be a list")?
            .iter()
            .filter_map(Value::as_str)
            .collect();
        out.retain(|k, _| keep.contains(&k.as_str()));
    }
    for (key, value) in patch {
        if key.starts_with('$') {
            continue;
        }
        let field = field_schema(schema, key);
        if value.is_null() {
            out.remove(key);
            continue;
        }
        let merged = match value {
            Value::Array(items) => merge_list(original.get(key), items, patch, key, schemas, field)?,
            _ => merge_value(original.get(key), value, schemas, field)?,
        };
        out.insert(key.clone(), merged);
    }
    // Directives for lists the patch does not otherwise touch.
    for (key, value) in patch {
        if let Some(list) = key.strip_prefix("$deleteFromPrimitiveList/")
            && !patch.contains_key(list)
            && let (Some(Value::Array(current)), Value::Array(remove)) = (out.get(list), value)
        {
            let kept: Vec<Value> = current.iter().filter(|v| !remove.contains(v)).cloned().collect();
            out.insert(list.to_string(), Value::Array(kept));
        }
        if let Some(list) = key.strip_prefix("$setElementOrder/")
            && !patch.contains_key(list)
            && let Some(Value::Array(current)) = out.get(list)
        {
            let field = schema.and_then(|s| s.get("properties")).and_then(|p| p.get(list));
            let merge_key = field.map(|f| schemas.resolve(f)).and_then(merge_key_of);
            let ordered = set_order(current.clone(), value, merge_key.as_deref());
            out.insert(list.to_string(), Value::Array(ordered));
        }
    }
    Ok(out)
}

fn without_directives(m: &Map<String, Value>) -> Map<String, Value> {
    m.iter()
        .filter(|(k, _)| !k.starts_with('$'))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}

/// The merge key of a list field whose patch strategy includes `merge`.
fn merge_key_of(field: &Value) -> Option<String> {
    field
        .get("x-kubernetes-patch-merge-key")
        .and_then(Value::as_str)
        .map(str::to_string)
}

fn strategy_merges(field: &Value) -> bool {
    field
        .get("x-kubernetes-patch-strategy")
        .and_then(Value::as_str)
        .is_some_and(|s| s.split(',').any(|p| p == "merge"))
}

fn merge_list(
    original: Option<&Value>,
    items: &[Value],
    patch: &Map<String, Value>,
    key: &str,
    schemas: &Schemas<'_>,
    field: At<'_>,
) -> Result<Value, String> {
    let field_schema = field.map(|f| schemas.resolve(f));
    let merges = field.is_some_and(strategy_merges) || field_schema.is_some_and(strategy_merges);
    let current: Vec<Value> = original.and_then(Value::as_array).cloned().unwrap_or_default();
    // `{"$patch": "replace"}` among the items replaces the list with the other items.
    if items
        .iter()
        .any(|i| i.get("$patch").and_then(Value::as_str) == Some("replace"))
    {
        return Ok(Value::Array(
            items.iter().filter(|i| i.get("$patch").is_none()).cloned().collect(),
        ));
    }
    if !merges {
        return Ok(Value::Array(items.to_vec()));
    }
    let item_schema = field
        .and_then(|f| f.get("items"))
        .or_else(|| field_schema.and_then(|f| f.get("items")));
    let merge_key = field
        .and_then(merge_key_of)
        .or_else(|| field_schema.and_then(merge_key_of));
    let mut out = current.clone();
    match merge_key.as_deref() {
        // Scalars: the union, minus `$deleteFromPrimitiveList/<key>`.
        None => {
            for item in items {
                if !out.contains(item) {
                    out.push(item.clone());
                }
            }
            if let Some(Value::Array(remove)) = patch.get(&format!("$deleteFromPrimitiveList/{key}")) {
                out.retain(|v| !remove.contains(v));
            }
        }
        Some(mk) => {
            for item in items {
                let id = item
                    .get(mk)
                    .ok_or_else(|| format!("map: {item} does not contain declared merge key: {mk}"))?;
                let position = out.iter().position(|o| o.get(mk) == Some(id));
                match (item.get("$patch").and_then(Value::as_str), position) {
                    (Some("delete"), Some(i)) => {
                        out.remove(i);
                    }
                    (Some("delete"), None) => {}
                    (_, Some(i)) => out[i] = merge_value(Some(&out[i]), item, schemas, item_schema)?,
                    (_, None) => out.push(merge_value(None, item, schemas, item_schema)?),
                }
            }
        }
    }
    if let Some(order) = patch.get(&format!("$setElementOrder/{key}")) {
        out = set_order(out, order, merge_key.as_deref());
    }
    Ok(Value::Array(out))
}

/// Orders `items` as `order` lists them (by merge key, or by value for scalars); items it does
/// not list keep their relative order after the listed ones.
fn set_order(items: Vec<Value>, order: &Value, merge_key: Option<&str>) -> Vec<Value> {
    let Some(order) = order.as_array() else { return items };
    let id = |v: &Value| -> Value {
        match merge_key {
            Some(k) => v.get(k).cloned().unwrap_or(Value::Null),
            None => v.clone(),
        }
    };
    let wanted: Vec<Value> = order.iter().map(&id).collect();
    let (mut listed, rest): (Vec<Value>, Vec<Value>) = items.into_iter().partition(|v| wanted.contains(&id(v)));
    listed.sort_by_key(|v| wanted.iter().position(|w| *w == id(v)).unwrap_or(usize::MAX));
    listed.extend(rest);
    listed
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn doc() -> Value {
        json!({"components": {"schemas": {
            "Pod": {"properties": {
                "metadata": {"properties": {"finalizers": {"type": "array", "items": {"type": "string"}, "x-kubernetes-patch-strategy": "merge"}}},
                "spec": {"$ref": "#/components/schemas/PodSpec"}}},
            "PodSpec": {"properties": {
                "containers": {"type": "array", "items": {"$ref": "#/components/schemas/Container"},
                               "x-kubernetes-patch-merge-key": "name", "x-kubernetes-patch-strategy": "merge"},
                "args": {"type": "array", "items": {"type": "string"}}}},
            "Container": {"properties": {
                "ports": {"type": "array", "items": {"type": "object"}, "x-kubernetes-patch-merge-key": "containerPort", "x-kubernetes-patch-strategy": "merge"}}}
        }}})
    }

    fn smp(original: Value, patch: Value) -> Value {
        let d = doc();
        let s = Schemas::new(&d);
        apply(&original, &patch, &s, s.named("Pod")).unwrap()
    }

    #[test]
    fn lists_merge_by_key_and_others_are_replaced() {
        let original = json!({"spec": {"containers": [{"name": "a", "image": "1", "ports": [{"containerPort": 80}]}, {"name": "b", "image": "1"}], "args": ["x"]}});
        let patched = smp(
            original.clone(),
            json!({"spec": {"containers": [{"name": "a", "image": "2"}], "args": ["y"]}}),
        );
        assert_eq!(
            patched,
            json!({"spec": {"containers": [{"name": "a", "image": "2", "ports": [{"containerPort": 80}]}, {"name": "b", "image": "1"}], "args": ["y"]}})
        );
        let deleted = smp(
            original.clone(),
            json!({"spec": {"containers": [{"name": "b", "$patch": "delete"}]}}),
        );
        assert_eq!(deleted["spec"]["containers"].as_array().unwrap().len(), 1);
        let replaced = smp(
            original,
            json!({"spec": {"containers": [{"name": "c"}, {"$patch": "replace"}]}}),
        );
        assert_eq!(replaced["spec"]["containers"], json!([{"name": "c"}]));
    }

    #[test]
    fn kubectl_apply_directives() {
        let original = json!({"metadata": {"finalizers": ["a", "b"], "labels": {"x": "1", "y": "2"}},
                              "spec": {"containers": [{"name": "a"}, {"name": "b"}]}});
        let patch = json!({"metadata": {"finalizers": ["c"], "$deleteFromPrimitiveList/finalizers": ["a"], "labels": {"x": null}},
                           "spec": {"$setElementOrder/containers": [{"name": "b"}, {"name": "a"}, {"name": "n"}],
                                    "containers": [{"name": "n", "image": "i"}]}});
        let patched = smp(original, patch);
        assert_eq!(patched["metadata"]["finalizers"], json!(["b", "c"]));
        assert_eq!(patched["metadata"]["labels"], json!({"y": "2"}));
        assert_eq!(
            patched["spec"]["containers"],
            json!([{"name": "b"}, {"name": "a"}, {"name": "n", "image": "i"}])
        );
        let retained = smp(
            json!({"spec": {"args": ["x"], "other": 1}}),
            json!({"spec": {"$retainKeys": ["args"], "args": ["z"]}}),
        );
        assert_eq!(retained, json!({"spec": {"args": ["z"]}}));
        let map_replaced = smp(
            json!({"spec": {"a": 1}}),
            json!({"spec": {"$patch": "replace", "b": 2}}),
        );
        assert_eq!(map_replaced, json!({"spec": {"b": 2}}));
    }
}
