//! kube-openapi's value validations: `+k8s:validation:<key>=<json>` on a type or field becomes
//! that key of its OpenAPI schema (and so of a CRD's), and `+k8s:validation:cel[<i>]:rule=...`
//! with `message`, `messageExpression`, `reason`, `fieldPath` and `optionalOldSelf` becomes the
//! `<i>`th entry of `x-kubernetes-validations`. The tag table checks each value's JSON shape;
//! this module checks what needs the model: that a key fits the type it is written on (a pattern
//! on a string, a minimum on a number), that bounds are ordered, that patterns compile, and that
//! CEL rules are numbered from 0 without gaps and each has a `rule`.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::tags::{Tag, Tags, name as tag};
use super::{External, Shape, TypeRef, Universe};
use crate::diag::{Diagnostic, Diagnostics};

/// The schema keys a set of tags asks for, CEL rules gathered into `x-kubernetes-validations`.
pub fn schema(tags: &Tags) -> Map<String, Value> {
    let mut out = Map::new();
    let mut rules: BTreeMap<u32, Map<String, Value>> = BTreeMap::new();
    for t in tags.0.iter().filter(|t| t.name.starts_with(tag::VALIDATION)) {
        let Some(value) = t.value.as_deref().and_then(|v| serde_json::from_str::<Value>(v).ok()) else {
            continue;
        };
        match cel_part(&t.name) {
            Some((index, part)) => {
                rules.entry(index).or_default().insert(part.to_string(), value);
            }
            None => {
                out.insert(t.name[tag::VALIDATION.len()..].to_string(), value);
            }
        }
    }
    if !rules.is_empty() {
        out.insert(
            "x-kubernetes-validations".into(),
            Value::Array(rules.into_values().map(Value::Object).collect()),
        );
    }
    out
}

/// `k8s:validation:cel[3]:rule` -> `(3, "rule")`.
fn cel_part(name: &str) -> Option<(u32, &str)> {
    let rest = name.strip_prefix(tag::VALIDATION_CEL)?;
    let (index, part) = rest.split_once("]:")?;
    Some((index.parse().ok()?, part))
}

/// What a schema describes, for deciding which keys apply.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    String,
    Number,
    Array,
    Map,
    /// A struct: an object with named properties.
    Struct,
    /// Anything else: booleans, int-or-string, free-form JSON.
    Other,
}

impl Kind {
    fn of(universe: &Universe, t: &TypeRef) -> Kind {
        match t {
            TypeRef::Option(inner) | TypeRef::Box(inner) => Kind::of(universe, inner),
            TypeRef::String => Kind::String,
            TypeRef::Primitive(super::Primitive::Char) => Kind::String,
            TypeRef::Primitive(p) if p.is_number() => Kind::Number,
            TypeRef::Vec(_) => Kind::Array,
            TypeRef::Map { .. } => Kind::Map,
            TypeRef::External(External::Time | External::MicroTime | External::ByteString, _) => Kind::String,
            TypeRef::Named(id) => universe.get(id).map_or(Kind::Other, |ty| Kind::of_type(universe, ty)),
            _ => Kind::Other,
        }
    }

    fn of_type(universe: &Universe, ty: &super::Type) -> Kind {
        if let Some(inner) = ty.newtype() {
            return Kind::of(universe, &inner.ty);
        }
        match &ty.shape {
            Shape::Enum { variants } if variants.iter().all(|v| v.fields.is_empty()) => Kind::String,
            Shape::Struct { .. } => Kind::Struct,
            _ => Kind::Other,
        }
    }
}

/// Checks every validation tag of the universe against the type it is written on.
pub fn check(universe: &Universe, diags: &mut Diagnostics) {
    for pkg in universe.packages.values() {
        if pkg.is_internal() {
            unused_in_hub(pkg, diags);
            continue;
        }
        for ty in pkg.types.values() {
            check_tags(&ty.tags, Kind::of_type(universe, ty), diags);
            for f in ty.fields() {
                check_tags(&f.tags, Kind::of(universe, &f.ty), diags);
            }
        }
        for alias in pkg.aliases.values() {
            check_tags(&alias.tags, Kind::of(universe, &alias.target), diags);
        }
    }
}

/// The internal version is never published, so a validation tag there does nothing.
fn unused_in_hub(pkg: &super::Package, diags: &mut Diagnostics) {
    let tags = pkg
        .types
        .values()
        .flat_map(|ty| std::iter::once(&ty.tags).chain(ty.fields().iter().map(|f| &f.tags)));
    for t in tags
        .flat_map(|t| t.0.iter())
        .filter(|t| t.name.starts_with(tag::VALIDATION))
    {
        diags.push(
            Diagnostic::error(&t.loc, format!("`+{}` does nothing in the internal version", t.name))
                .label("never published")
                .help("validations belong on the external versions, whose schemas the API server and CRDs use"),
        );
    }
}

/// Which keys apply to which kind of value, as kube-openapi's `ValidateType` decides.
const APPLIES: &[(&str, Kind, &str)] = &[
    ("minLength", Kind::String, "strings"),
    ("maxLength", Kind::String, "strings"),
    ("pattern", Kind::String, "strings"),
    ("minimum", Kind::Number, "numbers"),
    ("maximum", Kind::Number, "numbers"),
    ("multipleOf", Kind::Number, "numbers"),
    ("exclusiveMinimum", Kind::Number, "numbers"),
    ("exclusiveMaximum", Kind::Number, "numbers"),
    ("minItems", Kind::Array, "lists"),
    ("maxItems", Kind::Array, "lists"),
    ("uniqueItems", Kind::Array, "lists"),
    ("minProperties", Kind::Map, "maps and structs"),
    ("maxProperties", Kind::Map, "maps and structs"),
];

fn check_tags(tags: &Tags, kind: Kind, diags: &mut Diagnostics) {
    let ours: Vec<&Tag> = tags.0.iter().filter(|t| t.name.starts_with(tag::VALIDATION)).collect();
    if ours.is_empty() {
        return;
    }
    let key = |t: &Tag| t.name[tag::VALIDATION.len()..].to_string();
    let number = |name: &str| {
        ours.iter()
            .find(|t| key(t) == name)
            .and_then(|t| serde_json::from_str::<f64>(t.value.as_deref()?).ok())
    };
    for t in &ours {
        let k = key(t);
        if let Some((_, wants, what)) = APPLIES.iter().find(|(name, _, _)| *name == k)
            && *wants != kind
            && !(*wants == Kind::Map && kind == Kind::Struct)
        {
            diags.push(
                Diagnostic::error(&t.loc, format!("`{k}` applies to {what} only"))
                    .label(format!("`+k8s:validation:{k}` on the wrong type"))
                    .help(format!(
                        "move it to a field or type whose JSON values are {what}, or remove it"
                    )),
            );
        }
        let value = t.value.as_deref().unwrap_or_default();
        match k.as_str() {
            "pattern" => {
                let pattern: String = serde_json::from_str(value).unwrap_or_default();
                if let Err(e) = regex::Regex::new(&pattern) {
                    let text = e.to_string();
                    let why = text.lines().last().unwrap_or_default().trim();
                    let first = why.strip_prefix("error: ").unwrap_or(why).to_string();
                    diags.push(
                        Diagnostic::error(&t.loc, format!("pattern `{pattern}` does not compile"))
                            .label(first)
                            .help("write a regular expression in RE2 syntax, which the API server uses"),
                    );
                }
            }
            "multipleOf" if number("multipleOf") == Some(0.0) => diags.push(
                Diagnostic::error(&t.loc, "`multipleOf` is 0")
                    .label("every value would fail")
                    .help("use a positive number"),
            ),
            _ => {}
        }
    }
    for (low, high) in [
        ("minimum", "maximum"),
        ("minLength", "maxLength"),
        ("minItems", "maxItems"),
        ("minProperties", "maxProperties"),
    ] {
        if let (Some(a), Some(b)) = (number(low), number(high))
            && a > b
        {
            let at = ours
                .iter()
                .find(|t| key(t) == low)
                .map(|t| t.loc.clone())
                .unwrap_or_default();
            diags.push(
                Diagnostic::error(&at, format!("`{low}` {a} is greater than `{high}` {b}"))
                    .label("no value can pass")
                    .help(format!("make `{low}` at most `{high}`")),
            );
        }
    }
    check_cel(&ours, diags);
    check_default(tags, &ours, diags);
}

/// A `+default` must pass the field's own validations, or the API server rejects the schema.
fn check_default(tags: &Tags, ours: &[&Tag], diags: &mut Diagnostics) {
    let Some(default) = tags.get(tag::DEFAULT) else { return };
    let Some(value) = default
        .value
        .as_deref()
        .and_then(|v| serde_json::from_str::<Value>(v).ok())
    else {
        return;
    };
    for t in ours {
        if let Err(why) = passes(t, &value) {
            diags.push(
                Diagnostic::error(&default.loc, format!("default {value} fails the field's {why}"))
                    .label("invalid default")
                    .related(&t.loc, "the validation")
                    .help("make the default a value the field accepts"),
            );
        }
    }
}

/// Whether `value` passes every value validation among `tags` (bounds, lengths, enum, pattern);
/// the first failure, as "`maximum` 65535" when it does not. CEL rules are not evaluated.
pub fn value_passes(tags: &Tags, value: &Value) -> Result<(), String> {
    tags.0
        .iter()
        .filter(|t| t.name.starts_with(tag::VALIDATION))
        .try_for_each(|t| passes(t, value))
}

fn passes(t: &Tag, value: &Value) -> Result<(), String> {
    let Some(limit) = t.value.as_deref().and_then(|v| serde_json::from_str::<Value>(v).ok()) else {
        return Ok(());
    };
    let key = &t.name[tag::VALIDATION.len()..];
    let (n, len) = (value.as_f64(), value.as_str().map(|s| s.chars().count() as f64));
    let count = value
        .as_array()
        .map(|a| a.len() as f64)
        .or_else(|| value.as_object().map(|m| m.len() as f64));
    let fails = match key {
        "enum" => limit.as_array().is_some_and(|a| !a.contains(value)),
        "minimum" => n.zip(limit.as_f64()).is_some_and(|(n, l)| n < l),
        "maximum" => n.zip(limit.as_f64()).is_some_and(|(n, l)| n > l),
        "minLength" => len.zip(limit.as_f64()).is_some_and(|(n, l)| n < l),
        "maxLength" => len.zip(limit.as_f64()).is_some_and(|(n, l)| n > l),
        "minItems" | "minProperties" => count.zip(limit.as_f64()).is_some_and(|(n, l)| n < l),
        "maxItems" | "maxProperties" => count.zip(limit.as_f64()).is_some_and(|(n, l)| n > l),
        "pattern" => match (value.as_str(), limit.as_str().map(regex::Regex::new)) {
            (Some(s), Some(Ok(re))) => !re.is_match(s),
            _ => false,
        },
        _ => false,
    };
    if fails { Err(format!("`{key}` {limit}")) } else { Ok(()) }
}

/// CEL rules are numbered 0, 1, ... and each has a `rule`.
fn check_cel(ours: &[&Tag], diags: &mut Diagnostics) {
    let mut parts: BTreeMap<u32, Vec<(&str, &Tag)>> = BTreeMap::new();
    for t in ours {
        if let Some((i, part)) = cel_part(&t.name) {
            parts.entry(i).or_default().push((part, t));
        }
    }
    for (expected, (index, tags)) in parts.iter().enumerate() {
        let first = tags[0].1;
        if *index as usize != expected {
            diags.push(
                Diagnostic::error(&first.loc, format!("CEL rule index {index} skips {expected}"))
                    .label("indices are 0, 1, 2, ... without gaps")
                    .help(format!("number this rule `cel[{expected}]`")),
            );
        }
        let part = |name: &str| {
            tags.iter()
                .find(|(p, _)| *p == name)
                .and_then(|(_, t)| Some((serde_json::from_str::<Value>(t.value.as_deref()?).ok()?, *t)))
        };
        let mut problems: Vec<(&Tag, String)> = Vec::new();
        if let (Some(_), Some((_, t))) = (part("message"), part("messageExpression")) {
            problems.push((t, "has both `message` and `messageExpression`; keep one".into()));
        }
        if let Some((m, t)) = part("message")
            && m.as_str().is_some_and(|m| m.contains(['\n', '\r']))
        {
            problems.push((t, "`message` has a line break".into()));
        }
        if let Some((r, t)) = part("rule")
            && r.as_str().is_some_and(|r| r.contains('\n'))
            && part("message").is_none()
            && part("messageExpression").is_none()
        {
            problems.push((t, "a rule of several lines needs a `message`".into()));
        }
        if let Some((reason, t)) = part("reason")
            && !matches!(
                reason.as_str(),
                Some("FieldValueRequired" | "FieldValueForbidden" | "FieldValueInvalid" | "FieldValueDuplicate")
            )
        {
            problems.push((
                t,
                format!("reason {reason} is not FieldValueRequired, FieldValueForbidden, FieldValueInvalid or FieldValueDuplicate"),
            ));
        }
        if let Some((path, t)) = part("fieldPath")
            && !path.as_str().is_some_and(|p| p.starts_with('.') && p.len() > 1)
        {
            problems.push((t, format!("fieldPath {path} is not a path such as `.spec.replicas`")));
        }
        for (t, why) in problems {
            diags.push(
                Diagnostic::error(&t.loc, format!("CEL rule {index}: {why}"))
                    .label("the API server rejects this rule")
                    .help("see `x-kubernetes-validations` in the CustomResourceDefinition reference"),
            );
        }
        if !tags.iter().any(|(part, _)| *part == "rule") {
            diags.push(
                Diagnostic::error(&first.loc, format!("CEL rule {index} has no `rule`"))
                    .label("a message without a rule")
                    .help(format!("add `+k8s:validation:cel[{index}]:rule=\"<CEL expression>\"`")),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::SourceLoc;

    fn tags(list: &[(&str, &str)]) -> Tags {
        Tags(
            list.iter()
                .map(|(n, v)| Tag::new(format!("k8s:validation:{n}"), Some(v.to_string()), SourceLoc::default()))
                .collect(),
        )
    }

    #[test]
    fn schema_keys_and_cel_rules() {
        let s = schema(&tags(&[
            ("maxLength", "63"),
            ("pattern", "\"^[a-z]+$\""),
            ("cel[1]:rule", "\"self != 'x'\""),
            ("cel[0]:rule", "\"self.size() > 1\""),
            ("cel[0]:message", "\"too short\""),
        ]));
        assert_eq!(
            Value::Object(s),
            serde_json::json!({
                "maxLength": 63,
                "pattern": "^[a-z]+$",
                "x-kubernetes-validations": [
                    { "message": "too short", "rule": "self.size() > 1" },
                    { "rule": "self != 'x'" },
                ],
            })
        );
    }

    #[test]
    fn checks_fit_order_patterns_and_cel_numbering() {
        let run = |list: &[(&str, &str)], kind| {
            let mut d = Diagnostics::new();
            check_tags(&tags(list), kind, &mut d);
            d.into_vec().into_iter().map(|e| e.message).collect::<Vec<_>>()
        };
        assert!(run(&[("maxLength", "3"), ("pattern", "\"^a\"")], Kind::String).is_empty());
        assert_eq!(
            run(&[("maxLength", "3")], Kind::Number),
            ["`maxLength` applies to strings only"]
        );
        assert_eq!(
            run(&[("minimum", "5"), ("maximum", "1")], Kind::Number),
            ["`minimum` 5 is greater than `maximum` 1"]
        );
        assert_eq!(
            run(&[("pattern", "\"(\"")], Kind::String),
            ["pattern `(` does not compile"]
        );
        assert_eq!(
            run(&[("cel[1]:rule", "\"true\"")], Kind::Other),
            ["CEL rule index 1 skips 0"]
        );
        assert_eq!(
            run(&[("cel[0]:message", "\"m\"")], Kind::Other),
            ["CEL rule 0 has no `rule`"]
        );
        let mut with_default = tags(&[("enum", "[\"TCP\",\"UDP\"]"), ("maximum", "3")]);
        with_default
            .0
            .push(Tag::new(tag::DEFAULT, Some("\"SCTP\"".into()), SourceLoc::default()));
        let mut d = Diagnostics::new();
        check_tags(&with_default, Kind::String, &mut d);
        let messages: Vec<String> = d.into_vec().into_iter().map(|e| e.message).collect();
        assert!(
            messages.contains(&"default \"SCTP\" fails the field's `enum` [\"TCP\",\"UDP\"]".to_string()),
            "{messages:?}"
        );
    }
}
