//! One Go type declaration as Rust: a struct with serde's attributes, an enum of a `+enum`
//! string type's constants, or a type alias; docs and tags carried over line for line.

use super::fields::{self, docs, plain};
use super::go::{Field, TypeDecl, TypeExpr, TypeKind, is_tag_line};
use super::read::Package;
use super::resolve::{FileCx, META, Shape};
use super::tags;
use crate::diag::{Diagnostic, Diagnostics};

/// What one file's items add up to, for the summary line.
#[derive(Clone, Copy, Debug, Default)]
pub struct Counts {
    /// Structs written.
    pub structs: usize,
    /// Enums written.
    pub enums: usize,
    /// Their variants.
    pub variants: usize,
    /// Type aliases written.
    pub aliases: usize,
    /// Fields written.
    pub fields: usize,
}

/// The lines of `decl`, declared in `pkg`; errors go to `diags`.
pub fn item(
    cx: &mut FileCx<'_, '_>,
    pkg: &Package,
    decl: &TypeDecl,
    counts: &mut Counts,
    diags: &mut Diagnostics,
) -> Vec<String> {
    let mut out = vec![String::new()];
    // The group one blank line above: its tags are the type's (gengo reads both blocks), its
    // prose is no part of the description (openapi-gen reads only the closest block).
    let second_tags: Vec<String> = decl.second.iter().filter(|l| is_tag_line(l)).cloned().collect();
    let second_prose: Vec<String> = decl.second.iter().filter(|l| !is_tag_line(l)).cloned().collect();
    if second_prose.iter().any(|l| !l.trim().is_empty()) {
        out.extend(plain(&second_prose, ""));
    }
    let doc_lines: Vec<String> = second_tags.into_iter().chain(decl.doc.iter().cloned()).collect();
    let doc = match tags::convert(cx.index, cx.import_path, &doc_lines, &decl.loc) {
        Ok(d) => d,
        Err(e) => {
            diags.push(e);
            return Vec::new();
        }
    };
    let shape = cx
        .index
        .types
        .get(&(cx.import_path, decl.name.as_str()))
        .map(|(_, s)| *s)
        .unwrap_or(Shape::Alias);
    if let TypeKind::Struct(fields, tail) = &decl.ty.kind {
        out.extend(structure(cx, &decl.name, &doc, fields, tail, counts, diags));
        return out;
    }
    if let Some(list_fields) = meta_list(cx, &decl.ty) {
        out.extend(structure(cx, &decl.name, &doc, &list_fields, &[], counts, diags));
        return out;
    }
    if shape == Shape::Enum {
        out.extend(enumeration(cx, pkg, decl, &doc, counts, diags));
        return out;
    }
    match cx.rust_type(&decl.ty) {
        Ok(rust) => {
            let rust = match &decl.ty.kind {
                // A named pointer type is its pointee's alias; Go API types have none.
                TypeKind::Pointer(_) => format!("Option<{rust}>"),
                _ => rust,
            };
            out.extend(docs(&doc, ""));
            out.push(format!("pub type {} = {rust};", decl.name));
            counts.aliases += 1;
        }
        Err(e) => diags.push(e),
    }
    out
}

/// `type List metav1.List`: apimachinery's List, whose fields Rust must spell out.
fn meta_list(cx: &FileCx<'_, '_>, ty: &TypeExpr) -> Option<Vec<Field>> {
    let TypeKind::Named {
        package: Some(local),
        name,
    } = &ty.kind
    else {
        return None;
    };
    if name != "List" || cx.imports.get(local).map(String::as_str) != Some(META) {
        return None;
    }
    let named = |package: &str, name: &str| TypeExpr {
        kind: TypeKind::Named {
            package: Some(package.into()),
            name: name.into(),
        },
        loc: ty.loc.clone(),
    };
    let field = |names: &[&str], t: TypeExpr, tag: &str, doc: &[&str]| Field {
        names: names.iter().map(|s| s.to_string()).collect(),
        ty: t,
        tag: Some(tag.into()),
        doc: doc.iter().map(|s| s.to_string()).collect(),
        detached: Vec::new(),
        loc: ty.loc.clone(),
    };
    Some(vec![
        field(&[], named(local, "TypeMeta"), r#"json:",inline""#, &[]),
        field(
            &[],
            named(local, "ListMeta"),
            r#"json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata""#,
            &[
                "Standard list metadata.",
                "More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds",
                "+optional",
            ],
        ),
        field(
            &["Items"],
            TypeExpr {
                kind: TypeKind::Slice(Box::new(named("k8s.io/apimachinery/pkg/runtime", "RawExtension"))),
                loc: ty.loc.clone(),
            },
            r#"json:"items" protobuf:"bytes,2,rep,name=items""#,
            &["List of objects"],
        ),
    ])
}

fn structure(
    cx: &mut FileCx<'_, '_>,
    name: &str,
    doc: &[String],
    fields: &[Field],
    tail: &[Vec<String>],
    counts: &mut Counts,
    diags: &mut Diagnostics,
) -> Vec<String> {
    let mut out = docs(doc, "");
    out.push("#[derive(Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]".into());
    out.push("#[serde(rename_all = \"camelCase\")]".into());
    let is_kind = fields
        .iter()
        .any(|f| f.embedded() && fields::is_meta(cx, &f.ty, "TypeMeta"));
    let mut body = Vec::new();
    for f in fields {
        match fields::field(cx, name, f, is_kind) {
            Ok((lines, n)) => {
                body.extend(lines);
                counts.fields += n;
            }
            Err(e) => diags.push(e),
        }
    }
    for group in tail {
        body.extend(plain(group, "    "));
    }
    if body.is_empty() {
        out.push(format!("pub struct {name} {{}}"));
    } else {
        out.push(format!("pub struct {name} {{"));
        out.extend(body);
        out.push("}".into());
    }
    counts.structs += 1;
    out
}

fn enumeration(
    cx: &mut FileCx<'_, '_>,
    pkg: &Package,
    decl: &TypeDecl,
    doc: &[String],
    counts: &mut Counts,
    diags: &mut Diagnostics,
) -> Vec<String> {
    let mut out = docs(doc, "");
    out.push("#[derive(Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]".into());
    out.push(format!("pub enum {} {{", decl.name));
    let mut seen: Vec<(String, String)> = Vec::new();
    for file in &pkg.files {
        for c in file
            .consts
            .iter()
            .filter(|c| super::resolve::const_type(c).as_deref() == Some(decl.name.as_str()))
        {
            let value = c.value.as_ref().and_then(|v| cx.index.eval(cx.import_path, file, v, 0));
            let Some(value) = value else {
                diags.push(
                    Diagnostic::error(&c.loc, format!("the value of `{}` is not a constant string", c.name))
                        .label("not a string the importer can evaluate")
                        .help("an enum constant's value must be string literals, `+` and other constants"),
                );
                continue;
            };
            if let Some((_, first)) = seen.iter().find(|(v, _)| *v == value) {
                out.push(format!(
                    "    // Go constant `{}` has the value {} of `{first}`.",
                    c.name,
                    serde_json::to_string(&value).unwrap_or_default()
                ));
                continue;
            }
            let cdoc = match tags::convert(cx.index, cx.import_path, &c.doc, &c.loc) {
                Ok(d) => d,
                Err(e) => {
                    diags.push(e);
                    continue;
                }
            };
            out.extend(docs(&cdoc, "    "));
            if seen.is_empty() {
                out.push("    #[default]".into());
            }
            out.push(format!(
                "    #[serde(rename = {})]",
                serde_json::to_string(&value).unwrap_or_default()
            ));
            out.push(format!("    {},", c.name));
            seen.push((value, c.name.clone()));
            counts.variants += 1;
        }
    }
    out.push("}".into());
    counts.enums += 1;
    out
}
