//! Server-side apply (`PATCH` with `application/apply-patch+yaml`): the applied configuration is
//! merged into the object as a strategic merge is (keyed lists by their merge key), every field it
//! sets is owned by the field manager in `metadata.managedFields` (FieldsV1: `f:<field>`,
//! `k:{"name":"web"}` for keyed list items), a field another manager owns with a different value
//! is a 409 Conflict unless `force=true` takes it over, and a field the manager applied before
//! but no longer does is removed when nobody else owns it.
//!
//! Writes that are not applies record their manager too ([`record_update`], operation `Update`):
//! the fields they change become theirs and leave other managers, as in Kubernetes, so an applier
//! that later changes such a field conflicts with the updater.

use serde_json::{Map, Value, json};

use crate::meta;
use crate::status::ApiError;
use crate::strategic::{self, Schemas};

/// One leaf of a field set, as a path of FieldsV1 keys (`f:spec`, `f:replicas`).
pub(crate) type Path = Vec<String>;

/// The fields `applied` sets, as FieldsV1 paths, walking `schema` for list merge keys.
fn fields(applied: &Value, schemas: &Schemas<'_>, schema: Option<&Value>, prefix: &mut Path, out: &mut Vec<Path>) {
    let Some(map) = applied.as_object() else {
        out.push(prefix.clone());
        return;
    };
    let schema = schema.map(|s| schemas.resolve(s));
    for (key, value) in map {
        if prefix.is_empty() && matches!(key.as_str(), "apiVersion" | "kind") {
            continue;
        }
        // Of metadata, the server owns all but labels, annotations, finalizers and owners.
        if prefix.len() == 1
            && prefix[0] == "f:metadata"
            && !matches!(
                key.as_str(),
                "labels" | "annotations" | "finalizers" | "ownerReferences"
            )
        {
            continue;
        }
        let field = crate::strategic::field_schema(schema, key);
        prefix.push(format!("f:{key}"));
        match value {
            Value::Object(_) => fields(value, schemas, field, prefix, out),
            Value::Array(items) => {
                let resolved = field.map(|f| schemas.resolve(f));
                let merge_key = field
                    .and_then(|f| f.get("x-kubernetes-patch-merge-key"))
                    .or_else(|| resolved.and_then(|f| f.get("x-kubernetes-patch-merge-key")))
                    .and_then(Value::as_str);
                match merge_key {
                    Some(mk) => {
                        let item_schema = field
                            .and_then(|f| f.get("items"))
                            .or_else(|| resolved.and_then(|f| f.get("items")));
                        for item in items {
                            let id = json!({ mk: item.get(mk).cloned().unwrap_or(Value::Null) });
                            prefix.push(format!("k:{id}"));
                            out.push([prefix.clone(), vec![".".to_string()]].concat());
                            fields(item, schemas, item_schema, prefix, out);
                            prefix.pop();
                        }
                    }
                    // A list without a merge key is atomic: owned whole.
                    None => out.push(prefix.clone()),
                }
            }
            _ => out.push(prefix.clone()),
        }
        prefix.pop();
    }
}

/// A FieldsV1 object of `paths`.
pub(crate) fn to_fields_v1(paths: &[Path]) -> Value {
    let mut root = Map::new();
    for p in paths {
        let mut cur = &mut root;
        for seg in p {
            cur = cur
                .entry(seg.clone())
                .or_insert_with(|| json!({}))
                .as_object_mut()
                .expect("objects all the way");
        }
    }
    Value::Object(root)
}

/// The leaf paths of a FieldsV1 object.
pub(crate) fn from_fields_v1(v: &Value, prefix: &mut Path, out: &mut Vec<Path>) {
    match v.as_object() {
        Some(m) if !m.is_empty() => {
            for (k, child) in m {
                prefix.push(k.clone());
                from_fields_v1(child, prefix, out);
                prefix.pop();
            }
        }
        _ => out.push(prefix.clone()),
    }
}

/// The value at a FieldsV1 path in an object (`k:` segments find list items by key).
fn value_at<'a>(obj: &'a Value, path: &[String]) -> Option<&'a Value> {
    let mut cur = obj;
    for seg in path {
        if seg == "." {
            return Some(cur);
        }
        if let Some(name) = seg.strip_prefix("f:") {
            cur = cur.get(name)?;
        } else if let Some(key) = seg.strip_prefix("k:") {
            let key: Map<String, Value> = serde_json::from_str(key).ok()?;
            cur = cur
                .as_array()?
                .iter()
                .find(|item| key.iter().all(|(k, v)| item.get(k) == Some(v)))?;
        } else {
            return None;
        }
    }
    Some(cur)
}

/// Removes the field at a FieldsV1 path, if present.
fn remove_at(obj: &mut Value, path: &[String]) {
    let Some((last, parents)) = path.split_last() else {
        return;
    };
    let mut cur = obj;
    for seg in parents {
        let next = if let Some(name) = seg.strip_prefix("f:") {
            cur.get_mut(name)
        } else if let Some(key) = seg.strip_prefix("k:") {
            let Ok(key) = serde_json::from_str::<Map<String, Value>>(key) else {
                return;
            };
            cur.as_array_mut().and_then(|items| {
                items
                    .iter_mut()
                    .find(|item| key.iter().all(|(k, v)| item.get(k) == Some(v)))
            })
        } else {
            None
        };
        match next {
            Some(n) => cur = n,
            None => return,
        }
    }
    if last == "." {
        return;
    }
    if let Some(name) = last.strip_prefix("f:")
        && let Some(m) = cur.as_object_mut()
    {
        m.remove(name);
    } else if let Some(key) = last.strip_prefix("k:")
        && let Ok(key) = serde_json::from_str::<Map<String, Value>>(key)
        && let Some(items) = cur.as_array_mut()
    {
        items.retain(|item| !key.iter().all(|(k, v)| item.get(k) == Some(v)));
    }
}

/// `.spec.replicas` for a conflict message.
fn display(path: &[String]) -> String {
    path.iter()
        .filter(|s| *s != ".")
        .map(|s| match s.strip_prefix("f:") {
            Some(name) => format!(".{name}"),
            None => format!("[{}]", s.trim_start_matches("k:")),
        })
        .collect()
}

/// The managedFields entries of an object.
pub(crate) fn managed(obj: &Value) -> Vec<Value> {
    obj.get("metadata")
        .and_then(|m| m.get("managedFields"))
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default()
}

/// The manager of a managedFields entry, `""` where it has none.
fn entry_manager(entry: &Value) -> &str {
    entry["manager"].as_str().unwrap_or("")
}

/// ` using apps/v1` for a manager that owns fields through updates (Kubernetes' wording); nothing
/// for an applier.
fn using(entries: &[Value], manager: &str) -> String {
    entries
        .iter()
        .find(|e| entry_manager(e) == manager && e["operation"] == "Update")
        .and_then(|e| e["apiVersion"].as_str())
        .map(|v| format!(" using {v}"))
        .unwrap_or_default()
}

/// What a write that is not an apply may change, as the strategies decide: the whole object, the
/// object but its status (which only `/status` writes), or only the status (a `/status` write,
/// whose entries say `subresource: status`, as Kubernetes records them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Written {
    /// A kind without a status subresource.
    Whole,
    /// The object of a kind with a status subresource: its status is kept.
    AllButStatus,
    /// The `/status` subresource.
    Status,
}

impl Written {
    fn covers(self, path: &Path) -> bool {
        let status = path.first().is_some_and(|f| f == "f:status");
        match self {
            Written::Whole => true,
            Written::AllButStatus => !status,
            Written::Status => status,
        }
    }

    fn subresource(self) -> Option<&'static str> {
        (self == Written::Status).then_some("status")
    }
}

/// Records a write that is not an apply by `manager`: the fields `after` sets differently from
/// `before`, of those the write may change, become the manager's (operation `Update`, merged
/// with what it owned) and leave every other manager's set. `after`'s managedFields (echoed by
/// the client, or the stored ones) are the starting point.
pub fn record_update(
    before: Option<&Value>,
    after: &mut Value,
    manager: &str,
    api_version: &str,
    written: Written,
    schemas: &Schemas<'_>,
    root: Option<&Value>,
) {
    let mut now = Vec::new();
    fields(after, schemas, root, &mut Vec::new(), &mut now);
    let empty = json!({});
    let before = before.unwrap_or(&empty);
    let changed: Vec<Path> = now
        .into_iter()
        .filter(|p| written.covers(p) && value_at(before, p) != value_at(after, p))
        .collect();
    if changed.is_empty() {
        return;
    }
    let mut entries = managed(after);
    if entries.is_empty() {
        entries = managed(before);
    }
    let subresource = written.subresource();
    let is_mine = |e: &Value| {
        entry_manager(e) == manager
            && e["operation"] == "Update"
            && e["apiVersion"] == api_version
            && e.get("subresource").and_then(Value::as_str) == subresource
    };
    let mut mine = Vec::new();
    for entry in entries.iter_mut() {
        let mut owned = Vec::new();
        from_fields_v1(&entry["fieldsV1"], &mut Vec::new(), &mut owned);
        if is_mine(entry) {
            mine = owned;
            continue;
        }
        owned.retain(|p| !changed.contains(p));
        entry["fieldsV1"] = to_fields_v1(&owned);
    }
    entries.retain(|e| !is_mine(e));
    entries.retain(|e| e["fieldsV1"].as_object().is_some_and(|m| !m.is_empty()));
    for p in changed {
        if !mine.contains(&p) {
            mine.push(p);
        }
    }
    let mut entry = json!({
        "manager": manager,
        "operation": "Update",
        "apiVersion": api_version,
        "time": meta::now(),
        "fieldsType": "FieldsV1",
        "fieldsV1": to_fields_v1(&mine),
    });
    // Go's `manager` is omitempty: a client without a user agent or field manager leaves it out
    // of JSON (and protobuf readers see it unset), so it is not written as "".
    if manager.is_empty()
        && let Some(fields) = entry.as_object_mut()
    {
        fields.remove("manager");
    }
    if let Some(s) = subresource {
        entry["subresource"] = json!(s);
    }
    entries.push(entry);
    meta::meta_mut(after).insert("managedFields".into(), Value::Array(entries));
}

/// The manager of a write: `?fieldManager=`, else the client's user agent up to its first `/`, as
/// Kubernetes names it.
pub fn manager_of(field_manager: Option<&str>, user_agent: &str) -> String {
    match field_manager.filter(|m| !m.is_empty()) {
        Some(m) => m.to_string(),
        None => user_agent.split('/').next().unwrap_or("").chars().take(128).collect(),
    }
}

/// The fields another applier owns whose value the applied configuration changes, with their
/// owners: what a server-side apply conflicts on.
fn conflicts(
    base: &Value,
    applied: &Value,
    manager: &str,
    entries: &[Value],
    new_fields: &[Path],
) -> Vec<(String, Path)> {
    let mut conflicts = Vec::new();
    for entry in entries {
        let owner = entry["manager"].as_str().unwrap_or("");
        if owner == manager {
            continue;
        }
        let mut owned = Vec::new();
        from_fields_v1(&entry["fieldsV1"], &mut Vec::new(), &mut owned);
        for p in owned
            .iter()
            .filter(|p| new_fields.contains(p) && p.last().is_some_and(|s| s != "."))
        {
            if value_at(base, p) != value_at(applied, p) {
                conflicts.push((owner.to_string(), p.clone()));
            }
        }
    }
    conflicts
}

/// A forced apply takes the conflicting fields from their owners' entries.
fn take_over(entries: &mut [Value], conflicts: &[(String, Path)]) {
    for entry in entries.iter_mut() {
        let owner = entry["manager"].as_str().unwrap_or("").to_string();
        let taken: Vec<&Path> = conflicts.iter().filter(|(o, _)| *o == owner).map(|(_, p)| p).collect();
        if taken.is_empty() {
            continue;
        }
        let mut owned = Vec::new();
        from_fields_v1(&entry["fieldsV1"], &mut Vec::new(), &mut owned);
        owned.retain(|p| !taken.contains(&p));
        entry["fieldsV1"] = to_fields_v1(&owned);
    }
}

/// Every field the managedFields entries `which` selects own.
fn owned_by(entries: &[Value], which: impl Fn(&Value) -> bool) -> Vec<Path> {
    entries
        .iter()
        .filter(|e| which(e))
        .flat_map(|e| {
            let mut p = Vec::new();
            from_fields_v1(&e["fieldsV1"], &mut Vec::new(), &mut p);
            p
        })
        .collect()
}

/// Applies `applied` (in the request's version, `api_version`) by `manager` to `current` (`None`
/// when the object does not exist yet), returning the new object with its managedFields.
pub fn apply(
    current: Option<&Value>,
    applied: &Value,
    manager: &str,
    force: bool,
    api_version: &str,
    schemas: &Schemas<'_>,
    root: Option<&Value>,
) -> Result<Value, ApiError> {
    let mut new_fields = Vec::new();
    fields(applied, schemas, root, &mut Vec::new(), &mut new_fields);
    let base = current.cloned().unwrap_or_else(|| json!({}));
    let mut entries = managed(&base);
    let conflicts = conflicts(&base, applied, manager, &entries, &new_fields);
    if !conflicts.is_empty() && !force {
        let causes: Vec<crate::status::Cause> = conflicts
            .iter()
            .map(|(o, p)| crate::status::Cause {
                reason: "FieldManagerConflict",
                message: format!("conflict with \"{o}\"{}", using(&entries, o)),
                field: display(p),
            })
            .collect();
        let list: Vec<String> = causes.iter().map(|c| format!("{}: {}", c.message, c.field)).collect();
        let n = conflicts.len();
        let message = format!(
            "Apply failed with {n} conflict{}: {}",
            if n == 1 { "" } else { "s" },
            list.join("\n")
        );
        return Err(ApiError::apply_conflict(message, causes));
    }
    take_over(&mut entries, &conflicts);
    // What this manager applied before and no longer does goes, unless someone else owns it.
    let previous = owned_by(&entries, |e| entry_manager(e) == manager && e["operation"] == "Apply");
    let others = owned_by(&entries, |e| entry_manager(e) != manager);
    let mut object = strategic::apply(&base, applied, schemas, root).map_err(ApiError::invalid_patch)?;
    for p in previous
        .iter()
        .filter(|p| !new_fields.contains(p) && !others.contains(p))
    {
        remove_at(&mut object, p);
    }
    // An applier whose fields are the same as before keeps its entry as it was, time included:
    // an apply that changes nothing is no write, as in Kubernetes, not a new timestamp.
    let fields_v1 = to_fields_v1(&new_fields);
    let same = |e: &Value| {
        entry_manager(e) == manager
            && e["operation"] == "Apply"
            && e["apiVersion"] == api_version
            && e["fieldsV1"] == fields_v1
    };
    if !entries.iter().any(same) {
        entries.retain(|e| !(entry_manager(e) == manager && e["operation"] == "Apply"));
        entries.push(json!({
            "manager": manager,
            "operation": "Apply",
            "apiVersion": api_version,
            "time": meta::now(),
            "fieldsType": "FieldsV1",
            "fieldsV1": fields_v1,
        }));
    }
    entries.retain(|e| e["fieldsV1"].as_object().is_some_and(|m| !m.is_empty()));
    meta::meta_mut(&mut object).insert("managedFields".into(), Value::Array(entries));
    Ok(object)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc() -> Value {
        json!({"components": {"schemas": {
            "D": {"properties": {"spec": {"$ref": "#/components/schemas/S"}}},
            "S": {"properties": {"containers": {"type": "array", "items": {"type": "object"},
                                 "x-kubernetes-patch-merge-key": "name", "x-kubernetes-patch-strategy": "merge"}}}
        }}})
    }

    fn run(current: Option<&Value>, applied: Value, manager: &str, force: bool) -> Result<Value, ApiError> {
        let d = doc();
        let s = Schemas::new(&d);
        apply(current, &applied, manager, force, "g/v1", &s, s.named("D"))
    }

    #[test]
    fn appliers_own_fields_conflict_and_force() {
        let a = run(None, json!({"metadata": {"name": "x", "labels": {"l": "1"}}, "spec": {"replicas": 1, "containers": [{"name": "c", "image": "i1"}]}}), "a", false).unwrap();
        let mf = &a["metadata"]["managedFields"][0];
        assert_eq!(mf["manager"], "a");
        assert_eq!(
            mf["fieldsV1"]["f:spec"]["f:containers"]["k:{\"name\":\"c\"}"]["f:image"],
            json!({})
        );
        assert!(
            mf["fieldsV1"]["f:metadata"].get("f:name").is_none(),
            "the server owns the name"
        );
        // Another manager setting the same value shares the field; a different value conflicts.
        let shared = run(Some(&a), json!({"spec": {"replicas": 1}}), "b", false).unwrap();
        assert_eq!(shared["metadata"]["managedFields"].as_array().unwrap().len(), 2);
        let e = run(Some(&a), json!({"spec": {"replicas": 3}}), "b", false).unwrap_err();
        assert_eq!(
            (e.code, e.message.as_str()),
            (409, "Apply failed with 1 conflict: conflict with \"a\": .spec.replicas")
        );
        let forced = run(Some(&a), json!({"spec": {"replicas": 3}}), "b", true).unwrap();
        assert_eq!(forced["spec"]["replicas"], 3);
        let owners: Vec<&Value> = forced["metadata"]["managedFields"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["fieldsV1"]["f:spec"].get("f:replicas").is_some())
            .collect();
        assert_eq!(owners.len(), 1, "a lost replicas to b");
        // A field `a` stops applying is removed; the container b never touched stays.
        let dropped = run(
            Some(&forced),
            json!({"metadata": {"name": "x"}, "spec": {"containers": [{"name": "c", "image": "i1"}]}}),
            "a",
            false,
        )
        .unwrap();
        assert!(
            dropped["metadata"].get("labels").and_then(|l| l.get("l")).is_none(),
            "{dropped}"
        );
        assert_eq!(dropped["spec"]["replicas"], 3, "owned by b now");
    }

    #[test]
    fn updates_take_ownership_and_appliers_then_conflict_with_them() {
        let d = doc();
        let s = Schemas::new(&d);
        let applied = run(None, json!({"spec": {"replicas": 1}}), "a", false).unwrap();
        let mut edited = applied.clone();
        edited["spec"]["replicas"] = json!(4);
        record_update(
            Some(&applied),
            &mut edited,
            "editor",
            "g/v1",
            Written::Whole,
            &s,
            s.named("D"),
        );
        let entries = edited["metadata"]["managedFields"].as_array().unwrap();
        assert_eq!(entries.len(), 1, "a lost its only field to the editor: {entries:?}");
        assert_eq!(
            (entries[0]["manager"].as_str(), entries[0]["operation"].as_str()),
            (Some("editor"), Some("Update"))
        );
        let e = run(Some(&edited), json!({"spec": {"replicas": 1}}), "a", false).unwrap_err();
        assert_eq!(
            e.message,
            "Apply failed with 1 conflict: conflict with \"editor\" using g/v1: .spec.replicas"
        );
        assert_eq!(manager_of(None, "kubectl.1.32/v1.32.5 (linux/amd64)"), "kubectl.1.32");
        assert_eq!(manager_of(Some("mine"), "x"), "mine");
    }
}
