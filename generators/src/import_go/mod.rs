//! The Go importer: a tree of Go API packages (`types.go`, `doc.go`, `register.go` with
//! Kubernetes' tags and comments) becomes tagged Rust packages in this project's conventions,
//! which the code generators then read. Go is parsed with tree-sitter's Go grammar; what cannot
//! be translated is a located error, all of them at once, and nothing is written. Every file
//! it writes carries its marker, so a rerun replaces exactly those files and never a user's:
//! a `mod.rs` without the marker is the user's (hand-written hooks) and is kept.
//!
//! # Layers
//!
//! 1. `package`, `decls`: the files of a package; the generated modules it declares.
//! 2. `items`: one declaration as Rust.
//! 3. `fields`: one struct field as Rust.
//! 4. `tags`, `resolve`: tag values and types from Go paths to Rust paths.
//! 5. `read`, `names`: the Go tree's packages; Go names as Rust names.
//! 6. `go`: one Go file, parsed.

// A translation error is a whole located diagnostic, returned once per declaration at most;
// boxing it would buy nothing.
#![allow(clippy::result_large_err)]

mod decls;
mod fields;
pub mod go;
mod items;
mod names;
mod package;
mod read;
mod resolve;
mod tags;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::Failure;
use crate::diag::{Diagnostic, Diagnostics, SourceLoc};
use crate::render::output::{GeneratedFile, Plan, generated_by};

pub use package::TOOL;

/// What to import from where.
#[derive(Clone, Debug)]
pub struct Options {
    /// The root of the Go packages (k8s.io/api's checkout, an operator's `api/`).
    pub go: PathBuf,
    /// Where the Rust packages go: a crate's `src/` or a directory inside it.
    pub out: PathBuf,
    /// The Go import path of `go`; read from the nearest `go.mod` when `None`.
    pub module: Option<String>,
    /// The Rust path of `out` (`crate`, or `crate::k8s` for `src/k8s`).
    pub rust_path: String,
    /// Where the code generators write the packages' generated files (their `--output`, for
    /// this tree): each package module then declares them.
    pub generated: Option<PathBuf>,
    /// Go import-path prefix -> Rust path, for packages this run does not import.
    pub externs: Vec<(String, String)>,
    /// Package directories (relative to `go`) to leave out.
    pub exclude: Vec<String>,
    /// The runtime crate's path, for the apimachinery types only it has.
    pub runtime_path: String,
}

impl Options {
    /// Imports `go` into `out` with the defaults: `crate`, no generated files, the runtime as
    /// `kube_apimachinery`.
    pub fn new(go: impl Into<PathBuf>, out: impl Into<PathBuf>) -> Options {
        Options {
            go: go.into(),
            out: out.into(),
            module: None,
            rust_path: "crate".into(),
            generated: None,
            externs: Vec::new(),
            exclude: Vec::new(),
            runtime_path: "kube_apimachinery".into(),
        }
    }
}

/// A planned import: the files to write (or verify) and what it holds.
#[derive(Debug)]
pub struct Import {
    /// The files, under the importer's marker; `apply` writes them, `verify` compares them.
    pub plan: Plan,
    /// One line: packages, types, fields.
    pub summary: String,
}

/// The import of `opts`, computed without writing anything.
pub fn import(opts: &Options) -> Result<Import, Failure> {
    let started = Instant::now();
    let mut diags = Diagnostics::new();
    let mut texts = read::Texts::new();
    let Some(module) = opts.module.clone().or_else(|| read::module_path(&opts.go)) else {
        return Err(failure_at(
            &opts.go,
            "no go.mod at or above this directory names its Go module",
            "pass the import path of the directory with --module (e.g. --module k8s.io/api)",
        ));
    };
    if !opts.go.is_dir() {
        return Err(failure_at(
            &opts.go,
            "is not a directory",
            "point the importer at a tree of Go packages",
        ));
    }
    let mut packages = read::read(&opts.go, &module, &opts.exclude, &mut diags, &mut texts);
    // A directory without types (the module root's doc.go, helpers) is no API package.
    let skipped: Vec<String> = packages
        .iter()
        .filter(|(_, p)| p.files.iter().all(|f| f.types.is_empty()))
        .map(|(d, _)| d.clone())
        .collect();
    for dir in &skipped {
        diags.note(format!(
            "{}: no type declarations; not an API package",
            opts.go.join(dir).display()
        ));
        packages.remove(dir);
    }
    if packages.is_empty() && !diags.has_errors() {
        return Err(failure_at(
            &opts.go,
            "no Go package with type declarations below this directory",
            "point the importer at the root of the API packages",
        ));
    }
    let index = resolve::Index::new(&packages, &opts.rust_path, &opts.externs, &opts.runtime_path);
    let mut counts = items::Counts::default();
    // Relative path -> text: types.rs of every package, then the module files.
    let mut files: BTreeMap<String, String> = BTreeMap::new();
    let mut tags: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    for pkg in packages.values() {
        files.insert(
            join(&pkg.dir, "types.rs"),
            package::types_rs(&index, pkg, &mut counts, &mut diags),
        );
        tags.insert(&pkg.dir, package::package_tags(&index, pkg, &mut diags));
    }
    if diags.has_errors() {
        return Err(Failure {
            errors: diags.finish().err().unwrap_or(crate::Errors(Vec::new())),
            sources: texts,
        });
    }
    // Every module directory between the root and the packages, with its children.
    let mut children: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    children.entry(String::new()).or_default();
    for dir in packages.keys() {
        let parts: Vec<&str> = dir.split('/').filter(|s| !s.is_empty()).collect();
        for i in 0..parts.len() {
            let parent = parts[..i].join("/");
            children.entry(parent).or_default().insert(names::ident(parts[i]));
            children.entry(parts[..=i].join("/")).or_default();
        }
    }
    let root_file = if opts.rust_path == "crate" { "lib.rs" } else { "mod.rs" };
    let module_file = |dir: &str| {
        if dir.is_empty() {
            root_file.to_string()
        } else {
            join(dir, "mod.rs")
        }
    };
    let mut warnings = Vec::new();
    // Module files a user has taken over (no marker) are theirs: kept, only checked.
    let mut kept: BTreeSet<String> = BTreeSet::new();
    for (dir, kids) in &children {
        let rel = module_file(dir);
        let path = opts.out.join(&rel);
        if path.exists() && generated_by(&path).as_deref() != Some(TOOL) {
            kept.insert(rel.clone());
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            let mut needed: Vec<String> = kids.iter().cloned().collect();
            if packages.contains_key(dir) {
                needed.push("types".into());
            }
            for kid in needed {
                if !declares(&text, &kid) {
                    warnings.push(format!(
                        "{}: warning: this file is not the importer's, and it does not declare `mod {kid};`\n",
                        path.display()
                    ));
                }
            }
        }
    }
    let what = |dir: &str| {
        if dir.is_empty() {
            format!("Go API packages imported from `{module}`.")
        } else {
            format!("The Go packages below `{module}/{dir}`.")
        }
    };
    let render = |dir: &str, decls: &[String]| -> String {
        let kids: Vec<String> = children[dir].iter().cloned().collect();
        match packages.get(dir) {
            Some(pkg) => package::mod_rs(pkg, &tags[dir], &kids, decls),
            None => package::parent_rs(&what(dir), &kids),
        }
    };
    for dir in children.keys() {
        let rel = module_file(dir);
        if !kept.contains(&rel) {
            files.insert(rel, render(dir, &[]));
        }
    }
    if let Some(generated) = &opts.generated {
        // The model reads the root module as `lib.rs`, wherever the tree sits in its crate.
        let mut view = files.clone();
        if root_file != "lib.rs"
            && let Some(root) = view.remove(root_file)
        {
            view.insert("lib.rs".into(), root);
        }
        if kept.contains(root_file) {
            let text = std::fs::read_to_string(opts.out.join(root_file)).unwrap_or_default();
            view.insert("lib.rs".into(), text);
        }
        let decls = decls::declarations(&view, &opts.out, generated);
        for dir in packages.keys() {
            let rel = module_file(dir);
            let key = if dir.is_empty() {
                "lib.rs".to_string()
            } else {
                rel.clone()
            };
            if !kept.contains(&rel) {
                let lines = decls.get(&key).cloned().unwrap_or_default();
                files.insert(rel, render(dir, &lines));
            }
        }
    }
    let mut plan = Plan {
        root: opts.out.clone(),
        documents: vec![opts.out.clone()],
        owner: Some(TOOL),
        notes: diags.take_notes(),
        warnings,
        ..Plan::default()
    };
    plan.tools.insert(TOOL, TOOL);
    plan.files = files
        .into_iter()
        .map(|(rel, contents)| {
            (
                opts.out.join(rel),
                GeneratedFile {
                    generator: TOOL,
                    contents,
                },
            )
        })
        .collect();
    plan.timings.insert(TOOL, started.elapsed());
    let _ = diags.into_vec();
    let summary = format!(
        "{} packages: {} structs ({} fields), {} enums ({} variants), {} aliases",
        packages.len(),
        counts.structs,
        counts.fields,
        counts.enums,
        counts.variants,
        counts.aliases
    );
    Ok(Import { plan, summary })
}

/// Whether a module file's text declares module `name`.
fn declares(text: &str, name: &str) -> bool {
    text.lines().any(|l| {
        let l = l.trim();
        let l = l.strip_prefix("pub ").unwrap_or(l);
        l.strip_prefix("mod ")
            .is_some_and(|rest| rest.trim_end_matches([';', '{', ' ']) == name)
    })
}

fn join(dir: &str, file: &str) -> String {
    if dir.is_empty() {
        file.to_string()
    } else {
        format!("{dir}/{file}")
    }
}

fn failure_at(path: &Path, message: &str, help: &str) -> Failure {
    let loc = SourceLoc {
        file: path.display().to_string().into(),
        line: 1,
        col: 1,
        len: 1,
    };
    let mut diags = Diagnostics::new();
    diags.push(Diagnostic::error(&loc, format!("{}: {message}", path.display())).help(help));
    Failure {
        errors: diags.finish().err().unwrap_or(crate::Errors(Vec::new())),
        sources: Default::default(),
    }
}

#[cfg(test)]
mod tests;
