//! The generated crate (`--crate-name`) around the cross-package outputs: its `Cargo.toml` with
//! the dependencies of the modules present, and `src/lib.rs` declaring them. Each generator
//! writes its own module's files; this assembles the crate from whichever produced files.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use super::{Context, CrateGenerator};
use crate::diag::{Diagnostic, Diagnostics, SourceLoc};
use crate::render::output::GeneratedFile;

/// The tool name in the crate root's marker.
pub const TOOL: &str = "codegen";
/// The name the crate root's files are counted under.
pub const NAME: &str = "crate";

/// A module a whole-universe generator adds to the generated crate.
#[derive(Clone, Copy, Debug)]
pub struct CrateModule {
    /// The module (`clientset`): its file is `src/<name>.rs` or `src/<name>/mod.rs`.
    pub name: &'static str,
    /// What it holds, for the crate's description.
    pub summary: &'static str,
    /// Items re-exported at the crate root, so callers keep short paths.
    pub reexports: &'static [&'static str],
    /// The workspace dependencies its code names, `name/feature` for one that needs a feature
    /// (`runtime/client`); `apis` stands for the apis crate.
    pub dependencies: &'static [&'static str],
    /// Cargo features of the crate as (feature, dependency it turns on, written as above).
    pub features: &'static [(&'static str, &'static str)],
}

/// The dependency a module's code reaches as `dep`, named as the configuration says, and whether
/// it is that crate itself (not another crate's re-export of it): `apis` is the apis crate; the
/// runtime, kube and k8s-openapi are the crates their configured paths start with
/// (`--runtime-path ::my_api::runtime` depends on `my_api`, the apis crate when it is that one),
/// none for a path into the crate itself (`crate::runtime`).
fn dependency_name(cx: &Context<'_>, dep: &str) -> Option<(String, bool)> {
    // The Cargo package of a crate named by its default path (`::kube_apimachinery`).
    let configured = |path: &str, default: &str| {
        if path == default {
            let package = default.trim_start_matches("::").replace('_', "-");
            return Some((package, true));
        }
        let first = super::Paths::dependency(path)?;
        let apis = cx.apis_crate.replace('-', "_") == first;
        // `::runtime` names the crate itself under another name (a renamed dependency), which
        // takes its features; `::my_api::runtime` is another crate's re-export of it.
        let itself = !apis && path.trim_start_matches("::") == first;
        Some((
            if apis {
                cx.apis_crate.to_string()
            } else {
                first.to_string()
            },
            itself,
        ))
    };
    match dep {
        "apis" => Some((cx.apis_crate.to_string(), true)),
        "runtime" => configured(&cx.paths.rt, crate::DEFAULT_RUNTIME_PATH),
        "kube" => configured(&cx.paths.kube, crate::DEFAULT_KUBE_PATH),
        "kube-apiserver" => configured(&cx.paths.apiserver, crate::DEFAULT_APISERVER_PATH),
        "k8s-openapi" => configured(&cx.paths.k8s, crate::DEFAULT_K8S_OPENAPI_PATH),
        other => Some((other.to_string(), true)),
    }
}

/// The crate's `Cargo.toml` and `src/lib.rs` for the modules whose files are in `files`.
pub fn files(
    cx: &Context<'_>,
    name: &str,
    dir: &Path,
    generators: &[Box<dyn CrateGenerator>],
    files: &BTreeMap<PathBuf, GeneratedFile>,
    diags: &mut Diagnostics,
) -> Vec<(PathBuf, String)> {
    let src = dir.join("src");
    let modules: Vec<CrateModule> = generators
        .iter()
        .filter_map(|g| g.crate_module())
        .filter(|m| {
            files.contains_key(&src.join(format!("{}.rs", m.name)))
                || files.contains_key(&src.join(m.name).join("mod.rs"))
        })
        .collect();
    if modules.is_empty() {
        return Vec::new();
    }
    let summary = modules.iter().map(|m| m.summary).collect::<Vec<_>>().join("; ");
    let manifest = manifest(cx, name, &summary, &modules);
    let doc = format!(" Cross-package outputs of the generators: {summary}.");
    match lib_rs(cx, &doc, &modules) {
        Ok(lib) => vec![(dir.join("Cargo.toml"), manifest), (src.join("lib.rs"), lib)],
        Err(e) => {
            let loc = SourceLoc {
                file: dir.display().to_string().into(),
                line: 1,
                col: 1,
                len: 1,
            };
            diags.push(Diagnostic::error(&loc, e));
            Vec::new()
        }
    }
}

/// The crate's `Cargo.toml`: the dependencies its modules name (each with the features they
/// need, optional where only a feature of the crate turns it on) and those features.
fn manifest(cx: &Context<'_>, name: &str, summary: &str, modules: &[CrateModule]) -> String {
    // Each dependency with its features and whether only a feature of the crate turns it on.
    let mut dependencies: BTreeMap<String, (BTreeSet<&str>, bool)> = BTreeMap::new();
    let mut features: BTreeMap<&str, BTreeSet<String>> = BTreeMap::new();
    let mut add = |d: &'static str, optional: bool| {
        let (dep, feature) = d.split_once('/').map_or((d, None), |(n, f)| (n, Some(f)));
        let (dep, own) = dependency_name(cx, dep)?;
        // A crate reached through another's re-export comes with the features that crate gives it.
        let feature = feature.filter(|_| own);
        let entry = dependencies
            .entry(dep.clone())
            .or_insert_with(|| (BTreeSet::new(), optional));
        entry.0.extend(feature);
        entry.1 &= optional;
        Some(dep)
    };
    for m in modules {
        for d in m.dependencies {
            add(d, false);
        }
        for (feature, d) in m.features {
            if let Some(dep) = add(d, true) {
                features.entry(feature).or_default().insert(dep);
            }
        }
    }
    let mut manifest = format!(
        "# Code generated by {TOOL}. DO NOT EDIT.\n\n[package]\nname = \"{name}\"\nversion = \"0.1.0\"\n\
         description = \"Cross-package outputs of the generators: {summary}.\"\n\
         edition.workspace = true\npublish = false\n\n[dependencies]\n"
    );
    for (d, (features, optional)) in &dependencies {
        let mut settings = vec!["workspace = true".to_string()];
        if !features.is_empty() {
            let features: Vec<String> = features.iter().map(|f| format!("{f:?}")).collect();
            settings.push(format!("features = [{}]", features.join(", ")));
        }
        if *optional {
            settings.push("optional = true".into());
        }
        match settings.as_slice() {
            [only] => manifest.push_str(&format!("{d}.{only}\n")),
            _ => manifest.push_str(&format!("{d} = {{ {} }}\n", settings.join(", "))),
        }
    }
    if !features.is_empty() {
        manifest.push_str("\n[features]\n");
        for (feature, deps) in &features {
            let deps: Vec<String> = deps
                .iter()
                .filter(|d| dependencies.get(*d).is_some_and(|(_, optional)| *optional))
                .map(|d| format!("\"dep:{d}\""))
                .collect();
            manifest.push_str(&format!("{feature} = [{}]\n", deps.join(", ")));
        }
    }
    manifest
}

/// The crate's `src/lib.rs`: the modules present, with their re-exports.
fn lib_rs(cx: &Context<'_>, doc: &str, modules: &[CrateModule]) -> Result<String, String> {
    let decls = modules.iter().map(|m| {
        let module = quote::format_ident!("{}", m.name);
        let reexports = m.reexports.iter().map(|r| quote::format_ident!("{}", r));
        let reexport = (!m.reexports.is_empty()).then(|| quote::quote! { pub use #module::{#(#reexports),*}; });
        // rustfmt descends into a module's files unless its declaration is skipped.
        quote::quote! { #[rustfmt::skip] pub mod #module; #reexport }
    });
    let tokens = quote::quote! {
        #![doc = #doc]
        #![deny(missing_docs)]
        // prettyplease formats these files identically on every machine; cargo fmt leaves them be.
        #![cfg_attr(rustfmt, rustfmt::skip)]
        #(#decls)*
    };
    crate::render::format::render(TOOL, cx.boilerplate, tokens)
}
