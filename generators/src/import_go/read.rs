//! Reading a tree of Go API packages: every directory holding hand-written `.go` files is a
//! package (tests, generated code and `testdata`, `vendor` and hidden directories are not read),
//! its import path is the Go module's path and the directory, and its group is its `+groupName`
//! tag or its `GroupName` constant.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::go::{Expr, GoFile, parse};
use crate::diag::{Diagnostic, Diagnostics, SourceLoc};
/// Display path -> text of every file read, for rendering diagnostics.
pub type Texts = BTreeMap<Arc<str>, Arc<str>>;

/// One Go package of the tree.
#[derive(Debug)]
pub struct Package {
    /// Its directory below the tree's root, `/`-separated (`apps/v1`).
    pub dir: String,
    /// Its Go import path (`k8s.io/api/apps/v1`).
    pub import_path: String,
    /// Its files, by name.
    pub files: Vec<GoFile>,
}

impl Package {
    /// The package's own tag lines, in order: every tag line of `doc.go` (gengo reads them all),
    /// then those of the other files' package comments.
    pub fn tag_lines(&self) -> Vec<String> {
        let doc = self.files.iter().filter(|f| f.name == "doc.go");
        let others = self.files.iter().filter(|f| f.name != "doc.go");
        doc.flat_map(|f| f.tag_lines.iter().cloned())
            .chain(others.flat_map(|f| f.package_doc.iter().filter(|l| super::go::is_tag_line(l)).cloned()))
            .collect()
    }

    /// The package comment's prose (its lines that are not tags), from `doc.go` first.
    pub fn prose(&self) -> Vec<String> {
        let mut files: Vec<&GoFile> = self.files.iter().collect();
        files.sort_by_key(|f| f.name != "doc.go");
        files
            .iter()
            .map(|f| {
                f.package_doc
                    .iter()
                    .filter(|l| !super::go::is_tag_line(l))
                    .cloned()
                    .collect::<Vec<_>>()
            })
            .find(|p| p.iter().any(|l| !l.trim().is_empty()))
            .unwrap_or_default()
    }

    /// The group: the `+groupName` tag, else the `GroupName` constant.
    pub fn group(&self) -> Option<String> {
        let tags = self.tag_lines();
        if let Some(t) = tags.iter().find(|l| super::go::tag_name(l) == "groupName") {
            return Some(
                t.trim()
                    .split_once('=')
                    .map(|(_, v)| v.trim().to_string())
                    .unwrap_or_default(),
            );
        }
        self.files
            .iter()
            .flat_map(|f| &f.consts)
            .find_map(|c| match (&c.name[..], &c.value) {
                ("GroupName", Some(Expr::Str(s))) => Some(s.clone()),
                _ => None,
            })
    }

    /// The version: the directory's last segment.
    pub fn version(&self) -> &str {
        self.dir.rsplit('/').next().unwrap_or(&self.dir)
    }

    /// Where a message about the package as a whole points: its `doc.go`, else its first file.
    pub fn loc(&self) -> SourceLoc {
        let file = self
            .files
            .iter()
            .find(|f| f.name == "doc.go")
            .or(self.files.first())
            .map(|f| f.display.clone())
            .unwrap_or_default();
        SourceLoc {
            file: file.into(),
            line: 1,
            col: 1,
            len: 1,
        }
    }
}

/// Whether a Go file is one a person wrote: not a test, not generated code.
pub fn is_hand_written(name: &str) -> bool {
    name.ends_with(".go")
        && !name.ends_with("_test.go")
        && !name.starts_with("zz_generated")
        && !name.ends_with(".pb.go")
        && !name.ends_with("_swagger_doc_generated.go")
}

/// The Go module path of `dir`: the `module` line of the nearest `go.mod` at or above it, with
/// the path from there down; `None` when there is none.
pub fn module_path(dir: &Path) -> Option<String> {
    let abs = std::path::absolute(dir).ok()?;
    let mut below: Vec<String> = Vec::new();
    let mut at = abs.as_path();
    loop {
        if let Ok(text) = std::fs::read_to_string(at.join("go.mod")) {
            let module = text.lines().find_map(|l| {
                l.trim()
                    .strip_prefix("module")
                    .map(|m| m.trim().trim_matches('"').to_string())
            })?;
            below.reverse();
            return Some(std::iter::once(module).chain(below).collect::<Vec<_>>().join("/"));
        }
        below.push(at.file_name()?.to_string_lossy().into_owned());
        at = at.parent()?;
    }
}

/// Reads every package below `root` whose directory `skip` does not name. `module` is the root's
/// import path. Files that do not parse are errors in `diags`; their text is kept in `texts`.
pub fn read(
    root: &Path,
    module: &str,
    skip: &[String],
    diags: &mut Diagnostics,
    texts: &mut Texts,
) -> BTreeMap<String, Package> {
    let mut by_dir: BTreeMap<String, Vec<PathBuf>> = BTreeMap::new();
    let walk = walkdir::WalkDir::new(root)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| {
            let name = e.file_name().to_string_lossy();
            e.depth() == 0
                || !(e.file_type().is_dir() && (name.starts_with('.') || name == "testdata" || name == "vendor"))
        });
    for entry in walk.filter_map(Result::ok) {
        let name = entry.file_name().to_string_lossy();
        if !entry.file_type().is_file() || !is_hand_written(&name) {
            continue;
        }
        let rel = entry
            .path()
            .parent()
            .and_then(|p| p.strip_prefix(root).ok())
            .map(|p| {
                p.components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect::<Vec<_>>()
                    .join("/")
            })
            .unwrap_or_default();
        if skip.iter().any(|s| s.trim_matches('/') == rel) {
            continue;
        }
        by_dir.entry(rel).or_default().push(entry.path().to_path_buf());
    }
    let mut packages = BTreeMap::new();
    for (dir, paths) in by_dir {
        let mut files = Vec::new();
        for path in paths {
            let display = path.display().to_string();
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let text = match std::fs::read_to_string(&path) {
                Ok(t) => t,
                Err(e) => {
                    let loc = SourceLoc {
                        file: display.as_str().into(),
                        line: 1,
                        col: 1,
                        len: 1,
                    };
                    diags.push(Diagnostic::error(&loc, format!("cannot read {display}: {e}")));
                    continue;
                }
            };
            if let Some(file) = parse::parse(&display, &name, &text, diags) {
                files.push(file);
            }
            texts.insert(Arc::from(display.as_str()), Arc::from(text.as_str()));
        }
        let import_path = if dir.is_empty() {
            module.to_string()
        } else {
            format!("{module}/{dir}")
        };
        packages.insert(
            dir.clone(),
            Package {
                dir,
                import_path,
                files,
            },
        );
    }
    packages
}
