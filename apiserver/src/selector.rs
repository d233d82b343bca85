//! Label and field selectors (apimachinery's `labels.Parse` and `fields.ParseSelector`): parsed once
//! per request, matched against an object's JSON.
//!
//! Label selectors take `k=v`, `k==v`, `k!=v`, `k in (a,b)`, `k notin (a,b)`, `k` and `!k`, joined
//! by commas. Field selectors take `f=v`, `f==v` and `f!=v`, where `f` is a JSON path such as
//! `metadata.name`, checked against the kind's field-label conversion.

use serde_json::Value;

/// One requirement of a label selector.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Requirement {
    Equals(String, String),
    NotEquals(String, String),
    In(String, Vec<String>),
    NotIn(String, Vec<String>),
    Exists(String),
    DoesNotExist(String),
}

/// A parsed label selector; the empty selector matches everything.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LabelSelector(Vec<Requirement>);

impl LabelSelector {
    /// Parses `?labelSelector=`.
    pub fn parse(text: &str) -> Result<Self, String> {
        let mut out = Vec::new();
        for part in split_top_level(text) {
            let part = part.trim();
            if part.is_empty() {
                continue;
            }
            out.push(requirement(part)?);
        }
        Ok(LabelSelector(out))
    }

    /// Whether an object's labels match.
    pub fn matches(&self, labels: Option<&serde_json::Map<String, Value>>) -> bool {
        let get = |k: &str| labels.and_then(|l| l.get(k)).and_then(Value::as_str);
        self.0.iter().all(|r| match r {
            Requirement::Equals(k, v) => get(k) == Some(v.as_str()),
            Requirement::NotEquals(k, v) => get(k) != Some(v.as_str()),
            Requirement::In(k, vs) => get(k).is_some_and(|x| vs.iter().any(|v| v == x)),
            Requirement::NotIn(k, vs) => get(k).is_none_or(|x| vs.iter().all(|v| v != x)),
            Requirement::Exists(k) => get(k).is_some(),
            Requirement::DoesNotExist(k) => get(k).is_none(),
        })
    }

    /// Whether the selector is empty.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// Splits at commas outside parentheses (`a in (x,y),b`).
fn split_top_level(text: &str) -> Vec<&str> {
    let (mut parts, mut depth, mut start) = (Vec::new(), 0i32, 0);
    for (i, c) in text.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&text[start..]);
    parts
}

fn requirement(part: &str) -> Result<Requirement, String> {
    let valid_key = |k: &str| -> Result<String, String> {
        let k = k.trim();
        let ok = !k.is_empty() && k.len() <= 316 && k.chars().all(|c| c.is_ascii_alphanumeric() || "-_./".contains(c));
        if ok {
            Ok(k.to_string())
        } else {
            Err(format!("unable to parse requirement: invalid label key \"{k}\""))
        }
    };
    let valid_value = |v: &str| -> Result<String, String> {
        let v = v.trim();
        let ok = v.len() <= 63 && v.chars().all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c));
        if ok {
            Ok(v.to_string())
        } else {
            Err(format!("unable to parse requirement: invalid label value: \"{v}\""))
        }
    };
    let set = |rest: &str| -> Result<Vec<String>, String> {
        let rest = rest.trim();
        let inner = rest
            .strip_prefix('(')
            .and_then(|r| r.strip_suffix(')'))
            .ok_or_else(|| format!("found '{rest}', expected: '(' values ')'"))?;
        inner.split(',').map(valid_value).collect()
    };
    if let Some(k) = part.strip_prefix('!') {
        return Ok(Requirement::DoesNotExist(valid_key(k)?));
    }
    if let Some((k, v)) = part.split_once("!=") {
        return Ok(Requirement::NotEquals(valid_key(k)?, valid_value(v)?));
    }
    if let Some((k, v)) = part.split_once("==").or_else(|| part.split_once('=')) {
        return Ok(Requirement::Equals(valid_key(k)?, valid_value(v)?));
    }
    let words: Vec<&str> = part.splitn(2, char::is_whitespace).collect();
    if let [k, rest] = words.as_slice() {
        let rest = rest.trim_start();
        if let Some(r) = rest.strip_prefix("notin") {
            return Ok(Requirement::NotIn(valid_key(k)?, set(r)?));
        }
        if let Some(r) = rest.strip_prefix("in") {
            return Ok(Requirement::In(valid_key(k)?, set(r)?));
        }
        return Err(format!(
            "unable to parse requirement: found '{rest}', expected: in, notin, =, ==, !="
        ));
    }
    Ok(Requirement::Exists(valid_key(part)?))
}

/// A parsed field selector: `(path, value, equal)` terms, all of which must hold.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FieldSelector(Vec<(String, String, bool)>);

impl FieldSelector {
    /// Parses `?fieldSelector=`; each field goes through `convert` (the kind's field-label
    /// conversion), whose error rejects the selector.
    pub fn parse(text: &str, convert: impl Fn(&str, &str) -> Result<(String, String), String>) -> Result<Self, String> {
        let mut out = Vec::new();
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (field, value, equal) = if let Some((f, v)) = part.split_once("!=") {
                (f, v, false)
            } else if let Some((f, v)) = part.split_once("==").or_else(|| part.split_once('=')) {
                (f, v, true)
            } else {
                return Err(format!("invalid selector: '{part}'; can't understand '{part}'"));
            };
            let (field, value) = convert(field.trim(), value.trim())?;
            out.push((field, value, equal));
        }
        Ok(FieldSelector(out))
    }

    /// Whether an object matches: a field's value is its JSON string, number or boolean as text;
    /// an absent field is the empty string.
    pub fn matches(&self, obj: &Value) -> bool {
        self.0.iter().all(|(path, value, equal)| {
            let found = path.split('.').try_fold(obj, |v, seg| v.get(seg));
            let text = match found {
                Some(Value::String(s)) => s.clone(),
                Some(Value::Number(n)) => n.to_string(),
                Some(Value::Bool(b)) => b.to_string(),
                _ => String::new(),
            };
            (text == *value) == *equal
        })
    }

    /// Whether the selector is empty.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// A LabelSelector object as its string form (`metav1.FormatLabelSelector`).
pub fn format(selector: &Value) -> String {
    if let Some(s) = selector.as_str() {
        return s.to_string();
    }
    let mut parts = Vec::new();
    if let Some(labels) = selector.get("matchLabels").and_then(Value::as_object) {
        parts.extend(labels.iter().map(|(k, v)| format!("{k}={}", v.as_str().unwrap_or(""))));
    }
    for e in selector
        .get("matchExpressions")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let key = e["key"].as_str().unwrap_or("");
        let values: Vec<&str> = e["values"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        parts.push(match e["operator"].as_str().unwrap_or("") {
            "In" => format!("{key} in ({})", values.join(",")),
            "NotIn" => format!("{key} notin ({})", values.join(",")),
            "Exists" => key.to_string(),
            "DoesNotExist" => format!("!{key}"),
            other => format!("{key} {other}"),
        });
    }
    parts.join(",")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn label_selectors_match_as_kubernetes_does() {
        let labels = json!({"app": "web", "tier": "front"});
        let m = labels.as_object();
        for (sel, want) in [
            ("", true),
            ("app=web", true),
            ("app==web,tier=front", true),
            ("app!=web", false),
            ("app in (web,api)", true),
            ("app notin (web)", false),
            ("tier,!missing", true),
            ("missing", false),
            ("env notin (prod)", true),
        ] {
            assert_eq!(LabelSelector::parse(sel).unwrap().matches(m), want, "{sel}");
        }
        assert!(LabelSelector::parse("app in web").is_err());
        assert!(LabelSelector::parse("a b c").is_err());
        assert!(LabelSelector::parse("app=we b").is_err());
    }

    #[test]
    fn field_selectors_read_json_paths() {
        let pass = |f: &str, v: &str| Ok((f.to_string(), v.to_string()));
        let obj = json!({"metadata": {"name": "a", "namespace": "ns"}, "spec": {"replicas": 3}});
        assert!(
            FieldSelector::parse("metadata.name=a,metadata.namespace!=x", pass)
                .unwrap()
                .matches(&obj)
        );
        assert!(FieldSelector::parse("spec.replicas=3", pass).unwrap().matches(&obj));
        assert!(!FieldSelector::parse("metadata.name==b", pass).unwrap().matches(&obj));
        let strict = |f: &str, _: &str| Err::<(String, String), _>(format!("field label not supported: {f}"));
        assert_eq!(
            FieldSelector::parse("spec.x=1", strict).unwrap_err(),
            "field label not supported: spec.x"
        );
    }
}
