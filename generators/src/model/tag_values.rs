//! Checks of tag values against their rules in the tag table: fixed sets, lists, paths, versions,
//! JSON, `key=value` lists and the other value shapes `model::tags` names.

use std::ops::RangeInclusive;

use super::verb::Verb;
use Value::*;

/// The largest field number protobuf allows (`+protobuf=<n>`).
pub const MAX_FIELD_NUMBER: u32 = (1 << 29) - 1;

/// Field numbers protobuf keeps for itself.
pub const RESERVED: RangeInclusive<u32> = 19000..=19999;

/// What values a tag takes.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Value {
    /// No value: `+optional`.
    Flag,
    /// One of a fixed set.
    OneOf(&'static [&'static str]),
    /// A comma list, each item from a fixed set.
    ListOf(&'static [&'static str]),
    /// Any non-empty text.
    Text,
    /// A DNS subdomain, or empty (the core group).
    Group,
    /// A Rust identifier.
    Ident,
    /// A comma list of Rust paths, or `false`.
    PathsOrFalse,
    /// One Rust path.
    Path,
    /// `major.minor`.
    Version,
    /// `group,version,Kind`.
    GroupVersionKind,
    /// JSON, or `ref(...)`.
    Json,
    /// `true`, `false` or an `x-kubernetes-*` extension.
    OpenApi,
    /// `Name,verb=...,subresource=...,input=...,result=...`.
    Method,
    /// A subresource path: `/scale`.
    Subresource,
    /// `key=value` pairs separated by commas (a value in double quotes may hold commas): the keys
    /// allowed, then the keys required.
    KeyValues(&'static [&'static str], &'static [&'static str]),
    /// A comma list of DNS labels: `wd,wdg`.
    Labels,
    /// One DNS label: a resource name.
    Label,
    /// A JSON value of one shape: `number`, `count` (an integer >= 0), `bool`, `string`, `array`.
    JsonOf(&'static str),
    /// A protobuf field number: 1 to 2^29 - 1, outside protobuf's reserved 19000-19999.
    FieldNumber,
}

/// Checks a value against its rule; the error says what was expected.
pub(super) fn check_value(rule: Value, value: Option<&str>) -> Result<(), String> {
    fn need(v: Option<&str>) -> Result<&str, String> {
        v.ok_or_else(|| "a value (`+name=value`)".to_string())
    }
    match rule {
        Flag => match value {
            None => Ok(()),
            Some(_) => Err("no value".into()),
        },
        OneOf(set) => check_one_of(need(value)?, set),
        ListOf(set) => check_list_of(need(value)?, set),
        Text => non_empty(need(value)?),
        Group => check_group(need(value)?),
        Ident => check_ident(need(value)?),
        PathsOrFalse => check_paths_or_false(need(value)?),
        Path => check_path(need(value)?),
        Version => check_version(need(value)?),
        GroupVersionKind => check_group_version_kind(need(value)?),
        Json => check_json(need(value)?),
        OpenApi => check_openapi(need(value)?),
        Method => check_method(need(value)?),
        KeyValues(allowed, required) => check_key_values(need(value)?, allowed, required),
        FieldNumber => check_field_number(need(value)?),
        JsonOf(shape) => check_json_of(need(value)?, shape),
        Label => check_label(need(value)?),
        Labels => check_labels(need(value)?),
        Subresource => check_subresource(need(value)?),
    }
}

/// Checks a `OneOf` value: exactly one member of the fixed set, since the generators match on it.
fn check_one_of(v: &str, set: &[&str]) -> Result<(), String> {
    if set.contains(&v) {
        Ok(())
    } else {
        Err(format!("one of: {}", set.join("|")))
    }
}

/// Checks a `ListOf` value: a non-empty comma list whose every item is in the fixed set, so that no
/// item is silently ignored.
fn check_list_of(v: &str, set: &[&str]) -> Result<(), String> {
    if !v.is_empty() && v.split(',').all(|x| set.contains(&x.trim())) {
        Ok(())
    } else {
        Err(format!("a comma list of: {}", set.join("|")))
    }
}

/// Checks a `Group` value: a DNS subdomain, or nothing for the core group, because the group
/// becomes part of API paths.
fn check_group(v: &str) -> Result<(), String> {
    let ok = v.split('.').all(|l| l.is_empty() && v.is_empty() || is_dns_label(l));
    if ok {
        Ok(())
    } else {
        Err("a DNS subdomain such as `apps` or `example.dev`, or nothing for the core group".into())
    }
}

/// Checks an `Ident` value: a Rust identifier, because the generators write it into code.
fn check_ident(v: &str) -> Result<(), String> {
    if syn::parse_str::<syn::Ident>(v).is_ok() {
        Ok(())
    } else {
        Err("a Rust identifier".into())
    }
}

/// Checks a `PathsOrFalse` value: a non-empty comma list of Rust paths or `false`, because each
/// path is written into generated code.
fn check_paths_or_false(v: &str) -> Result<(), String> {
    if v == "false" || (!v.is_empty() && v.split(',').all(|p| syn::parse_str::<syn::Path>(p.trim()).is_ok())) {
        Ok(())
    } else {
        Err("a comma list of Rust paths (such as `crate::apps`), or `false`".into())
    }
}

/// Checks a `Path` value: one Rust path, because it is written into generated code.
fn check_path(v: &str) -> Result<(), String> {
    if syn::parse_str::<syn::Path>(v).is_ok() {
        Ok(())
    } else {
        Err("a Rust path such as `crate::apps::v1`".into())
    }
}

/// Checks a `Version` value: a Kubernetes `major.minor` of two runs of digits, because the
/// lifecycle tags that take it are read as a major and a minor number.
fn check_version(v: &str) -> Result<(), String> {
    let parts: Vec<&str> = v.split('.').collect();
    if parts.len() == 2
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()))
    {
        Ok(())
    } else {
        Err("a Kubernetes version `major.minor`, such as `1.9`".into())
    }
}

/// Checks a `GroupVersionKind` value: three comma-separated parts with a version and a kind (the
/// group may be empty for the core group), because together they name the replacement type.
fn check_group_version_kind(v: &str) -> Result<(), String> {
    if v.split(',').count() == 3 && v.split(',').skip(1).all(|p| !p.trim().is_empty()) {
        Ok(())
    } else {
        Err("`group,version,Kind`".into())
    }
}

/// Checks a `Json` value: valid JSON or a `ref(...)`, because it is written into schemas as is.
fn check_json(v: &str) -> Result<(), String> {
    if (v.starts_with("ref(") && v.ends_with(')')) || serde_json::from_str::<serde_json::Value>(v).is_ok() {
        Ok(())
    } else {
        Err("a JSON value (strings are quoted: `+default=\"Always\"`) or `ref(...)`".into())
    }
}

/// Checks an `OpenApi` value: `true`, `false` or an `x-kubernetes-*` extension, the only settings
/// the OpenAPI generator understands.
fn check_openapi(v: &str) -> Result<(), String> {
    if v == "true" || v == "false" || v.starts_with("x-kubernetes-") {
        Ok(())
    } else {
        Err("`true`, `false` or an `x-kubernetes-*` extension".into())
    }
}

/// Checks a `FieldNumber` value: a protobuf field number in range and outside protobuf's reserved
/// block, because protobuf rejects any other.
fn check_field_number(v: &str) -> Result<(), String> {
    match v.parse::<u32>() {
        Ok(n) if (1..=MAX_FIELD_NUMBER).contains(&n) && !RESERVED.contains(&n) => Ok(()),
        _ => Err(format!(
            "a protobuf field number: 1 to {}, not {}-{} (reserved by protobuf)",
            MAX_FIELD_NUMBER,
            RESERVED.start(),
            RESERVED.end()
        )),
    }
}

/// Checks a `JsonOf` value: JSON of the named shape (`number`, `count`, `bool`, `string`, else a
/// non-empty array), because it is written into schemas where that shape is required.
fn check_json_of(v: &str, shape: &str) -> Result<(), String> {
    let json: Option<serde_json::Value> = serde_json::from_str(v).ok();
    let ok = json.as_ref().is_some_and(|j| match shape {
        "number" => j.is_number(),
        "count" => j.is_u64(),
        "bool" => j.is_boolean(),
        "string" => j.is_string(),
        _ => j.as_array().is_some_and(|a| !a.is_empty()),
    });
    if ok {
        Ok(())
    } else {
        Err(match shape {
            "number" => "a JSON number, such as `0` or `1.5`",
            "count" => "a whole number, 0 or more",
            "bool" => "`true` or `false`",
            "string" => "a JSON string in double quotes, such as `\"^[a-z]+$\"`",
            _ => "a non-empty JSON array, such as `[\"a\",\"b\"]`",
        }
        .into())
    }
}

/// Checks a `Label` value: one lower-case DNS label, because it names a resource in API paths.
fn check_label(v: &str) -> Result<(), String> {
    if is_dns_label(v) {
        Ok(())
    } else {
        Err("a resource name: a lower-case DNS label of at most 63 characters, such as `widgets`".into())
    }
}

/// Checks a `Labels` value: a comma list of lower-case DNS labels, because each one is a short
/// name or a category that discovery serves.
fn check_labels(v: &str) -> Result<(), String> {
    if v.split(',').all(|l| is_dns_label(l.trim())) {
        Ok(())
    } else {
        Err("a comma list of lower-case DNS labels, such as `wd,wdg`".into())
    }
}

/// Checks a `Subresource` value: `/` and a DNS label, because it is the last segment of an API
/// path.
fn check_subresource(v: &str) -> Result<(), String> {
    let name = unquote(v).strip_prefix('/').unwrap_or_default();
    if !name.is_empty() && is_dns_label(name) {
        Ok(())
    } else {
        Err("a subresource path such as `/scale`".into())
    }
}

/// A value without its double quotes, as validation-gen writes string values (`"/scale"`).
pub fn unquote(v: &str) -> &str {
    v.strip_prefix('"').and_then(|s| s.strip_suffix('"')).unwrap_or(v)
}

/// Splits `key=value,key="a, b"` into pairs. A value in double quotes may hold commas and `\"`.
pub fn key_values(v: &str) -> Result<Vec<(String, String)>, String> {
    let mut out = Vec::new();
    let mut rest = v.trim();
    while !rest.is_empty() {
        let (key, after) = rest
            .split_once('=')
            .ok_or_else(|| format!("`key=value` pairs, but `{rest}` has no `=`"))?;
        let key = key.trim();
        let after = after.trim_start();
        let (value, tail) = if let Some(quoted) = after.strip_prefix('"') {
            let mut value = String::new();
            let mut chars = quoted.char_indices();
            let end = loop {
                match chars.next() {
                    Some((_, '\\')) => value.extend(chars.next().map(|(_, c)| c)),
                    Some((i, '"')) => break i,
                    Some((_, c)) => value.push(c),
                    None => return Err(format!("a closing `\"` for the value of `{key}`")),
                }
            };
            let tail = quoted[end + 1..].trim_start();
            if !tail.is_empty() && !tail.starts_with(',') {
                return Err(format!("a `,` after the quoted value of `{key}`"));
            }
            (value, tail)
        } else {
            let end = after.find(',').unwrap_or(after.len());
            (after[..end].trim().to_string(), &after[end..])
        };
        out.push((key.to_string(), value));
        rest = tail.strip_prefix(',').unwrap_or(tail).trim_start();
    }
    Ok(out)
}

fn check_key_values(v: &str, allowed: &[&str], required: &[&str]) -> Result<(), String> {
    let expected = || {
        let keys: Vec<String> = allowed
            .iter()
            .map(|k| {
                if required.contains(k) {
                    format!("{k}=...")
                } else {
                    format!("[{k}=...]")
                }
            })
            .collect();
        format!("`{}`", keys.join(","))
    };
    let pairs = key_values(v).map_err(|e| format!("{e}: {}", expected()))?;
    let mut seen: Vec<&str> = Vec::new();
    for (key, value) in &pairs {
        if !allowed.contains(&key.as_str()) {
            return Err(format!("one of the keys {} (not `{key}`)", expected()));
        }
        if seen.contains(&key.as_str()) || value.is_empty() {
            return Err(format!("each key once, with a value: {}", expected()));
        }
        seen.push(key);
    }
    match required.iter().find(|r| !seen.contains(r)) {
        Some(missing) => Err(format!("`{missing}=...` as well: {}", expected())),
        None => Ok(()),
    }
}

fn non_empty(v: &str) -> Result<(), String> {
    if v.is_empty() {
        Err("a non-empty value".into())
    } else {
        Ok(())
    }
}

/// A lower-case DNS label (RFC 1123): a group part, a short name, a namespace or a service name.
pub fn is_dns_label(l: &str) -> bool {
    !l.is_empty()
        && l.len() <= 63
        && l.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        && !l.starts_with('-')
        && !l.ends_with('-')
}

/// `+genclient:method=Name,verb=get[,subresource=s][,input=path][,result=path]`, with
/// client-gen's rules: `input=` only for create, update and apply; `result=` for create, update,
/// get, list, patch and apply; no custom updateStatus, deleteCollection, watch or delete.
fn check_method(v: &str) -> Result<(), String> {
    let expected = "`Name,verb=<verb>[,subresource=<name>][,input=<path>][,result=<path>]`";
    let mut parts = v.split(',');
    let method = parts.next().unwrap_or_default();
    if syn::parse_str::<syn::Ident>(method).is_err() {
        return Err(expected.into());
    }
    let (mut verb, mut input, mut result) = (None, false, false);
    for part in parts {
        match part.split_once('=') {
            Some(("verb", x)) if Verb::parse(x).is_some() => verb = Verb::parse(x),
            Some(("subresource", x)) if !x.is_empty() => {}
            Some(("input", x)) if syn::parse_str::<syn::Path>(x).is_ok() => input = true,
            Some(("result", x)) if syn::parse_str::<syn::Path>(x).is_ok() => result = true,
            _ => return Err(expected.into()),
        }
    }
    let Some(verb) = verb else { return Err(expected.into()) };
    let name = verb.as_str();
    if !verb.is_custom_method_verb() {
        return Err(format!(
            "{expected} with a verb custom methods support (not `{name}`: use the standard verb)"
        ));
    }
    if input && !verb.takes_input() {
        return Err(format!(
            "`input=` only with verb create, update or apply (not `{name}`)"
        ));
    }
    if result && !verb.takes_result() {
        return Err(format!(
            "`result=` only with verb create, update, get, list, patch or apply (not `{name}`)"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_values_split_on_commas_outside_quotes() {
        let pairs = key_values(r#"name=Ready, type=string,description="a, \"b\" c",priority=1"#).unwrap();
        let pairs: Vec<(&str, &str)> = pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        assert_eq!(
            pairs,
            [
                ("name", "Ready"),
                ("type", "string"),
                ("description", r#"a, "b" c"#),
                ("priority", "1")
            ]
        );
        assert!(key_values("name").is_err());
        assert!(key_values(r#"description="open"#).is_err());
        assert!(key_values(r#"description="x"y"#).is_err());
        assert!(check_key_values("name=a,type=b", &["name", "type", "jsonPath"], &["jsonPath"]).is_err());
        assert!(check_key_values("name=a,name=b", &["name"], &[]).is_err());
        assert!(check_key_values("colour=a", &["name"], &[]).is_err());
        assert!(check_key_values("name=a", &["name"], &["name"]).is_ok());
    }
}
