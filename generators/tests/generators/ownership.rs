//! What the generator may touch: only the files it wrote (they carry its marker), all of a run's
//! files or none, and one run at a time. Each test runs the binary on a copy of this repository's
//! apis crate in a scratch directory laid out as the repository is (`apis/src`, `hack/`,
//! `generated/`), with the flags `cargo xtask codegen` uses.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The flags of this repository's own run, relative to the scratch directory.
const FLAGS: [&str; 8] = [
    "--apis",
    "apis/src",
    "--output",
    "generated/apis",
    "--documents",
    "generated/openapi",
    "--crate-name",
    "generated",
];

/// Hand-written files in every directory the run writes into, the generated crate's included,
/// and in the directory of a package a later run removes.
const HAND_WRITTEN: [(&str, &str); 9] = [
    ("generated/README.md", "# Notes on the generated crate\n"),
    (
        "generated/src/extra.rs",
        "//! A module a user keeps beside the generated lib.rs.\n",
    ),
    ("generated/apis/NOTES.md", "Hand-written notes.\n"),
    ("generated/apis/widgets/v1/NOTES.md", "Hand-written notes.\n"),
    (
        "generated/apis/widgets/v1/zz_generated_custom.rs",
        "//! Hand-written, despite its name: it has no generated header.\n",
    ),
    (
        "generated/apis/widgets/v1alpha1/NOTES.md",
        "Notes on a version that goes away.\n",
    ),
    ("generated/openapi/NOTES.md", "How the documents are published.\n"),
    (
        "generated/openapi/v3/extra.json",
        "{\"openapi\": \"3.0.0\", \"info\": \"mine\"}\n",
    ),
    (
        "generated/crds/legacy.yaml",
        "# A CRD kept by hand.\napiVersion: apiextensions.k8s.io/v1\n",
    ),
];

/// A scratch copy of the apis crate and the boilerplate under the workspace's target directory.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new("../target/tmp/generators-ownership").join(name);
    let _ = fs::remove_dir_all(&dir);
    copy_tree(Path::new("../apis/src"), &dir.join("apis/src"));
    fs::create_dir_all(dir.join("hack")).unwrap();
    fs::copy("../hack/boilerplate.rs.txt", dir.join("hack/boilerplate.rs.txt")).unwrap();
    dir
}

fn copy_tree(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// Runs the binary in `dir` with `args`.
fn run(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kube-code-generator"))
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap()
}

/// Panics unless the run exited with `code`; returns its stderr.
fn expect(out: &Output, code: i32) -> String {
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(
        out.status.code(),
        Some(code),
        "stdout:\n{}\nstderr:\n{stderr}",
        String::from_utf8_lossy(&out.stdout)
    );
    without_warnings(&stderr)
}

/// `stderr` without its warnings (each a `...: warning: ...` line and its `  = help` lines): the
/// imported k8s.io/api has upstream oddities the model warns about on every run.
fn without_warnings(stderr: &str) -> String {
    let mut out = String::new();
    let mut in_warning = false;
    for line in stderr.lines() {
        if line.contains(": warning: ") {
            in_warning = true;
        } else if !(in_warning && line.starts_with("  ")) {
            in_warning = false;
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// Every file under `dir` with its bytes, and every directory (as `None`).
fn tree(dir: &Path) -> BTreeMap<PathBuf, Option<Vec<u8>>> {
    let mut out = BTreeMap::new();
    if !dir.exists() {
        return out;
    }
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.insert(path.clone(), None);
            out.extend(tree(&path));
        } else {
            out.insert(path.clone(), Some(fs::read(&path).unwrap()));
        }
    }
    out
}

fn write(dir: &Path, rel: &str, text: &str) {
    let path = dir.join(rel);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, text).unwrap();
}

fn assert_hand_written_intact(dir: &Path, when: &str) {
    for (rel, text) in HAND_WRITTEN {
        let on_disk = fs::read_to_string(dir.join(rel)).unwrap_or_else(|e| panic!("{when}: {rel} is gone: {e}"));
        assert_eq!(on_disk, text, "{when}: {rel} was changed");
    }
}

#[test]
fn hand_written_files_survive_a_run_a_rerun_and_a_removed_package() {
    let dir = scratch("survive");
    expect(&run(&dir, &FLAGS), 0);
    for (rel, text) in HAND_WRITTEN {
        write(&dir, rel, text);
    }
    expect(&run(&dir, &FLAGS), 0);
    assert_hand_written_intact(&dir, "after a rerun");

    // Remove the widgets v1alpha1 package: its generated files go, the hand-written ones stay.
    let group = dir.join("apis/src/widgets/mod.rs");
    let text = fs::read_to_string(&group).unwrap();
    fs::write(&group, text.replace("pub mod v1alpha1;\n", "")).unwrap();
    fs::remove_dir_all(dir.join("apis/src/widgets/v1alpha1")).unwrap();
    let out = run(&dir, &FLAGS);
    expect(&out, 0);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout
            .lines()
            .any(|l| l.contains("openapi:") && !l.contains(" 0 removed")),
        "{stdout}"
    );
    assert_hand_written_intact(&dir, "after a package was removed");
    let removed = dir.join("generated/apis/widgets/v1alpha1");
    let left: Vec<_> = fs::read_dir(&removed)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(
        left,
        ["NOTES.md"],
        "only the hand-written file is left in {}",
        removed.display()
    );
    assert!(
        !dir.join("generated/openapi/v3/apis__widgets.example.dev__v1alpha1_openapi.json")
            .exists()
    );
    let mut verify = FLAGS.to_vec();
    verify.push("--verify");
    expect(&run(&dir, &verify), 0);
}

#[test]
fn a_hand_written_file_where_a_generated_one_goes_is_an_error_naming_it() {
    let dir = scratch("in-the-way");
    expect(&run(&dir, &FLAGS), 0);
    // A source change, so the run would rewrite files; and two generated files replaced by hand.
    let types = dir.join("apis/src/widgets/v1/types.rs");
    let text = fs::read_to_string(&types).unwrap();
    fs::write(&types, text.replacen("/// ", "/// Changed. ", 1)).unwrap();
    write(
        &dir,
        "generated/openapi/swagger.json",
        "{\"swagger\": \"2.0\", \"info\": \"edited by hand\"}\n",
    );
    write(&dir, "generated/Cargo.toml", "[package]\nname = \"generated\"\n");
    let before = tree(&dir.join("generated"));
    let stderr = expect(&run(&dir, &FLAGS), 1);
    assert_eq!(
        stderr,
        "error: generated/Cargo.toml exists and was not written by the generators (it has no `Code generated by ... DO NOT EDIT.` marker); move it away or choose another output directory\n\
         error: generated/openapi/swagger.json exists and was not written by the generators (it has no `Code generated by ... DO NOT EDIT.` marker); move it away or choose another output directory\n\
         2 error(s); nothing was written\n"
    );
    assert_eq!(tree(&dir.join("generated")), before, "a refused run changed files");
}

#[test]
fn an_output_that_is_a_file_fails_before_anything_is_written() {
    let dir = scratch("output-file");
    write(&dir, "generated/apis", "a file, not a directory\n");
    let before = tree(&dir);
    let stderr = expect(&run(&dir, &FLAGS), 1);
    assert!(
        stderr.starts_with("error: generated/apis is a file where the output needs a directory;"),
        "{stderr}"
    );
    assert_eq!(
        tree(&dir),
        before,
        "the documents were written although the output cannot be"
    );
}

#[test]
fn documents_in_the_working_directory_or_a_crate_around_the_sources_are_refused() {
    let dir = scratch("cwd");
    let before = tree(&dir);
    let stderr = expect(&run(&dir, &["--documents", "."]), 1);
    assert!(
        stderr.contains("error: the documents directory `.` contains the apis sources `apis/src`"),
        "{stderr}"
    );
    // Run inside the apis crate: the generated crate would be the apis crate itself.
    let stderr = expect(
        &run(
            &dir.join("apis"),
            &[
                "--apis",
                "src",
                "--boilerplate",
                "../hack/boilerplate.rs.txt",
                "--documents",
                "openapi",
                "--crate-name",
                "generated",
            ],
        ),
        1,
    );
    assert!(
        stderr.contains(
            "error: the generated crate (the documents directory's parent) `.` contains the apis sources `src`"
        ),
        "{stderr}"
    );
    assert_eq!(tree(&dir), before);
}

#[test]
fn concurrent_runs_do_not_corrupt_the_output() {
    let dir = scratch("concurrent");
    for round in 0..3 {
        let _ = fs::remove_dir_all(dir.join("generated"));
        let children: Vec<_> = (0..4)
            .map(|_| {
                Command::new(env!("CARGO_BIN_EXE_kube-code-generator"))
                    .current_dir(&dir)
                    .args(FLAGS)
                    .stdout(std::process::Stdio::piped())
                    .stderr(std::process::Stdio::piped())
                    .spawn()
                    .unwrap()
            })
            .collect();
        let mut succeeded = 0;
        for child in children {
            let out = child.wait_with_output().unwrap();
            let stderr = String::from_utf8_lossy(&out.stderr);
            match out.status.code() {
                Some(0) => succeeded += 1,
                Some(1) => assert!(stderr.contains("another run is writing"), "round {round}: {stderr}"),
                other => panic!("round {round}: exit {other:?}: {stderr}"),
            }
        }
        assert!(succeeded >= 1, "round {round}: every run was refused");
        let mut verify = FLAGS.to_vec();
        verify.push("--verify");
        expect(&run(&dir, &verify), 0);
        let temps: Vec<_> = tree(&dir.join("generated"))
            .into_keys()
            .filter(|p| p.to_string_lossy().ends_with(".tmp"))
            .collect();
        assert!(temps.is_empty(), "round {round}: temporary files left: {temps:?}");
    }
}
