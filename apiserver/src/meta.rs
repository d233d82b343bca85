//! ObjectMeta on stored JSON: the fields the registry reads and the server sets (name, namespace,
//! uid, resourceVersion, generation, timestamps, finalizers), and Kubernetes' name rules.

use serde_json::{Map, Value, json};

use crate::status::Cause;
use kube_apiserver_storage::Revision;

/// The object's `metadata`, created empty when absent or not an object.
pub fn meta_mut(obj: &mut Value) -> &mut Map<String, Value> {
    if !obj.get("metadata").is_some_and(Value::is_object) {
        obj["metadata"] = json!({});
    }
    match obj.get_mut("metadata") {
        Some(Value::Object(m)) => m,
        _ => unreachable!("metadata was just made an object"),
    }
}

/// A string field of `metadata` (empty when absent).
pub fn field<'a>(obj: &'a Value, name: &str) -> &'a str {
    obj.get("metadata")
        .and_then(|m| m.get(name))
        .and_then(Value::as_str)
        .unwrap_or("")
}

/// The object's name.
pub fn name(obj: &Value) -> &str {
    field(obj, "name")
}

/// The object's labels.
pub fn labels(obj: &Value) -> Option<&Map<String, Value>> {
    obj.get("metadata")?.get("labels")?.as_object()
}

/// Whether the object lists finalizers.
pub fn has_finalizers(obj: &Value) -> bool {
    obj.get("metadata")
        .and_then(|m| m.get("finalizers"))
        .and_then(Value::as_array)
        .is_some_and(|f| !f.is_empty())
}

/// Whether deletion of the object has started.
pub fn deleting(obj: &Value) -> bool {
    !field(obj, "deletionTimestamp").is_empty()
}

/// Writes `resourceVersion` (the key's revision, never stored in the value itself).
pub fn set_resource_version(obj: &mut Value, rev: Revision) {
    meta_mut(obj).insert("resourceVersion".into(), json!(rev.to_string()));
}

/// The client's resourceVersion precondition: `None` when unset, an error when not a number.
pub fn resource_version(obj: &Value) -> Result<Option<Revision>, String> {
    match field(obj, "resourceVersion") {
        "" => Ok(None),
        rv => rv
            .parse()
            .map(Some)
            .map_err(|_| format!("metadata.resourceVersion: Invalid value: \"{rv}\": must be an integer")),
    }
}

/// The current time as Kubernetes writes timestamps (RFC 3339, whole seconds, UTC).
pub fn now() -> String {
    let now = k8s_openapi::jiff::Timestamp::now();
    now.strftime("%Y-%m-%dT%H:%M:%SZ").to_string()
}

/// A DNS-1123 subdomain: lower-case alphanumerics, `-` and `.`, starting and ending alphanumeric,
/// at most 253 characters (what most kinds require of names).
pub fn is_dns_subdomain(s: &str) -> bool {
    s.len() <= 253 && !s.is_empty() && s.split('.').all(is_label_chars)
}

/// A DNS-1123 label: at most 63 lower-case alphanumerics or `-`, alphanumeric at both ends
/// (namespace names).
pub fn is_dns_label(s: &str) -> bool {
    s.len() <= 63 && is_label_chars(s)
}

fn is_label_chars(s: &str) -> bool {
    let alnum = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit();
    !s.is_empty() && s.chars().all(|c| alnum(c) || c == '-') && s.starts_with(alnum) && s.ends_with(alnum)
}

/// The name checks every object passes: a DNS subdomain (a DNS label when `label`), and a
/// `generateName` that is a valid prefix of one (its trailing `-` allowed), as apimachinery's
/// `ValidateObjectMeta` checks both.
pub fn validate_name(obj: &Value, label: bool) -> Vec<Cause> {
    let name = name(obj);
    let mut causes = Vec::new();
    if name.is_empty() {
        causes.push(Cause {
            reason: "FieldValueRequired",
            message: "Required value: name or generateName is required".into(),
            field: "metadata.name".into(),
        });
    } else {
        causes.extend(invalid_name(name, name, "metadata.name", label));
    }
    let prefix = field(obj, "generateName");
    if !prefix.is_empty() {
        // A prefix may end in `-`: it is checked as if a generated letter followed.
        let masked = match prefix.strip_suffix('-') {
            Some(stem) => format!("{stem}a"),
            None => prefix.to_string(),
        };
        causes.extend(invalid_name(&masked, prefix, "metadata.generateName", label));
    }
    causes
}

/// The cause for `checked` (written as `shown`) when it is not a DNS label or subdomain.
fn invalid_name(checked: &str, shown: &str, field: &str, label: bool) -> Option<Cause> {
    let message = if label && !is_dns_label(checked) {
        format!(
            "Invalid value: \"{shown}\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"
        )
    } else if !label && !is_dns_subdomain(checked) {
        format!(
            "Invalid value: \"{shown}\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
        )
    } else {
        return None;
    };
    Some(Cause {
        reason: "FieldValueInvalid",
        message,
        field: field.into(),
    })
}

/// Adds `finalizer` to an object's finalizers, once.
pub fn add_finalizer(obj: &mut Value, finalizer: &str) {
    let m = meta_mut(obj);
    let list = m.entry("finalizers").or_insert_with(|| json!([]));
    if let Some(list) = list.as_array_mut()
        && !list.iter().any(|f| f.as_str() == Some(finalizer))
    {
        list.push(json!(finalizer));
    }
}

/// apimachinery's `ValidateObjectMetaUpdate` on finalizers: none may be added to an object
/// being deleted (it would never go).
pub fn validate_finalizers_update(new: &Value, old: &Value) -> Vec<Cause> {
    if !deleting(old) {
        return Vec::new();
    }
    let finalizers = |obj: &Value| -> Vec<String> {
        obj.pointer("/metadata/finalizers")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|f| f.as_str().map(str::to_string))
            .collect()
    };
    let before = finalizers(old);
    let added: Vec<String> = finalizers(new).into_iter().filter(|f| !before.contains(f)).collect();
    if added.is_empty() {
        return Vec::new();
    }
    let quoted: Vec<String> = added.iter().map(|f| format!("{f:?}")).collect();
    vec![Cause {
        reason: "FieldValueForbidden",
        message: format!(
            "Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{{{}}}",
            quoted.join(", ")
        ),
        field: "metadata.finalizers".into(),
    }]
}

/// The most all annotations of an object may hold, keys and values together
/// (`TotalAnnotationSizeLimitB`).
pub const ANNOTATIONS_LIMIT: u64 = 256 * 1024;

/// Finalizers Kubernetes itself sets, which need no domain.
/// The apiextensions finalizer (`customresourcecleanup.apiextensions.k8s.io`) is the server's own
/// too: qualified without a path, as apimachinery's generic check lets it be.
const STANDARD_FINALIZERS: [&str; 4] = [
    "kubernetes",
    "orphan",
    "foregroundDeletion",
    "customresourcecleanup.apiextensions.k8s.io",
];

/// The most bytes a field manager's name may have (`FieldManagerMaxLength`).
pub const FIELD_MANAGER_MAX: u64 = 128;

/// The checks of `ValidateObjectMeta` beyond the name: label keys qualified names and values
/// label values, annotation keys qualified names and 256 KiB of annotations at most (reported at
/// `metadata.labels` and `metadata.annotations`, not per key, as Kubernetes reports them);
/// finalizers qualified names, domain-prefixed unless standard; owner references complete, at
/// most one a controller; managedFields entries with a known operation and fields type.
pub fn validate_object_meta(obj: &Value) -> Vec<Cause> {
    use kube_apimachinery::validation::{FieldError, Path, content};
    let mut errs = Vec::new();
    let meta = Path::new("metadata");
    let labels_path = meta.child("labels");
    for (k, v) in labels(obj).into_iter().flatten() {
        for m in content::qualified_name(k) {
            errs.push(FieldError::invalid(&labels_path, k.as_str(), m));
        }
        let value = v.as_str().unwrap_or_default();
        for m in content::label_value(value) {
            errs.push(FieldError::invalid(&labels_path, value, m));
        }
    }
    let annotations_path = meta.child("annotations");
    let annotations = obj
        .get("metadata")
        .and_then(|m| m.get("annotations"))
        .and_then(Value::as_object);
    let mut total = 0u64;
    for (k, v) in annotations.into_iter().flatten() {
        for m in content::qualified_name(&k.to_lowercase()) {
            errs.push(FieldError::invalid(&annotations_path, k.as_str(), m));
        }
        total += (k.len() + v.as_str().map_or(0, str::len)) as u64;
    }
    if total > ANNOTATIONS_LIMIT {
        errs.push(FieldError::too_long(&annotations_path, ANNOTATIONS_LIMIT));
    }
    let list = |name: &str| -> Vec<Value> {
        obj.get("metadata")
            .and_then(|m| m.get(name))
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()
    };
    let finalizers_path = meta.child("finalizers");
    for f in list("finalizers") {
        let f = f.as_str().unwrap_or_default();
        for m in content::qualified_name(f) {
            errs.push(FieldError::invalid(&finalizers_path, f, m));
        }
        if !f.contains('/') && !STANDARD_FINALIZERS.contains(&f) {
            errs.push(FieldError::invalid(
                &finalizers_path,
                f,
                "name is neither a standard finalizer name nor is it fully qualified",
            ));
        }
    }
    let owners_path = meta.child("ownerReferences");
    let owners = list("ownerReferences");
    for owner in &owners {
        let text = |k: &str| owner.get(k).and_then(Value::as_str).unwrap_or_default();
        let version = text("apiVersion").rsplit('/').next().unwrap_or_default();
        for (field, value, ok, what) in [
            (
                "apiVersion",
                text("apiVersion"),
                !version.is_empty(),
                "version must not be empty",
            ),
            ("kind", text("kind"), !text("kind").is_empty(), "kind must not be empty"),
            ("name", text("name"), !text("name").is_empty(), "name must not be empty"),
            ("uid", text("uid"), !text("uid").is_empty(), "uid must not be empty"),
        ] {
            if !ok {
                errs.push(FieldError::invalid(&owners_path.child(field), value, what));
            }
        }
    }
    let controllers = owners
        .iter()
        .filter(|o| o.get("controller") == Some(&Value::Bool(true)))
        .count();
    if controllers > 1 {
        errs.push(FieldError::invalid(
            &owners_path,
            "",
            "Only one reference can have Controller set to true",
        ));
    }
    let managed_path = meta.child("managedFields");
    let managed = list("managedFields");
    for (i, entry) in managed.iter().enumerate() {
        let at = managed_path.index(i);
        let text = |k: &str| entry.get(k).and_then(Value::as_str).unwrap_or_default();
        if !matches!(text("operation"), "Apply" | "Update") {
            errs.push(FieldError::invalid(
                &at.child("operation"),
                text("operation"),
                "must be `Apply` or `Update`",
            ));
        }
        if text("fieldsType") != "FieldsV1" {
            errs.push(FieldError::invalid(
                &at.child("fieldsType"),
                text("fieldsType"),
                "must be `FieldsV1`",
            ));
        }
        errs.extend(field_manager_errors(text("manager"), &at.child("manager")));
    }
    errs.iter().map(cause).collect()
}

/// apimachinery's `ValidateFieldManager`: at most 128 bytes, printable characters only.
pub fn field_manager_errors(
    manager: &str,
    path: &kube_apimachinery::validation::Path<'_>,
) -> Vec<kube_apimachinery::validation::FieldError> {
    use kube_apimachinery::validation::FieldError;
    let mut errs = Vec::new();
    if manager.len() as u64 > FIELD_MANAGER_MAX {
        errs.push(FieldError::too_long(path, FIELD_MANAGER_MAX));
    }
    if manager.chars().any(|c| c.is_control()) {
        errs.push(FieldError::invalid(path, manager, "invalid characters"));
    }
    errs
}

/// A field error as the cause of an Invalid Status.
pub fn cause(e: &kube_apimachinery::validation::FieldError) -> Cause {
    Cause {
        reason: e.kind.reason(),
        message: e.body(),
        field: e.field.clone(),
    }
}

/// A name from `generateName`: the prefix and five random lower-case alphanumerics, as
/// apiserver's `SimpleNameGenerator` makes them.
pub fn generate_name(prefix: &str) -> String {
    const ALPHABET: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";
    // At most 58 bytes, cut at a character boundary: a prefix is any text a client sends.
    let mut end = prefix.len().min(58);
    while !prefix.is_char_boundary(end) {
        end -= 1;
    }
    let prefix = &prefix[..end];
    let id = uuid::Uuid::new_v4();
    let suffix: String = id.as_bytes()[..5]
        .iter()
        .map(|b| ALPHABET[*b as usize % ALPHABET.len()] as char)
        .collect();
    format!("{prefix}{suffix}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_dns_rules() {
        for ok in ["a", "web-1", "a.b.c", "0a"] {
            assert!(is_dns_subdomain(ok), "{ok}");
        }
        for bad in ["", "Web", "-a", "a-", "a..b", "a_b", &"a".repeat(254)] {
            assert!(!is_dns_subdomain(bad), "{bad}");
        }
        assert!(!is_dns_label("a.b"));
        assert!(!is_dns_label(&"a".repeat(64)));
        let g = generate_name("web-");
        assert!(g.starts_with("web-") && g.len() == 9 && is_dns_subdomain(&g), "{g}");
        let long = format!("{}\u{e9}-", "a".repeat(57));
        assert!(generate_name(&long).starts_with(&"a".repeat(57)), "cut before the é");
        assert_eq!(
            validate_name(&json!({"metadata": {"name": "Web"}}), false)[0].field,
            "metadata.name"
        );
        assert!(validate_name(&json!({"metadata": {"name": "web"}}), true).is_empty());
        assert!(validate_name(&json!({"metadata": {"name": "web-x", "generateName": "web-"}}), true).is_empty());
        let bad = validate_name(&json!({"metadata": {"name": "aaa", "generateName": "a\u{e9}-"}}), false);
        assert_eq!(bad[0].field, "metadata.generateName");
        assert_eq!(now().len(), "2026-12-01T15:00:00Z".len());
    }
}
