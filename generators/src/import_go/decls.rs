//! The generated files each imported package compiles in: the model of the code generators,
//! built over the files the import is about to write (and the tree's other files on disk),
//! decides which generators apply to a package, as it does when `cargo xtask codegen` runs, and
//! each becomes the `#[path]` module declaration the package's `mod.rs` needs.

use std::collections::BTreeMap;
use std::path::Path;

use crate::diag::Diagnostics;
use crate::generator;
use crate::model::{self, names};
use crate::parse::tree::{self, Sources};

/// Planned files over the files on disk below the output root.
struct Overlay<'a> {
    /// Relative path -> planned text.
    planned: &'a BTreeMap<String, String>,
    /// The output root on disk.
    root: &'a Path,
}

impl Sources for Overlay<'_> {
    fn read(&self, rel: &str) -> std::io::Result<String> {
        match self.planned.get(rel) {
            Some(text) => Ok(text.clone()),
            None => std::fs::read_to_string(self.root.join(rel)),
        }
    }

    fn list(&self) -> Vec<String> {
        self.planned.keys().cloned().collect()
    }
}

/// Module file (relative to `out`) -> the declaration lines of its package's generated files,
/// which the code generators write below `generated`. `planned` holds every file the import
/// writes, the root module under `lib.rs`.
pub fn declarations(planned: &BTreeMap<String, String>, out: &Path, generated: &Path) -> BTreeMap<String, Vec<String>> {
    let sources = Overlay { planned, root: out };
    let mut diags = Diagnostics::new();
    let display = out.display().to_string();
    let loaded = tree::load(&display, &sources, &mut diags);
    let universe = model::build(&loaded.files, &mut diags);
    // What the model finds wrong, the code generators report when they run; here only which
    // generators apply matters.
    let _ = diags.into_vec();
    let generators = generator::packages();
    let mut out_decls = BTreeMap::new();
    for pkg in universe.packages.values() {
        let mod_file = if pkg.mod_dir.is_empty() {
            "lib.rs".to_string()
        } else {
            format!("{}/mod.rs", pkg.mod_dir)
        };
        let mut lines = Vec::new();
        for g in generators.iter().filter(|g| g.applies(pkg)) {
            let module = names::generated_module(g.name());
            let file = generated.join(&pkg.dir).join(names::generated_file(g.name()));
            let path = crate::relative(&out.join(&pkg.mod_dir), &file);
            if lines.is_empty() {
                lines.push(String::new());
            }
            lines.push("#[rustfmt::skip]".to_string());
            lines.push(format!("#[path = \"{path}\"]"));
            lines.push(format!("mod {module};"));
            if g.reexported() {
                lines.push(format!("pub use {module}::*;"));
            }
        }
        out_decls.insert(mod_file, lines);
    }
    out_decls
}
