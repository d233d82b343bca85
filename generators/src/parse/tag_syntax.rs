//! The text of one tag, `+name(args)=value # comment`, split into its typed parts: the grammar
//! gengo's `codetags` gives validation-gen, which every tag of ours follows.
//!
//! ```text
//! tag       ::= "+" name [ "(" [ args ] ")" ] [ "=" value ] [ ws+ "#" { any } ]
//! name      ::= segment { ":" segment }
//! segment   ::= ident-start { ident-char } [ "[" digit { digit } "]" ]   ; cel[0]
//! args      ::= arg-value | named-arg { "," ws* named-arg }
//! named-arg ::= ident ":" ws* arg-value
//! arg-value ::= string | int | "true" | "false" | ident
//! string    ::= '"' { char | '\' char } '"' | '`' { char } '`'
//! value     ::= tag                              ; a chained tag: +k8s:eachVal=+k8s:minimum=1
//!             | { any character }                ; trimmed; may be empty
//! ```
//!
//! A trailing comment starts at a `#` after white space outside quotes, so a JSON value or a
//! quoted pattern keeps its `#`s. A value's inner structure (comma lists, JSON, quoting) is the
//! tag's business and is checked by the model.

/// One argument in a tag's parentheses: `Gate`, `"Gate"`, `since: "1.36"`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TagArg {
    /// The argument's name, for the `name: value` form.
    pub name: Option<String>,
    /// Its value.
    pub value: ArgValue,
}

/// The value of a tag argument.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArgValue {
    /// A quoted string, unquoted.
    String(String),
    /// An integer.
    Int(i64),
    /// `true` or `false`.
    Bool(bool),
    /// A bare identifier (`Gate`, `name`).
    Ident(String),
}

impl ArgValue {
    /// The value as text: a string's or identifier's characters, a number's digits.
    pub fn text(&self) -> String {
        match self {
            ArgValue::String(s) | ArgValue::Ident(s) => s.clone(),
            ArgValue::Int(i) => i.to_string(),
            ArgValue::Bool(b) => b.to_string(),
        }
    }
}

/// A tag's text, parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TagText {
    /// The name without `+`.
    pub name: String,
    /// Arguments in parentheses, in order (empty without parentheses).
    pub args: Vec<TagArg>,
    /// The text after `=`, trimmed, comment removed; `None` without `=`. For a chained tag, the
    /// chained tag's text (`+k8s:minimum=1`).
    pub value: Option<String>,
    /// The chained tag, when the value is one, and its byte offset in the parsed text.
    pub chained: Option<(usize, Box<TagText>)>,
}

/// Parses `+name(args)=value # comment`, or says why it is malformed.
pub fn parse_tag(text: &str) -> Result<TagText, String> {
    let text = strip_comment(text).trim_end_matches([' ', '\t']);
    let body = text.strip_prefix('+').ok_or("a tag starts with `+`")?;
    let name_end = body
        .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | ':' | '/' | '[' | ']')))
        .unwrap_or(body.len());
    let name = &body[..name_end];
    check_name(name)?;
    let mut rest = &body[name_end..];
    let mut args = Vec::new();
    if let Some(inner) = rest.strip_prefix('(') {
        if name.ends_with('.') {
            return Err("`(` cannot appear in a tag name".into());
        }
        let close =
            closing_paren(inner).ok_or("`(` without its `)`: arguments are `(value)` or `(name: value, ...)`")?;
        args = parse_args(&inner[..close])?;
        rest = &inner[close + 1..];
    }
    let value = match rest.chars().next() {
        None => None,
        Some('=') => Some(&rest[1..]),
        Some(' ' | '\t') if rest.trim_start().starts_with('=') => return Err("spaces around `=`".into()),
        Some(bad) => return Err(format!("`{bad}` cannot appear in a tag name")),
    };
    let Some(value) = value else {
        return Ok(TagText {
            name: name.to_string(),
            args,
            value: None,
            chained: None,
        });
    };
    if value.starts_with([' ', '\t']) {
        return Err("spaces around `=`".into());
    }
    let chained = if value.starts_with('+') {
        let inner = parse_tag(value).map_err(|why| format!("in the chained tag `{value}`: {why}"))?;
        Some((text.len() - value.len(), Box::new(inner)))
    } else {
        None
    };
    Ok(TagText {
        name: name.to_string(),
        args,
        value: Some(value.trim().to_string()),
        chained,
    })
}

/// Checks a tag name: parts separated by `:`, each starting with a letter, an index only at the
/// end of a part (`cel[0]`).
fn check_name(name: &str) -> Result<(), String> {
    if name.is_empty() {
        return Err("a tag has a name after `+`".into());
    }
    for segment in name.split(':').filter(|s| s.contains(['[', ']'])) {
        let index = segment
            .split_once('[')
            .and_then(|(_, rest)| rest.strip_suffix(']'))
            .filter(|i| !i.is_empty() && i.chars().all(|c| c.is_ascii_digit()));
        if index.is_none() {
            return Err(format!(
                "`{segment}`: an index is digits in brackets at the end of a name part, as in `cel[0]`"
            ));
        }
    }
    if name
        .split(':')
        .any(|s| !s.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_'))
    {
        return Err("every `:`-separated part of a tag name starts with a letter".into());
    }
    Ok(())
}

/// The text without a trailing comment: from a `#` after white space, outside quotes.
fn strip_comment(text: &str) -> &str {
    let mut prev_space = false;
    let end = find_unquoted(text, |c| {
        let comment = c == '#' && prev_space;
        prev_space = c == ' ' || c == '\t';
        comment
    });
    end.map_or(text, |i| &text[..i])
}

/// The index of the `)` closing the arguments, outside quotes.
fn closing_paren(inner: &str) -> Option<usize> {
    find_unquoted(inner, |c| c == ')')
}

/// The index of the first character outside double-quoted (with `\` escapes) and backtick
/// strings for which `hit` holds; `hit` sees every character outside strings and the quotes
/// themselves, in order (a quote is never a hit).
fn find_unquoted(text: &str, mut hit: impl FnMut(char) -> bool) -> Option<usize> {
    let mut quote = None;
    let mut escaped = false;
    for (i, c) in text.char_indices() {
        match quote {
            Some(q) => {
                if escaped {
                    escaped = false;
                } else if c == '\\' && q == '"' {
                    escaped = true;
                } else if c == q {
                    quote = None;
                    hit(c);
                }
            }
            None if c == '"' || c == '`' => {
                hit(c);
                quote = Some(c);
            }
            None if hit(c) => return Some(i),
            None => {}
        }
    }
    None
}

/// Parses what is between the parentheses.
fn parse_args(text: &str) -> Result<Vec<TagArg>, String> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(Vec::new());
    }
    let mut out = Vec::new();
    let mut rest = text;
    loop {
        let (name, after_name) = match arg_name(rest) {
            Some((n, after)) => (Some(n.to_string()), after),
            None => (None, rest),
        };
        let (value, after) = arg_value(after_name.trim_start())?;
        out.push(TagArg { name, value });
        let after = after.trim_start();
        if after.is_empty() {
            break;
        }
        rest = after
            .strip_prefix(',')
            .ok_or_else(|| format!("unexpected `{after}` in the arguments: separate them with `,`"))?
            .trim_start();
    }
    if out.len() > 1 && out.iter().any(|a| a.name.is_none()) {
        return Err("several arguments are each named: `(name: value, other: value)`".into());
    }
    Ok(out)
}

/// `ident:` at the start of an argument: its name and what follows the `:`.
fn arg_name(text: &str) -> Option<(&str, &str)> {
    let end = text
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(text.len());
    let (name, rest) = text.split_at(end);
    let rest = rest.strip_prefix(':')?;
    (!name.is_empty() && name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')).then_some((name, rest))
}

/// One argument value at the start of `text`, and what follows it.
fn arg_value(text: &str) -> Result<(ArgValue, &str), String> {
    if let Some(body) = text.strip_prefix('`') {
        let end = body.find('`').ok_or("a string opened with ` is not closed")?;
        return Ok((ArgValue::String(body[..end].to_string()), &body[end + 1..]));
    }
    if text.starts_with('"') {
        let mut escaped = false;
        for (i, c) in text.char_indices().skip(1) {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                let s: String =
                    serde_json::from_str(&text[..=i]).map_err(|e| format!("bad string {}: {e}", &text[..=i]))?;
                return Ok((ArgValue::String(s), &text[i + 1..]));
            }
        }
        return Err("a string opened with \" is not closed".into());
    }
    let end = text
        .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')))
        .unwrap_or(text.len());
    let (word, rest) = text.split_at(end);
    let value = match word {
        "" => return Err(format!("expected an argument value at `{text}`")),
        "true" => ArgValue::Bool(true),
        "false" => ArgValue::Bool(false),
        w if w.starts_with(|c: char| c.is_ascii_digit() || c == '-') => {
            ArgValue::Int(w.parse().map_err(|_| format!("`{w}` is not an integer"))?)
        }
        w => ArgValue::Ident(w.to_string()),
    };
    Ok((value, rest))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn arg(name: Option<&str>, value: ArgValue) -> TagArg {
        TagArg {
            name: name.map(Into::into),
            value,
        }
    }

    #[test]
    fn plain_tags() {
        let t = parse_tag("+groupName=").unwrap();
        assert_eq!((t.name.as_str(), t.value.as_deref()), ("groupName", Some("")));
        assert_eq!(
            parse_tag("+genclient:method=Get,verb=get").unwrap().value.as_deref(),
            Some("Get,verb=get")
        );
        assert_eq!(parse_tag("+groupName = apps"), Err("spaces around `=`".into()));
        assert_eq!(parse_tag("+groupName= apps"), Err("spaces around `=`".into()));
        assert_eq!(parse_tag("+group Name"), Err("` ` cannot appear in a tag name".into()));
        assert!(parse_tag("+k8s:=x").is_err());
        assert!(parse_tag("+k8s:validation:cel[x]:rule=1").is_err());
        assert!(parse_tag("+k8s:validation:cel[0]x:rule=1").is_err());
        assert!(parse_tag("+k8s:validation:cel[:rule=1").is_err());
        assert_eq!(
            parse_tag("+k8s:validation:cel[0]:rule=\"self > 1\"").unwrap().name,
            "k8s:validation:cel[0]:rule"
        );
    }

    #[test]
    fn arguments_in_every_form() {
        let t = parse_tag("+k8s:alpha(since: \"1.36\")=+k8s:required").unwrap();
        assert_eq!(t.name, "k8s:alpha");
        assert_eq!(t.args, [arg(Some("since"), ArgValue::String("1.36".into()))]);
        let (at, chained) = t.chained.unwrap();
        assert_eq!((at, chained.name.as_str(), chained.value), (26, "k8s:required", None));
        let t = parse_tag("+k8s:ifDisabled(Gate)=+k8s:forbidden").unwrap();
        assert_eq!(t.args, [arg(None, ArgValue::Ident("Gate".into()))]);
        let t = parse_tag("+k8s:item(type: \"Approved\", n: 3, on: true)=+k8s:zeroOrOneOfMember").unwrap();
        assert_eq!(
            t.args,
            [
                arg(Some("type"), ArgValue::String("Approved".into())),
                arg(Some("n"), ArgValue::Int(3)),
                arg(Some("on"), ArgValue::Bool(true)),
            ]
        );
        let t = parse_tag("+k8s:member(`a\"b`)=+k8s:optional").unwrap();
        assert_eq!(t.args, [arg(None, ArgValue::String("a\"b".into()))]);
        assert!(
            parse_tag("+k8s:item(type: \"A\"=+k8s:optional")
                .unwrap_err()
                .contains("without its `)`")
        );
        assert!(
            parse_tag("+k8s:item(a b)")
                .unwrap_err()
                .contains("separate them with `,`")
        );
        assert!(parse_tag("+k8s:item(a, b: 1)").unwrap_err().contains("each named"));
        assert!(parse_tag("+k8s:item(type: \"A)").is_err());
    }

    #[test]
    fn chains_and_comments() {
        let t = parse_tag("+k8s:alpha(since: \"1.36\")=+k8s:item(type: \"Denied\")=+k8s:zeroOrOneOfMember").unwrap();
        let (_, item) = t.chained.unwrap();
        assert_eq!(item.name, "k8s:item");
        assert_eq!(item.chained.unwrap().1.name, "k8s:zeroOrOneOfMember");
        let t = parse_tag("+k8s:ifEnabled(\"G\")=+k8s:maximum=1000000000 # HighestUserDefinablePriority").unwrap();
        let (_, max) = t.chained.unwrap();
        assert_eq!(max.value.as_deref(), Some("1000000000"));
        let t = parse_tag("+k8s:validation:pattern=\"^a #b$\"").unwrap();
        assert_eq!(t.value.as_deref(), Some("\"^a #b$\""));
        assert_eq!(
            parse_tag("+default=\"#fff\" # white").unwrap().value.as_deref(),
            Some("\"#fff\"")
        );
        assert!(
            parse_tag("+k8s:eachVal=+k8s:minimum =1")
                .unwrap_err()
                .starts_with("in the chained tag")
        );
    }
}
