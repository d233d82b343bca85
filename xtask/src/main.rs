//! `cargo xtask codegen`, `verify-codegen`, `layers`, `test` and `corpus` for this repository: a
//! thin clap front-end over the generators library, run from the workspace root so that every path
//! it prints or writes into generated code is relative.
//!
//! # Layers
//!
//! 1. `corpus`, `layers`, `test`: one subcommand each, independent of one another.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

mod corpus;
mod layers;
mod test;

use clap::{Parser, Subcommand};
use kube_code_generator::Config;
use kube_code_generator::run::{Mode, run};

#[derive(Parser)]
#[command(name = "xtask", about = "Repository tasks")]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Also print what was skipped on purpose (untagged packages and types, foreign tags).
    #[arg(long, short, global = true)]
    verbose: bool,
}

#[derive(Subcommand)]
enum Command {
    /// Regenerate every zz_generated_*.rs (apis and the generator test fixtures).
    Codegen,
    /// Check that generated code is up to date; writes nothing, exits 1 with a diff if not.
    VerifyCodegen,
    /// Every test on a fresh machine: installs the Debian packages the tests need (etcd,
    /// protoc, python3-kubernetes) when missing, then runs `verify-etcd-client`, the workspace
    /// tests and the corpus.
    Test,
    /// Check the dependency rules of DESIGN.md: the edges between this workspace's crates, each
    /// crate's module layers (no import runs back up, no circle), and no Kubernetes group, kind
    /// or resource named in a generic crate.
    Layers,
    /// Check that the etcd backend's checked-in gRPC client is what hack/update-etcd-proto.sh
    /// writes from hack/etcd-proto (needs protoc); exits 1 if not.
    VerifyEtcdClient,
    /// Import Go API packages as tagged Rust packages (`kube-code-generator import-go`); paths
    /// are read from the directory the command runs in.
    ImportGo(kube_code_generator::run::ImportArgs),
    /// Generate all of k8s.io/api (the shared corpora, v0.23.17 and v0.36.0) into a scratch copy
    /// and type-check it (`cargo check`), or build it with `--build`.
    Corpus {
        /// Build the corpus (code generation and linking too) instead of checking it: about five
        /// times longer, and it proves nothing more about the generated code.
        #[arg(long)]
        build: bool,
        /// The translated corpora, checked one after the other: k8s.io/api v0.23.17 and v0.36.0.
        #[arg(long, num_args = 1.., default_values = ["../shared/corpora/k8s-api", "../shared/corpora/k8s-api-v0.36"])]
        corpus: Vec<PathBuf>,
        /// Instead, translate a kubernetes/api mirror with `go2rs.py --alias-names` (fields name
        /// the Go type aliases, as Go does).
        #[arg(long)]
        alias_names: Option<PathBuf>,
        /// The translator, for `--alias-names`.
        #[arg(long, default_value = "../shared/tools/go2rs.py")]
        go2rs: PathBuf,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Command::ImportGo(args) = &cli.command {
        return kube_code_generator::run::import(args);
    }
    let root = workspace_root();
    if let Err(e) = std::env::set_current_dir(&root) {
        eprintln!("error: cannot enter the workspace root {}: {e}", root.display());
        return ExitCode::FAILURE;
    }
    let mode = match cli.command {
        Command::Codegen => Mode::Write,
        Command::VerifyCodegen => Mode::Verify,
        Command::Test => return test::run(),
        Command::Layers => return layers::run(Path::new(".")),
        Command::VerifyEtcdClient => return test::verify_etcd_client(),
        Command::ImportGo(_) => return ExitCode::SUCCESS,
        Command::Corpus {
            build,
            corpus,
            alias_names,
            go2rs,
        } => {
            let absolute = |p: PathBuf| std::path::absolute(&p).unwrap_or(p);
            let sources = match alias_names {
                Some(mirror) => vec![corpus::Source::AliasNames {
                    mirror: absolute(mirror),
                    go2rs: absolute(go2rs),
                }],
                None => corpus.into_iter().map(|c| corpus::Source::Tree(absolute(c))).collect(),
            };
            for source in sources {
                if !corpus::run(source, build) {
                    return ExitCode::FAILURE;
                }
            }
            return ExitCode::SUCCESS;
        }
    };
    run(&trees(Path::new(".")), mode, "cargo xtask codegen", cli.verbose)
}

/// The workspace root: the parent of this crate's manifest directory.
fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default()
}

/// Every tree this repository generates, relative to the workspace root: the apis crate, then each
/// generator test fixture crate (in name order), which keeps its outputs in its own `generated/`.
fn trees(root: &Path) -> Vec<Config> {
    let boilerplate = PathBuf::from("hack/boilerplate.rs.txt");
    let mut configs = vec![
        Config::new("apis/src")
            .output("generated/apis")
            .boilerplate(&boilerplate)
            .documents("generated/openapi")
            .crate_name("generated"),
    ];
    let fixtures = Path::new("generators/tests/fixtures");
    let mut names: Vec<String> = std::fs::read_dir(root.join(fixtures))
        .map(|dir| {
            dir.filter_map(Result::ok)
                .filter(|e| e.path().join("Cargo.toml").exists())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    for name in names {
        let case = fixtures.join(&name);
        let config = Config::new(case.join("src"))
            .output(case.join("generated"))
            .boilerplate(&boilerplate)
            .documents(case.join("generated/openapi"));
        configs.push(match kube_code_generator::GeneratedCrate::of(&root.join(&case)) {
            // A fixture with a generated crate keeps its in-package files below it, as this
            // repository does.
            Some(generated) => generated.configure(config.output(case.join("generated/apis"))),
            None => config,
        });
    }
    configs
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The checked-in generated code matches what the generators produce from the current sources,
    /// so plain `cargo test --workspace` fails on a stale tree (prost's bootstrap test).
    #[test]
    fn generated_code_is_up_to_date() {
        let root = workspace_root();
        std::env::set_current_dir(&root).unwrap();
        let plans = kube_code_generator::run::plans(&trees(Path::new("."))).unwrap_or_else(|report| panic!("{report}"));
        let mut problems = String::new();
        for plan in &plans {
            for p in kube_code_generator::verify(plan).unwrap() {
                problems.push_str(&p.to_string());
            }
        }
        assert!(
            problems.is_empty(),
            "generated code is stale; run `cargo xtask codegen`:\n{problems}"
        );
    }
}
