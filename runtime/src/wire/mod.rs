//! What the Scheme's registered serde functions and the codec share, below both: the text
//! formats, the top-level keys an object writes, and the field path of an input value serde
//! skipped (strict decoding reports both as unknown fields).

mod keys;

use std::fmt;

pub(crate) use keys::top_level as top_level_keys;

/// A wire format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// JSON; encoded indented by four spaces, as `kubectl -o json` prints it.
    Json,
    /// YAML; a stream of several objects separates them with `---`.
    Yaml,
}

impl Format {
    /// The format of `bytes`: JSON when the first character that is not whitespace (or a byte-order
    /// mark) is `{` or `[`, YAML otherwise, as Kubernetes' `yaml.IsJSONBuffer` decides.
    pub fn sniff(bytes: &[u8]) -> Format {
        let bytes = bytes.strip_prefix("\u{feff}".as_bytes()).unwrap_or(bytes);
        match bytes.iter().find(|b| !b.is_ascii_whitespace()) {
            Some(b'{' | b'[') => Format::Json,
            _ => Format::Yaml,
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Format::Json => "JSON",
            Format::Yaml => "YAML",
        })
    }
}

/// The path of a value the deserializer skipped, as Kubernetes writes field paths:
/// `spec.template.spec.containers[0].imagee`.
pub(crate) fn skipped_path(path: &serde_ignored::Path<'_>) -> String {
    let mut out = String::new();
    write_path(path, &mut out);
    out
}

fn write_path(path: &serde_ignored::Path<'_>, out: &mut String) {
    use serde_ignored::Path;
    match path {
        Path::Root => {}
        Path::Seq { parent, index } => {
            write_path(parent, out);
            out.push_str(&format!("[{index}]"));
        }
        Path::Map { parent, key } => {
            write_path(parent, out);
            if !out.is_empty() {
                out.push('.');
            }
            out.push_str(key);
        }
        Path::Some { parent } | Path::NewtypeStruct { parent } | Path::NewtypeVariant { parent } => {
            write_path(parent, out)
        }
    }
}
