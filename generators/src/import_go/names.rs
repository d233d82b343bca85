//! Go names as Rust names: JSON and Go field names in snake_case, serde's camelCase of a snake
//! name (to know when a field needs `rename`; the generators' own rule), and Rust's keywords.

/// Rust's strict and reserved keywords (2024 edition), which a field name takes a `_` after.
const KEYWORDS: &[&str] = &[
    "abstract", "as", "async", "await", "become", "box", "break", "const", "continue", "crate", "do", "dyn", "else",
    "enum", "extern", "false", "final", "fn", "for", "gen", "if", "impl", "in", "let", "loop", "macro", "match", "mod",
    "move", "mut", "override", "priv", "pub", "ref", "return", "self", "Self", "static", "struct", "super", "trait",
    "true", "try", "type", "typeof", "unsafe", "unsized", "use", "virtual", "where", "while", "yield",
];

/// `name` with a `_` after it when it is a keyword (`type` -> `type_`).
pub fn ident(name: &str) -> String {
    if KEYWORDS.contains(&name) {
        format!("{name}_")
    } else {
        name.to_string()
    }
}

/// Whether `name` is a keyword that `ident` suffixes.
pub fn is_keyword(name: &str) -> bool {
    KEYWORDS.contains(&name)
}

/// A JSON or Go name in snake_case: words split where a lower-case letter or digit meets an
/// upper-case one, and before the last capital of an acronym that a lower-case word follows
/// (`hostIP` -> `host_ip`, `HTTPGet` -> `http_get`); a plural `s` stays with its acronym
/// (`podIPs` -> `pod_ips`).
pub fn snake(name: &str) -> String {
    let c: Vec<char> = name.chars().collect();
    let n = c.len();
    let mut words: Vec<String> = Vec::new();
    let mut i = 0;
    while i < n {
        let mut j = i + 1;
        if c[i].is_uppercase() {
            if j < n && c[j].is_uppercase() {
                while j < n && c[j].is_uppercase() {
                    j += 1;
                }
                if j < n && c[j].is_lowercase() {
                    let mut k = j;
                    while k < n && c[k].is_lowercase() {
                        k += 1;
                    }
                    let plural = k == j + 1 && c[j] == 's' && (k == n || !c[k].is_lowercase());
                    if plural {
                        j = k;
                    } else {
                        j -= 1;
                    }
                }
            } else {
                while j < n && (c[j].is_lowercase() || c[j].is_ascii_digit()) {
                    j += 1;
                }
            }
        } else {
            while j < n && (c[j].is_lowercase() || c[j].is_ascii_digit()) {
                j += 1;
            }
        }
        words.push(c[i..j].iter().collect());
        i = j;
    }
    let joined = words
        .iter()
        .filter(|w| !w.is_empty() && w.as_str() != "_")
        .map(|w| w.to_lowercase())
        .collect::<Vec<_>>()
        .join("_")
        .replace('-', "_");
    let mut out = String::with_capacity(joined.len());
    for ch in joined.chars() {
        if ch == '_' && out.ends_with('_') {
            continue;
        }
        out.push(ch);
    }
    out.trim_matches('_').to_string()
}

/// serde's `rename_all = "camelCase"` of a snake_case field name, as the generators compute it.
pub fn camel(snake_name: &str) -> String {
    crate::parse::serde_attrs::RenameRule::CamelCase.apply_to_field(snake_name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snake_case_of_kubernetes_names() {
        for (go, rust) in [
            ("hostIP", "host_ip"),
            ("podIPs", "pod_ips"),
            ("HTTPGet", "http_get"),
            ("apiVersion", "api_version"),
            ("terminationGracePeriodSeconds", "termination_grace_period_seconds"),
            ("Capacity", "capacity"),
            ("x-kubernetes-list-type", "x_kubernetes_list_type"),
            ("targetCPUUtilizationPercentage", "target_cpu_utilization_percentage"),
            ("volumeID", "volume_id"),
            ("IPs", "ips"),
        ] {
            assert_eq!(snake(go), rust, "{go}");
        }
    }

    #[test]
    fn camel_and_keywords() {
        assert_eq!(camel("host_ip"), "hostIp");
        assert_eq!(ident("type"), "type_");
        assert_eq!(ident("kind"), "kind");
    }
}
