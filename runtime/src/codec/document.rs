//! Reading input into documents: sniff JSON or YAML, split a stream into its documents, and parse
//! each into a JSON value, with syntax errors placed by line and column in the whole input.
//!
//! YAML streams are split the way Kubernetes' `yaml.NewYAMLReader` splits them, on lines that are
//! exactly `---` (optionally followed by spaces and a comment), and each piece is parsed on its own.
//! Parsing per document is what lets an error name its document, and the piece's first line turns
//! the parser's line numbers back into lines of the whole input.

use super::{DecodeError, Format};
use serde_json::Value;

/// One non-empty document of the input, parsed.
#[derive(Debug)]
pub(crate) struct Document {
    /// The document's number among the non-empty documents, counted from 1.
    pub(crate) number: usize,
    /// The document's first line with content (not blank, not a comment), counted from 1.
    pub(crate) line: usize,
    /// The parsed document.
    pub(crate) value: Value,
}

/// Parses `bytes` into its documents. A YAML stream may hold several, separated by `---`; JSON
/// input may hold several values one after the other. Empty YAML documents are skipped.
///
/// `strict` makes a repeated key in a YAML mapping an error; otherwise the last one wins, as in
/// Kubernetes' lenient decoding.
pub(crate) fn read(bytes: &[u8], strict: bool) -> Result<Vec<Document>, DecodeError> {
    let format = Format::sniff(bytes);
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let (line, column) = line_column(&String::from_utf8_lossy(&bytes[..e.valid_up_to()]));
        DecodeError::Syntax {
            format,
            line,
            column,
            message: "the input is not valid UTF-8".to_owned(),
        }
    })?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    match format {
        Format::Json => read_json(text),
        Format::Yaml => read_yaml(text, strict),
    }
}

/// Reads one or more JSON values written one after another.
fn read_json(text: &str) -> Result<Vec<Document>, DecodeError> {
    let mut docs = Vec::new();
    let mut stream = serde_json::Deserializer::from_str(text).into_iter::<Value>();
    loop {
        let start = stream.byte_offset();
        match stream.next() {
            None => return Ok(docs),
            Some(Ok(value)) => {
                let skipped = text[start..].len() - text[start..].trim_start().len();
                let (line, _) = line_column(&text[..start + skipped]);
                docs.push(Document {
                    number: docs.len() + 1,
                    line,
                    value,
                });
            }
            Some(Err(e)) => {
                let message = e.to_string();
                let suffix = format!(" at line {} column {}", e.line(), e.column());
                return Err(DecodeError::Syntax {
                    format: Format::Json,
                    line: e.line(),
                    column: e.column(),
                    message: message.strip_suffix(&suffix).unwrap_or(&message).to_owned(),
                });
            }
        }
    }
}

/// Reads a YAML stream document by document.
fn read_yaml(text: &str, strict: bool) -> Result<Vec<Document>, DecodeError> {
    let mut docs = Vec::new();
    for piece in split_yaml(text)? {
        // Legacy octal (`0644` is 420) matches the YAML 1.1 reading of Kubernetes' YAML library,
        // which manifests rely on for `defaultMode`.
        let options = serde_saphyr::options! {
            with_snippet: false,
            legacy_octal_numbers: true,
            duplicate_keys: if strict {
                serde_saphyr::DuplicateKeyPolicy::Error
            } else {
                serde_saphyr::DuplicateKeyPolicy::LastWins
            },
        };
        let value: Value = serde_saphyr::from_str_with_options(piece.text, options)
            .map_err(|e| yaml_syntax_error(&e, piece.first_line))?;
        if value.is_null() {
            continue;
        }
        docs.push(Document {
            number: docs.len() + 1,
            line: piece.content_line,
            value,
        });
    }
    Ok(docs)
}

/// A document's text within a YAML stream.
struct Piece<'a> {
    /// The text between two separators.
    text: &'a str,
    /// The input line `text` starts on.
    first_line: usize,
    /// The first input line of `text` with content, or `first_line` when it has none.
    content_line: usize,
}

/// Splits a YAML stream on its `---` separator lines.
fn split_yaml(text: &str) -> Result<Vec<Piece<'_>>, DecodeError> {
    let mut pieces = Vec::new();
    let (mut start, mut first_line, mut content_line) = (0, 1, None);
    let mut offset = 0;
    for (index, line) in text.split_inclusive('\n').enumerate() {
        let number = index + 1;
        if let Some(rest) = separator_rest(line) {
            if !rest.is_empty() && !rest.starts_with('#') {
                return Err(DecodeError::Syntax {
                    format: Format::Yaml,
                    line: number,
                    column: 4,
                    message: format!("unexpected {rest:?} after the document separator \"---\""),
                });
            }
            pieces.push(Piece {
                text: &text[start..offset],
                first_line,
                content_line: content_line.unwrap_or(first_line),
            });
            (start, first_line, content_line) = (offset + line.len(), number + 1, None);
        } else if content_line.is_none() && !is_blank_or_comment(line) {
            content_line = Some(number);
        }
        offset += line.len();
    }
    pieces.push(Piece {
        text: &text[start..],
        first_line,
        content_line: content_line.unwrap_or(first_line),
    });
    Ok(pieces)
}

/// What follows `---` on a separator line, trimmed, or `None` when the line is not a separator.
/// A separator is `---` alone or followed by whitespace; `---x` is content.
fn separator_rest(line: &str) -> Option<&str> {
    let rest = line.strip_prefix("---")?;
    match rest.chars().next() {
        None => Some(""),
        Some(c) if c.is_whitespace() => Some(rest.trim()),
        Some(_) => None,
    }
}

fn is_blank_or_comment(line: &str) -> bool {
    let trimmed = line.trim();
    trimmed.is_empty() || trimmed.starts_with('#')
}

/// A YAML parser error placed in the whole input: the parser counts lines from the start of the
/// document, so `first_line - 1` is added back.
fn yaml_syntax_error(e: &serde_saphyr::Error, first_line: usize) -> DecodeError {
    let message = e.to_string();
    let Some(location) = e.location() else {
        return DecodeError::Syntax {
            format: Format::Yaml,
            line: first_line,
            column: 1,
            message,
        };
    };
    let (line, column) = (location.line() as usize, location.column() as usize);
    let suffix = format!(" at line {line}, column {column}");
    let message = message.strip_suffix(&suffix).unwrap_or(&message);
    // The parser's advice on duplicate keys names its own options, which mean nothing to the
    // author of a manifest.
    let message = message.split(", set DuplicateKeyPolicy").next().unwrap_or(message);
    DecodeError::Syntax {
        format: Format::Yaml,
        line: first_line + line.saturating_sub(1),
        column,
        message: message.to_owned(),
    }
}

/// The line and column just after `prefix`, both counted from 1.
fn line_column(prefix: &str) -> (usize, usize) {
    let line = prefix.matches('\n').count() + 1;
    let column = prefix.rsplit('\n').next().map_or(0, |last| last.chars().count()) + 1;
    (line, column)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines_and_texts(text: &str) -> Vec<(usize, usize, &str)> {
        match split_yaml(text) {
            Ok(pieces) => pieces.iter().map(|p| (p.first_line, p.content_line, p.text)).collect(),
            Err(e) => panic!("{e}"),
        }
    }

    #[test]
    fn separators_split_documents_and_content_lines_skip_comments() {
        let text = "a: 1\n---\n# note\n\nb: 2\n--- # end\n";
        assert_eq!(
            lines_and_texts(text),
            [(1, 1, "a: 1\n"), (3, 5, "# note\n\nb: 2\n"), (7, 7, "")]
        );
    }

    #[test]
    fn crlf_separators_split_and_dashes_with_text_are_content() {
        assert_eq!(lines_and_texts("a: 1\r\n---\r\nb: 2\r\n").len(), 2);
        assert_eq!(lines_and_texts("a: |\n  ---x\n---x: 1\n").len(), 1);
    }

    #[test]
    fn invalid_utf8_is_placed_by_line_and_column() {
        let err = read(b"a: 1\nb: \xff\n", false).map(|_| ()).unwrap_err();
        assert_eq!(
            err.to_string(),
            "malformed YAML at line 2, column 4: the input is not valid UTF-8"
        );
    }
}
