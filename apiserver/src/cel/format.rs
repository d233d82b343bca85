//! The string formats of OpenAPI schemas that Kubernetes checks (`date`, `date-time`, `uuid`,
//! `ipv4`, `ipv6`, `cidr`, `byte`), shared by schema validation and CEL's format library.

/// Whether a string has the node's `format`, for the formats Kubernetes checks; others pass.
pub fn fits(format: &str, text: &str) -> bool {
    use std::sync::LazyLock;
    static DATE: LazyLock<regex::Regex> = LazyLock::new(|| regex::Regex::new(r"^\d{4}-\d{2}-\d{2}$").unwrap());
    static DATE_TIME: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(r"^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$").unwrap()
    });
    static UUID: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(r"^(?i)[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$").unwrap()
    });
    match format {
        "date" => DATE.is_match(text),
        "date-time" => DATE_TIME.is_match(text),
        "uuid" => UUID.is_match(text),
        "ipv4" => text.parse::<std::net::Ipv4Addr>().is_ok(),
        "ipv6" => text.parse::<std::net::Ipv6Addr>().is_ok(),
        "cidr" => text
            .split_once('/')
            .is_some_and(|(ip, bits)| ip.parse::<std::net::IpAddr>().is_ok() && bits.parse::<u8>().is_ok()),
        "byte" => {
            use base64::Engine;
            base64::engine::general_purpose::STANDARD.decode(text).is_ok()
        }
        _ => true,
    }
}
