//! The module tree of one crate as rustc reads it (`mod name;` as `name.rs` or `name/mod.rs`,
//! `#[path]`, inline modules; `#[cfg(test)]` modules left out, since tests ship nowhere), and
//! every reference from one module to another: `use` trees and paths that start with `crate`,
//! `self` or `super`, each resolved to the deepest module it names.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use syn::visit::Visit;

/// A module path below the crate root: `["registry", "store"]`; the root is empty.
pub type ModPath = Vec<String>;

/// One reference from a module to another, where it is written.
#[derive(Clone, Debug)]
pub struct Reference {
    /// The module the reference is written in.
    pub from: ModPath,
    /// The deepest module the referenced path names.
    pub to: ModPath,
    /// `file:line` of the reference.
    pub at: String,
}

/// A crate's modules and references.
#[derive(Debug, Default)]
pub struct Crate {
    /// Every module, the root included.
    pub modules: BTreeSet<ModPath>,
    /// Every reference to another module of the crate.
    pub references: Vec<Reference>,
    /// Files that could not be read or parsed.
    pub errors: Vec<String>,
    /// Each module's re-exports (`pub use a::b::Item;`): (module, exported name) -> the path
    /// written, so that a path through a re-export counts as a use of the module it comes from.
    reexports: BTreeMap<(ModPath, String), Vec<String>>,
}

impl Crate {
    /// The crate whose root file is `root` (`src/lib.rs` or `src/main.rs`).
    pub fn read(root: &Path) -> Crate {
        let mut krate = Crate::default();
        let mut pending = Vec::new();
        krate.load_file(root, Vec::new(), &mut pending);
        // References are resolved once every module is known.
        for (module, path, at) in pending {
            if let Some(to) = krate.resolve(&module, &path)
                && to != module
            {
                krate.references.push(Reference { from: module, to, at });
            }
        }
        krate
    }

    /// Reads `file` as module `module`, its child modules, and its raw references.
    fn load_file(&mut self, file: &Path, module: ModPath, pending: &mut Vec<(ModPath, Vec<String>, String)>) {
        let text = match std::fs::read_to_string(file) {
            Ok(text) => text,
            Err(e) => return self.errors.push(format!("{}: {e}", file.display())),
        };
        let parsed = match syn::parse_file(&text) {
            Ok(parsed) => parsed,
            Err(e) => return self.errors.push(format!("{}: {e}", file.display())),
        };
        // A file is `mod.rs`-like when its children live in its own directory: the crate root,
        // `mod.rs`, or a file of the 2018 layout whose children sit in a directory of its name.
        let name = file.file_stem().and_then(|s| s.to_str()).unwrap_or_default();
        let dir = file.parent().map(Path::to_path_buf).unwrap_or_default();
        let children_dir = if module.is_empty() || name == "mod" {
            dir
        } else {
            dir.join(name)
        };
        self.load_items(&parsed.items, file, &children_dir, module, pending);
    }

    fn load_items(
        &mut self,
        items: &[syn::Item],
        file: &Path,
        children_dir: &Path,
        module: ModPath,
        pending: &mut Vec<(ModPath, Vec<String>, String)>,
    ) {
        self.modules.insert(module.clone());
        let mut collector = Collector {
            module: &module,
            file,
            found: Vec::new(),
        };
        for item in items {
            if let syn::Item::Use(u) = item
                && !matches!(u.vis, syn::Visibility::Inherited)
                && !is_test_only(&u.attrs)
            {
                let mut leaves = Vec::new();
                reexported(&mut Vec::new(), &u.tree, &mut leaves);
                for (name, path) in leaves {
                    self.reexports.insert((module.clone(), name), path);
                }
            }
        }
        for item in items {
            if let syn::Item::Mod(m) = item {
                if is_test_only(&m.attrs) {
                    continue;
                }
                let mut child = module.clone();
                child.push(m.ident.to_string());
                match &m.content {
                    Some((_, inner)) => {
                        let dir = children_dir.join(m.ident.to_string());
                        self.load_items(inner, file, &dir, child, pending);
                    }
                    None => match child_file(children_dir, &m.ident.to_string(), &m.attrs) {
                        Some(path) => self.load_file(&path, child, pending),
                        None => {
                            self.errors
                                .push(format!("{}: cannot find the file of `mod {}`", file.display(), m.ident))
                        }
                    },
                }
                continue;
            }
            if item_is_test_only(item) {
                continue;
            }
            collector.visit_item(item);
        }
        pending.extend(collector.found);
    }

    /// The deepest module `path` (written in `module`) names, if it names one of this crate,
    /// followed through re-exports.
    fn resolve(&self, module: &ModPath, path: &[String]) -> Option<ModPath> {
        self.resolve_depth(module, path, 0)
    }

    fn resolve_depth(&self, module: &ModPath, path: &[String], depth: usize) -> Option<ModPath> {
        let mut segments = path.iter();
        let mut base: ModPath = match segments.next()?.as_str() {
            "crate" => Vec::new(),
            "self" => module.clone(),
            "super" => {
                let mut m = module.clone();
                m.pop()?;
                m
            }
            // A plain path starting with a child module's name (`use proto::x` beside `mod proto`).
            first => {
                let mut child = module.clone();
                child.push(first.to_string());
                if !self.modules.contains(&child) {
                    return None;
                }
                child
            }
        };
        for segment in segments {
            if segment == "super" {
                base.pop()?;
                continue;
            }
            let mut deeper = base.clone();
            deeper.push(segment.clone());
            if self.modules.contains(&deeper) {
                base = deeper;
                continue;
            }
            // An item this module re-exports from another: a use of where it comes from.
            if depth < 8
                && let Some(target) = self.reexports.get(&(base.clone(), segment.clone()))
                && let Some(from) = self.resolve_depth(&base, target, depth + 1)
            {
                return Some(from);
            }
            break;
        }
        Some(base)
    }
}

/// The names a `pub use` tree exports, each with the path it names.
fn reexported(prefix: &mut Vec<String>, tree: &syn::UseTree, out: &mut Vec<(String, Vec<String>)>) {
    match tree {
        syn::UseTree::Path(p) => {
            prefix.push(p.ident.to_string());
            reexported(prefix, &p.tree, out);
            prefix.pop();
        }
        syn::UseTree::Name(n) if n.ident != "self" => {
            let mut path = prefix.clone();
            path.push(n.ident.to_string());
            out.push((n.ident.to_string(), path));
        }
        syn::UseTree::Rename(r) if r.ident != "self" => {
            let mut path = prefix.clone();
            path.push(r.ident.to_string());
            out.push((r.rename.to_string(), path));
        }
        syn::UseTree::Group(g) => {
            for t in &g.items {
                reexported(prefix, t, out);
            }
        }
        _ => {}
    }
}

/// The file of `mod name;` declared in a file whose children live in `dir`.
fn child_file(dir: &Path, name: &str, attrs: &[syn::Attribute]) -> Option<PathBuf> {
    for attr in attrs {
        if attr.path().is_ident("path")
            && let syn::Meta::NameValue(nv) = &attr.meta
            && let syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(s), ..
            }) = &nv.value
        {
            return Some(dir.join(s.value()));
        }
    }
    [dir.join(format!("{name}.rs")), dir.join(name).join("mod.rs")]
        .into_iter()
        .find(|p| p.is_file())
}

/// Whether `attrs` hold `#[cfg(test)]` (alone; `cfg(any(test, ...))` ships and counts).
fn is_test_only(attrs: &[syn::Attribute]) -> bool {
    attrs
        .iter()
        .any(|a| a.path().is_ident("cfg") && a.parse_args::<syn::Ident>().is_ok_and(|i| i == "test"))
}

fn item_is_test_only(item: &syn::Item) -> bool {
    let attrs = match item {
        syn::Item::Fn(i) => &i.attrs,
        syn::Item::Impl(i) => &i.attrs,
        syn::Item::Use(i) => &i.attrs,
        syn::Item::Const(i) => &i.attrs,
        syn::Item::Static(i) => &i.attrs,
        syn::Item::Struct(i) => &i.attrs,
        syn::Item::Enum(i) => &i.attrs,
        syn::Item::Trait(i) => &i.attrs,
        syn::Item::Type(i) => &i.attrs,
        _ => return false,
    };
    is_test_only(attrs)
}

/// Collects the paths of one module's items.
struct Collector<'a> {
    module: &'a ModPath,
    file: &'a Path,
    found: Vec<(ModPath, Vec<String>, String)>,
}

impl Collector<'_> {
    fn push(&mut self, segments: Vec<String>, line: usize) {
        let at = format!("{}:{line}", self.file.display());
        self.found.push((self.module.clone(), segments, at));
    }

    fn use_tree(&mut self, prefix: &mut Vec<String>, tree: &syn::UseTree) {
        match tree {
            syn::UseTree::Path(p) => {
                prefix.push(p.ident.to_string());
                self.use_tree(prefix, &p.tree);
                prefix.pop();
            }
            syn::UseTree::Name(n) => {
                let mut full = prefix.clone();
                if n.ident != "self" {
                    full.push(n.ident.to_string());
                }
                self.push(full, n.ident.span().start().line);
            }
            syn::UseTree::Rename(r) => {
                let mut full = prefix.clone();
                if r.ident != "self" {
                    full.push(r.ident.to_string());
                }
                self.push(full, r.ident.span().start().line);
            }
            syn::UseTree::Glob(g) => self.push(prefix.clone(), g.star_token.spans[0].start().line),
            syn::UseTree::Group(g) => {
                for t in &g.items {
                    self.use_tree(prefix, t);
                }
            }
        }
    }
}

impl<'ast> Visit<'ast> for Collector<'_> {
    fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
        self.use_tree(&mut Vec::new(), &u.tree);
    }

    fn visit_path(&mut self, p: &'ast syn::Path) {
        if p.leading_colon.is_none()
            && let Some(first) = p.segments.first()
            && (first.ident == "crate" || first.ident == "super" || first.ident == "self")
        {
            let segments = p.segments.iter().map(|s| s.ident.to_string()).collect();
            self.push(segments, first.ident.span().start().line);
        }
        syn::visit::visit_path(self, p);
    }

    fn visit_item_mod(&mut self, _: &'ast syn::ItemMod) {
        // Nested modules are loaded as modules of their own.
    }

    fn visit_attribute(&mut self, _: &'ast syn::Attribute) {
        // Doc links and cfgs name no imports.
    }
}
