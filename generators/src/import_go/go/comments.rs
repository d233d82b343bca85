//! Comment groups as go/parser forms them, and their text as `CommentGroup.Text()` returns it.
//!
//! A group is a run of comments on adjacent lines with nothing but space between them; a comment
//! that follows code on its line (a line comment) groups only with comments on that same line. A
//! group is a declaration's doc when it ends on the line just above it and starts a line of its
//! own, which is go/parser's lead comment.

/// One comment of the file.
#[derive(Clone, Debug)]
pub struct Comment {
    /// The comment's text, markers included.
    pub text: String,
    /// 0-based first and last line.
    pub start_row: usize,
    /// 0-based last line.
    pub end_row: usize,
    /// Byte offsets in the file.
    pub start_byte: usize,
    /// Byte offset just past it.
    pub end_byte: usize,
    /// Whether only space precedes it on its line.
    pub own_line: bool,
}

/// A comment group.
#[derive(Clone, Debug)]
pub struct Group {
    /// 0-based first line.
    pub start_row: usize,
    /// 0-based last line.
    pub end_row: usize,
    /// Whether it starts a line of its own (a lead comment can be a doc).
    pub lead: bool,
    /// Its text lines, as `CommentGroup.Text()` gives them.
    pub lines: Vec<String>,
}

/// Groups `comments` (in file order) as go/parser does.
pub fn groups(src: &str, comments: &[Comment]) -> Vec<Group> {
    let mut out: Vec<(Group, Vec<&Comment>)> = Vec::new();
    for c in comments {
        if let Some((g, members)) = out.last_mut() {
            let prev = members[members.len() - 1];
            let between = &src[prev.end_byte..c.start_byte];
            let joins = if g.lead {
                c.start_row <= prev.end_row + 1 && c.own_line && between.trim().is_empty()
            } else {
                c.start_row == prev.end_row && between.trim().is_empty()
            };
            if joins {
                g.end_row = c.end_row;
                members.push(c);
                continue;
            }
        }
        out.push((
            Group {
                start_row: c.start_row,
                end_row: c.end_row,
                lead: c.own_line,
                lines: Vec::new(),
            },
            vec![c],
        ));
    }
    out.into_iter()
        .map(|(mut g, members)| {
            g.lines = text(&members);
            g
        })
        .collect()
}

/// Whether a `//` comment is a directive (`//go:generate`, `//nolint:x`, `//line `), which
/// `CommentGroup.Text()` leaves out.
fn is_directive(body: &str) -> bool {
    if ["line ", "extern ", "export "].iter().any(|p| body.starts_with(p)) {
        return true;
    }
    let Some((head, rest)) = body.split_once(':') else {
        return false;
    };
    !head.is_empty()
        && head.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        && rest
            .bytes()
            .next()
            .is_some_and(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
}

/// `CommentGroup.Text()`: markers and a line comment's first space removed, directives left out,
/// trailing space trimmed, leading and trailing blank lines removed, runs of blank lines made one.
fn text(comments: &[&Comment]) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for c in comments {
        if let Some(body) = c.text.strip_prefix("//") {
            if is_directive(body) {
                continue;
            }
            lines.push(body.strip_prefix(' ').unwrap_or(body).to_string());
        } else {
            let body = c
                .text
                .strip_prefix("/*")
                .and_then(|b| b.strip_suffix("*/"))
                .unwrap_or(&c.text);
            lines.extend(body.split('\n').map(str::to_string));
        }
    }
    let mut out: Vec<String> = Vec::new();
    for line in lines {
        let line = line.trim_end().to_string();
        if line.is_empty() && out.last().is_none_or(|l| l.is_empty()) {
            continue;
        }
        out.push(line);
    }
    while out.last().is_some_and(|l| l.is_empty()) {
        out.pop();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn comments(src: &str) -> Vec<Comment> {
        let mut out = Vec::new();
        let mut offset = 0;
        for (row, line) in src.split_inclusive('\n').enumerate() {
            if let Some(i) = line.find("//") {
                let text = line[i..].trim_end_matches('\n').to_string();
                out.push(Comment {
                    start_row: row,
                    end_row: row,
                    start_byte: offset + i,
                    end_byte: offset + i + text.len(),
                    own_line: line[..i].trim().is_empty(),
                    text,
                });
            }
            offset += line.len();
        }
        out
    }

    #[test]
    fn groups_are_adjacent_comments_and_line_comments_stay_apart() {
        let src = "// a\n//  b\n\n// c\nx int // d\n// e\ny int\n";
        let g = groups(src, &comments(src));
        let lines: Vec<_> = g.iter().map(|g| (g.start_row, g.lead, g.lines.clone())).collect();
        assert_eq!(
            lines,
            vec![
                (0, true, vec!["a".to_string(), " b".to_string()]),
                (3, true, vec!["c".to_string()]),
                (4, false, vec!["d".to_string()]),
                (5, true, vec!["e".to_string()]),
            ]
        );
    }

    #[test]
    fn text_drops_directives_and_blank_runs() {
        let src = "//go:generate x\n// a\n//\n//\n// b   \n//nolint:all\n";
        let g = groups(src, &comments(src));
        assert_eq!(g[0].lines, ["a", "", "b"]);
    }
}
