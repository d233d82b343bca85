//! Code generators for Kubernetes-style Rust API types: the Rust counterpart of code-generator.
//!
//! One pipeline, one direction: `parse` (walkdir + syn, tag extraction) -> `model` (one checked,
//! immutable Universe) -> `generator` (one module per generator, model in, tokens out) -> `render`
//! (prettyplease, header, output plan). The library owns all logic; `cargo xtask` and the
//! `generators` binary are thin front-ends.

#![deny(missing_docs)]

pub mod diag;
pub mod generator;
pub mod model;
pub mod parse;
pub mod render;
pub mod run;

use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

use diag::{Diagnostic, Diagnostics, Errors};
use model::{Package, Universe, names};
use render::output::Plan;

/// What to generate from where.
#[derive(Clone, Debug)]
pub struct Config {
    /// The apis crate's source directory (its `src/`), as it should appear in messages.
    pub apis: PathBuf,
    /// Root of the in-package outputs (`generated/apis`): `<root>/<group>/<version>/zz_generated_*.rs`.
    pub output: PathBuf,
    /// The header file prepended to every output.
    pub boilerplate: PathBuf,
    /// Where whole-universe documents go (`generated/openapi`); none for trees without them. CRD
    /// manifests go beside it, in `crds/` (`generated/crds`).
    pub documents: Option<PathBuf>,
    /// With documents: the name of the crate generated in their parent directory (`generated`),
    /// which exposes them to Rust (`get_openapi_definitions()`).
    pub crate_name: Option<String>,
}

/// A failed run: every error, plus the sources needed to render them.
#[derive(Debug)]
pub struct Failure {
    /// The errors, in location order.
    pub errors: Errors,
    /// Display path -> text of the inputs.
    pub sources: BTreeMap<Arc<str>, Arc<str>>,
}

impl Failure {
    /// The rustc-style report of every error.
    pub fn render(&self) -> String {
        self.errors.render(&self.sources)
    }

    fn io(what: &str, path: &Path, err: std::io::Error) -> Self {
        let loc = diag::SourceLoc {
            file: path.display().to_string().into(),
            line: 1,
            col: 1,
            len: 1,
        };
        Failure {
            errors: Errors(vec![Diagnostic::error(&loc, format!("cannot read {what}: {err}"))]),
            sources: BTreeMap::new(),
        }
    }
}

/// Reads the apis tree and the boilerplate from disk and computes the output plan.
pub fn generate(config: &Config) -> Result<Plan, Failure> {
    let boilerplate =
        std::fs::read_to_string(&config.boilerplate).map_err(|e| Failure::io("boilerplate", &config.boilerplate, e))?;
    let files = parse::discover(&config.apis).map_err(|e| Failure::io("apis directory", &config.apis, e))?;
    let mut inputs = Vec::with_capacity(files.len());
    for (rel, full) in files {
        let text = std::fs::read_to_string(&full).map_err(|e| Failure::io("source file", &full, e))?;
        inputs.push((rel, text));
    }
    generate_from_sources(
        &config.apis,
        inputs,
        &config.output,
        config.documents.as_deref(),
        config.crate_name.as_deref(),
        &boilerplate,
    )
}

/// Computes the output plan from in-memory sources (relative path, text), in any order.
pub fn generate_from_sources(
    apis: &Path,
    inputs: Vec<(String, String)>,
    output: &Path,
    documents: Option<&Path>,
    crate_name: Option<&str>,
    boilerplate: &str,
) -> Result<Plan, Failure> {
    let mut diags = Diagnostics::new();
    let apis_display = apis.display().to_string();
    let sources: BTreeMap<Arc<str>, Arc<str>> = inputs
        .iter()
        .map(|(rel, text)| (parse::display_path(&apis_display, rel).into(), text.as_str().into()))
        .collect();
    let files = parse::parse_sources(&apis_display, inputs, &mut diags);
    if diags.has_errors() {
        // A file that does not parse hides its types and tags; anything checked without it
        // would only report consequences of the syntax error.
        let errors = diags.finish().err().unwrap_or(Errors(Vec::new()));
        return Err(Failure { errors, sources });
    }
    let files = parse::include_path_modules(files);
    let universe = model::build(&files, &mut diags);
    model::check::check(&universe, &mut diags);
    model::validation::check(&universe, &mut diags);
    let mut plan = Plan {
        root: output.to_path_buf(),
        documents: documents
            .map(|d| vec![d.to_path_buf(), generator::crd::crds_dir(d)])
            .unwrap_or_default(),
        ..Plan::default()
    };
    (plan.files, plan.timings) = generator::run_all(&universe, output, documents, crate_name, boilerplate, &mut diags);
    check_module_decls(&universe, apis, &plan, &mut diags);
    plan.notes = diags.take_notes();
    match diags.finish() {
        Ok(()) => Ok(plan),
        Err(errors) => Err(Failure { errors, sources }),
    }
}

/// Every generated file must be compiled into its package by a `#[path]` module declaration in
/// the package's `mod.rs`; a missing or wrong one is reported with the exact lines to write, and a
/// declaration of a file that is no longer generated is reported too.
fn check_module_decls(universe: &Universe, apis: &Path, plan: &Plan, diags: &mut Diagnostics) {
    for pkg in universe.packages.values() {
        let mod_dir = apis.join(&pkg.dir);
        for generator in generator::all() {
            let module = names::generated_module(generator.name());
            let out = plan.root.join(&pkg.dir).join(names::generated_file(generator.name()));
            let decl = pkg.module_decls.iter().find(|d| d.name == module);
            if plan.files.contains_key(&out) {
                let want = relative(&mod_dir, &out);
                if decl.and_then(|d| d.path_attr.as_deref()) != Some(want.as_str()) {
                    diags.push(missing_decl(pkg, generator.name(), &module, &want, decl.is_some()));
                }
            } else if let Some(decl) = decl.filter(|_| !generator.applies(pkg)) {
                // A generator that applies but failed has reported its own errors; only a
                // generator that does not apply at all makes the declaration stale.
                diags.push(
                    Diagnostic::error(
                        &decl.loc,
                        format!(
                            "module `{module}` is declared, but {} does not apply to package `{}`",
                            generator.tool(),
                            pkg.path
                        ),
                    )
                    .label("stale module declaration")
                    .help(format!(
                        "remove `mod {module};` and its `#[path]`, or add the tag that turns {} on ({})",
                        generator.tool(),
                        generator.activation()
                    )),
                );
            }
        }
    }
}

fn missing_decl(pkg: &Package, generator: &str, module: &str, path: &str, wrong: bool) -> Diagnostic {
    let reexport = if generator == "register" {
        format!("\npub use {module}::*;")
    } else {
        String::new()
    };
    let what = if wrong {
        "has a wrong `#[path]` for"
    } else {
        "does not include"
    };
    Diagnostic::error(
        &pkg.tag_loc(model::tags::name::GROUP_NAME),
        format!("package `{}` {what} its generated {generator} code", pkg.path),
    )
    .label(format!("`{module}` must be declared in this mod.rs"))
    .help(format!(
        "write in {}:\n#[rustfmt::skip]\n#[path = \"{path}\"]\nmod {module};{reexport}",
        pkg.mod_file
    ))
}

/// The path of `to` relative to directory `from`, with `/` separators, computed lexically on
/// absolute forms of both.
pub fn relative(from: &Path, to: &Path) -> String {
    let abs = |p: &Path| normalize(&std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf()));
    let (from, to) = (abs(from), abs(to));
    let common = from
        .components()
        .zip(to.components())
        .take_while(|(a, b)| a == b)
        .count();
    let ups = from.components().count() - common;
    let parts: Vec<String> = std::iter::repeat_n("..".to_string(), ups)
        .chain(
            to.components()
                .skip(common)
                .map(|c| c.as_os_str().to_string_lossy().into_owned()),
        )
        .collect();
    parts.join("/")
}

fn normalize(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths() {
        assert_eq!(
            relative(
                Path::new("apis/src/apps/v1"),
                Path::new("generated/apis/apps/v1/zz_generated_deepcopy.rs")
            ),
            "../../../../generated/apis/apps/v1/zz_generated_deepcopy.rs"
        );
        assert_eq!(
            relative(Path::new("x/src/a"), Path::new("x/generated/a/f.rs")),
            "../../generated/a/f.rs"
        );
        assert_eq!(
            relative(Path::new("./src/./a"), Path::new("src/gen/f.rs")),
            "../gen/f.rs"
        );
    }
}
