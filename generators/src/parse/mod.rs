//! The parse layer: finds the apis crate's source files (walkdir), parses each with syn and pulls
//! out doc-comment tags. Only this layer and the model builder see `syn` items.

pub mod serde_attrs;
pub mod tags;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::diag::{Diagnostic, Diagnostics, SourceLoc};

/// One input file: where it is, which Rust module it is, its text and its syntax tree.
pub struct SourceFile {
    /// Display path (the apis directory as given, joined with the file's relative path).
    pub display: Arc<str>,
    /// Path relative to the apis source directory, with `/` separators (`apps/v1/types.rs`).
    pub rel: String,
    /// Module path segments below the crate root (`["apps", "v1", "types"]`; `lib.rs` is `[]`).
    pub module: Vec<String>,
    /// Whether the file is a directory module (`mod.rs` or `lib.rs`).
    pub is_mod_rs: bool,
    /// The file's text.
    pub text: Arc<str>,
    /// The parsed file.
    pub syntax: syn::File,
}

/// Lists every `.rs` file under `dir`, as (relative path with `/`, full path), sorted by relative
/// path so that the walk order of the file system never reaches the output.
pub fn discover(dir: &Path) -> std::io::Result<Vec<(String, PathBuf)>> {
    let mut files = Vec::new();
    for entry in walkdir::WalkDir::new(dir).sort_by_file_name() {
        let entry = entry.map_err(std::io::Error::other)?;
        let path = entry.path();
        if entry.file_type().is_file() && path.extension().is_some_and(|e| e == "rs") {
            let rel = path.strip_prefix(dir).unwrap_or(path);
            let rel = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy())
                .collect::<Vec<_>>()
                .join("/");
            files.push((rel, path.to_path_buf()));
        }
    }
    files.sort();
    Ok(files)
}

/// Parses in-memory sources given as (display root, relative path, text). Syntax errors become
/// diagnostics; the files that parsed are returned in relative-path order, whatever order the
/// input had.
pub fn parse_sources(root_display: &str, inputs: Vec<(String, String)>, diags: &mut Diagnostics) -> Vec<SourceFile> {
    let mut files = Vec::new();
    for (rel, text) in inputs {
        let display: Arc<str> = display_path(root_display, &rel).into();
        let text: Arc<str> = text.into();
        match syn::parse_file(&text) {
            Ok(syntax) => {
                let (module, is_mod_rs) = module_path(&rel);
                files.push(SourceFile {
                    display,
                    rel,
                    module,
                    is_mod_rs,
                    text,
                    syntax,
                });
            }
            Err(err) => {
                let start = err.span().start();
                let loc = SourceLoc {
                    file: display,
                    line: start.line as u32,
                    col: start.column as u32 + 1,
                    len: 1,
                };
                diags.push(Diagnostic::error(&loc, format!("cannot parse Rust source: {err}")).label("here"));
            }
        }
    }
    files.sort_by(|a, b| a.rel.cmp(&b.rel));
    files
}

/// Adds, for every `#[path = "..."] mod name;` of a `mod.rs` that names another source file of
/// the tree, a copy of that file as the module `name` of the declaring package, as rustc compiles
/// it there: apiextensions v1beta1 compiles `../v1/marshal.rs` for its own types. The copy keeps
/// the real file's display path, so diagnostics point at the file that was written. Declarations
/// of generated files (`zz_generated_*`) are the output, not input, and are left alone.
pub fn include_path_modules(mut files: Vec<SourceFile>) -> Vec<SourceFile> {
    let mut extra = Vec::new();
    for f in files.iter().filter(|f| f.is_mod_rs) {
        let dir = f.rel.rsplit_once('/').map_or("", |(d, _)| d);
        for item in &f.syntax.items {
            let syn::Item::Mod(m) = item else { continue };
            let Some(target) = path_attr(&m.attrs).filter(|p| m.content.is_none() && !p.contains(GENERATED_PREFIX))
            else {
                continue;
            };
            let name = m.ident.to_string();
            let virtual_rel = if dir.is_empty() {
                format!("{name}.rs")
            } else {
                format!("{dir}/{name}.rs")
            };
            let Some(real) = normalize(dir, &target) else { continue };
            if files.iter().any(|x| x.rel == virtual_rel) {
                continue;
            }
            if let Some(src) = files.iter().find(|x| x.rel == real) {
                let mut module = f.module.clone();
                module.push(name);
                extra.push(SourceFile {
                    display: src.display.clone(),
                    rel: virtual_rel,
                    module,
                    is_mod_rs: false,
                    text: src.text.clone(),
                    syntax: src.syntax.clone(),
                });
            }
        }
    }
    files.extend(extra);
    files.sort_by(|a, b| a.rel.cmp(&b.rel));
    files
}

const GENERATED_PREFIX: &str = "zz_generated_";

/// The value of a `#[path = "..."]` attribute.
fn path_attr(attrs: &[syn::Attribute]) -> Option<String> {
    attrs
        .iter()
        .find(|a| a.path().is_ident("path"))
        .and_then(|a| match &a.meta {
            syn::Meta::NameValue(syn::MetaNameValue {
                value: syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(s), ..
                }),
                ..
            }) => Some(s.value()),
            _ => None,
        })
}

/// `dir` joined with a relative path, `..` and `.` resolved; `None` when it leaves the tree.
fn normalize(dir: &str, rel: &str) -> Option<String> {
    let mut parts: Vec<&str> = dir.split('/').filter(|p| !p.is_empty()).collect();
    for seg in rel.split(['/', '\\']) {
        match seg {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            s => parts.push(s),
        }
    }
    Some(parts.join("/"))
}

/// Joins the apis directory as given with a relative file path for display.
pub fn display_path(root: &str, rel: &str) -> String {
    let root = root.trim_end_matches('/');
    if root.is_empty() || root == "." {
        rel.to_string()
    } else {
        format!("{root}/{rel}")
    }
}

/// The module a file defines: `apps/v1/mod.rs` is `apps::v1`, `apps/v1/types.rs` is
/// `apps::v1::types`, `lib.rs` is the crate root.
fn module_path(rel: &str) -> (Vec<String>, bool) {
    let mut parts: Vec<String> = rel.split('/').map(str::to_string).collect();
    let file = parts.pop().unwrap_or_default();
    match file.as_str() {
        "mod.rs" => (parts, true),
        "lib.rs" | "main.rs" if parts.is_empty() => (parts, true),
        _ => {
            parts.push(file.trim_end_matches(".rs").to_string());
            (parts, false)
        }
    }
}

/// Converts a syn span into a location in `file`, covering `len` characters.
pub fn span_loc(file: &Arc<str>, span: proc_macro2::Span, len: u32) -> SourceLoc {
    let start = span.start();
    SourceLoc {
        file: file.clone(),
        line: start.line as u32,
        col: start.column as u32 + 1,
        len,
    }
}

/// Converts a span into a location covering the spanned text on its first line.
pub fn span_loc_whole(file: &Arc<str>, span: proc_macro2::Span) -> SourceLoc {
    let (start, end) = (span.start(), span.end());
    let len = if end.line == start.line {
        end.column.saturating_sub(start.column)
    } else {
        1
    };
    span_loc(file, span, len.max(1) as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn module_paths() {
        assert_eq!(module_path("apps/v1/mod.rs"), (vec!["apps".into(), "v1".into()], true));
        assert_eq!(
            module_path("apps/v1/types.rs"),
            (vec!["apps".into(), "v1".into(), "types".into()], false)
        );
        assert_eq!(module_path("lib.rs"), (vec![], true));
        assert_eq!(module_path("install.rs"), (vec!["install".into()], false));
    }

    #[test]
    fn path_modules_join_the_declaring_package() {
        let mut d = Diagnostics::new();
        let files = parse_sources(
            "src",
            vec![
                ("g/v1/marshal.rs".into(), "impl A {}".into()),
                (
                    "g/v2/mod.rs".into(),
                    "#[path = \"../v1/marshal.rs\"] mod marshal; #[path = \"../../../gen/zz_generated_x.rs\"] mod zz_generated_x;".into(),
                ),
            ],
            &mut d,
        );
        let files = include_path_modules(files);
        let rels: Vec<&str> = files.iter().map(|f| f.rel.as_str()).collect();
        assert_eq!(rels, ["g/v1/marshal.rs", "g/v2/marshal.rs", "g/v2/mod.rs"]);
        assert_eq!(files[1].module, ["g", "v2", "marshal"]);
        assert_eq!(&*files[1].display, "src/g/v1/marshal.rs");
        assert_eq!(normalize("a/b", "../../../x.rs"), None);
    }

    #[test]
    fn parse_order_does_not_depend_on_input_order() {
        let mut d = Diagnostics::new();
        let files = parse_sources(
            "src",
            vec![("b.rs".into(), String::new()), ("a.rs".into(), String::new())],
            &mut d,
        );
        assert_eq!(
            files.iter().map(|f| f.rel.as_str()).collect::<Vec<_>>(),
            ["a.rs", "b.rs"]
        );
        assert_eq!(&*files[0].display, "src/a.rs");
        d.finish().unwrap();
    }

    #[test]
    fn syntax_errors_are_diagnostics() {
        let mut d = Diagnostics::new();
        let files = parse_sources("src", vec![("a.rs".into(), "struct {".into())], &mut d);
        assert!(files.is_empty());
        let errors = d.finish().unwrap_err().0;
        assert_eq!(errors[0].loc.line, 1);
        assert!(errors[0].message.starts_with("cannot parse Rust source"));
    }
}
