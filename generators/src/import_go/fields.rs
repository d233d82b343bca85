//! One Go struct field as Rust, in this project's conventions: a kind's TypeMeta flattened and
//! its metadata plain; embedded structs flattened; `omitempty` fields `Option` and skipped when
//! unset (Go value scalars `+k8s:zeroIsUnset`); pointers `Option`, required unless `+optional`;
//! other value fields read as their zero when absent, as Go reads them; fields holding
//! Quantities read them in canonical form; JSON names kept with `rename` where serde's camelCase
//! differs; the protobuf number and Go's patch struct tags as tag lines.

use super::go::literal::{struct_tag, tag_value};
use super::go::{Field, TypeExpr, TypeKind, is_tag_line, tag_name};
use super::names;
use super::resolve::{FileCx, MAX_WIDTH, META, TYPE_META};
use super::tags;
use crate::diag::Diagnostic;
use crate::model::tags::name as tag;

/// Whether `ty` (or what it points to) is meta/v1's `name`.
pub fn is_meta(cx: &FileCx<'_, '_>, ty: &TypeExpr, name: &str) -> bool {
    match &ty.pointee().kind {
        TypeKind::Named {
            package: Some(local),
            name: n,
        } => n == name && cx.imports.get(local).map(String::as_str) == Some(META),
        _ => false,
    }
}

/// The lines of one field of struct `owner` and how many fields they declare.
pub fn field(
    cx: &mut FileCx<'_, '_>,
    owner: &str,
    f: &Field,
    is_kind: bool,
) -> Result<(Vec<String>, usize), Diagnostic> {
    const IND: &str = "    ";
    let mut out = Vec::new();
    for group in &f.detached {
        out.extend(plain(group, IND));
    }
    if f.names.len() > 1 {
        return Err(Diagnostic::error(
            &f.loc,
            format!("one declaration names {} fields of `{owner}`", f.names.len()),
        )
        .label("several names, one JSON name")
        .help("declare each field on its own line with its own json tag"));
    }
    let pairs = struct_tag(f.tag.as_deref().unwrap_or(""));
    let json = tag_value(&pairs, "json");
    let go_name = match f.names.first() {
        Some(n) => n.clone(),
        None => match &f.ty.pointee().kind {
            TypeKind::Named { name, .. } => name.clone(),
            _ => String::new(),
        },
    };
    let (json_name, opts): (String, Vec<&str>) = match json {
        None => (go_name.clone(), Vec::new()),
        Some(j) => {
            let mut parts = j.split(',');
            (parts.next().unwrap_or("").to_string(), parts.collect())
        }
    };
    if json_name == "-" && opts.is_empty() {
        out.extend(plain(
            &[format!(
                "Go field `{go_name}` is `json:\"-\"`: never serialized; not imported."
            )],
            IND,
        ));
        return Ok((out, 0));
    }
    if !f.names.is_empty() && !go_name.starts_with(|c: char| c.is_uppercase()) {
        // An unexported field never reaches the wire.
        return Ok((out, 0));
    }
    let inline = opts.contains(&"inline") || (f.embedded() && json.is_none());
    let omitempty = opts.contains(&"omitempty");
    let mut doc = tags::convert(cx.index, cx.import_path, &f.doc, &f.loc)?;
    let written: Vec<String> = doc
        .iter()
        .filter(|l| is_tag_line(l))
        .map(|l| tag_name(l).to_string())
        .collect();
    let optional = written.iter().any(|t| t == "optional");
    // openapi-gen reads patchMergeKey and patchStrategy from the struct tag; Rust has none.
    for key in ["patchMergeKey", "patchStrategy"] {
        if let Some(v) = tag_value(&pairs, key)
            && !written.iter().any(|t| t == key)
        {
            doc.push(format!("+{key}={v}"));
        }
    }
    // The protobuf field number go-to-protobuf gave the field.
    if let Some(number) = tag_value(&pairs, "protobuf").and_then(|p| p.split(',').nth(1))
        && number.parse::<u32>().is_ok()
        && !written.iter().any(|t| t == "protobuf")
    {
        doc.push(format!("+protobuf={number}"));
    }
    let ptr = matches!(f.ty.kind, TypeKind::Pointer(_));
    if f.embedded() && is_meta(cx, &f.ty, "TypeMeta") {
        out.extend(docs(&doc, IND));
        out.push(format!("{IND}#[serde(flatten, default)]"));
        out.push(format!("{IND}pub type_meta: Option<{}>,", cx.uses.name(TYPE_META)));
        return Ok((out, 1));
    }
    if is_kind && json_name == "metadata" && (is_meta(cx, &f.ty, "ObjectMeta") || is_meta(cx, &f.ty, "ListMeta")) {
        let rust = cx.rust_type(&f.ty)?;
        out.extend(docs(&doc, IND));
        if omitempty || optional {
            out.push(format!("{IND}#[serde(default)]"));
        }
        out.push(format!("{IND}pub metadata: {rust},"));
        return Ok((out, 1));
    }
    let base = cx.rust_type(&f.ty)?;
    if inline && json_name.is_empty() {
        let name = names::ident(&names::snake(&go_name));
        let rust = if ptr { format!("Option<{base}>") } else { base };
        out.extend(docs(&doc, IND));
        out.push(format!("{IND}#[serde(flatten)]"));
        out.push(format!("{IND}pub {name}: {rust},"));
        return Ok((out, 1));
    }
    let name = names::ident(&names::snake(&json_name));
    if name.is_empty() {
        return Err(
            Diagnostic::error(&f.loc, format!("field `{go_name}` has no usable JSON name"))
                .label("no name")
                .help("give it a json tag with a name"),
        );
    }
    let mut attrs = Vec::new();
    if names::camel(&name) != json_name || names::is_keyword(name.trim_end_matches('_')) {
        attrs.push(format!(
            "rename = {}",
            serde_json::to_string(&json_name).unwrap_or_default()
        ));
    }
    let time = is_meta(cx, &f.ty, "Time") || is_meta(cx, &f.ty, "MicroTime");
    let rust = if omitempty {
        // Go holds a non-pointer field as a value whose zero means unset, and gogo-protobuf writes
        // it even then; a Rust `Option` reads that zero as unset only when told so.
        let value = !ptr && cx.is_scalar(&f.ty);
        if value && !written.iter().any(|t| t == tag::ZERO_IS_UNSET) {
            doc.push(format!("+{}", tag::ZERO_IS_UNSET));
        }
        attrs.push("default".into());
        if value {
            // JSON's zero is unset too, as Go reads it.
            attrs.push(format!(
                "deserialize_with = \"{}::go_value::deserialize\"",
                cx.index.runtime
            ));
        }
        attrs.push("skip_serializing_if = \"Option::is_none\"".into());
        format!("Option<{base}>")
    } else if ptr || time {
        // Go writes an unset pointer, and a zero Time, as null; k8s-openapi's Time has no zero.
        if optional {
            if time && !ptr {
                attrs.push("default".into());
            }
        } else {
            doc.push("+required".into());
        }
        format!("Option<{base}>")
    } else {
        // Go reads an absent value field as its zero value, so a missing `spec` or `name` is
        // left to validation (`Required value`) rather than failing the decode, and a kind
        // whose spec Kubernetes lets go unset (a CSIDriver's) decodes without one. OpenAPI still
        // lists it as required, as openapi-gen does a field without `omitempty`.
        if !optional && !written.iter().any(|t| t == "required") {
            doc.push("+required".into());
        }
        attrs.push("default".into());
        base
    };
    if cx.index.holds_quantity(cx.import_path, cx.imports, &f.ty, 0) {
        // Go parses a Quantity as it reads it and writes it back canonical (`0.5` -> `500m`).
        let mut at = attrs
            .iter()
            .position(|a| a.starts_with("skip_serializing_if"))
            .unwrap_or(attrs.len());
        // serde reads an absent `Option` as `None` by itself only without `deserialize_with`.
        if rust.starts_with("Option<") && !attrs.iter().any(|a| a == "default") {
            attrs.insert(at, "default".into());
            at += 1;
        }
        attrs.insert(
            at,
            format!("deserialize_with = \"{}::quantity::deserialize\"", cx.index.runtime),
        );
    }
    out.extend(docs(&doc, IND));
    if !attrs.is_empty() {
        let args = attrs.join(", ");
        // rustfmt keeps an attribute's arguments on one line up to `attr_fn_like_width`, 70% of
        // the line width, and writes one a line past it.
        if args.len() <= MAX_WIDTH * 7 / 10 {
            out.push(format!("{IND}#[serde({args})]"));
        } else {
            out.push(format!("{IND}#[serde("));
            let last = attrs.len() - 1;
            for (i, a) in attrs.iter().enumerate() {
                out.push(format!("{IND}    {a}{}", if i == last { "" } else { "," }));
            }
            out.push(format!("{IND})]"));
        }
    }
    out.push(format!("{IND}pub {name}: {rust},"));
    Ok((out, 1))
}

/// Doc comment lines.
pub fn docs(lines: &[String], indent: &str) -> Vec<String> {
    comment(lines, &format!("{indent}///"))
}

/// Plain comment lines.
pub fn plain(lines: &[String], indent: &str) -> Vec<String> {
    comment(lines, &format!("{indent}//"))
}

/// Comment lines after `marker`, as Go wrote them (tabs kept: OpenAPI descriptions are Go's text).
fn comment(lines: &[String], marker: &str) -> Vec<String> {
    lines
        .iter()
        .map(|l| {
            if l.is_empty() {
                marker.to_string()
            } else {
                format!("{marker} {l}")
            }
        })
        .collect()
}
