//! The bad-input corpus. Every directory under `tests/errors/` is a small apis source tree with
//! one deliberate mistake (a few have several, in different files); the first line of its `lib.rs`
//! says what the mistake is. Each run must fail, report every error at its `file:line:column` in
//! location order, and write nothing. The rendered report is pinned by the insta snapshot
//! `snapshots/errors__<case>.snap` (serde's `.stderr` ui goldens, without trybuild); the snapshot's
//! description repeats the mistake. After a deliberate change, review the new reports with
//! `cargo insta review` (or `INSTA_UPDATE=always`, then read the diff) before accepting them.
//!
//! Paths are relative, as a user types them: integration tests run in the crate directory, so the
//! apis tree is `tests/errors/<case>` and messages read `tests/errors/<case>/...:line:col`.
//!
//! The output directory of a case is `../target/tmp/generators-errors/<case>`. Its path is fixed
//! because each case's package `mod.rs` declares the generated modules with a `#[path]` relative
//! to it; only `missing_module_declaration`, `wrong_module_path` and `stale_module_declaration`
//! get those declarations wrong on purpose. A new case can copy the declarations of an existing
//! one with the case name changed, or take them from the "does not include its generated code"
//! help. The directory is emptied before every run and given one sentinel file; after the run it
//! must be byte-for-byte unchanged.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use generators::Config;

/// The corpus, relative to the crate directory.
const CASES: &str = "tests/errors";
/// The header file every case run is given.
const BOILERPLATE: &str = "tests/errors/boilerplate.rs.txt";
/// Where the output directories live: the workspace's target directory, which is never committed.
const OUTPUT_ROOT: &str = "../target/tmp/generators-errors";
const SENTINEL: &str = "sentinel.txt";
const SENTINEL_TEXT: &str = "Written by tests/errors.rs before the run. A failed run must leave it as it is.\n";

/// Every case directory, sorted by name.
fn cases() -> Vec<String> {
    let mut cases: Vec<String> = fs::read_dir(CASES)
        .expect("tests run in the generators crate directory")
        .map(|e| e.expect("readable corpus directory"))
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    cases.sort();
    cases
}

/// A case's output directory, emptied and holding only the sentinel. It stays locked (across
/// threads and test processes) until dropped, since several tests use the same case.
struct Output {
    dir: PathBuf,
    before: BTreeMap<PathBuf, Vec<u8>>,
    _lock: fs::File,
}

impl Output {
    fn fresh(case: &str) -> Output {
        Self::with_files(case, &[])
    }

    /// A fresh output directory that also holds `files` (relative path, contents).
    fn with_files(case: &str, files: &[(&str, &str)]) -> Output {
        fs::create_dir_all(OUTPUT_ROOT).unwrap();
        let lock = fs::File::create(Path::new(OUTPUT_ROOT).join(format!("{case}.lock"))).unwrap();
        lock.lock().unwrap();
        let dir = Path::new(OUTPUT_ROOT).join(case);
        match fs::remove_dir_all(&dir) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => panic!("cannot empty {}: {e}", dir.display()),
            _ => {}
        }
        fs::create_dir_all(&dir).unwrap();
        fs::write(dir.join(SENTINEL), SENTINEL_TEXT).unwrap();
        for (rel, text) in files {
            let path = dir.join(rel);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, text).unwrap();
        }
        let before = tree(&dir);
        Output {
            dir,
            before,
            _lock: lock,
        }
    }

    /// Panics unless every file is as it was and no file or directory appeared or vanished.
    fn assert_untouched(&self, case: &str) {
        assert_eq!(
            tree(&self.dir),
            self.before,
            "{case}: a failed run changed the output directory {}",
            self.dir.display()
        );
    }
}

/// Every entry under `dir` (relative path -> bytes; directories map to nothing).
fn tree(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            let rel = path.strip_prefix(dir).unwrap().to_path_buf();
            if path.is_dir() {
                stack.push(path);
                out.insert(rel, Vec::new());
            } else {
                out.insert(rel, fs::read(&path).unwrap());
            }
        }
    }
    out
}

/// A case's run: documents go to `openapi/` in its output directory, unless the case holds a
/// `.no-documents` file (a case about what a run without documents does).
fn config(case: &str, output: &Path) -> Config {
    let apis = Path::new(CASES).join(case);
    let config = Config::new(&apis).output(output).boilerplate(BOILERPLATE);
    if apis.join(".no-documents").exists() {
        config
    } else {
        config.documents(output.join("openapi"))
    }
}

/// The primary location of every error of a report, in report order: the first ` --> file:line:col`
/// after an `error: ` header (later ones belong to labels in other files), or the
/// `file:line:col: error: ` line of an error rendered without source.
fn locations(report: &str) -> Vec<(String, u32, u32)> {
    let parse = |loc: &str| {
        let mut parts = loc.rsplitn(3, ':');
        let col = parts.next()?.parse().ok()?;
        let line = parts.next()?.parse().ok()?;
        Some((parts.next()?.to_string(), line, col))
    };
    let mut locs = Vec::new();
    let mut in_header = false;
    for line in report.lines() {
        if line.starts_with("error: ") {
            in_header = true;
        } else if let Some(loc) = line.trim_start().strip_prefix("--> ").filter(|_| in_header) {
            locs.extend(parse(loc));
            in_header = false;
        } else if let Some((loc, _)) = line.split_once(": error: ") {
            locs.extend(parse(loc));
        }
    }
    locs
}

/// What the case's `lib.rs` says the mistake is (its first line).
fn description(case: &str) -> String {
    let lib = fs::read_to_string(Path::new(CASES).join(case).join("lib.rs")).unwrap();
    lib.lines()
        .next()
        .unwrap_or_default()
        .trim_start_matches("//!")
        .trim()
        .to_string()
}

/// Checks what every report must have, whatever its text: one location per error, each in the
/// case's tree, sorted, and the closing count.
fn check_report(case: &str, report: &str) -> Result<(), String> {
    let errors = report
        .lines()
        .filter(|l| l.starts_with("error: ") || l.contains(": error: "))
        .count()
        - 1;
    let locs = locations(report);
    let prefix = format!("{CASES}/{case}/");
    if locs.len() != errors {
        return Err(format!("{errors} errors but {} locations", locs.len()));
    }
    if let Some(l) = locs.iter().find(|l| !l.0.starts_with(&prefix)) {
        return Err(format!("location {l:?} is outside {prefix}"));
    }
    if !locs.is_sorted() {
        return Err(format!("errors are not in location order: {locs:?}"));
    }
    let summary = format!(
        "aborting due to {errors} previous error{}; nothing was written\n",
        if errors == 1 { "" } else { "s" }
    );
    if !report.ends_with(&summary) {
        return Err(format!("the report does not end with `{summary}`"));
    }
    Ok(())
}

#[test]
fn every_case_fails_with_its_snapshot() {
    let cases = cases();
    assert!(cases.len() >= 18, "the corpus has only {} cases", cases.len());
    let mut failures = Vec::new();
    for case in &cases {
        let output = Output::fresh(case);
        let result = generators::generate(&config(case, &output.dir));
        output.assert_untouched(case);
        let report = match result {
            Ok(plan) => {
                failures.push(format!(
                    "{case}: succeeded with {} files instead of failing",
                    plan.files.len()
                ));
                continue;
            }
            Err(failure) => failure.render(),
        };
        if let Err(why) = check_report(case, &report) {
            failures.push(format!("{case}: {why}\n{report}"));
        }
        let mut settings = insta::Settings::clone_current();
        settings.set_description(description(case));
        settings.set_omit_expression(true);
        let snapshot = settings.bind(|| std::panic::catch_unwind(|| insta::assert_snapshot!(case.as_str(), report)));
        if snapshot.is_err() {
            failures.push(format!("{case}: the report differs from snapshots/errors__{case}.snap"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} problems in {} cases:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

/// The binary prints the same report on stderr, exits 1 and leaves the output directory alone.
#[test]
fn binary_reports_every_error_and_writes_nothing() {
    let case = "several_mistakes_in_one_run";
    let output = Output::fresh(case);
    let config = config(case, &output.dir);
    let run = Command::new(env!("CARGO_BIN_EXE_generators"))
        .arg("--apis")
        .arg(config.apis())
        .arg("--output")
        .arg(config.output_root())
        .arg("--boilerplate")
        .arg(config.boilerplate_file())
        .output()
        .unwrap();
    output.assert_untouched(case);
    let stderr = String::from_utf8(run.stderr).unwrap();
    assert_eq!(run.status.code(), Some(1), "stderr:\n{stderr}");
    assert!(
        run.stdout.is_empty(),
        "stdout: {}",
        String::from_utf8_lossy(&run.stdout)
    );
    assert!(
        stderr.contains(&format!("--> {CASES}/{case}/widgets/v1/types.rs:27:9")),
        "no file:line:column in:\n{stderr}"
    );
    let library = generators::generate(&config).unwrap_err().render();
    assert_eq!(stderr, library, "the binary and the library report differently");
}

/// One bad file among good packages: the good packages would produce files (shown by fixing the
/// bad line in memory), but the run fails, writes none of them and removes no stale file.
#[test]
fn bad_file_among_good_files_writes_nothing() {
    let case = "bad_file_among_good_packages";
    let bad_file = "gadgets/v1/types.rs";
    let stale = "gadgets/v1beta1/zz_generated_deepcopy.rs";
    let output = Output::with_files(
        case,
        &[(stale, "// A generated file that a successful run would remove.\n")],
    );
    let config = config(case, &output.dir);

    let mut inputs = Vec::new();
    for (rel, mut text) in generators::read_sources(config.apis()).unwrap() {
        if rel == bad_file {
            assert!(text.contains("/// +optinal\n"), "{case}: the mistake moved");
            text = text.replace("/// +optinal\n", "/// +optional\n");
        }
        inputs.push((rel, text));
    }
    let boilerplate = fs::read_to_string(BOILERPLATE).unwrap();
    let plain = Config::new(config.apis()).output(config.output_root());
    let fixed = generators::generate_from_sources(&plain, inputs, &boilerplate)
        .unwrap_or_else(|f| panic!("{case} with its mistake fixed still fails:\n{}", f.render()));
    let produced: Vec<String> = fixed
        .files
        .keys()
        .map(|p| p.strip_prefix(&output.dir).unwrap().display().to_string())
        .collect();
    assert_eq!(
        produced,
        [
            "gadgets/v1/zz_generated_deepcopy.rs",
            "gadgets/v1/zz_generated_register.rs",
            "widgets/v1/zz_generated_deepcopy.rs",
            "widgets/v1/zz_generated_register.rs",
            "widgets/zz_generated_deepcopy.rs",
            "widgets/zz_generated_register.rs",
        ]
    );

    let run = Command::new(env!("CARGO_BIN_EXE_generators"))
        .arg("--apis")
        .arg(config.apis())
        .arg("--output")
        .arg(config.output_root())
        .arg("--boilerplate")
        .arg(config.boilerplate_file())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(1), "stderr:\n{stderr}");
    assert!(stderr.contains(&format!("--> {CASES}/{case}/{bad_file}:")), "{stderr}");
    assert!(
        stderr.ends_with("aborting due to 1 previous error; nothing was written\n"),
        "{stderr}"
    );
    output.assert_untouched(case);
}

/// Mistakes in the run's settings, not in the sources: each is one clear error, exit 1, and the
/// output directory (a sentinel and an earlier generated file in it) is left as it was.
#[test]
fn configuration_mistakes_are_errors_that_write_nothing() {
    let case = "duplicate_tag";
    let scratch = Path::new(OUTPUT_ROOT).join("configuration-mistakes");
    let _ = fs::remove_dir_all(&scratch);
    fs::create_dir_all(scratch.join("empty")).unwrap();
    fs::write(scratch.join("not-a-dir.rs"), "//! a file\n").unwrap();
    fs::write(scratch.join("prose.txt"), "Copyright The Authors.\n").unwrap();
    let apis = Path::new(CASES).join(case);
    let (empty, file, prose) = (
        scratch.join("empty"),
        scratch.join("not-a-dir.rs"),
        scratch.join("prose.txt"),
    );
    let docs = scratch.join("docs");
    let runs: [(&[&std::ffi::OsStr], &str); 4] = [
        (
            &[
                apis.as_os_str(),
                "--documents".as_ref(),
                docs.as_os_str(),
                "--crate-name".as_ref(),
                "bad name\"".as_ref(),
            ],
            "crate name `bad name\"` is not one Cargo accepts",
        ),
        (
            &[apis.as_os_str(), "--boilerplate".as_ref(), prose.as_os_str()],
            "line 1 of the boilerplate is not a `//` comment",
        ),
        (&[file.as_os_str()], "cannot read apis directory: not a directory"),
        (&[empty.as_os_str()], "lib.rs` of module ``: not found"),
    ];
    for (args, message) in runs {
        let output = Output::with_files(
            case,
            &[("widgets/v1/zz_generated_deepcopy.rs", "// An earlier run's output.\n")],
        );
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_generators"));
        cmd.arg("--apis").arg(args[0]).arg("--output").arg(&output.dir);
        if !args[1..].iter().any(|a| *a == "--boilerplate") {
            cmd.arg("--boilerplate").arg(BOILERPLATE);
        }
        let run = cmd.args(&args[1..]).output().unwrap();
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
        output.assert_untouched(case);
    }
}
