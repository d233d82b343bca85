//! validation-gen's tags, typed: `+k8s:minimum=0`, `+k8s:eachVal=+k8s:format=k8s-short-name`,
//! `+k8s:alpha(since: "1.36")=+k8s:required` become [`Validation`]s once, when the model is built;
//! the validation generator renders them and never reads tag text. Each tag's arguments, value and
//! chained tag are checked here, with a located error that shows the expected form.

pub use super::tag_data::{FORMATS, Level, ListKind, Literal, Rule, UpdateRule, VALIDATORS, Validation};
use super::tag_data::{Tag, Tags};
use crate::diag::{Diagnostic, Diagnostics};
use crate::parse::tags::ArgValue;

/// Where a rule may be written, as validation-gen's scopes say: (on a type, on a field).
/// Requiredness, union membership, modes and dependencies are a field's; `enum` a type's; the
/// rest either. Wrappers (`alpha`, `ifEnabled`) take their rule's places.
pub fn places(v: &Validation) -> (bool, bool) {
    match &v.inner().rule {
        Rule::Optional
        | Rule::Required
        | Rule::Forbidden
        | Rule::Update(_)
        | Rule::UnionMember { .. }
        | Rule::UnionDiscriminator { .. }
        | Rule::ZeroOrOneOfMember { .. }
        | Rule::Discriminator { .. }
        | Rule::Member { .. }
        | Rule::DependentRequired(_)
        | Rule::DependentForbidden(_) => (false, true),
        Rule::Enum => (true, false),
        // A Go constant's tag: an enum variant's here.
        Rule::EnumExclude => (false, false),
        _ => (true, true),
    }
}

/// The rules of a type's or field's validation-gen tags, parsed when the tags were checked.
pub fn of(tags: &Tags) -> Vec<Validation> {
    tags.0.iter().filter_map(|t| t.validation.clone()).collect()
}

/// The form each validator is written in, for messages.
fn form(name: &str) -> &'static str {
    match name {
        "minimum" | "maximum" => "`+k8s:minimum=<integer>`",
        "minLength" | "maxLength" | "maxBytes" | "minItems" | "maxItems" | "minProperties" | "maxProperties" => {
            "`+k8s:maxItems=<integer >= 0>`"
        }
        "format" => "`+k8s:format=<format>`",
        "update" => "`+k8s:update=NoSet|NoUnset|NoModify|NoAddItem|NoRemoveItem`, repeated or comma-separated",
        "neq" => "`+k8s:neq=<value>`",
        "listType" | "unique" => "`+k8s:listType=atomic|set|map`",
        "listMapKey" => "`+k8s:listMapKey=<json field name>`",
        "item" => "`+k8s:item(<field>: <value>, ...)=+k8s:<rule>`",
        "eachKey" | "eachVal" => "`+k8s:eachVal=+k8s:<rule>`",
        "subfield" => "`+k8s:subfield(<json field name>)=+k8s:<rule>`",
        "member" => "`+k8s:member(\"<value>\")=+k8s:<rule>`",
        "dependentRequired" | "dependentForbidden" => "`+k8s:dependentRequired=<field>,<field>`",
        "ifEnabled" | "ifDisabled" => "`+k8s:ifEnabled(\"<Gate>\")=+k8s:<rule>`",
        "alpha" | "beta" => "`+k8s:alpha(since: \"<major.minor>\")=+k8s:<rule>`",
        "unionMember" | "zeroOrOneOfMember" | "unionDiscriminator" | "discriminator" => {
            "`+k8s:unionMember` or `+k8s:unionMember(union: \"<name>\")`"
        }
        _ => "the tag alone, with no value: `+k8s:<name>`",
    }
}

/// Parses one tag into its rule; a malformed one is reported. validation-gen's later names of
/// the mode tags (`modeDiscriminator(modality: ...)`, `ifMode(mode: ..., modality: ...)`) are the
/// 1.36 ones (`discriminator(name: ...)`, `member(discriminator: ..., value: ...)`) renamed.
pub fn parse(tag: &Tag, diags: &mut Diagnostics) -> Option<Validation> {
    let name = match tag.name.strip_prefix("k8s:").unwrap_or(&tag.name) {
        "modeDiscriminator" => "discriminator",
        "ifMode" => "member",
        other => other,
    };
    match rule(name, tag, diags) {
        Ok(rule) => Some(Validation {
            rule,
            loc: tag.loc.clone(),
        }),
        Err(Some(why)) => {
            diags.push(
                Diagnostic::error(&tag.loc, format!("malformed tag `{}`: {why}", tag.display()))
                    .label("not a valid validation-gen tag")
                    .help(format!("write it as {}", form(name))),
            );
            None
        }
        // Already reported (a chained tag).
        Err(None) => None,
    }
}

type Parsed = Result<Rule, Option<String>>;

fn rule(name: &str, tag: &Tag, diags: &mut Diagnostics) -> Parsed {
    let takes_args = matches!(
        name,
        "item" | "subfield" | "member" | "ifEnabled" | "ifDisabled" | "alpha" | "beta"
    ) || matches!(
        name,
        "unionMember"
            | "unionDiscriminator"
            | "zeroOrOneOfMember"
            | "discriminator"
            | "dependentRequired"
            | "dependentForbidden"
    );
    if !takes_args && !tag.args.is_empty() {
        return Err(Some(format!("`+k8s:{name}` takes no arguments")));
    }
    let chains = matches!(
        name,
        "item" | "eachKey" | "eachVal" | "subfield" | "member" | "ifEnabled" | "ifDisabled" | "alpha" | "beta"
    );
    if chains {
        let Some(inner) = tag.chained.as_deref() else {
            return Err(Some(format!("`+k8s:{name}` takes a chained tag as its value")));
        };
        let then = Box::new(parse(inner, diags).ok_or(None)?);
        return chained(name, tag, then);
    }
    if tag.chained.is_some() {
        return Err(Some(format!("`+k8s:{name}` does not take a chained tag")));
    }
    let value = tag.value.as_deref().map(super::tag_values::unquote);
    let flag = |rule: Rule| match value {
        None => Ok(rule),
        Some(_) => Err(Some(format!("`+k8s:{name}` takes no value"))),
    };
    let int = || -> Result<i64, Option<String>> {
        value
            .and_then(|v| v.parse::<i64>().ok())
            .ok_or_else(|| Some("expected an integer value".to_string()))
    };
    let count = || -> Result<u64, Option<String>> {
        value
            .and_then(|v| v.parse::<u64>().ok())
            .ok_or_else(|| Some("expected a non-negative integer value".to_string()))
    };
    Ok(match name {
        "optional" => flag(Rule::Optional)?,
        "required" => flag(Rule::Required)?,
        "forbidden" => flag(Rule::Forbidden)?,
        "enum" => flag(Rule::Enum)?,
        "enumExclude" => flag(Rule::EnumExclude)?,
        "immutable" => flag(Rule::Immutable)?,
        "monotonic" => flag(Rule::Monotonic)?,
        "customUnique" => flag(Rule::CustomUnique)?,
        "opaqueType" => flag(Rule::OpaqueType)?,
        "minimum" => Rule::Minimum(int()?),
        "maximum" => Rule::Maximum(int()?),
        "minLength" => Rule::MinLength(count()?),
        "maxLength" => Rule::MaxLength(count()?),
        "maxBytes" => Rule::MaxBytes(count()?),
        "minItems" => Rule::MinItems(count()?),
        "maxItems" => Rule::MaxItems(count()?),
        "minProperties" => Rule::MinProperties(count()?),
        "maxProperties" => Rule::MaxProperties(count()?),
        "format" => match value {
            Some(f) if FORMATS.contains(&f) => Rule::Format(f.to_string()),
            Some(f) => return Err(Some(format!("unknown format `{f}`; known: {}", FORMATS.join(", ")))),
            None => return Err(Some("expected a format name".into())),
        },
        "update" => {
            let mut rules = Vec::new();
            for part in value.unwrap_or_default().split(',').map(str::trim) {
                rules.push(match part {
                    "NoSet" => UpdateRule::NoSet,
                    "NoUnset" => UpdateRule::NoUnset,
                    "NoModify" => UpdateRule::NoModify,
                    "NoAddItem" => UpdateRule::NoAddItem,
                    "NoRemoveItem" => UpdateRule::NoRemoveItem,
                    other => return Err(Some(format!("unknown update rule `{other}`"))),
                });
            }
            Rule::Update(rules)
        }
        "neq" => Rule::Neq(literal(
            tag.value
                .as_deref()
                .ok_or_else(|| Some("expected a value".to_string()))?,
        )),
        "listType" | "unique" => {
            let kind = match value {
                Some("atomic") if name == "listType" => ListKind::Atomic,
                Some("set") => ListKind::Set,
                Some("map") => ListKind::Map,
                _ => return Err(Some("expected `set` or `map` (or `atomic` for a listType)".into())),
            };
            if name == "listType" {
                Rule::ListType(kind)
            } else {
                Rule::Unique(kind)
            }
        }
        "listMapKey" => match value {
            Some(k) if !k.is_empty() => Rule::ListMapKey(k.to_string()),
            _ => return Err(Some("expected a JSON field name".into())),
        },
        "dependentRequired" | "dependentForbidden" => {
            // validation-gen's form names the sibling in parentheses: `dependentRequired("a")`.
            let mut fields: Vec<String> = value
                .unwrap_or_default()
                .split(',')
                .map(|f| f.trim().to_string())
                .filter(|f| !f.is_empty())
                .collect();
            if let [arg] = tag.args.as_slice()
                && arg.name.is_none()
            {
                fields.push(arg.value.text());
            }
            if fields.is_empty() {
                return Err(Some("expected a comma list of JSON field names".into()));
            }
            if name == "dependentRequired" {
                Rule::DependentRequired(fields)
            } else {
                Rule::DependentForbidden(fields)
            }
        }
        "unionMember" | "unionDiscriminator" | "zeroOrOneOfMember" | "discriminator" => {
            if value.is_some() {
                return Err(Some(format!("`+k8s:{name}` takes no value")));
            }
            let union = match name {
                "discriminator" => named(tag, "name")?.or(named(tag, "modality")?),
                _ => named(tag, "union")?,
            }
            .unwrap_or_default();
            match name {
                "unionMember" => Rule::UnionMember {
                    union,
                    member: named(tag, "memberName")?,
                },
                "unionDiscriminator" => Rule::UnionDiscriminator { union },
                "zeroOrOneOfMember" => Rule::ZeroOrOneOfMember { union },
                _ => Rule::Discriminator { name: union },
            }
        }
        other => return Err(Some(format!("`+k8s:{other}` is not a validator"))),
    })
}

/// The rule of a tag that wraps a chained one.
fn chained(name: &str, tag: &Tag, then: Box<Validation>) -> Parsed {
    Ok(match name {
        "eachKey" | "eachVal" if !tag.args.is_empty() => return Err(Some(format!("`+k8s:{name}` takes no arguments"))),
        "eachKey" => Rule::EachKey(then),
        "eachVal" => Rule::EachVal(then),
        "item" => {
            let mut criteria = Vec::new();
            for arg in &tag.args {
                let Some(field) = &arg.name else {
                    return Err(Some("each argument names a field: `(type: \"Ready\")`".into()));
                };
                criteria.push((field.clone(), arg_literal(&arg.value)));
            }
            if criteria.is_empty() {
                return Err(Some("expected the key fields that select the item".into()));
            }
            Rule::Item { criteria, then }
        }
        "subfield" => Rule::Subfield {
            name: positional(tag)?,
            then,
        },
        "member" => {
            let (discriminator, value) = match tag.args.as_slice() {
                [a] if a.name.is_none() => (String::new(), a.value.text()),
                _ => (
                    named(tag, "discriminator")?
                        .or(named(tag, "modality")?)
                        .unwrap_or_default(),
                    named(tag, "value")?
                        .or(named(tag, "mode")?)
                        .ok_or_else(|| Some("expected the discriminator's value".to_string()))?,
                ),
            };
            Rule::Member {
                discriminator,
                value,
                then,
            }
        }
        "ifEnabled" | "ifDisabled" => {
            let gate = positional(tag)?;
            if name == "ifEnabled" {
                Rule::IfEnabled { gate, then }
            } else {
                Rule::IfDisabled { gate, then }
            }
        }
        _ => {
            if tag.args.iter().any(|a| a.name.as_deref() != Some("since")) {
                return Err(Some("the only argument is `since: \"<major.minor>\"`".into()));
            }
            let level = if name == "alpha" { Level::Alpha } else { Level::Beta };
            Rule::Stability {
                level,
                since: named(tag, "since")?,
                then,
            }
        }
    })
}

/// The one positional argument.
fn positional(tag: &Tag) -> Result<String, Option<String>> {
    match tag.args.as_slice() {
        [a] if a.name.is_none() => Ok(a.value.text()),
        _ => Err(Some("expected one argument in parentheses".into())),
    }
}

/// The value of a named argument, if given; other names are errors.
fn named(tag: &Tag, key: &str) -> Result<Option<String>, Option<String>> {
    let mut out = None;
    for arg in &tag.args {
        match &arg.name {
            Some(n) if n == key => out = Some(arg.value.text()),
            Some(n)
                if [
                    "union",
                    "memberName",
                    "discriminator",
                    "value",
                    "name",
                    "since",
                    "mode",
                    "modality",
                ]
                .contains(&n.as_str()) => {}
            _ => return Err(Some(format!("unexpected argument; expected `{key}: \"...\"`"))),
        }
    }
    Ok(out)
}

fn arg_literal(v: &ArgValue) -> Literal {
    match v {
        ArgValue::String(s) | ArgValue::Ident(s) => Literal::String(s.clone()),
        ArgValue::Int(i) => Literal::Int(*i),
        ArgValue::Bool(b) => Literal::Bool(*b),
    }
}

/// A literal tag value: a quoted string, an integer, a boolean, or bare text.
fn literal(v: &str) -> Literal {
    if let Ok(s) = serde_json::from_str::<String>(v) {
        return Literal::String(s);
    }
    match v {
        "true" => Literal::Bool(true),
        "false" => Literal::Bool(false),
        _ => v.parse().map_or_else(|_| Literal::String(v.to_string()), Literal::Int),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::SourceLoc;
    use crate::parse::tags::parse_tag;

    fn rule_of(text: &str) -> Result<Rule, Vec<String>> {
        let parsed = parse_tag(text).unwrap();
        fn to_tag(t: crate::parse::tag_syntax::TagText) -> Tag {
            let mut tag = Tag::new(t.name, t.value, SourceLoc::default());
            tag.args = t.args;
            tag.chained = t.chained.map(|(_, inner)| Box::new(to_tag(*inner)));
            tag
        }
        let mut d = Diagnostics::new();
        let v = parse(&to_tag(parsed), &mut d);
        let errors: Vec<String> = d.into_vec().into_iter().map(|e| e.message).collect();
        v.map(|v| v.rule).ok_or(errors)
    }

    #[test]
    fn chains_arguments_and_renamed_mode_tags() {
        let Ok(Rule::Stability { level, since, then }) =
            rule_of("+k8s:alpha(since: \"1.36\")=+k8s:item(type: \"Denied\")=+k8s:zeroOrOneOfMember")
        else {
            panic!("not a stability rule")
        };
        assert_eq!((level, since.as_deref()), (Level::Alpha, Some("1.36")));
        let Rule::Item { criteria, then } = then.rule else {
            panic!("not an item rule")
        };
        assert_eq!(criteria, [("type".to_string(), Literal::String("Denied".into()))]);
        assert_eq!(then.rule, Rule::ZeroOrOneOfMember { union: String::new() });
        assert_eq!(
            rule_of("+k8s:ifMode(mode: \"A\", modality: \"g\")=+k8s:required"),
            rule_of("+k8s:member(discriminator: \"g\", value: \"A\")=+k8s:required")
        );
        assert_eq!(
            rule_of("+k8s:format=\"k8s-short-name\""),
            Ok(Rule::Format("k8s-short-name".into()))
        );
        assert_eq!(rule_of("+k8s:minimum=-2147483648"), Ok(Rule::Minimum(-2147483648)));
        assert_eq!(
            rule_of("+k8s:dependentRequired(\"a\")"),
            Ok(Rule::DependentRequired(vec!["a".into()]))
        );
    }

    #[test]
    fn malformed_rules_say_why() {
        assert_eq!(
            rule_of("+k8s:maxItems=-1").unwrap_err()[0],
            "malformed tag `+k8s:maxItems=-1`: expected a non-negative integer value"
        );
        assert!(rule_of("+k8s:optional=true").unwrap_err()[0].contains("takes no value"));
        assert!(rule_of("+k8s:ifEnabled=+k8s:optional").unwrap_err()[0].contains("expected one argument"));
        assert!(rule_of("+k8s:alpha(x: \"1\")=+k8s:optional").unwrap_err()[0].contains("`since"));
        assert!(rule_of("+k8s:update=NoWay").unwrap_err()[0].contains("unknown update rule"));
        assert!(rule_of("+k8s:eachVal=+k8s:minimum=x").unwrap_err()[0].contains("expected an integer"));
    }
}
