//! The front-end logic shared by `cargo xtask` and the `generators` binary: generate every tree,
//! then write (only if all succeeded) or verify, and report on stdout/stderr with an exit code.

use std::collections::BTreeMap;
use std::process::ExitCode;
use std::time::Duration;

use crate::render::output::{self, Counts, Plan};
use crate::render::write::{self, Refusal};
use crate::{Config, generate};

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
