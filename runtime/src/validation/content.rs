//! apimachinery's content checks (`IsDNS1123Label`, `IsQualifiedName`, ...): each returns the
//! messages Kubernetes gives, empty when the text is fine. The `+k8s:format` validators, the
//! hand-written object validation and the server's name checks all use them.

use std::sync::LazyLock;

use regex::Regex;

fn re(pattern: &str) -> Regex {
    // The patterns are constants of this file, covered by its tests.
    Regex::new(&format!("^(?:{pattern})$")).unwrap_or_else(|e| panic!("bad built-in pattern {pattern}: {e}"))
}

const LABEL: &str = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
const SUBDOMAIN: &str = r"[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
const QUALIFIED_NAME: &str = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
const LABEL_VALUE: &str = "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?";
const C_IDENTIFIER: &str = "[A-Za-z_][A-Za-z0-9_]*";
const DNS1035_LABEL: &str = "[a-z]([-a-z0-9]*[a-z0-9])?";

static LABEL_RE: LazyLock<Regex> = LazyLock::new(|| re(LABEL));
static SUBDOMAIN_RE: LazyLock<Regex> = LazyLock::new(|| re(SUBDOMAIN));
static SUBDOMAIN_CASELESS_RE: LazyLock<Regex> = LazyLock::new(|| re(&format!("(?i){SUBDOMAIN}")));
static QUALIFIED_NAME_RE: LazyLock<Regex> = LazyLock::new(|| re(QUALIFIED_NAME));
static LABEL_VALUE_RE: LazyLock<Regex> = LazyLock::new(|| re(LABEL_VALUE));
static C_IDENTIFIER_RE: LazyLock<Regex> = LazyLock::new(|| re(C_IDENTIFIER));
static DNS1035_LABEL_RE: LazyLock<Regex> = LazyLock::new(|| re(DNS1035_LABEL));

/// A message in Kubernetes' form: what is wrong, then examples and the regex.
fn regex_error(msg: &str, regex: &str, examples: &[&str]) -> String {
    if examples.is_empty() {
        return format!("{msg} (regex used for validation is '{regex}')");
    }
    let quoted: Vec<String> = examples.iter().map(|e| format!("'{e}'")).collect();
    format!(
        "{msg} (e.g. {}, regex used for validation is '{regex}')",
        quoted.join(",  or ")
    )
}

/// `must be no more than <n> bytes`.
fn max_len_error(n: usize) -> String {
    format!("must be no more than {n} bytes")
}

/// A DNS-1123 label (`k8s-short-name`): namespace, container and port names.
pub fn dns1123_label(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    if s.len() > 63 {
        out.push(max_len_error(63));
    }
    if !LABEL_RE.is_match(s) {
        if SUBDOMAIN_RE.is_match(s) {
            out.push("must not contain dots".into());
        } else {
            out.push(regex_error(
                "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character",
                LABEL,
                &["my-name", "123-abc"],
            ));
        }
    }
    out
}

/// A DNS-1035 label: a CRD's version names and (lower-cased) kinds.
pub fn dns1035_label(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    if s.len() > 63 {
        out.push(max_len_error(63));
    }
    if !DNS1035_LABEL_RE.is_match(s) {
        out.push(regex_error(
            "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character",
            DNS1035_LABEL,
            &["my-name", "abc-123"],
        ));
    }
    out
}

/// A DNS-1123 subdomain (`k8s-long-name`): most object names.
pub fn dns1123_subdomain(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    if s.len() > 253 {
        out.push(max_len_error(253));
    }
    if !SUBDOMAIN_RE.is_match(s) {
        out.push(regex_error(
            "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character",
            SUBDOMAIN,
            &["example.com"],
        ));
    }
    out
}

/// A DNS-1123 subdomain in any case (`k8s-long-name-caseless`).
pub fn dns1123_subdomain_caseless(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    if s.len() > 253 {
        out.push(max_len_error(253));
    }
    if !SUBDOMAIN_CASELESS_RE.is_match(s) {
        out.push(regex_error(
            "an RFC 1123 subdomain must consist of alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character",
            SUBDOMAIN,
            &["Example.com"],
        ));
    }
    out
}

/// A qualified name (`k8s-label-key`): an optional DNS subdomain prefix and `/`, then a name of
/// up to 63 characters; label and annotation keys.
pub fn qualified_name(s: &str) -> Vec<String> {
    let parts: Vec<&str> = s.split('/').collect();
    let name = match parts.as_slice() {
        [name] => *name,
        [prefix, name] => {
            let mut out = Vec::new();
            if prefix.is_empty() {
                out.push("prefix part must be non-empty".to_string());
            } else {
                out.extend(
                    dns1123_subdomain(prefix)
                        .into_iter()
                        .map(|m| format!("prefix part {m}")),
                );
            }
            out.extend(name_part(name));
            return out;
        }
        _ => {
            return vec![format!(
                "{} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
                regex_error(
                    "a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
                    QUALIFIED_NAME,
                    &["MyName", "my.name", "123-abc"],
                )
            )];
        }
    };
    name_part(name)
}

fn name_part(name: &str) -> Vec<String> {
    let mut out = Vec::new();
    if name.is_empty() {
        out.push("name part must be non-empty".to_string());
    } else if name.len() > 63 {
        out.push(format!("name part {}", max_len_error(63)));
    }
    if !QUALIFIED_NAME_RE.is_match(name) {
        out.push(regex_error(
            "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
            QUALIFIED_NAME,
            &["MyName", "my.name", "123-abc"],
        ));
    }
    out
}

/// A label value (`k8s-label-value`): empty, or up to 63 characters of a qualified name.
pub fn label_value(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    if s.len() > 63 {
        out.push(max_len_error(63));
    }
    if !LABEL_VALUE_RE.is_match(s) {
        out.push(regex_error(
            "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
            LABEL_VALUE,
            &["MyValue", "my_value", "12345"],
        ));
    }
    out
}

/// A C identifier.
pub fn c_identifier(s: &str) -> Vec<String> {
    if C_IDENTIFIER_RE.is_match(s) {
        return Vec::new();
    }
    vec![regex_error(
        "a valid C identifier must start with alphabetic character or '_', followed by a string of alphanumeric characters or '_'",
        C_IDENTIFIER,
        &["my_name", "MY_NAME", "MyName"],
    )]
}

/// A name that is one URL path segment (`k8s-path-segment-name`).
pub fn path_segment_name(s: &str) -> Vec<String> {
    match s {
        "." => return vec!["may not be '.'".into()],
        ".." => return vec!["may not be '..'".into()],
        _ => {}
    }
    ['/', '%']
        .iter()
        .filter(|c| s.contains(**c))
        .map(|c| format!("may not contain '{c}'"))
        .collect()
}

/// A lowercase UUID in 8-4-4-4-12 form (`k8s-uuid`).
pub fn uuid(s: &str) -> Vec<String> {
    let ok = s.len() == 36
        && s.char_indices().all(|(i, c)| match i {
            8 | 13 | 18 | 23 => c == '-',
            _ => c.is_ascii_digit() || ('a'..='f').contains(&c),
        });
    if ok {
        Vec::new()
    } else {
        vec!["must be a lowercase UUID in 8-4-4-4-12 format".into()]
    }
}

const CONFIG_MAP_KEY: &str = "[-._a-zA-Z0-9]+";
const ENV_VAR_NAME: &str = "[-._a-zA-Z][-._a-zA-Z0-9]*";
static CONFIG_MAP_KEY_RE: LazyLock<Regex> = LazyLock::new(|| re(CONFIG_MAP_KEY));
static ENV_VAR_NAME_RE: LazyLock<Regex> = LazyLock::new(|| re(ENV_VAR_NAME));

/// A key of a ConfigMap or Secret: up to 253 characters of `[-._a-zA-Z0-9]`, not `.` or `..`
/// and not starting with `..`.
pub fn config_map_key(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    if s.len() > 253 {
        out.push(max_len_error(253));
    }
    if !CONFIG_MAP_KEY_RE.is_match(s) {
        out.push(regex_error(
            "a valid config key must consist of alphanumeric characters, '-', '_' or '.'",
            CONFIG_MAP_KEY,
            &["key.name", "KEY_NAME", "key-name"],
        ));
    }
    out.extend(dot_dirs(s));
    out
}

/// Kubernetes' `hasChDirPrefix`: a key that would name a directory when written as a file.
fn dot_dirs(s: &str) -> Option<String> {
    match s {
        "." => Some("must not be '.'".into()),
        ".." => Some("must not be '..'".into()),
        _ if s.starts_with("..") => Some("must not start with '..'".into()),
        _ => None,
    }
}

/// An environment variable name.
pub fn env_var_name(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    if !ENV_VAR_NAME_RE.is_match(s) {
        out.push(regex_error(
            "a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit",
            ENV_VAR_NAME,
            &["my.env-name", "MY_ENV.NAME", "MyEnvName1"],
        ));
    }
    out.extend(dot_dirs(s));
    out
}

/// The value of a Quantity (`500m`, `1Gi`, `1e3`) as a number, for comparing two of them;
/// `None` when the text is not a quantity.
pub fn quantity_value(s: &str) -> Option<f64> {
    let s = s.trim();
    let split = s
        .find(|c: char| !(c.is_ascii_digit() || matches!(c, '.' | '+' | '-')))
        .unwrap_or(s.len());
    let (number, suffix) = s.split_at(split);
    let base: f64 = number.parse().ok()?;
    let factor = match suffix {
        "" => 1.0,
        "n" => 1e-9,
        "u" => 1e-6,
        "m" => 1e-3,
        "k" => 1e3,
        "M" => 1e6,
        "G" => 1e9,
        "T" => 1e12,
        "P" => 1e15,
        "E" => 1e18,
        "Ki" => 1024.0,
        "Mi" => 1024f64.powi(2),
        "Gi" => 1024f64.powi(3),
        "Ti" => 1024f64.powi(4),
        "Pi" => 1024f64.powi(5),
        "Ei" => 1024f64.powi(6),
        e if e.starts_with(['e', 'E']) => 10f64.powi(e[1..].parse().ok()?),
        _ => return None,
    };
    Some(base * factor)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_and_subdomains() {
        assert!(dns1123_label("my-name").is_empty());
        assert_eq!(dns1123_label("a.b"), ["must not contain dots"]);
        assert_eq!(
            dns1123_label("Bad_"),
            [
                "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"
            ]
        );
        assert_eq!(dns1123_label(&"a".repeat(64)), ["must be no more than 63 bytes"]);
        assert!(dns1123_subdomain("example.com").is_empty());
        assert_eq!(dns1123_subdomain("Example.com").len(), 1);
        assert!(dns1123_subdomain_caseless("Example.com").is_empty());
    }

    #[test]
    fn qualified_names_and_label_values() {
        assert!(qualified_name("app.kubernetes.io/name").is_empty());
        assert_eq!(qualified_name("/a"), ["prefix part must be non-empty"]);
        assert_eq!(qualified_name("a/b/c").len(), 1);
        assert_eq!(qualified_name("").len(), 2);
        assert!(
            qualified_name("Foo_")
                .iter()
                .any(|m| m.starts_with("name part must consist"))
        );
        assert!(label_value("").is_empty() && label_value("v1.2_x").is_empty());
        assert_eq!(label_value("not ok!").len(), 1);
        assert!(label_value("not ok!")[0].starts_with("a valid label must be an empty string"));
    }

    #[test]
    fn config_keys_env_names_and_quantities() {
        assert!(config_map_key("key.name").is_empty());
        assert_eq!(config_map_key("bad key").len(), 1);
        assert_eq!(config_map_key("..a"), ["must not start with '..'"]);
        assert!(env_var_name("MY_VAR").is_empty() && !env_var_name("1A").is_empty());
        assert_eq!(quantity_value("500m"), Some(0.5));
        assert_eq!(quantity_value("1Gi"), Some(1024f64.powi(3)));
        assert_eq!(quantity_value("2"), Some(2.0));
        assert_eq!(quantity_value("1e3"), Some(1000.0));
        assert_eq!(quantity_value("lots"), None);
    }

    #[test]
    fn other_formats() {
        assert!(uuid("123e4567-e89b-12d3-a456-426614174000").is_empty());
        assert_eq!(uuid("123E4567-e89b-12d3-a456-426614174000").len(), 1);
        assert_eq!(
            path_segment_name("a/b%"),
            ["may not contain '/'", "may not contain '%'"]
        );
        assert_eq!(path_segment_name(".."), ["may not be '..'"]);
        assert!(c_identifier("_a1").is_empty() && !c_identifier("1a").is_empty());
    }
}
