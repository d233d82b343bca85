//! One run: load the module tree, build and check the model, run every generator, then check
//! that each package compiles its generated files in (`mod` declarations with the right
//! `#[path]`, re-exports where generated code is called through the package path). Every error
//! of the run is collected; a failed run returns them all and plans no file.

use std::path::Path;

use crate::diag::{Diagnostic, Diagnostics, Errors, SourceLoc};
use crate::generator::{self, Context, PackageGenerator};
use crate::model::{self, Package, Universe, names};
use crate::parse::{self, tree::Sources};
use crate::render::output::Plan;
use crate::{Config, Failure, relative};

/// Display path -> text of every file a run read, for rendering diagnostics.
pub(crate) type Texts = std::collections::BTreeMap<std::sync::Arc<str>, std::sync::Arc<str>>;

/// Computes the output plan of `config` over `sources`.
pub fn plan(config: &Config, sources: &dyn Sources, boilerplate: &str) -> Result<Plan, Failure> {
    let mut diags = Diagnostics::new();
    let (universe, texts) = model_of(config, sources, boilerplate, &mut diags)?;
    let documents = config.documents.as_deref();
    if documents.is_none() {
        documents_not_written(&universe, &mut diags);
    }
    let mut owned: Vec<std::path::PathBuf> = documents
        .map(|d| {
            vec![
                d.to_path_buf(),
                generator::crd::crds_dir(d),
                generator::protobuf::proto_dir(d),
            ]
        })
        .unwrap_or_default();
    if let (Some(_), Some(crate_dir)) = (&config.crate_name, documents.and_then(Path::parent)) {
        // The generated crate's sources: a module a generator no longer writes is stale.
        owned.push(crate_dir.join("src"));
    }
    let mut plan = Plan {
        root: config.output.clone(),
        documents: owned,
        ..Plan::default()
    };
    let cx = context(&universe, config, boilerplate);
    (plan.files, plan.timings) = generator::run_all(&cx, &config.output, documents, &mut diags);
    let packages = generator::packages().into_iter().map(|g| (g.tool(), g.name()));
    let crates = generator::crates().into_iter().map(|g| (g.tool(), g.name()));
    plan.tools = packages.chain(crates).collect();
    plan.tools
        .insert(generator::crate_root::TOOL, generator::crate_root::NAME);
    check_module_decls(&universe, &config.apis, &plan, &mut diags);
    plan.notes = diags.take_notes();
    plan.warnings = diags.take_warnings();
    match diags.finish() {
        Ok(()) => Ok(plan),
        Err(errors) => Err(Failure { errors, sources: texts }),
    }
}

/// The checked model of `config`'s apis tree, with the texts read for diagnostics. Flag
/// problems and sources that do not load end the run here; the model's own errors are left in
/// `diags` so that the generators still report theirs in the same run.
pub(crate) fn model_of(
    config: &Config,
    sources: &dyn Sources,
    boilerplate: &str,
    diags: &mut Diagnostics,
) -> Result<(Universe, Texts), Failure> {
    // The flags are checked before any source is read, all of them at once.
    for (path, message) in config_problems(config, boilerplate) {
        diags.push(Diagnostic::error(&whole_file(&path), message));
    }
    if diags.has_errors() {
        let errors = std::mem::take(diags).finish().err().unwrap_or(Errors(Vec::new()));
        return Err(Failure {
            errors,
            sources: Default::default(),
        });
    }
    let apis_display = config.apis.display().to_string();
    let loaded = parse::tree::load(&apis_display, sources, diags);
    let mut texts = loaded.texts.clone();
    undeclared_files(&apis_display, sources, &loaded.undeclared, &mut texts, diags);
    if diags.has_errors() {
        // A file that does not load hides its types and tags; anything checked without it
        // would only report consequences of that error.
        let errors = std::mem::take(diags).finish().err().unwrap_or(Errors(Vec::new()));
        return Err(Failure { errors, sources: texts });
    }
    let universe = model::build(&loaded.files, diags);
    // The model holds what the generators read: the syntax trees (several times the sources'
    // size) go before the generators allocate theirs.
    drop(loaded);
    // The model keeps locations, never spans: the parsed sources' text can go too.
    proc_macro2::extra::invalidate_current_thread_spans();
    if universe.packages.is_empty() && !diags.has_errors() {
        // Nothing to generate would make every generated file stale: refuse instead.
        let lib = SourceLoc {
            file: parse::display_path(&apis_display, "lib.rs").into(),
            line: 1,
            col: 1,
            len: 1,
        };
        diags.push(
            Diagnostic::error(&lib, format!("no API package under `{apis_display}`"))
                .label("no module carries `+groupName`")
                .help(
                    "point `--apis` at the apis crate's `src/`, whose package modules carry `//! +groupName=<group>`",
                ),
        );
    }
    model::check::check(&universe, diags);
    model::validation::check(&universe, diags);
    Ok((universe, texts))
}

/// What the generators see of a run besides the model: its flags and header.
pub(crate) fn context<'a>(universe: &'a Universe, config: &'a Config, boilerplate: &'a str) -> Context<'a> {
    Context {
        universe,
        crate_name: config.crate_name.as_deref(),
        apis_crate: &config.apis_crate,
        boilerplate,
        paths: generator::Paths {
            rt: config.runtime_path.clone(),
            k8s: config.k8s_openapi_path.clone(),
            kube: config.kube_path.clone(),
            apiserver: config.apiserver_path.clone(),
        },
        validated: Default::default(),
    }
}

/// What is wrong with the run's flags and boilerplate, as (path, message) pairs.
fn config_problems(config: &Config, boilerplate: &str) -> Vec<(std::path::PathBuf, String)> {
    let mut problems = Vec::new();
    for (what, path, example) in [
        (
            "runtime",
            &config.runtime_path,
            "`::kube_apimachinery` or `crate::runtime`",
        ),
        ("k8s-openapi", &config.k8s_openapi_path, "`::k8s_openapi`"),
        ("kube", &config.kube_path, "`::kube`"),
        ("apiserver", &config.apiserver_path, "`::kube_apiserver`"),
    ] {
        if syn::parse_str::<syn::Path>(path).is_err() {
            problems.push((
                config.apis.clone(),
                format!("{what} path `{path}` is not a Rust path (such as {example})"),
            ));
        }
    }
    if let Some(name) = config.crate_name.as_deref().filter(|n| !valid_crate_name(n)) {
        problems.push((
            config.apis.clone(),
            format!(
                "crate name `{name}` is not one Cargo accepts: letters, digits, `_` and `-`, starting with a letter"
            ),
        ));
    }
    if let Some((n, line)) = boilerplate
        .lines()
        .enumerate()
        .find(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with("//"))
    {
        problems.push((
            config.boilerplate.clone(),
            format!(
                "line {} of the boilerplate is not a `//` comment (`{}`): the header heads every generated Rust file",
                n + 1,
                line.trim()
            ),
        ));
    }
    problems.extend(crate::layout::check(config));
    problems
}

/// A location naming a whole file or directory (its first line).
fn whole_file(path: &Path) -> SourceLoc {
    SourceLoc {
        file: path.display().to_string().into(),
        line: 1,
        col: 1,
        len: 1,
    }
}

/// A crate name Cargo accepts.
fn valid_crate_name(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_alphabetic())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        && name.len() <= 64
}

/// Without `--documents` no OpenAPI document or CRD is written, so tags asking for them do
/// nothing: each package that asks is reported once, at its tag.
fn documents_not_written(universe: &Universe, diags: &mut Diagnostics) {
    for pkg in universe.packages.values().filter(|p| !p.is_internal()) {
        let asks = [
            (
                pkg.attrs.openapi == Some(true),
                model::tags::name::OPENAPI,
                "OpenAPI definitions",
            ),
            (pkg.attrs.crd, model::tags::name::CRD, "CustomResourceDefinitions"),
        ];
        for (_, tag, what) in asks.into_iter().filter(|(asked, _, _)| *asked) {
            diags.push(
                Diagnostic::error(
                    &pkg.tag_loc(tag),
                    format!(
                        "package `{}` asks for {what}, but this run writes no documents",
                        pkg.path
                    ),
                )
                .label("does nothing without a documents directory")
                .help("pass `--documents <dir>` (`Config::documents`), or remove the tag"),
            );
        }
    }
}

/// Files no module declares are not compiled, so they are not read; `-v` lists them. One that
/// holds tags of ours is an error: its tags would silently do nothing (a forgotten `mod`, or an
/// editor's copy such as `types copy.rs`).
fn undeclared_files(
    root: &str,
    sources: &dyn Sources,
    files: &[String],
    texts: &mut std::collections::BTreeMap<std::sync::Arc<str>, std::sync::Arc<str>>,
    diags: &mut Diagnostics,
) {
    for rel in files {
        let display = parse::display_path(root, rel);
        let Ok(text) = sources.read(rel) else { continue };
        let tagged = text.lines().enumerate().find(|(_, l)| {
            let l = l.trim_start();
            let doc = l.strip_prefix("///").or_else(|| l.strip_prefix("//!"));
            doc.map(str::trim_start)
                .and_then(|d| d.strip_prefix('+'))
                .and_then(|d| d.split(['=', ' ', '\t']).next())
                .is_some_and(model::tags::in_our_namespace)
        });
        let Some((line, _)) = tagged else {
            diags.note(format!("{display}: not read: no module declares it"));
            continue;
        };
        let file = rel.rsplit('/').next().unwrap_or(rel);
        let module = file.trim_end_matches(".rs");
        let how = if syn::parse_str::<syn::Ident>(module).is_ok() {
            format!("declare it with `mod {module};` in its parent module, or delete it")
        } else {
            format!(
                "`{file}` is not a module name: delete the file, or declare it with `#[path = \"{file}\"] mod <name>;`"
            )
        };
        let loc = SourceLoc {
            file: display.clone().into(),
            line: line as u32 + 1,
            col: 1,
            len: 1,
        };
        texts.insert(display.clone().into(), text.clone().into());
        diags.push(
            Diagnostic::error(
                &loc,
                format!("`{display}` is not part of the crate, so its tags do nothing"),
            )
            .label("no module declares this file")
            .help(how),
        );
    }
}

/// Every generated file must be compiled into its package by a `#[path]` module declaration in
/// the package's `mod.rs`; a missing or wrong one is reported with the exact lines to write, and a
/// declaration of a file that is no longer generated is reported too.
fn check_module_decls(universe: &Universe, apis: &Path, plan: &Plan, diags: &mut Diagnostics) {
    for pkg in universe.packages.values() {
        let mod_dir = apis.join(&pkg.mod_dir);
        for generator in generator::packages() {
            let module = names::generated_module(generator.name());
            let out = plan.root.join(&pkg.dir).join(names::generated_file(generator.name()));
            let decl = pkg.module_decls.iter().find(|d| d.name == module);
            if plan.files.contains_key(&out) {
                let want = relative(&mod_dir, &out);
                let what = match decl {
                    None => "does not include",
                    Some(d) if d.path_attr.as_deref() != Some(want.as_str()) => "has a wrong `#[path]` for",
                    Some(_) if generator.reexported() && !pkg.reexports.contains(&module) => "does not re-export",
                    Some(_) => continue,
                };
                diags.push(missing_decl(pkg, generator.as_ref(), &module, &want, what));
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

/// The lines a package's `mod.rs` needs to compile one generated file in: the declaration with
/// its `#[path]`, and the re-export when generated code calls the file's items by package path.
fn missing_decl(pkg: &Package, generator: &dyn PackageGenerator, module: &str, path: &str, what: &str) -> Diagnostic {
    let reexport = if generator.reexported() {
        format!("\npub use {module}::*;")
    } else {
        String::new()
    };
    Diagnostic::error(
        &pkg.tag_loc(model::tags::name::GROUP_NAME),
        format!("package `{}` {what} its generated {} code", pkg.path, generator.name()),
    )
    .label(format!("`{module}` must be declared in this mod.rs"))
    .help(format!(
        "write in {}:\n#[rustfmt::skip]\n#[path = \"{path}\"]\nmod {module};{reexport}",
        pkg.mod_file
    ))
}
