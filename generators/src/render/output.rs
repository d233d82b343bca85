//! The output plan: every file a run produces, computed in memory first. `apply` writes only the
//! files whose bytes changed and removes generated files no longer produced; `verify` writes
//! nothing and describes every difference with a unified diff.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Generated files carry this file-name prefix; it is how stale ones are recognised.
pub const GENERATED_PREFIX: &str = "zz_generated_";

/// One file to produce.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GeneratedFile {
    /// The generator that produced it.
    pub generator: &'static str,
    /// The full contents.
    pub contents: String,
}

/// Everything one run produces under one output root.
#[derive(Clone, Debug, Default)]
pub struct Plan {
    /// The output root; files outside it are never touched.
    pub root: PathBuf,
    /// Directories owned whole by the generators (OpenAPI documents, CRD manifests): every file
    /// in them that the plan does not produce is stale.
    pub documents: Vec<PathBuf>,
    /// Files by path (under `root` or `documents`).
    pub files: BTreeMap<PathBuf, GeneratedFile>,
    /// Time each generator took.
    pub timings: BTreeMap<&'static str, Duration>,
    /// What was skipped on purpose, for `--verbose`.
    pub notes: Vec<String>,
}

/// Counts for one generator after `apply`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Files whose bytes changed or that were new.
    pub written: usize,
    /// Files already up to date.
    pub unchanged: usize,
    /// Stale files deleted.
    pub removed: usize,
}

/// A difference between the plan and the tree on disk.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Problem {
    /// The file exists with other contents; the unified diff from disk to expected.
    Stale(PathBuf, String),
    /// The file does not exist; the diff from nothing to expected.
    Missing(PathBuf, String),
    /// A generated file that would no longer be produced.
    Extra(PathBuf),
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Problem::Stale(p, diff) => write!(f, "stale: {}\n{diff}", p.display()),
            Problem::Missing(p, diff) => write!(f, "missing: {}\n{diff}", p.display()),
            Problem::Extra(p) => writeln!(f, "extra: {} (no longer generated)", p.display()),
        }
    }
}

/// Writes changed files and removes stale ones; returns counts per generator.
pub fn apply(plan: &Plan) -> std::io::Result<BTreeMap<&'static str, Counts>> {
    let mut counts: BTreeMap<&'static str, Counts> = plan.timings.keys().map(|g| (*g, Counts::default())).collect();
    for (path, file) in &plan.files {
        let c = counts.entry(file.generator).or_default();
        if read_normalized(path).as_deref() == Some(file.contents.as_str()) {
            c.unchanged += 1;
            continue;
        }
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(path, &file.contents)?;
        c.written += 1;
    }
    for path in extra_files(plan)? {
        std::fs::remove_file(&path)?;
        let generator = generator_of(&path);
        let key = counts.keys().copied().find(|g| *g == generator).unwrap_or("other");
        counts.entry(key).or_default().removed += 1;
        remove_empty_parents(&path, &plan.root);
    }
    Ok(counts)
}

/// Compares the plan with the tree on disk without writing anything.
pub fn verify(plan: &Plan) -> std::io::Result<Vec<Problem>> {
    let mut problems = Vec::new();
    for (path, file) in &plan.files {
        match read_normalized(path) {
            Some(current) if current == file.contents => {}
            Some(current) => problems.push(Problem::Stale(path.clone(), diff(path, &current, &file.contents))),
            None => problems.push(Problem::Missing(path.clone(), diff(path, "", &file.contents))),
        }
    }
    problems.extend(extra_files(plan)?.into_iter().map(Problem::Extra));
    Ok(problems)
}

/// Generated files under the root that the plan does not produce, in path order.
fn extra_files(plan: &Plan) -> std::io::Result<Vec<PathBuf>> {
    let mut extra = Vec::new();
    let roots = plan.root.exists().then_some(&plan.root);
    for entry in roots
        .into_iter()
        .flat_map(|r| walkdir::WalkDir::new(r).sort_by_file_name())
    {
        let entry = entry.map_err(std::io::Error::other)?;
        let name = entry.file_name().to_string_lossy();
        if entry.file_type().is_file()
            && name.starts_with(GENERATED_PREFIX)
            && name.ends_with(".rs")
            && !plan.files.contains_key(entry.path())
        {
            extra.push(entry.path().to_path_buf());
        }
    }
    for docs in plan.documents.iter().filter(|d| d.exists()) {
        for entry in walkdir::WalkDir::new(docs).sort_by_file_name() {
            let entry = entry.map_err(std::io::Error::other)?;
            if entry.file_type().is_file() && !plan.files.contains_key(entry.path()) {
                extra.push(entry.path().to_path_buf());
            }
        }
    }
    Ok(extra)
}

/// `zz_generated_deepcopy.rs` -> `deepcopy`.
fn generator_of(path: &Path) -> String {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    name.trim_start_matches(GENERATED_PREFIX)
        .trim_end_matches(".rs")
        .to_string()
}

fn remove_empty_parents(path: &Path, root: &Path) {
    let mut dir = path.parent();
    while let Some(d) = dir {
        if d == root || !d.starts_with(root) || std::fs::remove_dir(d).is_err() {
            break;
        }
        dir = d.parent();
    }
}

/// File contents with CRLF line ends turned into LF, so a checkout with autocrlf still compares
/// equal; `None` when the file cannot be read.
fn read_normalized(path: &Path) -> Option<String> {
    std::fs::read_to_string(path).ok().map(|s| s.replace("\r\n", "\n"))
}

fn diff(path: &Path, old: &str, new: &str) -> String {
    let name = path.display().to_string();
    similar::TextDiff::from_lines(old, new)
        .unified_diff()
        .context_radius(3)
        .header(&format!("a/{name} (on disk)"), &format!("b/{name} (generated)"))
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tmp(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("generators-output-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    fn plan(root: &Path, files: &[(&str, &str)]) -> Plan {
        let mut p = Plan {
            root: root.to_path_buf(),
            ..Plan::default()
        };
        p.timings.insert("deepcopy", Duration::ZERO);
        for (rel, contents) in files {
            p.files.insert(
                root.join(rel),
                GeneratedFile {
                    generator: "deepcopy",
                    contents: contents.to_string(),
                },
            );
        }
        p
    }

    #[test]
    fn apply_writes_only_changes_and_removes_stale_files() {
        let root = tmp("apply");
        let first = plan(
            &root,
            &[
                ("a/zz_generated_deepcopy.rs", "one\n"),
                ("b/zz_generated_deepcopy.rs", "two\n"),
            ],
        );
        assert_eq!(
            apply(&first).unwrap()["deepcopy"],
            Counts {
                written: 2,
                unchanged: 0,
                removed: 0
            }
        );
        let second = plan(&root, &[("a/zz_generated_deepcopy.rs", "one\n")]);
        assert_eq!(
            apply(&second).unwrap()["deepcopy"],
            Counts {
                written: 0,
                unchanged: 1,
                removed: 1
            }
        );
        assert!(!root.join("b").exists(), "empty directories of removed files go too");
        std::fs::write(root.join("a/notes.rs"), "hand-written").unwrap();
        assert!(
            verify(&second).unwrap().is_empty(),
            "files without the generated prefix are not ours"
        );
        let _ = std::fs::remove_dir_all(&root);
    }

    #[test]
    fn verify_reports_stale_missing_and_extra_with_diffs() {
        let root = tmp("verify");
        apply(&plan(
            &root,
            &[
                ("a/zz_generated_deepcopy.rs", "one\ntwo\n"),
                ("zz_generated_deepcopy.rs", "x\n"),
            ],
        ))
        .unwrap();
        let want = plan(
            &root,
            &[
                ("a/zz_generated_deepcopy.rs", "one\nthree\n"),
                ("c/zz_generated_deepcopy.rs", "new\n"),
            ],
        );
        let problems = verify(&want).unwrap();
        assert_eq!(problems.len(), 3, "{problems:?}");
        let Problem::Stale(p, d) = &problems[0] else {
            panic!("{problems:?}")
        };
        assert!(p.ends_with("a/zz_generated_deepcopy.rs"));
        assert!(d.contains("-two\n+three\n"), "{d}");
        assert!(
            matches!(&problems[1], Problem::Missing(p, d) if p.ends_with("c/zz_generated_deepcopy.rs") && d.contains("+new"))
        );
        assert!(matches!(&problems[2], Problem::Extra(p) if p.ends_with("zz_generated_deepcopy.rs")));
        let _ = std::fs::remove_dir_all(&root);
    }

    #[test]
    fn crlf_checkouts_compare_equal() {
        let root = tmp("crlf");
        std::fs::create_dir_all(&root).unwrap();
        std::fs::write(root.join("zz_generated_deepcopy.rs"), "a\r\nb\r\n").unwrap();
        assert!(
            verify(&plan(&root, &[("zz_generated_deepcopy.rs", "a\nb\n")]))
                .unwrap()
                .is_empty()
        );
        let _ = std::fs::remove_dir_all(&root);
    }
}
