//! The `convert` example end to end: a multi-document stream printed as YAML documents, a JSON
//! conversion read from standard input, and an error that names the document and the field with
//! exit code 1. An example has no `CARGO_BIN_EXE_*`, but `cargo test` builds examples next to the
//! test binaries (`target/<profile>/examples/`), so the test runs that binary; only when it is
//! missing (a filtered build) does it fall back to `cargo run`, which may rebuild dependencies
//! with other features.

use std::io::Write;
use std::process::{Command, Output, Stdio};

const MANIFESTS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/manifests");

/// The example binary `cargo test` built beside this test (`target/<profile>/deps/..` ->
/// `target/<profile>/examples/convert`), if there is one.
fn built_example() -> Option<std::path::PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let profile_dir = exe.parent()?.parent()?;
    let path = profile_dir
        .join("examples")
        .join(format!("convert{}", std::env::consts::EXE_SUFFIX));
    path.is_file().then_some(path)
}

/// Runs the example with `args`, feeding `stdin` to it.
fn convert(args: &[&str], stdin: &str) -> Output {
    let mut command = match built_example() {
        Some(path) => Command::new(path),
        None => {
            let mut c = Command::new(env!("CARGO"));
            c.args(["run", "-q", "-p", "apis", "--example", "convert", "--"]);
            c
        }
    };
    let mut child = command
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cargo starts");
    if let Some(mut input) = child.stdin.take() {
        input.write_all(stdin.as_bytes()).expect("stdin is writable");
    }
    child.wait_with_output().expect("cargo finishes")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn converts_files_and_stdin_and_reports_errors_with_exit_code_1() {
    // A stream of three versions of apps, all printed as apps/v1beta2 documents.
    let stream = format!("{MANIFESTS}/apps-stream.yaml");
    let out = convert(&["-f", &stream, "--output-version", "apps/v1beta2"], "");
    assert!(out.status.success(), "stderr: {}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert_eq!(stdout.matches("apiVersion: apps/v1beta2\n").count(), 3, "{stdout}");
    assert_eq!(stdout.matches("\n---\n").count(), 2, "{stdout}");
    for kind in ["kind: Deployment\n", "kind: StatefulSet\n", "kind: ReplicaSet\n"] {
        assert!(stdout.contains(kind), "{kind} missing from {stdout}");
    }

    // A v1beta1 Deployment on standard input, printed as apps/v1 JSON: rollbackTo becomes the
    // annotation v1 keeps it in.
    let rollback = std::fs::read_to_string(format!("{MANIFESTS}/apps-v1beta1-deployment-rollback.yaml"))
        .expect("the manifest is readable");
    let out = convert(&["-f", "-", "--output-version", "apps/v1", "-o", "json"], &rollback);
    assert!(out.status.success(), "stderr: {}", text(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("the output is JSON");
    assert_eq!(json["apiVersion"], "apps/v1");
    assert_eq!(
        json["metadata"]["annotations"]["deprecated.deployment.rollback.to"],
        "3"
    );

    // A bad field in the second document of standard input.
    let bad = "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: a\n---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - name: c\n    ports:\n    - containerPort: http\n";
    let out = convert(&["-f", "-", "--output-version", "v1", "--strict"], bad);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        "error: -: document 2 (line 6): spec.containers[0].ports[0].containerPort: invalid type: string \"http\", expected i32\n"
    );
    assert!(out.stdout.is_empty());
}
