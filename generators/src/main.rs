//! The `kube-code-generator` binary: runs every generator on one apis tree, for repositories
//! other than this one (this repository's `cargo xtask codegen` calls the same library).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// mimalloc: a run builds and drops millions of small token trees and strings, which glibc's
/// malloc serves with a fifth of the run's time (perf, all of k8s.io/api).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Kubernetes' code-generator for Rust API types: reads the doc-comment tags of an API crate and
/// writes deep copies, Scheme registration, conversions, defaults, validation, lifecycles,
/// protobuf, and with --documents OpenAPI, CRDs and a crate of clients, listers and informers.
#[derive(Parser)]
#[command(name = "kube-code-generator", version, args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    generate: Args,
}

#[derive(Subcommand)]
enum Command {
    /// Imports Go API packages (types.go, doc.go, register.go with Kubernetes' tags) as tagged
    /// Rust packages that the generators read; a rerun replaces only its own files.
    ImportGo(kube_code_generator::run::ImportArgs),
}

/// The generators' flags.
#[derive(clap::Args)]
struct Args {
    /// The apis crate's source directory.
    #[arg(long, default_value = "apis/src")]
    apis: PathBuf,
    /// Root of the in-package outputs.
    #[arg(long, default_value = "generated/apis")]
    output: PathBuf,
    /// Directory for whole-API documents (OpenAPI); none are written without it.
    #[arg(long)]
    documents: Option<PathBuf>,
    /// With --documents: also generate a crate of this name in their parent directory.
    #[arg(long)]
    crate_name: Option<String>,
    /// The apis crate's name, as the generated crate (its clientset) depends on it.
    #[arg(long, default_value = "apis")]
    apis_crate: String,
    /// File whose text heads every generated file.
    #[arg(long, default_value = "hack/boilerplate.rs.txt")]
    boilerplate: PathBuf,
    /// Write nothing; exit 1 with a diff when the outputs on disk are stale.
    #[arg(long)]
    verify: bool,
    /// How generated code names the runtime crate.
    #[arg(long, default_value = kube_code_generator::DEFAULT_RUNTIME_PATH)]
    runtime_path: String,
    /// How generated code names k8s-openapi.
    #[arg(long, default_value = kube_code_generator::DEFAULT_K8S_OPENAPI_PATH)]
    k8s_openapi_path: String,
    /// How generated code names kube.
    #[arg(long, default_value = kube_code_generator::DEFAULT_KUBE_PATH)]
    kube_path: String,
    /// How the generated fake clientset names the API server crate it runs on.
    #[arg(long, default_value = kube_code_generator::DEFAULT_APISERVER_PATH)]
    apiserver_path: String,
    /// Also print what was skipped on purpose (untagged packages and types, foreign tags,
    /// files no module declares).
    #[arg(long, short)]
    verbose: bool,
}

/// mimalloc's `mi_option_purge_delay` (the same slot in its v2 and v3 headers; the Rust bindings
/// name neither).
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

fn main() -> ExitCode {
    // Memory a phase frees (the parsed syntax trees, a finished generator's buffers) goes back to
    // the OS after 100 ms instead of v3's default second, which outlasts a whole run: the peak
    // on all of k8s.io/api drops from ~100 MB to ~80 MB for no measurable time. mimalloc's own
    // variable (`MIMALLOC_PURGE_DELAY`) still decides when set.
    if std::env::var_os("MIMALLOC_PURGE_DELAY").is_none() {
        // SAFETY: setting an option is a plain store, which mimalloc allows at any time.
        unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, 100) };
    }
    let cli = Cli::parse();
    if let Some(Command::ImportGo(args)) = cli.command {
        return kube_code_generator::run::import(&args);
    }
    let args = cli.generate;
    let mut rerun = format!(
        "kube-code-generator --apis {} --output {} --boilerplate {}",
        args.apis.display(),
        args.output.display(),
        args.boilerplate.display()
    );
    if let Some(d) = &args.documents {
        rerun.push_str(&format!(" --documents {}", d.display()));
    }
    if let Some(n) = &args.crate_name {
        rerun.push_str(&format!(" --crate-name {n} --apis-crate {}", args.apis_crate));
    }
    let mut config = kube_code_generator::Config::new(args.apis)
        .output(args.output)
        .boilerplate(args.boilerplate)
        .runtime_path(args.runtime_path)
        .k8s_openapi_path(args.k8s_openapi_path)
        .kube_path(args.kube_path)
        .apiserver_path(args.apiserver_path)
        .apis_crate(args.apis_crate);
    if let Some(d) = args.documents {
        config = config.documents(d);
    }
    if let Some(n) = args.crate_name {
        config = config.crate_name(n);
    }
    let mode = if args.verify {
        kube_code_generator::run::Mode::Verify
    } else {
        kube_code_generator::run::Mode::Write
    };
    kube_code_generator::run::run(&[config], mode, &rerun, args.verbose)
}
