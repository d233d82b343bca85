//! The parse layer: loads the apis crate's module tree as rustc compiles it (`tree`), parses each
//! file with syn, and pulls out doc-comment tags and serde attributes. Only this layer and the
//! model builder see `syn` items.

pub mod serde_attrs;
pub mod tag_syntax;
pub mod tags;
pub mod tree;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::diag::SourceLoc;

/// One module of the crate as the loader read it: where its text is, which Rust module it is, and
/// its syntax tree (an inline module is a file of its own here, sharing its parent's text).
pub struct SourceFile {
    /// Display path (the apis directory as given, joined with the file's relative path).
    pub display: Arc<str>,
    /// Path relative to the apis source directory, with `/` separators (`apps/v1/types.rs`).
    pub rel: String,
    /// Module path segments below the crate root (`["apps", "v1", "types"]`; `lib.rs` is `[]`).
    pub module: Vec<String>,
    /// Where a non-test `cfg` gates this module or one of its ancestors.
    pub cfg: Option<SourceLoc>,
    /// Whether the module is an inline `mod name { ... }` in its parent's file.
    pub inline: bool,
    /// The parsed module.
    pub syntax: syn::File,
}

/// Lists every `.rs` file under `dir`, as (relative path with `/`, full path), sorted by relative
/// path so that the walk order of the file system never reaches the output.
pub fn discover(dir: &Path) -> std::io::Result<Vec<(String, PathBuf)>> {
    let mut files = Vec::new();
    for entry in walkdir::WalkDir::new(dir).follow_links(true).sort_by_file_name() {
        let entry = entry.map_err(std::io::Error::other)?;
        let path = entry.path();
        if entry.file_type().is_file() && path.extension().is_some_and(|e| e == "rs") {
            let rel = path.strip_prefix(dir).unwrap_or(path);
            let rel = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy())
                .collect::<Vec<_>>()
                .join("/");
            files.push((rel, path.to_path_buf()));
        }
    }
    files.sort();
    Ok(files)
}

/// Joins the apis directory as given with a relative file path for display.
pub fn display_path(root: &str, rel: &str) -> String {
    let root = root.trim_end_matches('/');
    if root.is_empty() || root == "." {
        rel.to_string()
    } else {
        format!("{root}/{rel}")
    }
}

/// Converts a syn span into a location in `file`, covering `len` characters.
pub fn span_loc(file: &Arc<str>, span: proc_macro2::Span, len: u32) -> SourceLoc {
    let start = span.start();
    SourceLoc {
        file: file.clone(),
        line: start.line as u32,
        col: start.column as u32 + 1,
        len,
    }
}

/// Converts a span into a location covering the spanned text on its first line.
pub fn span_loc_whole(file: &Arc<str>, span: proc_macro2::Span) -> SourceLoc {
    let (start, end) = (span.start(), span.end());
    let len = if end.line == start.line {
        end.column.saturating_sub(start.column)
    } else {
        1
    };
    span_loc(file, span, len.max(1) as u32)
}

/// The prefix of every file the generators write into a package (`zz_generated_deepcopy.rs`):
/// the loader never reads such a file as input.
pub const GENERATED_PREFIX: &str = "zz_generated_";

/// Whether a file name is one the generators write (`zz_generated_*.rs`), never an input.
pub fn is_generated_file(file_name: &str) -> bool {
    file_name.starts_with(GENERATED_PREFIX) && file_name.ends_with(".rs")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_paths_join_the_root_as_given() {
        assert_eq!(display_path("src", "a.rs"), "src/a.rs");
        assert_eq!(display_path("src/", "a/b.rs"), "src/a/b.rs");
        assert_eq!(display_path(".", "a.rs"), "a.rs");
    }
}
