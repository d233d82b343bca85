//! The front-end logic shared by `cargo xtask` and the `kube-code-generator` binary: generate
//! every tree (or import Go packages), then write (only if all succeeded) or verify, and report on
//! stdout/stderr with an exit code.

use std::collections::BTreeMap;
use std::process::ExitCode;
use std::time::Duration;

use crate::render::output::{self, Counts, Plan};
use crate::render::write::{self, Refusal};
use crate::{Config, generate, import_go};

/// Write the outputs, or only compare them with the tree on disk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Write changed files, remove stale ones.
    Write,
    /// Write nothing; report differences and fail on any.
    Verify,
}

/// Generates every tree; on any error prints all errors and writes nothing. `rerun` is the command
/// a user runs to regenerate, named in verify failures.
pub fn run(configs: &[Config], mode: Mode, rerun: &str, verbose: bool) -> ExitCode {
    match plans(configs) {
        Ok(plans) => {
            plans.iter().flat_map(|p| &p.warnings).for_each(|w| eprint!("{w}"));
            if verbose {
                plans.iter().flat_map(|p| &p.notes).for_each(|n| eprintln!("note: {n}"));
            }
            match mode {
                Mode::Write => write(&plans),
                Mode::Verify => verify(&plans, rerun),
            }
        }
        Err(report) => {
            eprint!("{report}");
            ExitCode::FAILURE
        }
    }
}

/// Computes every plan; the error is the rendered report of every failure of every tree.
pub fn plans(configs: &[Config]) -> Result<Vec<Plan>, String> {
    let mut plans = Vec::new();
    let mut report = String::new();
    for config in configs {
        match generate(config) {
            Ok(plan) => plans.push(plan),
            Err(failure) => report.push_str(&failure.render()),
        }
    }
    if report.is_empty() { Ok(plans) } else { Err(report) }
}

/// `import-go`'s command line: Go API packages in, tagged Rust packages out.
#[derive(Clone, Debug, clap::Args)]
pub struct ImportArgs {
    /// The root of the Go API packages (a checkout of k8s.io/api, an operator's `api/`).
    pub go: std::path::PathBuf,
    /// Where the Rust packages go: the API crate's `src/`, or a directory inside it.
    #[arg(long)]
    pub out: std::path::PathBuf,
    /// The Go import path of the root (default: from the nearest go.mod).
    #[arg(long)]
    pub module: Option<String>,
    /// The Rust path of --out in its crate.
    #[arg(long, default_value = "crate")]
    pub rust_path: String,
    /// The code generators' --output for this tree: each package declares its generated files.
    #[arg(long)]
    pub generated: Option<std::path::PathBuf>,
    /// GO_PREFIX=RUST_PATH: where the types of Go packages this run does not import live
    /// (k8s.io/api defaults to k8s-openapi's `api` modules).
    #[arg(long = "extern", value_name = "GO_PREFIX=RUST_PATH", value_parser = parse_extern)]
    pub externs: Vec<(String, String)>,
    /// A package directory (relative to the root) to leave out; repeatable.
    #[arg(long)]
    pub exclude: Vec<String>,
    /// The runtime crate's path, for the apimachinery types k8s-openapi lacks.
    #[arg(long, default_value = "kube_apimachinery")]
    pub runtime_path: String,
    /// Write nothing; exit 1 with a diff when the imported files on disk are stale.
    #[arg(long)]
    pub verify: bool,
    /// Also print what was skipped on purpose.
    #[arg(long, short)]
    pub verbose: bool,
}

fn parse_extern(s: &str) -> Result<(String, String), String> {
    match s.split_once('=') {
        Some((go, rust)) if !go.is_empty() && !rust.is_empty() => {
            Ok((go.trim_end_matches('/').to_string(), rust.to_string()))
        }
        _ => Err(format!("`{s}` is not GO_PREFIX=RUST_PATH")),
    }
}

impl ImportArgs {
    /// The importer's options.
    pub fn options(&self) -> import_go::Options {
        let mut o = import_go::Options::new(&self.go, &self.out);
        o.module = self.module.clone();
        o.rust_path = self.rust_path.clone();
        o.generated = self.generated.clone();
        o.externs = self.externs.clone();
        o.exclude = self.exclude.clone();
        o.runtime_path = self.runtime_path.clone();
        o
    }

    /// The command that reruns this import.
    fn rerun(&self) -> String {
        let mut cmd = format!(
            "kube-code-generator import-go {} --out {}",
            self.go.display(),
            self.out.display()
        );
        if let Some(m) = &self.module {
            cmd.push_str(&format!(" --module {m}"));
        }
        if self.rust_path != "crate" {
            cmd.push_str(&format!(" --rust-path {}", self.rust_path));
        }
        if let Some(g) = &self.generated {
            cmd.push_str(&format!(" --generated {}", g.display()));
        }
        for (go, rust) in &self.externs {
            cmd.push_str(&format!(" --extern {go}={rust}"));
        }
        for e in &self.exclude {
            cmd.push_str(&format!(" --exclude {e}"));
        }
        cmd
    }
}

/// Imports, then writes or verifies, as `run` does for the generators.
pub fn import(args: &ImportArgs) -> ExitCode {
    match import_go::import(&args.options()) {
        Ok(import) => {
            import.plan.warnings.iter().for_each(|w| eprint!("{w}"));
            if args.verbose {
                import.plan.notes.iter().for_each(|n| eprintln!("note: {n}"));
            }
            eprintln!("import-go: {}", import.summary);
            let plans = [import.plan];
            if args.verify {
                verify(&plans, &args.rerun())
            } else {
                write(&plans)
            }
        }
        Err(failure) => {
            eprint!("{}", failure.render());
            ExitCode::FAILURE
        }
    }
}

fn write(plans: &[Plan]) -> ExitCode {
    let mut totals: BTreeMap<&'static str, (Counts, Duration)> = BTreeMap::new();
    // Every tree is checked before any is written, so a file in the way of the last one leaves
    // the first unwritten too, and all of them are reported at once.
    let refusals: Vec<Refusal> = plans.iter().flat_map(write::check).collect();
    if !refusals.is_empty() {
        for r in &refusals {
            eprintln!("error: {r}");
        }
        eprintln!("{} error(s); nothing was written", refusals.len());
        return ExitCode::FAILURE;
    }
    for plan in plans {
        let counts = match write::apply(plan) {
            Ok(c) => c,
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::FAILURE;
            }
        };
        for (generator, c) in counts {
            let t = totals.entry(generator).or_default();
            t.0.written += c.written;
            t.0.unchanged += c.unchanged;
            t.0.removed += c.removed;
            t.1 += plan.timings.get(generator).copied().unwrap_or_default();
        }
    }
    for (generator, (c, time)) in totals {
        println!(
            "{generator:>20}: {} written, {} unchanged, {} removed ({:.1} ms)",
            c.written,
            c.unchanged,
            c.removed,
            time.as_secs_f64() * 1000.0
        );
    }
    ExitCode::SUCCESS
}

fn verify(plans: &[Plan], rerun: &str) -> ExitCode {
    let mut problems = Vec::new();
    for plan in plans {
        match output::verify(plan) {
            Ok(p) => problems.extend(p),
            Err(e) => {
                eprintln!("error: cannot read {}: {e}", plan.root.display());
                return ExitCode::FAILURE;
            }
        }
    }
    if problems.is_empty() {
        let n: usize = plans.iter().map(|p| p.files.len()).sum();
        println!("generated code is up to date ({n} files)");
        return ExitCode::SUCCESS;
    }
    for p in &problems {
        print!("{p}");
    }
    eprintln!(
        "error: {} generated file(s) out of date; run `{rerun}` and commit the result",
        problems.len()
    );
    ExitCode::FAILURE
}
