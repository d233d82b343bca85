//! `kubectl convert` in Rust: reads manifests, decodes each object through the codec (defaults, then
//! conversion to the internal version), and prints them in another version of their group.
//!
//! ```text
//! cargo run -p apis --example convert -- -f apis/examples/manifests/apps-v1beta1-deployment-rollback.yaml \
//!     --output-version apps/v1 [-o json|yaml] [--strict]
//! ```
//!
//! `-f` may be given several times and `-f -` reads standard input; each file may be a YAML stream
//! or JSON, `kind: List` included. Several objects print as YAML documents separated by `---`, or
//! as one JSON `List`. Errors go to standard error, naming the file, the document and the field,
//! and the exit code is 1.

use std::io::{Read, Write};
use std::process::ExitCode;

use clap::{Parser, ValueEnum};
use kube_apimachinery::GroupVersion;
use kube_apimachinery::codec::{Codec, EncodeError, Format};

/// Convert manifests between the versions of their API group, as `kubectl convert` does.
#[derive(Debug, Parser)]
#[command(name = "convert")]
struct Args {
    /// A manifest file: a YAML stream or JSON, a List included; `-` reads standard input.
    #[arg(short = 'f', long = "filename", required = true, value_name = "FILE")]
    files: Vec<String>,
    /// The version to print the objects in, such as `apps/v1`, or `v1` for the core group.
    #[arg(long, value_name = "GROUP/VERSION", value_parser = parse_group_version)]
    output_version: GroupVersion,
    /// The output format.
    #[arg(short = 'o', long, value_enum, default_value_t = Output::Yaml)]
    output: Output,
    /// Reject fields the types do not know, and keys repeated in a YAML mapping.
    #[arg(long)]
    strict: bool,
}

/// The output formats `-o` accepts.
#[derive(Clone, Copy, Debug, ValueEnum)]
enum Output {
    Json,
    Yaml,
}

fn parse_group_version(s: &str) -> Result<GroupVersion, String> {
    GroupVersion::parse_api_version(s).map_err(|e| e.to_string())
}

fn main() -> ExitCode {
    let args = match Args::try_parse() {
        Ok(args) => args,
        Err(e) => {
            // Help and version go to standard output and succeed; usage errors fail with 1 like
            // every other error of this command.
            let _ = e.print();
            return if e.use_stderr() {
                ExitCode::FAILURE
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    match run(&args) {
        Ok(out) => {
            let mut stdout = std::io::stdout().lock();
            match stdout.write_all(&out).and_then(|()| stdout.flush()) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("error: writing the output: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Decodes every file, then encodes all their objects to the output version.
fn run(args: &Args) -> Result<Vec<u8>, String> {
    let scheme = apis::scheme().map_err(|e| format!("building the scheme: {e}"))?;
    let codec = Codec::new(&scheme).with_strict(args.strict);
    let mut objects = Vec::new();
    // How many objects each file contributed, to name the file of an object that fails to encode.
    let mut counts = Vec::with_capacity(args.files.len());
    for file in &args.files {
        let bytes = read_input(file).map_err(|e| format!("{file}: {e}"))?;
        let decoded = codec.decode_stream(&bytes).map_err(|e| format!("{file}: {e}"))?;
        counts.push((file.as_str(), decoded.len()));
        objects.extend(decoded);
    }
    let format = match args.output {
        Output::Json => Format::Json,
        Output::Yaml => Format::Yaml,
    };
    codec
        .encode_stream(&objects, &args.output_version, format)
        .map_err(|e| match e {
            EncodeError::Object { number, source } => {
                let (file, number) = locate(&counts, number);
                format!("{file}: object {number}: {source}")
            }
            other => other.to_string(),
        })
}

/// The file an object came from and its number within that file, from its number over all files.
fn locate<'a>(counts: &[(&'a str, usize)], mut number: usize) -> (&'a str, usize) {
    for &(file, count) in counts {
        if number <= count {
            return (file, number);
        }
        number -= count;
    }
    ("<input>", number)
}

/// The bytes of `file`, or of standard input for `-`.
fn read_input(file: &str) -> std::io::Result<Vec<u8>> {
    if file == "-" {
        let mut bytes = Vec::new();
        std::io::stdin().lock().read_to_end(&mut bytes)?;
        Ok(bytes)
    } else {
        std::fs::read(file)
    }
}
