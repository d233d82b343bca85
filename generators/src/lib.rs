//! Code generators for Kubernetes-style Rust API types: the Rust counterpart of code-generator.
//!
//! One pipeline, one direction: `parse` (the module tree from `lib.rs`, syn, tag extraction) ->
//! `model` (one checked, immutable Universe that decides every Kubernetes fact) -> `generator`
//! (one module per generator, model in, tokens or documents out) -> `render` (prettyplease,
//! header, output plan). The library owns all logic; `cargo xtask` and the `kube-code-generator`
//! binary are thin front-ends over this facade: a [`Config`], [`generate`], the [`Plan`] it
//! returns (with [`verify`] and [`apply`]), and the [`Failure`] that carries every diagnostic of a
//! failed run.
//!
//! # Layers
//!
//! Top to bottom; a module uses only the modules of the layers below its own:
//!
//! 1. [`bench`], [`run`]: the benchmarks' and the front-ends' entry points.
//! 2. `pipeline`, [`import_go`]: one run, from sources to a checked plan; the Go importer,
//!    which asks the model which generated files an imported package compiles in.
//! 3. `layout`: where a run writes, checked before anything is planned.
//! 4. `generator`: one module per generator; none imports another.
//! 5. `model`, `render`: the checked model that decides every Kubernetes fact; formatting, headers
//!    and the output plan.
//! 6. `parse`: the module tree, syn, tags and serde attributes as written.
//! 7. `diag`: located diagnostics.

#![deny(missing_docs)]

#[doc(hidden)]
pub mod bench;
mod diag;
mod generator;
pub mod import_go;
mod layout;
mod model;
mod parse;
mod pipeline;
mod render;
pub mod run;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub use diag::{Diagnostic, Errors, SourceLoc};
pub use render::output::{Counts, GeneratedFile, Plan, Problem, is_generated, verify};
pub use render::write::{ApplyError, Fs, RealFs, Refusal, apply, apply_with, check};

/// The default path generated code names the runtime crate (kube-apimachinery) by.
pub const DEFAULT_RUNTIME_PATH: &str = "::kube_apimachinery";
/// The default path generated code names k8s-openapi by.
pub const DEFAULT_K8S_OPENAPI_PATH: &str = "::k8s_openapi";
/// The default path generated code names kube by.
pub const DEFAULT_KUBE_PATH: &str = "::kube";
/// The default path the generated fake clientset names the API server crate by.
pub const DEFAULT_APISERVER_PATH: &str = "::kube_apiserver";

/// What to generate from where, built from the apis directory with chained settings:
/// `Config::new("apis/src").output("generated/apis").documents("generated/openapi")`.
#[derive(Clone, Debug)]
pub struct Config {
    apis: PathBuf,
    output: PathBuf,
    boilerplate: PathBuf,
    documents: Option<PathBuf>,
    crate_name: Option<String>,
    apis_crate: String,
    runtime_path: String,
    k8s_openapi_path: String,
    kube_path: String,
    apiserver_path: String,
}

impl Config {
    /// A run over the apis crate's source directory (its `src/`, as messages should show it),
    /// writing in-package outputs to `generated/apis` with the header `hack/boilerplate.rs.txt`.
    pub fn new(apis: impl Into<PathBuf>) -> Self {
        Config {
            apis: apis.into(),
            output: "generated/apis".into(),
            boilerplate: "hack/boilerplate.rs.txt".into(),
            documents: None,
            crate_name: None,
            apis_crate: "apis".into(),
            runtime_path: DEFAULT_RUNTIME_PATH.into(),
            k8s_openapi_path: DEFAULT_K8S_OPENAPI_PATH.into(),
            kube_path: DEFAULT_KUBE_PATH.into(),
            apiserver_path: DEFAULT_APISERVER_PATH.into(),
        }
    }

    /// The root of the in-package outputs: `<root>/<group>/<version>/zz_generated_*.rs`.
    pub fn output(mut self, dir: impl Into<PathBuf>) -> Self {
        self.output = dir.into();
        self
    }

    /// The file whose text heads every generated file.
    pub fn boilerplate(mut self, file: impl Into<PathBuf>) -> Self {
        self.boilerplate = file.into();
        self
    }

    /// Where whole-universe documents go (OpenAPI; CRD manifests go beside it, in `crds/`).
    pub fn documents(mut self, dir: impl Into<PathBuf>) -> Self {
        self.documents = Some(dir.into());
        self
    }

    /// With documents: the name of the crate generated in their parent directory, which exposes
    /// them to Rust (`get_openapi_definitions()`).
    pub fn crate_name(mut self, name: impl Into<String>) -> Self {
        self.crate_name = Some(name.into());
        self
    }

    /// The apis crate's name as the generated crate depends on it (default `apis`): the
    /// clientset names its types `::<apis_crate>::apps::v1::Deployment`.
    pub fn apis_crate(mut self, name: impl Into<String>) -> Self {
        self.apis_crate = name.into();
        self
    }

    /// How generated code names the runtime crate (default `::runtime`), like prost-build's
    /// `prost_path`: for a crate that re-exports it, `crate::runtime` or `::my_api::runtime`.
    /// The generated crate's manifest depends on the crate a `::<name>` path starts with.
    pub fn runtime_path(mut self, path: impl Into<String>) -> Self {
        self.runtime_path = path.into();
        self
    }

    /// How generated code names k8s-openapi (default `::k8s_openapi`), like prost-build's
    /// `extern_path`: `::my_api::k8s_openapi` for a crate that re-exports it.
    pub fn k8s_openapi_path(mut self, path: impl Into<String>) -> Self {
        self.k8s_openapi_path = path.into();
        self
    }

    /// How generated code names kube (default `::kube`).
    pub fn kube_path(mut self, path: impl Into<String>) -> Self {
        self.kube_path = path.into();
        self
    }

    /// How the generated fake clientset names the API server crate it runs on (default
    /// `::kube_apiserver`, with its `local` feature): its `in_memory` server, `Config`,
    /// `ApiError` and `local` module.
    pub fn apiserver_path(mut self, path: impl Into<String>) -> Self {
        self.apiserver_path = path.into();
        self
    }

    /// The apis directory.
    pub fn apis(&self) -> &Path {
        &self.apis
    }

    /// The in-package output root.
    pub fn output_root(&self) -> &Path {
        &self.output
    }

    /// The header file.
    pub fn boilerplate_file(&self) -> &Path {
        &self.boilerplate
    }
}

/// The generated crate a crate asks for in its manifest (`[package.metadata.codegen]`), which
/// the fixtures use to get a clientset beside them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GeneratedCrate {
    /// `crate-name = "..."`: the generated crate's name.
    pub crate_name: String,
    /// The crate's own package name, which the generated crate depends on.
    pub package: String,
    /// `runtime-path`: how generated code names the runtime, where not the default.
    pub runtime_path: Option<String>,
    /// `kube-path`: how generated code names kube, where not the default.
    pub kube_path: Option<String>,
    /// `k8s-openapi-path`: how generated code names k8s-openapi, where not the default.
    pub k8s_openapi_path: Option<String>,
    /// `apiserver-path`: how the fake clientset names the API server crate, where not the default.
    pub apiserver_path: Option<String>,
}

impl GeneratedCrate {
    /// The settings of the crate in `manifest_dir`; `None` without `crate-name`.
    pub fn of(manifest_dir: &Path) -> Option<Self> {
        let manifest = std::fs::read_to_string(manifest_dir.join("Cargo.toml")).ok()?;
        let value = |key: &str| {
            manifest.lines().find_map(|l| {
                let (k, v) = l.split_once('=')?;
                (k.trim() == key).then(|| v.trim().trim_matches('"').to_string())
            })
        };
        Some(GeneratedCrate {
            crate_name: value("crate-name")?,
            package: value("name")?,
            runtime_path: value("runtime-path"),
            kube_path: value("kube-path"),
            k8s_openapi_path: value("k8s-openapi-path"),
            apiserver_path: value("apiserver-path"),
        })
    }

    /// `config` generating this crate: its name, the apis crate it depends on, the paths.
    pub fn configure(&self, config: Config) -> Config {
        let mut config = config.crate_name(&self.crate_name).apis_crate(&self.package);
        if let Some(path) = &self.runtime_path {
            config = config.runtime_path(path);
        }
        if let Some(path) = &self.kube_path {
            config = config.kube_path(path);
        }
        if let Some(path) = &self.k8s_openapi_path {
            config = config.k8s_openapi_path(path);
        }
        if let Some(path) = &self.apiserver_path {
            config = config.apiserver_path(path);
        }
        config
    }
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

    fn at(path: &Path, message: String) -> Self {
        let loc = SourceLoc {
            file: path.display().to_string().into(),
            line: 1,
            col: 1,
            len: 1,
        };
        Failure {
            errors: Errors(vec![Diagnostic::error(&loc, message)]),
            sources: BTreeMap::new(),
        }
    }
}

/// Reads the apis tree and the boilerplate from disk and computes the output plan.
pub fn generate(config: &Config) -> Result<Plan, Failure> {
    let boilerplate = std::fs::read_to_string(&config.boilerplate)
        .map_err(|e| Failure::at(&config.boilerplate, format!("cannot read boilerplate: {e}")))?;
    if !config.apis.is_dir() {
        return Err(Failure::at(
            &config.apis,
            "cannot read apis directory: not a directory".into(),
        ));
    }
    pipeline::plan(config, &parse::tree::Disk(config.apis.clone()), &boilerplate)
}

/// Computes the output plan from in-memory sources (path relative to the apis directory, text),
/// in any order, with the boilerplate text given.
pub fn generate_from_sources(
    config: &Config,
    inputs: Vec<(String, String)>,
    boilerplate: &str,
) -> Result<Plan, Failure> {
    pipeline::plan(config, &parse::tree::Memory(inputs.into_iter().collect()), boilerplate)
}

/// Every `.rs` file below `dir` as (path relative to `dir` with `/`, text), in path order: the
/// in-memory form `generate_from_sources` takes.
pub fn read_sources(dir: &Path) -> std::io::Result<Vec<(String, String)>> {
    parse::discover(dir)?
        .into_iter()
        .map(|(rel, full)| Ok((rel, std::fs::read_to_string(full)?)))
        .collect()
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
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
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
