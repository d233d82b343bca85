//! Tag extraction from doc comments, with a source location for every tag.
//!
//! A doc line whose trimmed text starts with `+` and a letter is a tag line, whose text follows the
//! grammar of `tag_syntax` (`+name(args)=value # comment`, values that are tags themselves); and
//! kube-openapi's raw-string form:
//!
//! ```text
//! raw-line  ::= ws* "+k8s:validation:" name ">" { any character }
//!               ; consecutive raw lines of one name join with "\n"
//!               ; and the value is that text as a JSON string
//! ```
//!
//! Every other line is prose. Tag lines never reach descriptions. A value's inner structure (comma lists, `key=value`
//! pairs, JSON) is the tag's business and is checked by the tag table in `model::tags`.
//!
//! Which comment lines belong to an item is fixed once for every generator: the doc lines attached
//! to the item itself (`///` before a type or field, `//!` at the top of a package's `mod.rs`).

use std::sync::Arc;

use super::tag_syntax::TagText;
pub use super::tag_syntax::{ArgValue, TagArg, parse_tag};
use crate::diag::{Diagnostic, Diagnostics, SourceLoc};

/// The longest tag line accepted: its value becomes names, paths and schema values.
pub const MAX_TAG_LEN: usize = 4096;

/// The longest doc comment accepted on one item: it becomes an OpenAPI description, and
/// Kubernetes' longest is about 2 KiB; past this it is pasted text, not documentation.
pub const MAX_DOC_LEN: usize = 64 * 1024;

/// A tag as written, before the tag table checks it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawTag {
    /// The name without the leading `+` (`k8s:deepcopy-gen`).
    pub name: String,
    /// Arguments in parentheses (`+k8s:ifEnabled("Gate")`), empty without.
    pub args: Vec<TagArg>,
    /// The text after `=`, trimmed; `None` when there is no `=`.
    pub value: Option<String>,
    /// The tag the value is, for a chained tag (`+k8s:eachVal=+k8s:minimum=1`).
    pub chained: Option<Box<RawTag>>,
    /// Where the tag starts (at `+`), covering the whole tag text.
    pub loc: SourceLoc,
}

impl RawTag {
    /// A tag without arguments or chain.
    pub fn plain(name: impl Into<String>, value: Option<String>, loc: SourceLoc) -> Self {
        RawTag {
            name: name.into(),
            args: Vec::new(),
            value,
            chained: None,
            loc,
        }
    }

    /// The parsed text of a tag written at `loc`; a chained tag's location starts at its own `+`.
    fn from_text(text: TagText, loc: SourceLoc) -> Self {
        let chained = text.chained.map(|(at, inner)| {
            let inner_loc = SourceLoc {
                col: loc.col + at as u32,
                len: loc.len.saturating_sub(at as u32),
                ..loc.clone()
            };
            Box::new(RawTag::from_text(*inner, inner_loc))
        });
        RawTag {
            name: text.name,
            args: text.args,
            value: text.value,
            chained,
            loc,
        }
    }

    /// The tag as written, for messages: `+name=value`.
    pub fn display(&self) -> String {
        match &self.value {
            Some(v) => format!("+{}={}", self.name, v),
            None => format!("+{}", self.name),
        }
    }
}

/// The doc comment of one item, split into prose lines and tags.
#[derive(Clone, Debug, Default)]
pub struct DocBlock {
    /// Prose lines in order, tag lines removed, with the single leading space of `/// ` dropped.
    pub prose: Vec<String>,
    /// Tags in source order.
    pub tags: Vec<RawTag>,
    /// Names of tag lines that did not parse (already reported), so that later checks can tell a
    /// tag that is missing from one that was written wrongly.
    pub malformed: Vec<String>,
    /// The raw-string value being built by consecutive `+k8s:validation:<key>>text` lines: the
    /// key and the text so far.
    open_raw: Option<(String, String)>,
}

impl DocBlock {
    /// Names of every tag written, valid or not.
    pub fn written(&self) -> impl Iterator<Item = &str> {
        self.tags
            .iter()
            .map(|t| t.name.as_str())
            .chain(self.malformed.iter().map(String::as_str))
    }
}

/// Extracts the doc block of an item from its attributes. Malformed tag lines are reported.
pub fn extract(file: &Arc<str>, attrs: &[syn::Attribute], diags: &mut Diagnostics) -> DocBlock {
    let mut block = DocBlock::default();
    let mut total = 0;
    let mut over = false;
    for attr in attrs {
        if !attr.path().is_ident("doc") {
            continue;
        }
        let syn::Meta::NameValue(nv) = &attr.meta else { continue };
        let syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(lit),
            ..
        }) = &nv.value
        else {
            continue;
        };
        let start = attr.pound_token.span.start();
        let text = lit.value();
        total += text.len();
        if total > MAX_DOC_LEN && !over {
            // Reported once, where the limit is passed; the tags of the whole comment are still
            // read, so nothing else is reported missing.
            over = true;
            let loc = SourceLoc {
                file: file.clone(),
                line: start.line as u32,
                col: start.column as u32 + 1,
                len: 1,
            };
            diags.push(
                Diagnostic::error(&loc, format!("doc comment is more than {MAX_DOC_LEN} bytes long"))
                    .label("the doc comment passes the limit here")
                    .help("a doc comment becomes the OpenAPI description; keep long text in a separate document"),
            );
        }
        for (k, line) in text.split('\n').enumerate() {
            // `///` and `//!` are three characters; lines after the first of a block comment start
            // at column zero.
            let (line_no, col0) = if k == 0 {
                (start.line, start.column + 3)
            } else {
                (start.line + k, 0)
            };
            classify_line(file, line, line_no as u32, col0 as u32, &mut block, diags);
        }
    }
    block
}

/// Adds one doc line to the block, as prose or as a tag.
fn classify_line(file: &Arc<str>, line: &str, line_no: u32, col0: u32, block: &mut DocBlock, diags: &mut Diagnostics) {
    let trimmed = line.trim_start_matches([' ', '\t']);
    let lead = (line.len() - trimmed.len()) as u32;
    let is_tag = trimmed.starts_with('+') && trimmed[1..].starts_with(|c: char| c.is_ascii_alphabetic() || c == '_');
    if !is_tag {
        block.prose.push(line.strip_prefix(' ').unwrap_or(line).to_string());
        return;
    }
    let text = trimmed.trim_end();
    let loc = SourceLoc {
        file: file.clone(),
        line: line_no,
        col: col0 + lead + 1,
        len: text.chars().count() as u32,
    };
    if text.len() > MAX_TAG_LEN {
        let start = SourceLoc { len: 1, ..loc };
        diags.push(
            Diagnostic::error(
                &start,
                format!("tag is {} bytes long, more than {MAX_TAG_LEN}", text.len()),
            )
            .label("too long")
            .help("tag values are names, paths and small JSON values; keep long text in prose lines"),
        );
        return;
    }
    if let Some((name, raw)) = raw_marker(text) {
        match parse_tag(&format!("+{name}")) {
            Ok(_) => add_raw(block, name, raw, loc),
            Err(why) => diags.push(
                Diagnostic::error(&loc, format!("malformed tag `{text}`: {why}"))
                    .label("not a valid tag")
                    .help("a raw marker is `+k8s:validation:<key>><text>`, as kube-openapi writes CEL rules"),
            ),
        }
        return;
    }
    block.open_raw = None;
    match parse_tag(text) {
        Ok(parsed) => block.tags.push(RawTag::from_text(parsed, loc)),
        // Another tool's dotted tag whose name our grammar does not allow
        // (`+protobuf.options.(gogoproto.goproto_stringer)=false`): kept as written, for the tag
        // table to ignore as foreign.
        Err(_) if foreign_name(text) => {
            let (name, value) = match text[1..].split_once('=') {
                Some((n, v)) => (n.to_string(), Some(v.trim().to_string())),
                None => (text[1..].to_string(), None),
            };
            block.tags.push(RawTag::plain(name, value, loc));
        }
        Err(why) => {
            let name = text[1..]
                .split(|c: char| c == '=' || c.is_whitespace())
                .next()
                .unwrap_or_default();
            block.malformed.push(name.to_string());
            diags.push(
                Diagnostic::error(&loc, format!("malformed tag `{text}`: {why}"))
                    .label("not a valid tag")
                    .help("a tag is `+name`, `+name=value` or `+name(args)=value`, alone on its doc line, with no spaces around `=`"),
            );
        }
    }
}

/// Whether a tag line that breaks our name grammar is another tool's: its name, up to the first
/// character our names never hold, has a `.` namespace and is not in ours (`k8s:`, `genclient`).
fn foreign_name(text: &str) -> bool {
    let name = text[1..].split('=').next().unwrap_or_default();
    let end = name
        .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | ':' | '/')))
        .unwrap_or(name.len());
    let prefix = &name[..end];
    prefix.contains('.') && !prefix.starts_with("k8s:") && !prefix.starts_with("genclient")
}

/// kube-openapi's raw-string marker form, `+k8s:validation:<key>><text>`: the key and the text,
/// when `>` ends the name (before any `=`).
fn raw_marker(text: &str) -> Option<(&str, &str)> {
    let body = text.strip_prefix("+k8s:validation:")?;
    let gt = body.find('>')?;
    if body.find('=').is_some_and(|eq| eq < gt) {
        return None;
    }
    let name_len = "+k8s:validation:".len() + gt;
    Some((&text[1..name_len], &text[name_len + 1..]))
}

/// Adds a raw-string marker line: consecutive lines of one key join with line breaks, as
/// kube-openapi joins them; the value is stored as the JSON string the `=` form would write.
fn add_raw(block: &mut DocBlock, name: &str, raw: &str, loc: SourceLoc) {
    if let Some((open, text)) = block.open_raw.as_mut()
        && open == name
        && let Some(last) = block.tags.last_mut()
    {
        text.push('\n');
        text.push_str(raw);
        last.value = Some(serde_json::Value::String(text.clone()).to_string());
        return;
    }
    block.tags.push(RawTag::plain(
        name,
        Some(serde_json::Value::String(raw.to_string()).to_string()),
        loc,
    ));
    block.open_raw = Some((name.to_string(), raw.to_string()));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn block(src: &str) -> (DocBlock, Vec<Diagnostic>) {
        let file: syn::File = syn::parse_str(src).unwrap();
        let syn::Item::Struct(s) = &file.items[0] else { panic!() };
        let mut d = Diagnostics::new();
        let b = extract(&Arc::from("t.rs"), &s.attrs, &mut d);
        (b, d.into_vec())
    }

    #[test]
    fn splits_prose_and_tags_with_locations() {
        let (b, errs) =
            block("/// Deployment enables updates.\n/// +genclient\n///   +k8s:deepcopy-gen=package\nstruct A;");
        assert!(errs.is_empty());
        assert_eq!(b.prose, ["Deployment enables updates."]);
        assert_eq!(b.tags.len(), 2);
        assert_eq!(
            (b.tags[0].name.as_str(), b.tags[0].value.as_deref()),
            ("genclient", None)
        );
        assert_eq!((b.tags[0].loc.line, b.tags[0].loc.col, b.tags[0].loc.len), (2, 5, 10));
        assert_eq!(b.tags[1].value.as_deref(), Some("package"));
        assert_eq!((b.tags[1].loc.line, b.tags[1].loc.col), (3, 7));
    }

    #[test]
    fn raw_markers_join_consecutive_lines_into_a_json_string() {
        let src = concat!(
            "/// +k8s:validation:cel[0]:rule>self.a > 0 &&\n",
            "///   +k8s:validation:cel[0]:rule>  self.b == 'x'\n",
            "/// +k8s:validation:cel[0]:message>a and b\n",
            "struct A;"
        );
        let (b, errs) = block(src);
        assert!(errs.is_empty(), "{errs:?}");
        let tags: Vec<(&str, Option<&str>)> = b.tags.iter().map(|t| (t.name.as_str(), t.value.as_deref())).collect();
        let rule = serde_json::Value::String("self.a > 0 &&\n  self.b == 'x'".into()).to_string();
        assert_eq!(
            tags,
            [
                ("k8s:validation:cel[0]:rule", Some(rule.as_str())),
                ("k8s:validation:cel[0]:message", Some("\"a and b\"")),
            ]
        );
        assert_eq!(b.tags[0].loc.line, 1);
    }

    #[test]
    fn dotted_tags_of_other_tools_are_kept_for_the_tag_table() {
        let (b, errs) = block("/// +protobuf.options.(gogoproto.goproto_stringer)=false\nstruct A;");
        assert!(errs.is_empty(), "{errs:?}");
        assert_eq!(b.tags[0].name, "protobuf.options.(gogoproto.goproto_stringer)");
        assert_eq!(b.tags[0].value.as_deref(), Some("false"));
        let (_, errs) = block("/// +group Name=x\nstruct A;");
        assert_eq!(errs.len(), 1);
    }

    #[test]
    fn plus_in_prose_is_not_a_tag() {
        let (b, _) = block("/// a + b\n/// +1 more\nstruct A;");
        assert!(b.tags.is_empty());
        assert_eq!(b.prose.len(), 2);
    }

    #[test]
    fn malformed_tags_are_reported_at_their_column() {
        let (b, errs) = block("/// +groupName = apps\nstruct A;");
        assert!(b.tags.is_empty());
        assert_eq!((errs[0].loc.line, errs[0].loc.col), (1, 5));
        assert!(errs[0].message.contains("spaces around `=`"));
    }
}
