//! Source locations and the diagnostics collector: every error of a run is gathered, sorted and
//! rendered rustc-style at once, never reported one at a time.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use codespan_reporting::diagnostic::{Diagnostic as CsDiagnostic, Label};
use codespan_reporting::files::SimpleFiles;
use codespan_reporting::term::{self, Chars, Config};

/// A position in an input file: 1-based line and column (in characters), plus the length of the
/// highlighted text in characters.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SourceLoc {
    /// The file's display path, relative to the directory the run started in.
    pub file: Arc<str>,
    /// 1-based line.
    pub line: u32,
    /// 1-based column, counted in characters.
    pub col: u32,
    /// How many characters the location covers (at least 1 when rendered).
    pub len: u32,
}

impl fmt::Display for SourceLoc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.col)
    }
}

/// One error with its primary location, optional secondary locations and help lines.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Diagnostic {
    /// Where the error is.
    pub loc: SourceLoc,
    /// What is wrong, one sentence.
    pub message: String,
    /// A short label under the highlighted text.
    pub label: String,
    /// Other places that explain the error, each with its label.
    pub related: Vec<(SourceLoc, String)>,
    /// What to do about it.
    pub help: Vec<String>,
}

impl Diagnostic {
    /// An error at `loc`.
    pub fn error(loc: &SourceLoc, message: impl Into<String>) -> Self {
        Diagnostic {
            loc: loc.clone(),
            message: message.into(),
            label: String::new(),
            related: Vec::new(),
            help: Vec::new(),
        }
    }

    /// Sets the label shown under the highlighted text.
    pub fn label(mut self, label: impl Into<String>) -> Self {
        self.label = label.into();
        self
    }

    /// Adds a help line.
    pub fn help(mut self, help: impl Into<String>) -> Self {
        self.help.push(help.into());
        self
    }

    /// Adds a secondary location.
    pub fn related(mut self, loc: &SourceLoc, label: impl Into<String>) -> Self {
        self.related.push((loc.clone(), label.into()));
        self
    }
}

/// Collects errors while a run goes on; `finish` hands them all back, sorted by location.
///
/// Dropping a collector that still holds errors without calling `finish` or `into_vec` is a bug in
/// the generator (errors would be lost), so it panics in debug builds, like serde's `Ctxt`.
#[derive(Debug, Default)]
pub struct Diagnostics {
    errors: Vec<Diagnostic>,
    warnings: Vec<Diagnostic>,
    notes: Vec<String>,
    checked: bool,
}

impl Diagnostics {
    /// An empty collector.
    pub fn new() -> Self {
        Self::default()
    }

    /// Records one error.
    pub fn push(&mut self, diagnostic: Diagnostic) {
        self.errors.push(diagnostic);
    }

    /// Records a warning: input Kubernetes' own generators accept although it means nothing (a list
    /// tag on a scalar), reported on every run without failing it.
    pub fn warn(&mut self, diagnostic: Diagnostic) {
        self.warnings.push(diagnostic);
    }

    /// Takes the warnings recorded so far, sorted and de-duplicated, in the one-line form
    /// `file:line:col: warning: message`.
    pub fn take_warnings(&mut self) -> Vec<String> {
        let mut warnings = std::mem::take(&mut self.warnings);
        warnings.sort();
        warnings.dedup();
        warnings
            .iter()
            .map(|d| plain(d).replacen(": error: ", ": warning: ", 1))
            .collect()
    }

    /// Records a note for `--verbose` output: something skipped on purpose, not an error.
    pub fn note(&mut self, note: impl Into<String>) {
        self.notes.push(note.into());
    }

    /// Takes the notes recorded so far, sorted.
    pub fn take_notes(&mut self) -> Vec<String> {
        let mut notes = std::mem::take(&mut self.notes);
        notes.sort();
        notes.dedup();
        notes
    }

    /// Records every error and note of another collector.
    pub fn extend(&mut self, mut other: Diagnostics) {
        self.notes.append(&mut other.notes);
        self.warnings.append(&mut other.warnings);
        self.errors.extend(other.into_vec());
    }

    /// Whether any error was recorded.
    pub fn has_errors(&self) -> bool {
        !self.errors.is_empty()
    }

    /// Ok when nothing was recorded, otherwise every error, sorted and de-duplicated.
    pub fn finish(self) -> Result<(), Errors> {
        let errors = self.into_vec();
        if errors.is_empty() { Ok(()) } else { Err(Errors(errors)) }
    }

    /// The recorded errors, sorted by location and de-duplicated.
    pub fn into_vec(mut self) -> Vec<Diagnostic> {
        self.checked = true;
        let mut errors = std::mem::take(&mut self.errors);
        errors.sort();
        errors.dedup();
        errors
    }
}

impl Drop for Diagnostics {
    fn drop(&mut self) {
        if !self.checked && !self.errors.is_empty() && !std::thread::panicking() {
            debug_assert!(false, "Diagnostics dropped without being checked");
        }
    }
}

/// The errors of a failed run, in location order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Errors(pub Vec<Diagnostic>);

impl Errors {
    /// Renders every error rustc-style (plain text, no colour), with source snippets taken from
    /// `sources` (display path -> file text), followed by a one-line count.
    pub fn render(&self, sources: &BTreeMap<Arc<str>, Arc<str>>) -> String {
        let mut files = SimpleFiles::new();
        let mut ids = BTreeMap::new();
        for (name, text) in sources {
            ids.insert(name.clone(), files.add(name.to_string(), text.to_string()));
        }
        let config = Config {
            chars: Chars::ascii(),
            ..Config::default()
        };
        let mut out = String::new();
        for d in &self.0 {
            match ids.get(&d.loc.file) {
                Some(&id) => {
                    let text = files.get(id).map(|f| f.source().clone()).unwrap_or_default();
                    let mut labels = vec![Label::primary(id, byte_range(&text, &d.loc)).with_message(&d.label)];
                    for (loc, msg) in &d.related {
                        if let Some(&rid) = ids.get(&loc.file) {
                            let rtext = files.get(rid).map(|f| f.source().clone()).unwrap_or_default();
                            labels.push(Label::secondary(rid, byte_range(&rtext, loc)).with_message(msg));
                        }
                    }
                    let diagnostic = CsDiagnostic::error()
                        .with_message(&d.message)
                        .with_labels(labels)
                        .with_notes(d.help.iter().map(|h| format!("help: {h}")).collect());
                    if term::emit_to_string(&mut out, &config, &files, &diagnostic).is_err() {
                        out.push_str(&plain(d));
                    }
                }
                None => out.push_str(&plain(d)),
            }
        }
        let n = self.0.len();
        out.push_str(&format!(
            "error: aborting due to {n} previous error{}; nothing was written\n",
            if n == 1 { "" } else { "s" }
        ));
        out
    }
}

/// The one-line form `file:line:col: error: message`, used where no source text is at hand.
fn plain(d: &Diagnostic) -> String {
    let mut s = format!("{}: error: {}\n", d.loc, d.message);
    for h in &d.help {
        s.push_str(&format!("  = help: {h}\n"));
    }
    s
}

/// Converts a character-based location into the byte range codespan wants.
fn byte_range(text: &str, loc: &SourceLoc) -> std::ops::Range<usize> {
    let mut offset = 0;
    for (i, line) in text.split_inclusive('\n').enumerate() {
        if i + 1 == loc.line as usize {
            let start = char_to_byte(line, loc.col.saturating_sub(1) as usize);
            let end = char_to_byte(line, (loc.col.saturating_sub(1) + loc.len.max(1)) as usize);
            let end = end.min(line.trim_end_matches(['\n', '\r']).len()).max(start);
            return offset + start..offset + end;
        }
        offset += line.len();
    }
    offset..offset
}

fn char_to_byte(line: &str, chars: usize) -> usize {
    line.char_indices().nth(chars).map(|(b, _)| b).unwrap_or(line.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn loc(line: u32, col: u32, len: u32) -> SourceLoc {
        SourceLoc {
            file: "a.rs".into(),
            line,
            col,
            len,
        }
    }

    #[test]
    fn renders_rustc_style_with_location() {
        let mut sources = BTreeMap::new();
        sources.insert(
            Arc::from("a.rs"),
            Arc::from("struct A;\n/// +k8s:deepcopy-gen=maybe\nstruct B;\n"),
        );
        let errors = Errors(vec![
            Diagnostic::error(&loc(2, 5, 23), "bad value")
                .label("here")
                .help("use package"),
        ]);
        let text = errors.render(&sources);
        assert!(text.contains("error: bad value"), "{text}");
        assert!(text.contains("a.rs:2:5"), "{text}");
        assert!(text.contains("help: use package"), "{text}");
        assert!(text.ends_with("aborting due to 1 previous error; nothing was written\n"));
    }

    #[test]
    fn finish_sorts_and_dedups() {
        let mut d = Diagnostics::new();
        d.push(Diagnostic::error(&loc(3, 1, 1), "b"));
        d.push(Diagnostic::error(&loc(1, 1, 1), "a"));
        d.push(Diagnostic::error(&loc(1, 1, 1), "a"));
        let errors = d.finish().unwrap_err().0;
        assert_eq!(
            errors.iter().map(|e| e.message.as_str()).collect::<Vec<_>>(),
            ["a", "b"]
        );
    }

    #[test]
    fn byte_range_counts_characters() {
        let text = "é = 1\nab\n";
        assert_eq!(byte_range(text, &loc(1, 2, 1)), 2..3);
        assert_eq!(byte_range(text, &loc(2, 1, 5)), 7..9);
    }
}
