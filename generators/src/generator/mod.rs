//! The generator interface and the registry of generators. Each generator reads the model only
//! and returns the tokens of one in-package file per package it applies to.

pub mod applyconfigurations;
pub mod clientset;
pub mod conversion;
pub mod crate_root;
pub mod crd;
pub mod deepcopy;
pub mod defaults;
pub mod informers;
pub mod lifecycle;
pub mod listers;
pub mod openapi;
pub mod protobuf;
pub mod register;
pub mod validation;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use proc_macro2::TokenStream;

use crate::diag::{Diagnostic, Diagnostics};
use crate::model::{Package, TypeId, TypeRef, Universe, names};
use crate::render::output::GeneratedFile;

/// What every generator sees besides the package at hand.
pub struct Context<'a> {
    /// The whole model, for cross-package lookups.
    pub universe: &'a Universe,
    /// The crate that exposes whole-universe documents to Rust, if one is generated.
    pub crate_name: Option<&'a str>,
    /// How the generated crate names the apis crate (`apis`), for paths to its types.
    pub apis_crate: &'a str,
    /// The file header.
    pub boilerplate: &'a str,
    /// How generated code names the crates it links against, checked to be paths.
    pub paths: Paths,
    /// The named types with a generated validation function: a fixpoint over the whole universe,
    /// computed by the first validation job that asks and shared by the others.
    pub(crate) validated: std::sync::OnceLock<std::collections::BTreeSet<TypeId>>,
}

/// How generated code names the crates it links against (`Config::runtime_path`,
/// `k8s_openapi_path`, `kube_path`, `apiserver_path`); templates read them as `paths.rt`,
/// `paths.k8s`, `paths.kube`, `paths.apiserver`.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Paths {
    /// The runtime crate (`::runtime`).
    pub rt: String,
    /// k8s-openapi (`::k8s_openapi`).
    pub k8s: String,
    /// kube (`::kube`).
    pub kube: String,
    /// The API server crate the fake clientset runs on (`::kube_apiserver`).
    pub apiserver: String,
}

impl Paths {
    /// The crate a path names by its first segment, as the generated crate's manifest depends on
    /// it (`::runtime` -> `runtime`); `None` for a path into the crate itself (`crate::...`).
    pub fn dependency(path: &str) -> Option<&str> {
        let first = path.strip_prefix("::")?.split("::").next()?;
        (!first.is_empty()).then_some(first)
    }
}

impl Context<'_> {
    /// The directory of a module of the generated crate (`src/clientset`), when the run
    /// generates the crate: it is the parent of the documents directory `root`.
    pub fn crate_module_dir(&self, root: &Path, module: &str) -> Option<PathBuf> {
        self.crate_name?;
        Some(root.parent()?.join("src").join(module))
    }

    /// The runtime crate's path, for `quote!`: `#rt::Scheme`.
    pub fn rt(&self) -> syn::Path {
        parsed(&self.paths.rt)
    }

    /// k8s-openapi's path, for `quote!`: `#k8s::NamespaceResourceScope`.
    pub fn k8s(&self) -> syn::Path {
        parsed(&self.paths.k8s)
    }

    /// A type in code of the generated crate: `named` writes a type of the apis crate (its own
    /// path, or its apply configuration's), an external type goes through the configured crate
    /// paths, and maps are ordered, so output does not depend on hashing.
    pub fn rust_type(&self, t: &TypeRef, named: &dyn Fn(&TypeId) -> String) -> String {
        match t {
            TypeRef::Primitive(p) => p.as_str().to_string(),
            TypeRef::String => "String".into(),
            TypeRef::Option(i) => format!("Option<{}>", self.rust_type(i, named)),
            TypeRef::Vec(i) => format!("Vec<{}>", self.rust_type(i, named)),
            TypeRef::Box(i) => format!("Box<{}>", self.rust_type(i, named)),
            TypeRef::Map { key, value, .. } => format!(
                "::std::collections::BTreeMap<{}, {}>",
                self.rust_type(key, named),
                self.rust_type(value, named)
            ),
            TypeRef::Named(id) => named(id),
            TypeRef::External(_, path) => self.external_path(path),
            TypeRef::Unsupported(written, _) | TypeRef::Unresolved(written) => written.clone(),
        }
    }

    /// A k8s-openapi, runtime or kube type as generated code names it: through the configured
    /// path of its crate (`k8s_openapi::api::core::v1::Pod` -> `::k8s_openapi::api::core::v1::Pod`).
    pub fn external_path(&self, path: &str) -> String {
        let path = path.trim_start_matches("::");
        let crates = [
            ("k8s_openapi::", &self.paths.k8s),
            ("runtime::", &self.paths.rt),
            ("kube::", &self.paths.kube),
        ];
        for (prefix, to) in crates {
            if let Some(rest) = path.strip_prefix(prefix) {
                return format!("{to}::{rest}");
            }
        }
        format!("::{path}")
    }

    /// A type of the apis crate as the generated crate names it: packages re-export their
    /// types, so `crate::apps::v1` + `Deployment` is `::apis::apps::v1::Deployment`.
    pub fn apis_path(&self, package: &str, name: &str) -> String {
        let below = package.strip_prefix("crate").unwrap_or(package);
        format!("::{}{below}::{name}", self.apis_crate.replace('-', "_"))
    }

    /// The functions the package's generated files register into its SchemeBuilder, in the
    /// order of the generators (Go's generated files add theirs to localSchemeBuilder in init()).
    pub fn scheme_registrations(&self, pkg: &Package) -> Vec<syn::Path> {
        packages()
            .iter()
            .filter(|g| g.applies(pkg))
            .filter_map(|g| {
                let f = g.registers()?;
                let module = names::generated_module(g.name());
                Some(type_path(&format!("super::{module}"), f))
            })
            .collect()
    }
}

/// A configured crate path; the settings are checked before any generator runs.
fn parsed(path: &str) -> syn::Path {
    match syn::parse_str(path) {
        Ok(p) => p,
        Err(e) => panic!("crate path `{path}` is not a path: {e}"),
    }
}

/// A generator of one in-package file per package (gengo's Generator over a package Target):
/// `zz_generated_<name>.rs` beside the package's types, compiled into the apis crate.
///
/// Call order: `applies` once per package, in Universe order (module path order); for each package
/// it applies to, `generate_package` once. A generator that applies to a package but has nothing
/// to write reports that as an error, because a tag that does nothing is a mistake.
pub trait PackageGenerator: Sync {
    /// Short name: `deepcopy` writes `zz_generated_deepcopy.rs`.
    fn name(&self) -> &'static str;

    /// The tool name written in the file header (`deepcopy-gen`), after code-generator's binaries.
    fn tool(&self) -> &'static str;

    /// Whether the package's tags ask for this generator.
    fn applies(&self, pkg: &Package) -> bool;

    /// The tags that make `applies` true, for messages.
    fn activation(&self) -> &'static str;

    /// The file's items for one package, or `None` with errors pushed into `diags`.
    fn generate_package(&self, cx: &Context<'_>, pkg: &Package, diags: &mut Diagnostics) -> Option<TokenStream>;

    /// The function of its file that joins the package's SchemeBuilder (`register_conversions`),
    /// if it has one; the register generator asks every generator, it names none.
    fn registers(&self) -> Option<&'static str> {
        None
    }

    /// Whether the package re-exports the generated module (`pub use zz_generated_x::*;`),
    /// because generated code elsewhere calls its items through the package's path.
    fn reexported(&self) -> bool {
        false
    }
}

/// A generator of outputs about the whole universe (gengo's Generator over the whole run): the
/// documents beside the apis (OpenAPI, CRDs, protobuf IDL), or a module of the generated crate.
///
/// Call order: once per run, after every package generator, and only when the run writes
/// documents (`Config::documents`).
pub trait CrateGenerator: Sync {
    /// Short name, under which its files and time are counted (`clientset`).
    fn name(&self) -> &'static str;

    /// The tool name written in the files' marker (`client-gen`).
    fn tool(&self) -> &'static str;

    /// The module this generator adds to the generated crate (`--crate-name`), if any; its
    /// files come from `generate`, below the crate's `src/`.
    fn crate_module(&self) -> Option<crate_root::CrateModule> {
        None
    }

    /// Its files as (path under `root`, the documents directory, or its parent's crate), contents.
    fn generate(&self, cx: &Context<'_>, root: &Path, diags: &mut Diagnostics) -> Vec<(PathBuf, String)>;
}

/// One unit of a run's work: a package generator on one package, or a whole-universe generator.
#[derive(Clone, Copy)]
enum Job<'g> {
    Package(&'g dyn PackageGenerator, &'g Package),
    Crate(&'g dyn CrateGenerator),
}

/// Runs every generator over every package it applies to, and every whole-universe generator
/// when the run writes documents, and renders the files.
///
/// The jobs are independent, so they are spread over the machine's cores from one queue: the
/// whole-universe generators first (the largest jobs: apply configurations, OpenAPI), then the
/// (generator, package) pairs, each worker taking the next job when it is done, so that no core
/// waits while another has a backlog. Parsing rendered text back into `syn::File` and formatting
/// dominate the run. Results are merged in job order into ordered maps and diagnostics are
/// sorted, so the output does not depend on scheduling. Timings are the CPU time spent per
/// generator.
pub fn run_all(
    cx: &Context<'_>,
    output: &Path,
    documents: Option<&Path>,
    diags: &mut Diagnostics,
) -> (BTreeMap<PathBuf, GeneratedFile>, BTreeMap<&'static str, Duration>) {
    let universe = cx.universe;
    let generators = packages();
    let crates = crates();
    let mut jobs: Vec<Job<'_>> = Vec::new();
    if documents.is_some() {
        jobs.extend(crates.iter().map(|g| Job::Crate(g.as_ref())));
    }
    for generator in &generators {
        for pkg in universe.packages.values() {
            if generator.applies(pkg) {
                jobs.push(Job::Package(generator.as_ref(), pkg));
            } else {
                diags.note(format!(
                    "{}: {}: package `{}` skipped: no {}",
                    pkg.mod_file,
                    generator.name(),
                    pkg.path,
                    generator.activation()
                ));
            }
        }
    }
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .clamp(1, jobs.len().max(1));
    let next = std::sync::atomic::AtomicUsize::new(0);
    let run = |job: Job<'_>| match job {
        Job::Package(g, pkg) => run_one(cx, g, pkg, output),
        Job::Crate(g) => run_crate(cx, g, documents.unwrap_or(output)),
    };
    let work = || {
        let mut done = Vec::new();
        loop {
            let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let Some(&job) = jobs.get(i) else { break done };
            done.push((i, run(job)));
            // Every text a job parses (templates' output, paths) stays in proc-macro2's
            // per-thread source map for span locations; no span outlives its job, so the map
            // is emptied between jobs rather than holding a copy of the whole output.
            proc_macro2::extra::invalidate_current_thread_spans();
        }
    };
    // The calling thread is one of the workers: it reuses the memory the parse freed, where a
    // new thread's allocator would take more from the system.
    let mut results: Vec<(usize, JobResult)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (1..threads).map(|_| scope.spawn(work)).collect();
        let mut results = work();
        for w in workers {
            results.extend(w.join().unwrap_or_else(|e| std::panic::resume_unwind(e)));
        }
        results
    });
    results.sort_by_key(|(i, _)| *i);
    let mut files = BTreeMap::new();
    let mut timings: BTreeMap<&'static str, Duration> = generators
        .iter()
        .map(|g| g.name())
        .chain(crates.iter().map(|g| g.name()))
        .map(|name| (name, Duration::ZERO))
        .collect();
    for (_, r) in results {
        diags.extend(r.diags);
        *timings.entry(r.generator).or_default() += r.time;
        for (path, file) in r.files {
            files.insert(path, file);
        }
    }
    if let (Some(root), Some(name)) = (documents, cx.crate_name)
        && let Some(dir) = root.parent()
    {
        let started = Instant::now();
        for (path, contents) in crate_root::files(cx, name, dir, &crates, &files, diags) {
            files.insert(
                path,
                GeneratedFile {
                    generator: crate_root::NAME,
                    contents,
                },
            );
        }
        timings.insert(crate_root::NAME, started.elapsed());
    }
    (files, timings)
}

/// What one job produced.
pub(crate) struct JobResult {
    generator: &'static str,
    files: Vec<(PathBuf, GeneratedFile)>,
    diags: Diagnostics,
    time: Duration,
}

impl JobResult {
    /// The files, or the job's errors; warnings and notes are dropped.
    pub(crate) fn into_files(self) -> Result<Vec<(PathBuf, GeneratedFile)>, crate::Errors> {
        self.diags.finish().map(|()| self.files)
    }
}

/// Runs a whole-universe generator with diagnostics of its own.
pub(crate) fn run_crate(cx: &Context<'_>, generator: &dyn CrateGenerator, root: &Path) -> JobResult {
    let started = Instant::now();
    let mut diags = Diagnostics::new();
    let files = generator
        .generate(cx, root, &mut diags)
        .into_iter()
        .map(|(path, contents)| {
            let file = GeneratedFile {
                generator: generator.name(),
                contents,
            };
            (path, file)
        })
        .collect();
    JobResult {
        generator: generator.name(),
        files,
        diags,
        time: started.elapsed(),
    }
}

pub(crate) fn run_one(cx: &Context<'_>, generator: &dyn PackageGenerator, pkg: &Package, output: &Path) -> JobResult {
    let started = Instant::now();
    let mut diags = Diagnostics::new();
    let file = generator.generate_package(cx, pkg, &mut diags).and_then(|tokens| {
        match crate::render::format::render(generator.tool(), cx.boilerplate, tokens) {
            Ok(contents) => {
                let path = output.join(&pkg.dir).join(names::generated_file(generator.name()));
                Some((
                    path,
                    GeneratedFile {
                        generator: generator.name(),
                        contents,
                    },
                ))
            }
            Err(e) => {
                diags.push(Diagnostic::error(&pkg.tag_loc(crate::model::tags::name::GROUP_NAME), e));
                None
            }
        }
    });
    JobResult {
        generator: generator.name(),
        files: file.into_iter().collect(),
        diags,
        time: started.elapsed(),
    }
}

/// Every in-package generator, in the order their files register into the SchemeBuilder.
pub fn packages() -> Vec<Box<dyn PackageGenerator>> {
    vec![
        Box::new(deepcopy::Deepcopy),
        Box::new(register::Register),
        Box::new(conversion::Conversion),
        Box::new(defaults::Defaults),
        Box::new(validation::Validation),
        Box::new(lifecycle::Lifecycle),
        Box::new(protobuf::Protobuf),
    ]
}

/// Every whole-universe generator, in the order their files are counted.
pub fn crates() -> Vec<Box<dyn CrateGenerator>> {
    vec![
        Box::new(openapi::OpenApi),
        Box::new(crd::Crd),
        Box::new(protobuf::Protobuf),
        Box::new(clientset::Clientset),
        Box::new(applyconfigurations::ApplyConfigurations),
        Box::new(listers::Listers),
        Box::new(informers::Informers),
    ]
}

/// The one renderer of the template generators: each `render` fills a template from its context
/// struct into a file, or reports why not at the file whose tags asked for the output.
pub(crate) struct Templates<'a> {
    cx: &'a Context<'a>,
    tool: &'static str,
    files: Vec<(PathBuf, String)>,
    diags: &'a mut Diagnostics,
}

impl<'a> Templates<'a> {
    /// A renderer of `tool`'s files.
    pub fn new(cx: &'a Context<'a>, tool: &'static str, diags: &'a mut Diagnostics) -> Self {
        Templates {
            cx,
            tool,
            files: Vec::new(),
            diags,
        }
    }

    /// Renders `template` (below `templates/`) with `context` into `path`; a failure is an error
    /// at `at`.
    pub fn render(&mut self, template: &str, context: &impl serde::Serialize, path: PathBuf, at: &std::sync::Arc<str>) {
        let cx = self.cx;
        match crate::render::template::render(self.tool, cx.boilerplate, template, context, &cx.paths) {
            Ok(text) => self.files.push((path, text)),
            Err(e) => {
                let loc = crate::diag::SourceLoc {
                    file: at.clone(),
                    line: 1,
                    col: 1,
                    len: 1,
                };
                self.diags.push(Diagnostic::error(&loc, e));
            }
        }
    }

    /// The files rendered.
    pub fn finish(self) -> Vec<(PathBuf, String)> {
        self.files
    }
}

/// Parses a model path (`crate::apps::v1::types`) joined with a name into a path for generated
/// code. Model paths are built from identifiers, so this cannot fail on a built model.
pub fn type_path(module: &str, name: &str) -> syn::Path {
    syn::parse_str(&format!("{module}::{name}"))
        .unwrap_or_else(|e| panic!("model path `{module}::{name}` is not a path: {e}"))
}

/// A hand-written function that generated code calls must have the signature generated code
/// calls it with: `expected` is that signature as Rust writes it, for the message.
pub fn check_signature(
    f: &crate::model::Function,
    params: &[(crate::model::Pass, &crate::model::TypeId)],
    returns: &crate::model::Returns,
    expected: &str,
    diags: &mut Diagnostics,
) -> bool {
    if f.has_signature(params, returns) {
        return true;
    }
    let params: Vec<&str> = f.params.iter().map(|p| p.written.as_str()).collect();
    let returns = match &f.returns {
        crate::model::Returns::Unit => String::new(),
        crate::model::Returns::ConversionResult => " -> Result<(), ConversionError>".into(),
        crate::model::Returns::Other(t) => format!(" -> {t}"),
    };
    diags.push(
        Diagnostic::error(&f.loc, format!("hand-written `{}` has the wrong signature", f.name))
            .label(format!("found `fn {}({}){returns}`", f.name, params.join(", ")))
            .help(format!(
                "write it as `{expected}`, or rename it if it is not meant for generated code"
            )),
    );
    false
}

/// A hand-written function (conversion, defaulting) is called through its package's path, so its
/// module must be re-exported there (`pub use conversion::*;`), as generated functions are.
pub fn check_reexported(pkg: &Package, f: &crate::model::Function, diags: &mut Diagnostics) {
    let module = f.module.rsplit("::").next().unwrap_or_default();
    if f.module != pkg.path && !pkg.reexports.iter().any(|r| r == module) {
        diags.push(
            Diagnostic::error(
                &f.loc,
                format!("hand-written `{}` is not visible at `{}`", f.name, pkg.path),
            )
            .label("generated code calls it through the package path")
            .help(format!("add `pub use {module}::*;` to {}", pkg.mod_file)),
        );
    }
}
