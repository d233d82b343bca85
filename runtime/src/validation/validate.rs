//! The validators (apimachinery's `validate` package): each checks one value and returns its
//! errors with Kubernetes' wording and origin. Generated code calls them in validation-gen's order
//! and applies short-circuiting and ratcheting around them.

use serde::Serialize;

use super::field::{BadValue, ErrorList, FieldError, Path, Stability};
use super::{Operation, content};

/// Whether a value counts as set, as validation-gen decides it for `required`, `optional` and
/// `forbidden`: an `Option` is `Some`, a string, list or map is not empty, a number is not zero,
/// a bool is true. Anything else (a struct) is always set.
pub trait Presence {
    /// Whether the value is set.
    fn is_set(&self) -> bool;
}

impl<T> Presence for Option<T> {
    fn is_set(&self) -> bool {
        self.is_some()
    }
}

impl Presence for String {
    fn is_set(&self) -> bool {
        !self.is_empty()
    }
}

impl<T> Presence for Vec<T> {
    fn is_set(&self) -> bool {
        !self.is_empty()
    }
}

impl<K, V> Presence for std::collections::BTreeMap<K, V> {
    fn is_set(&self) -> bool {
        !self.is_empty()
    }
}

impl<K, V, S> Presence for std::collections::HashMap<K, V, S> {
    fn is_set(&self) -> bool {
        !self.is_empty()
    }
}

impl Presence for bool {
    fn is_set(&self) -> bool {
        *self
    }
}

macro_rules! numeric_presence {
    ($($t:ty),*) => {$(
        impl Presence for $t {
            fn is_set(&self) -> bool {
                *self != 0 as $t
            }
        }
    )*};
}
numeric_presence!(i8, i16, i32, i64, u8, u16, u32, u64, f32, f64);

/// A value's printed form in an error: JSON, as Kubernetes prints values that are not plain
/// strings or numbers (a duplicate list item `{"name":"a"}`).
pub fn json_value<T: Serialize + ?Sized>(v: &T) -> BadValue {
    serde_json::to_string(v).map_or(BadValue::Null, BadValue::Other)
}

/// Marks errors as found by a rule at a stability level (`+k8s:alpha`, `+k8s:beta`).
pub fn mark(mut errs: ErrorList, level: Stability) -> ErrorList {
    for e in &mut errs {
        e.stability = Some(level);
    }
    errs
}

/// `Required value` for a value that is not set.
pub fn required(path: &Path<'_>) -> FieldError {
    FieldError::required(path, "")
}

/// `Forbidden` for a value that is set.
pub fn forbidden(path: &Path<'_>) -> FieldError {
    FieldError::forbidden(path, "")
}

/// `+k8s:minimum`.
pub fn minimum(path: &Path<'_>, value: i64, min: i64) -> Option<FieldError> {
    (value < min).then(|| {
        FieldError::invalid(path, value, format!("must be greater than or equal to {min}")).with_origin("minimum")
    })
}

/// `+k8s:maximum`.
pub fn maximum(path: &Path<'_>, value: i64, max: i64) -> Option<FieldError> {
    (value > max).then(|| {
        FieldError::invalid(path, value, format!("must be less than or equal to {max}")).with_origin("maximum")
    })
}

/// `+k8s:minLength`, in characters.
pub fn min_length(path: &Path<'_>, value: &str, min: u64) -> Option<FieldError> {
    ((value.chars().count() as u64) < min).then(|| FieldError::too_short(path, min).with_origin("minLength"))
}

/// `+k8s:maxLength`, in characters.
pub fn max_length(path: &Path<'_>, value: &str, max: u64) -> Option<FieldError> {
    let long = value.len() as u64 > max && value.chars().count() as u64 > max;
    long.then(|| FieldError::too_long_characters(path, max).with_origin("maxLength"))
}

/// `+k8s:maxBytes`.
pub fn max_bytes(path: &Path<'_>, value: &str, max: u64) -> Option<FieldError> {
    (value.len() as u64 > max).then(|| FieldError::too_long(path, max).with_origin("maxBytes"))
}

/// `+k8s:minItems`.
pub fn min_items(path: &Path<'_>, len: usize, min: u64) -> Option<FieldError> {
    ((len as u64) < min).then(|| FieldError::too_few(path, len, min).with_origin("minItems"))
}

/// `+k8s:maxItems`.
pub fn max_items(path: &Path<'_>, len: usize, max: u64) -> Option<FieldError> {
    (len as u64 > max).then(|| FieldError::too_many(path, len, max).with_origin("maxItems"))
}

/// `+k8s:minProperties`.
pub fn min_properties(path: &Path<'_>, len: usize, min: u64) -> Option<FieldError> {
    ((len as u64) < min).then(|| FieldError::too_few(path, len, min).with_origin("minProperties"))
}

/// `+k8s:maxProperties`.
pub fn max_properties(path: &Path<'_>, len: usize, max: u64) -> Option<FieldError> {
    (len as u64 > max).then(|| FieldError::too_many(path, len, max).with_origin("maxProperties"))
}

/// `+k8s:neq` on an integer.
pub fn neq_int(path: &Path<'_>, value: i64, disallowed: i64) -> Option<FieldError> {
    (value == disallowed)
        .then(|| FieldError::invalid(path, value, format!("must not be equal to {disallowed}")).with_origin("neq"))
}

/// `+k8s:neq` on a string.
pub fn neq_str(path: &Path<'_>, value: &str, disallowed: &str) -> Option<FieldError> {
    (value == disallowed).then(|| {
        FieldError::invalid(
            path,
            value,
            format!("must not be equal to {}", super::go_quote(disallowed)),
        )
        .with_origin("neq")
    })
}

/// `+k8s:neq` on a bool.
pub fn neq_bool(path: &Path<'_>, value: bool, disallowed: bool) -> Option<FieldError> {
    (value == disallowed)
        .then(|| FieldError::invalid(path, value, format!("must not be equal to {disallowed}")).with_origin("neq"))
}

/// `+k8s:immutable`: on an update that reaches it (the value changed), an error.
pub fn immutable(op: &Operation, path: &Path<'_>) -> Option<FieldError> {
    op.is_update()
        .then(|| FieldError::invalid(path, BadValue::Null, "field is immutable").with_origin("immutable"))
}

/// `+k8s:monotonic`: a number that may not decrease.
pub fn monotonic(op: &Operation, path: &Path<'_>, value: i64, old: Option<i64>) -> Option<FieldError> {
    let old = old.filter(|o| op.is_update() && value < *o)?;
    Some(FieldError::invalid(path, value, format!("may not be decreased from {old}")).with_origin("monotonic"))
}

/// `+k8s:update`: which transitions of a changed value are forbidden, given whether the value
/// and the old one are set.
pub fn update(
    op: &Operation,
    path: &Path<'_>,
    set: bool,
    old_set: Option<bool>,
    no_set: bool,
    no_unset: bool,
    no_modify: bool,
) -> Option<FieldError> {
    let old_set = old_set.filter(|_| op.is_update())?;
    let detail = match (old_set, set) {
        (false, true) if no_set => "field cannot be set once created",
        (true, false) if no_unset => "field cannot be cleared once set",
        (true, true) if no_modify => "field cannot be modified once set",
        _ => return None,
    };
    Some(FieldError::invalid(path, BadValue::Null, detail).with_origin("update"))
}

/// `+k8s:format=<name>`: one `Invalid value` per message of the format's check.
pub fn format(path: &Path<'_>, value: &str, name: &str) -> ErrorList {
    let messages = match name {
        "k8s-short-name" => content::dns1123_label(value),
        "k8s-long-name" => content::dns1123_subdomain(value),
        "k8s-long-name-caseless" => content::dns1123_subdomain_caseless(value),
        "k8s-label-key" => content::qualified_name(value),
        "k8s-prefixed-label-key" => {
            let mut m = content::qualified_name(value);
            if m.is_empty() && value.split('/').count() != 2 {
                m.push("must include a prefix (e.g. 'example.com/key')".into());
            }
            m
        }
        "k8s-label-value" => content::label_value(value),
        "k8s-path-segment-name" => content::path_segment_name(value),
        "k8s-uuid" => content::uuid(value),
        "k8s-resource-pool-name" => return resource_pool_name(path, value),
        "k8s-extended-resource-name" => extended_resource_name(value),
        "k8s-resource-fully-qualified-name" => return fully_qualified_name(path, value),
        other => vec![format!("unknown format {other:?}")],
    };
    let origin = format!("format={name}");
    messages
        .into_iter()
        .map(|m| FieldError::invalid(path, value, m).with_origin(origin.clone()))
        .collect()
}

/// `k8s-resource-pool-name`: up to 253 bytes of `/`-separated DNS subdomains.
fn resource_pool_name(path: &Path<'_>, value: &str) -> ErrorList {
    let origin = "format=k8s-resource-pool-name";
    let mut out = Vec::new();
    if value.len() > 253 {
        out.push(FieldError::too_long(path, 253).with_origin(origin));
    }
    for (i, segment) in value.split('/').enumerate() {
        if segment.is_empty() {
            out.push(FieldError::invalid(path, value, format!("segment {i}: must not be empty")).with_origin(origin));
            continue;
        }
        for m in content::dns1123_subdomain(segment) {
            out.push(FieldError::invalid(path, segment, format!("segment {i}: {m}")).with_origin(origin));
        }
    }
    out
}

/// `k8s-extended-resource-name`: a domain-prefixed name outside `kubernetes.io/`.
fn extended_resource_name(value: &str) -> Vec<String> {
    let mut out = Vec::new();
    if !value.contains('/') {
        out.push("a name must be a domain-prefixed path, such as 'example.com/my-prop'".to_string());
    } else if value.contains("kubernetes.io/") {
        out.push("must not have \"kubernetes.io/\" domain".to_string());
    }
    if value.starts_with("requests.") {
        out.push("must not have \"requests.\" prefix".to_string());
    }
    out.extend(content::qualified_name(&format!("requests.{value}")));
    out
}

/// `k8s-resource-fully-qualified-name`: `<DNS subdomain>/<C identifier of up to 32>`.
fn fully_qualified_name(path: &Path<'_>, value: &str) -> ErrorList {
    let origin = "format=k8s-resource-fully-qualified-name";
    let mut out = Vec::new();
    let name_errors = |name: &str, out: &mut ErrorList| {
        if name.len() > 32 {
            out.push(FieldError::too_long(path, 32).with_origin(origin));
        }
        for m in content::c_identifier(name) {
            out.push(FieldError::invalid(path, name, m).with_origin(origin));
        }
    };
    let parts: Vec<&str> = value.split('/').collect();
    match parts.as_slice() {
        [name] => name_errors(name, &mut out),
        [prefix, name] => {
            if prefix.is_empty() {
                out.push(FieldError::invalid(path, "", "prefix must not be empty").with_origin(origin));
            } else {
                if prefix.len() > 63 {
                    out.push(FieldError::too_long(path, 63).with_origin(origin));
                }
                for m in content::dns1123_subdomain(prefix) {
                    out.push(FieldError::invalid(path, *prefix, format!("prefix: {m}")).with_origin(origin));
                }
            }
            if name.is_empty() {
                out.push(FieldError::invalid(path, "", "name must not be empty").with_origin(origin));
            } else {
                name_errors(name, &mut out);
            }
        }
        _ => {}
    }
    if !value.contains('/') {
        out.push(
            FieldError::invalid(
                path,
                value,
                "a fully qualified name must be a domain and a name separated by a slash",
            )
            .with_origin(origin),
        );
    }
    out
}

/// `Unsupported value` for a string outside an enum's values (sorted, as Kubernetes lists them).
pub fn not_supported(path: &Path<'_>, value: &str, supported: &[&str]) -> FieldError {
    let mut sorted = supported.to_vec();
    sorted.sort_unstable();
    FieldError::not_supported(path, value, &sorted)
}

/// `Duplicate value` for each item equal (by `same`) to an earlier one, in order.
pub fn unique<T: Serialize>(path: &Path<'_>, items: &[T], same: impl Fn(&T, &T) -> bool) -> ErrorList {
    let mut out = Vec::new();
    for (j, item) in items.iter().enumerate() {
        if items[..j].iter().any(|earlier| same(earlier, item)) {
            out.push(FieldError::duplicate(&path.index(j), json_value(item)));
        }
    }
    out
}

/// The internal error of an option (feature gate) nobody defined.
pub fn undefined_option(path: &Path<'_>, name: &str) -> FieldError {
    FieldError::internal(path, format!("undefined validation option {}", super::go_quote(name)))
}

/// Union members by name and whether each is set: the error of a union where not exactly one is
/// (`at_most_one`: zero or one, `+k8s:zeroOrOneOfMember`).
pub fn union(path: &Path<'_>, members: &[(&str, bool)], at_most_one: bool) -> Option<FieldError> {
    let names: Vec<String> = members.iter().map(|(n, _)| format!("`{n}`")).collect();
    let set: Vec<&str> = members.iter().filter(|(_, s)| *s).map(|(n, _)| *n).collect();
    let (detail, origin) = match (set.len(), at_most_one) {
        (0, false) => (format!("must specify one of: {}", names.join(", ")), "union"),
        (0 | 1, _) => return None,
        (_, false) => (format!("must specify exactly one of: {}", names.join(", ")), "union"),
        (_, true) => (
            format!("must specify at most one of: {}", names.join(", ")),
            "zeroOrOneOf",
        ),
    };
    let shown = if set.is_empty() {
        String::new()
    } else {
        format!("{{{}}}", set.join(", "))
    };
    Some(FieldError::invalid(path, shown, detail).with_origin(origin))
}

/// A union with a discriminator: each member is set exactly when the discriminator names it.
/// `members` holds (JSON name, discriminator value, set).
pub fn discriminated_union(path: &Path<'_>, discriminator: (&str, &str), members: &[(&str, &str, bool)]) -> ErrorList {
    let (disc_name, disc_value) = discriminator;
    let mut out = Vec::new();
    for (name, value, set) in members {
        let member_path = path.child(name);
        if *set && disc_value != *value {
            out.push(
                FieldError::invalid(
                    &member_path,
                    "",
                    format!("may only be specified when `{disc_name}` is {}", super::go_quote(value)),
                )
                .with_origin("union"),
            );
        } else if !*set && disc_value == *value {
            out.push(
                FieldError::invalid(
                    &member_path,
                    "",
                    format!(
                        "must be specified when `{disc_name}` is {}",
                        super::go_quote(disc_value)
                    ),
                )
                .with_origin("union"),
            );
        }
    }
    out
}

/// `+k8s:dependentRequired`: `dependent` must be set when `trigger` is.
pub fn dependent_required(path: &Path<'_>, trigger: (&str, bool), dependent: (&str, bool)) -> Option<FieldError> {
    (trigger.1 && !dependent.1).then(|| {
        FieldError::required(
            &path.child(dependent.0),
            format!("must be set when {} is set", trigger.0),
        )
        .with_origin("dependentRequired")
    })
}

/// `+k8s:dependentForbidden`: `dependent` may not be set when `trigger` is.
pub fn dependent_forbidden(path: &Path<'_>, trigger: (&str, bool), dependent: (&str, bool)) -> Option<FieldError> {
    (trigger.1 && dependent.1).then(|| {
        FieldError::forbidden(
            &path.child(dependent.0),
            format!("may not be set when {} is set", trigger.0),
        )
        .with_origin("dependentForbidden")
    })
}

/// The error of a validation asked for on a subresource the kind's rules do not serve.
pub fn no_validation(type_name: &str, subresource: &str) -> FieldError {
    FieldError::internal(
        &Path::ROOT,
        format!("no validation found for {type_name}, subresource: {subresource}"),
    )
}
