//! Go literals as Go reads them: string literals (`strconv.Unquote`) and struct tags
//! (`reflect.StructTag`).

/// The value of a Go string literal (interpreted `"..."` or raw `` `...` ``); the error says
/// what Go would reject.
pub fn string_value(lit: &str) -> Result<String, String> {
    if let Some(raw) = lit.strip_prefix('`').and_then(|s| s.strip_suffix('`')) {
        // Go drops carriage returns from raw strings.
        return Ok(raw.replace('\r', ""));
    }
    let body = lit
        .strip_prefix('"')
        .and_then(|s| s.strip_suffix('"'))
        .ok_or_else(|| format!("`{lit}` is not a string literal"))?;
    let mut out = String::with_capacity(body.len());
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let esc = chars.next().ok_or("a string ends in a lone backslash")?;
        let simple = match esc {
            'a' => Some('\u{7}'),
            'b' => Some('\u{8}'),
            'f' => Some('\u{c}'),
            'n' => Some('\n'),
            'r' => Some('\r'),
            't' => Some('\t'),
            'v' => Some('\u{b}'),
            '\\' => Some('\\'),
            '"' => Some('"'),
            '\'' => Some('\''),
            _ => None,
        };
        if let Some(s) = simple {
            out.push(s);
            continue;
        }
        let (digits, radix) = match esc {
            'x' => (2, 16),
            'u' => (4, 16),
            'U' => (8, 16),
            '0'..='7' => (2, 8),
            other => return Err(format!("unknown escape `\\{other}`")),
        };
        let mut code: String = if radix == 8 { esc.to_string() } else { String::new() };
        for _ in 0..digits {
            code.push(chars.next().ok_or("a string ends inside an escape")?);
        }
        let value = u32::from_str_radix(&code, radix).map_err(|_| format!("bad escape `\\{esc}{code}`"))?;
        // `\x` and octal escapes are bytes; API strings are text, so only ASCII ones are kept.
        let ch = if matches!(esc, 'x' | '0'..='7') && value > 0x7f {
            None
        } else {
            char::from_u32(value)
        };
        out.push(ch.ok_or_else(|| format!("escape `\\{esc}{code}` is not a character of text"))?);
    }
    Ok(out)
}

/// The `key:"value"` pairs of a struct tag, in order, as `reflect.StructTag.Lookup` finds them;
/// reading stops at the first malformed pair, as Go's does.
pub fn struct_tag(tag: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = tag;
    loop {
        rest = rest.trim_start_matches(' ');
        let key_len = rest
            .find(|c: char| c <= ' ' || c == ':' || c == '"' || c == '\u{7f}')
            .unwrap_or(rest.len());
        if key_len == 0 || !rest[key_len..].starts_with(":\"") {
            return out;
        }
        let key = &rest[..key_len];
        let after = &rest[key_len + 1..];
        // The quoted value: up to the first unescaped quote.
        let mut end = None;
        let mut escaped = false;
        for (i, c) in after.char_indices().skip(1) {
            match c {
                '\\' if !escaped => escaped = true,
                '"' if !escaped => {
                    end = Some(i);
                    break;
                }
                _ => escaped = false,
            }
        }
        let Some(end) = end else { return out };
        match string_value(&after[..=end]) {
            Ok(value) => out.push((key.to_string(), value)),
            Err(_) => return out,
        }
        rest = &after[end + 1..];
    }
}

/// One key of a struct tag.
pub fn tag_value<'a>(pairs: &'a [(String, String)], key: &str) -> Option<&'a str> {
    pairs.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_read_as_go_reads_them() {
        assert_eq!(string_value(r#""a\"b\n\u00e9\x41""#).unwrap(), "a\"b\né\x41");
        assert_eq!(string_value("`a\\n`").unwrap(), "a\\n");
        assert!(string_value(r#""\q""#).is_err());
    }

    #[test]
    fn struct_tags_read_as_reflect_reads_them() {
        let pairs = struct_tag(r#"json:"name,omitempty" protobuf:"bytes,1,opt,name=name" patchStrategy:"merge""#);
        assert_eq!(tag_value(&pairs, "json"), Some("name,omitempty"));
        assert_eq!(tag_value(&pairs, "protobuf"), Some("bytes,1,opt,name=name"));
        assert_eq!(tag_value(&pairs, "patchStrategy"), Some("merge"));
        assert_eq!(struct_tag(r#"json:"a" bad"#).len(), 1);
    }
}
