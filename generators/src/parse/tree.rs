//! The loader: reads what rustc compiles, by walking the module tree from `lib.rs` through `mod`
//! items, as rustc resolves them: `name.rs` or `name/mod.rs` below a directory-owning file (the
//! 2018 layout `foo.rs` + `foo/` included), `#[path]` relative to the declaring file's directory,
//! inline modules, symlinks followed by opening the path. `#[cfg(test)]` modules are skipped;
//! generated `zz_generated_*` modules are output, never input. A missing file, a `#[path]` cycle,
//! a file found twice, and nesting deeper than [`MAX_DEPTH`] are located errors.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::diag::{Diagnostic, Diagnostics, SourceLoc};

use super::{SourceFile, display_path, span_loc_whole};

/// The deepest nesting accepted: of modules, and of brackets and generic arguments in a file.
/// Real API sources stay far below it; deeper input is reported instead of overflowing the stack.
pub const MAX_DEPTH: usize = 64;

/// Where the loader reads source files from, by path relative to the apis root (`/` separated).
pub trait Sources {
    /// The text of one file.
    fn read(&self, rel: &str) -> std::io::Result<String>;

    /// Every `.rs` file below the root, for reporting the ones no module declares.
    fn list(&self) -> Vec<String>;
}

/// Files on disk below a root directory.
pub struct Disk(pub PathBuf);

impl Sources for Disk {
    fn read(&self, rel: &str) -> std::io::Result<String> {
        std::fs::read_to_string(self.0.join(rel))
    }

    fn list(&self) -> Vec<String> {
        let mut out: Vec<String> = walkdir::WalkDir::new(&self.0)
            .follow_links(true)
            .into_iter()
            .filter_map(Result::ok)
            .filter(|e| e.file_type().is_file() && e.path().extension().is_some_and(|x| x == "rs"))
            .filter_map(|e| rel_path(&self.0, e.path()))
            .collect();
        out.sort();
        out
    }
}

/// Files in memory, by relative path.
pub struct Memory(pub BTreeMap<String, String>);

impl Sources for Memory {
    fn read(&self, rel: &str) -> std::io::Result<String> {
        self.0
            .get(rel)
            .cloned()
            .ok_or_else(|| std::io::Error::from(std::io::ErrorKind::NotFound))
    }

    fn list(&self) -> Vec<String> {
        self.0.keys().cloned().collect()
    }
}

fn rel_path(root: &Path, path: &Path) -> Option<String> {
    let rel = path.strip_prefix(root).ok()?;
    Some(
        rel.components()
            .map(|c| c.as_os_str().to_string_lossy())
            .collect::<Vec<_>>()
            .join("/"),
    )
}

/// What the walk read.
#[derive(Default)]
pub struct Loaded {
    /// Every module's file in walk order, inline modules as files of their own.
    pub files: Vec<SourceFile>,
    /// Display path -> text of every file read, for rendering diagnostics.
    pub texts: BTreeMap<Arc<str>, Arc<str>>,
    /// `.rs` files below the root that no module declares (generated files left out).
    pub undeclared: Vec<String>,
}

/// Walks the module tree from `lib.rs`. Problems are reported; the files that loaded are returned.
pub fn load(root_display: &str, sources: &dyn Sources, diags: &mut Diagnostics) -> Loaded {
    let mut walk = Walk {
        root_display,
        sources,
        loaded: Loaded::default(),
        stack: Vec::new(),
        reached: BTreeSet::new(),
    };
    let root = Module {
        rel: "lib.rs".into(),
        module: Vec::new(),
        children: String::new(),
        cfg: None,
    };
    walk.file(root, None, diags);
    let reached = std::mem::take(&mut walk.reached);
    walk.loaded.undeclared = sources
        .list()
        .into_iter()
        .filter(|rel| !reached.contains(rel))
        .filter(|rel| !super::is_generated_file(rel.rsplit('/').next().unwrap_or(rel)))
        .collect();
    walk.loaded
}

/// A module to load from a file.
struct Module {
    /// The file, relative to the root.
    rel: String,
    /// Module path segments below the crate root.
    module: Vec<String>,
    /// The directory its child modules are looked up in.
    children: String,
    /// Where a non-test `cfg` gates this module or an ancestor.
    cfg: Option<SourceLoc>,
}

struct Walk<'a> {
    root_display: &'a str,
    sources: &'a dyn Sources,
    loaded: Loaded,
    /// Files being loaded, outermost first: a file met again is a cycle.
    stack: Vec<String>,
    reached: BTreeSet<String>,
}

impl Walk<'_> {
    fn file(&mut self, m: Module, decl: Option<&SourceLoc>, diags: &mut Diagnostics) {
        let display: Arc<str> = display_path(self.root_display, &m.rel).into();
        let at = decl.cloned().unwrap_or_else(|| SourceLoc {
            file: display.clone(),
            line: 1,
            col: 1,
            len: 1,
        });
        if self.stack.contains(&m.rel) {
            diags.push(
                Diagnostic::error(
                    &at,
                    format!("module `{}` includes its own file `{}`", m.module.join("::"), m.rel),
                )
                .label("`#[path]` cycle")
                .help("point the `#[path]` at another file"),
            );
            return;
        }
        if m.module.len() > MAX_DEPTH {
            diags.push(
                Diagnostic::error(&at, format!("modules nest deeper than {MAX_DEPTH} levels"))
                    .label("too deep")
                    .help("API packages sit a few modules below the crate root; flatten the tree"),
            );
            return;
        }
        let text = match self.sources.read(&m.rel) {
            Ok(t) => t,
            Err(e) => {
                let what = if e.kind() == std::io::ErrorKind::NotFound {
                    "not found".to_string()
                } else {
                    e.to_string()
                };
                diags.push(
                    Diagnostic::error(
                        &at,
                        format!("file `{}` of module `{}`: {what}", display, m.module.join("::")),
                    )
                    .label("declared here")
                    .help("create the file, fix the `#[path]`, or remove the `mod` declaration"),
                );
                return;
            }
        };
        self.reached.insert(m.rel.clone());
        let text: Arc<str> = text.into();
        self.loaded.texts.insert(display.clone(), text.clone());
        if let Some((line, col)) = too_deep(&text) {
            let loc = SourceLoc {
                file: display.clone(),
                line,
                col,
                len: 1,
            };
            diags.push(
                Diagnostic::error(
                    &loc,
                    format!("brackets and generic arguments nest deeper than {MAX_DEPTH} levels"),
                )
                .label("too deep")
                .help("API types nest a few levels; name the inner types"),
            );
            return;
        }
        let syntax = match syn::parse_file(&text) {
            Ok(s) => s,
            Err(err) => {
                let start = err.span().start();
                let loc = SourceLoc {
                    file: display,
                    line: start.line as u32,
                    col: start.column as u32 + 1,
                    len: 1,
                };
                diags.push(Diagnostic::error(&loc, format!("cannot parse Rust source: {err}")).label("here"));
                return;
            }
        };
        self.stack.push(m.rel.clone());
        let dir = parent(&m.rel).to_string();
        self.items(&syntax.items, &m, &dir, &display, diags);
        self.stack.pop();
        self.loaded.files.push(SourceFile {
            display,
            rel: m.rel,
            module: m.module,
            cfg: m.cfg,
            inline: false,
            syntax,
        });
    }

    /// The `mod` items of one module: `path_dir` is where `#[path]` values are relative to.
    fn items(&mut self, items: &[syn::Item], m: &Module, path_dir: &str, display: &Arc<str>, diags: &mut Diagnostics) {
        for item in items {
            let syn::Item::Mod(decl) = item else { continue };
            let test_only = is_test_cfg(&decl.attrs);
            let name = decl.ident.to_string().trim_start_matches("r#").to_string();
            let loc = span_loc_whole(display, decl.ident.span());
            let cfg = m.cfg.clone().or_else(|| has_cfg(&decl.attrs).then(|| loc.clone()));
            let mut module = m.module.clone();
            module.push(name.clone());
            let children = join(&m.children, &name);
            if let Some((_, content)) = &decl.content.as_ref().filter(|_| !test_only) {
                // An inline module is a module of its own, written in its parent's file.
                let inline = Module {
                    rel: m.rel.clone(),
                    module,
                    children: children.clone(),
                    cfg,
                };
                self.items(content, &inline, &children, display, diags);
                self.loaded.files.push(SourceFile {
                    display: display.clone(),
                    rel: inline.rel,
                    module: inline.module,
                    cfg: inline.cfg,
                    inline: true,
                    syntax: syn::File {
                        shebang: None,
                        attrs: decl.attrs.clone(),
                        items: content.clone(),
                    },
                });
                continue;
            }
            let path = path_attr(&decl.attrs);
            let generated = super::is_generated_file(&format!("{name}.rs"))
                || path
                    .as_deref()
                    .is_some_and(|p| super::is_generated_file(p.rsplit(['/', '\\']).next().unwrap_or(p)));
            if generated {
                continue;
            }
            let child = match path {
                Some(p) => {
                    let rel = join(path_dir, &p);
                    Module {
                        children: parent(&rel).to_string(),
                        rel,
                        module,
                        cfg,
                    }
                }
                None => {
                    let flat = format!("{children}.rs");
                    let nested = join(&children, "mod.rs");
                    let (flat_ok, nested_ok) = (self.sources.read(&flat).is_ok(), self.sources.read(&nested).is_ok());
                    if flat_ok && nested_ok && !test_only {
                        diags.push(
                            Diagnostic::error(
                                &loc,
                                format!("module `{name}` is in two files: `{flat}` and `{nested}`"),
                            )
                            .label("ambiguous module file")
                            .help("delete or rename one of them, as rustc requires (E0761)"),
                        );
                        continue;
                    }
                    Module {
                        rel: if nested_ok { nested } else { flat },
                        module,
                        children,
                        cfg,
                    }
                }
            };
            if test_only {
                // Compiled only for tests, so not read; but declared, so not a stray file.
                if decl.content.is_none() {
                    self.reached.insert(child.rel);
                }
                continue;
            }
            self.file(child, Some(&loc), diags);
        }
    }
}

/// `dir/rel` with `.` and `..` resolved lexically; `..` past the root stays (`../x.rs`).
fn join(dir: &str, rel: &str) -> String {
    let mut parts: Vec<&str> = dir.split('/').filter(|p| !p.is_empty()).collect();
    for seg in rel.split(['/', '\\']) {
        match seg {
            "" | "." => {}
            ".." if parts.last().is_some_and(|p| *p != "..") => {
                parts.pop();
            }
            s => parts.push(s),
        }
    }
    parts.join("/")
}

/// The directory of a relative path (`apps/v1/mod.rs` -> `apps/v1`).
fn parent(rel: &str) -> &str {
    rel.rsplit_once('/').map_or("", |(d, _)| d)
}

/// The value of a `#[path = "..."]` attribute.
pub fn path_attr(attrs: &[syn::Attribute]) -> Option<String> {
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

/// Whether an item is compiled only for tests: `#[cfg(test)]` or `#[cfg(all(test, ...))]`.
pub fn is_test_cfg(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().filter(|a| a.path().is_ident("cfg")).any(|a| {
        let text = quote::ToTokens::to_token_stream(&a.meta).to_string();
        text == "cfg (test)" || text.starts_with("cfg (all (test ,") || text.starts_with("cfg (all (test)")
    })
}

/// Whether an item carries a `cfg` attribute (any predicate).
pub fn has_cfg(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| a.path().is_ident("cfg"))
}

/// Where brackets (`()`, `[]`, `{}`) plus generic arguments (`<>`) first nest deeper than
/// [`MAX_DEPTH`], skipping comments, strings and character literals. `<` counts only until the
/// next `;`, `{` or `}`, which no generic argument list spans, so comparisons cannot add up.
fn too_deep(text: &str) -> Option<(u32, u32)> {
    let b = text.as_bytes();
    let (mut i, mut line, mut col) = (0usize, 1u32, 1u32);
    let (mut brackets, mut angles) = (0usize, 0usize);
    let advance = |i: &mut usize, line: &mut u32, col: &mut u32, n: usize| {
        for k in 0..n {
            if b.get(*i + k) == Some(&b'\n') {
                *line += 1;
                *col = 1;
            } else if b.get(*i + k).is_some_and(|c| c & 0xC0 != 0x80) {
                *col += 1;
            }
        }
        *i += n;
    };
    while i < b.len() {
        let rest = &b[i..];
        let n = if rest.starts_with(b"//") {
            rest.iter().position(|&c| c == b'\n').unwrap_or(rest.len())
        } else if rest.starts_with(b"/*") {
            rest.windows(2).position(|w| w == b"*/").map_or(rest.len(), |p| p + 2)
        } else if rest[0] == b'"' {
            string_len(rest)
        } else if rest[0] == b'\'' && rest.len() > 2 && (rest[2] == b'\'' || rest[1] == b'\\') {
            rest.iter().skip(1).position(|&c| c == b'\'').map_or(1, |p| p + 2)
        } else {
            match rest[0] {
                b'(' | b'[' | b'{' => {
                    brackets += 1;
                    if rest[0] == b'{' {
                        angles = 0;
                    }
                }
                b')' | b']' | b'}' => {
                    brackets = brackets.saturating_sub(1);
                    if rest[0] == b'}' {
                        angles = 0;
                    }
                }
                b';' => angles = 0,
                b'<' => angles += 1,
                b'>' if i > 0 && !matches!(b[i - 1], b'-' | b'=') => angles = angles.saturating_sub(1),
                _ => {}
            }
            if brackets + angles > MAX_DEPTH {
                return Some((line, col));
            }
            1
        };
        advance(&mut i, &mut line, &mut col, n.max(1));
    }
    None
}

/// The length of a string literal starting at `"`, escapes included.
fn string_len(s: &[u8]) -> usize {
    let mut k = 1;
    while k < s.len() {
        match s[k] {
            b'\\' => k += 2,
            b'"' => return k + 1,
            _ => k += 1,
        }
    }
    s.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(files: &[(&str, &str)]) -> (Loaded, Vec<String>) {
        let sources = Memory(files.iter().map(|(r, t)| (r.to_string(), t.to_string())).collect());
        let mut d = Diagnostics::new();
        let loaded = load("src", &sources, &mut d);
        let errors = d
            .into_vec()
            .into_iter()
            .map(|e| format!("{}: {}", e.loc, e.message))
            .collect();
        (loaded, errors)
    }

    fn modules(l: &Loaded) -> Vec<String> {
        let mut m: Vec<String> = l
            .files
            .iter()
            .map(|f| format!("{}={}", f.module.join("::"), f.rel))
            .collect();
        m.sort();
        m
    }

    #[test]
    fn follows_mod_items_in_both_layouts() {
        let (l, errors) = tree(&[
            (
                "lib.rs",
                "pub mod a; mod b; #[cfg(test)] mod tests; mod zz_generated_x;",
            ),
            ("a/mod.rs", "mod types;"),
            ("a/types.rs", ""),
            ("b.rs", "mod v1; mod inline { mod deep; }"),
            ("b/v1.rs", ""),
            ("b/inline/deep.rs", ""),
            ("stray.rs", ""),
            ("tests.rs", ""),
        ]);
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(
            modules(&l),
            [
                "=lib.rs",
                "a::types=a/types.rs",
                "a=a/mod.rs",
                "b::inline::deep=b/inline/deep.rs",
                "b::inline=b.rs",
                "b::v1=b/v1.rs",
                "b=b.rs"
            ]
        );
        // `tests.rs` is declared, only for tests: skipped, and not a stray file.
        assert_eq!(l.undeclared, ["stray.rs"]);
    }

    #[test]
    fn path_attributes_are_relative_to_the_declaring_file() {
        let (l, errors) = tree(&[
            ("lib.rs", "mod g;"),
            ("g/mod.rs", "mod v1; mod v2;"),
            ("g/v1/mod.rs", "mod marshal;"),
            ("g/v1/marshal.rs", ""),
            (
                "g/v2/mod.rs",
                "#[path = \"../v1/marshal.rs\"] mod marshal; #[path = \"x/y.rs\"] mod other;",
            ),
            ("g/v2/x/y.rs", "mod z;"),
            ("g/v2/x/z.rs", ""),
        ]);
        assert!(errors.is_empty(), "{errors:?}");
        assert!(modules(&l).contains(&"g::v2::marshal=g/v1/marshal.rs".to_string()));
        assert!(modules(&l).contains(&"g::v2::other::z=g/v2/x/z.rs".to_string()));
    }

    #[test]
    fn missing_files_cycles_and_ambiguity_are_located_errors() {
        let (_, errors) = tree(&[
            ("lib.rs", "mod a;\nmod b;\nmod c;"),
            ("a.rs", "#[path = \"a.rs\"] mod again;"),
            ("c.rs", ""),
            ("c/mod.rs", ""),
        ]);
        assert_eq!(
            errors,
            [
                "src/a.rs:1:22: module `a::again` includes its own file `a.rs`",
                "src/lib.rs:2:5: file `src/b.rs` of module `b`: not found",
                "src/lib.rs:3:5: module `c` is in two files: `c.rs` and `c/mod.rs`",
            ]
        );
    }

    #[test]
    fn deep_nesting_is_an_error_not_an_overflow() {
        let deep = format!("struct A {{ f: {}u8{} }}", "Option<".repeat(5000), ">".repeat(5000));
        let (l, errors) = tree(&[("lib.rs", &deep)]);
        assert!(l.files.is_empty());
        assert_eq!(errors.len(), 1);
        assert!(errors[0].contains("nest deeper than 64"), "{errors:?}");
        let ok = "fn f() -> bool { 1 < 2 && 3 < 4 } struct A { f: Option<Vec<u8>> }".repeat(200);
        assert!(too_deep(&ok).is_none());
    }

    /// rustc opens a module's path, so a symlinked file is read through the link, under the
    /// declaring module's name and path.
    #[cfg(unix)]
    #[test]
    fn symlinked_files_are_followed() {
        let dir = std::env::temp_dir().join(format!("generators-tree-symlink-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("src/a")).unwrap();
        std::fs::create_dir_all(dir.join("shared")).unwrap();
        std::fs::write(dir.join("src/lib.rs"), "mod a;").unwrap();
        std::fs::write(dir.join("src/a/mod.rs"), "mod types;").unwrap();
        std::fs::write(dir.join("shared/types.rs"), "pub struct T;").unwrap();
        std::os::unix::fs::symlink(dir.join("shared/types.rs"), dir.join("src/a/types.rs")).unwrap();
        let mut d = Diagnostics::new();
        let loaded = load("src", &Disk(dir.join("src")), &mut d);
        let _ = std::fs::remove_dir_all(&dir);
        assert!(d.into_vec().is_empty());
        let types = loaded.files.iter().find(|f| f.module == ["a", "types"]).unwrap();
        assert_eq!((&*types.display, types.syntax.items.len()), ("src/a/types.rs", 1));
        assert!(loaded.undeclared.is_empty(), "{:?}", loaded.undeclared);
    }

    #[test]
    fn joins_paths_lexically() {
        assert_eq!(join("a/b", "../c.rs"), "a/c.rs");
        assert_eq!(join("", "../x.rs"), "../x.rs");
        assert_eq!(join("a", "./b/../c.rs"), "a/c.rs");
    }
}
