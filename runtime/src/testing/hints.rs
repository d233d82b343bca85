//! The values a plain random one would not satisfy (timestamps, quantities, base64 text, int-or-string
//! unions), the counterpart of the custom functions apimachinery registers with Go's randfill.
//!
//! A `Deserialize` impl shows what it wants in two places the filler can see: the name it passes to
//! `deserialize_newtype_struct`, and the text its visitor's `expecting` writes. These tables key on
//! those, which covers k8s-openapi's types without this module naming a Rust type.

use k8s_openapi::jiff::Timestamp;
use k8s_openapi::jiff::fmt::strtime;
use rand::Rng;
use rand::rngs::StdRng;

/// The earliest filled timestamp, 2020-01-01T00:00:00Z, in seconds since the Unix epoch.
const EARLIEST_SECOND: i64 = 1_577_836_800;

/// The latest filled timestamp, 2029-12-31T23:59:59Z.
const LATEST_SECOND: i64 = 1_893_455_999;

/// Canonical quantity suffixes with the largest number that stays canonical before each: 1000m is
/// written 1, 1000k is 1M and 1024Ki is 1Mi.
const QUANTITY_SUFFIXES: &[(&str, u32)] = &[
    ("", 999),
    ("m", 999),
    ("k", 999),
    ("M", 999),
    ("G", 999),
    ("Ki", 1023),
    ("Mi", 1023),
    ("Gi", 1023),
];

/// The standard base64 alphabet (RFC 4648), which k8s-openapi's `ByteString` decodes.
const BASE64_ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// The one shape that a self-describing (`deserialize_any`) request should get.
pub(super) enum AnyHint {
    /// An integer or a string, the two shapes `IntOrString` takes.
    IntOrString,
    /// A boolean; `JSONSchemaPropsOrBool` takes a bool or a whole schema.
    Bool,
    /// A sequence; the `JSONSchemaPropsOr…Array` unions take one or a whole schema.
    Seq,
}

/// The shape to produce for a visitor that expects `expecting`, when a random JSON-like value would
/// often be rejected.
pub(super) fn any_hint(expecting: &str) -> Option<AnyHint> {
    match expecting {
        "IntOrString" => Some(AnyHint::IntOrString),
        "JSONSchemaPropsOrBool" => Some(AnyHint::Bool),
        "JSONSchemaPropsOrArray" | "JSONSchemaPropsOrStringArray" => Some(AnyHint::Seq),
        _ => None,
    }
}

/// The inner string of a newtype whose string has a format: k8s-openapi's `Time` serializes at whole
/// seconds and `MicroTime` at microseconds, so finer values would not survive a JSON round trip.
pub(super) fn newtype_text(name: &str, rng: &mut StdRng) -> Option<String> {
    match name {
        "Time" => timestamp(rng, false),
        "MicroTime" => timestamp(rng, true),
        "Quantity" => Some(quantity(rng)),
        _ => None,
    }
}

/// The text for a string request whose visitor expects `expecting`: a timestamp for jiff's own
/// `Timestamp` and base64 for byte strings.
pub(super) fn string_text(expecting: &str, rng: &mut StdRng) -> Option<String> {
    if expecting == "a timestamp string" {
        timestamp(rng, false)
    } else if expecting.contains("base64") {
        let len = rng.random_range(0..=8);
        let bytes: Vec<u8> = (0..len).map(|_| rng.random()).collect();
        Some(base64(&bytes))
    } else {
        None
    }
}

/// An RFC 3339 timestamp in the 2020s, formatted the way k8s-openapi writes `Time` or, with `micros`,
/// `MicroTime`. `None` only if jiff rejects an in-range value, which leaves the caller a random string.
fn timestamp(rng: &mut StdRng, micros: bool) -> Option<String> {
    let second = rng.random_range(EARLIEST_SECOND..=LATEST_SECOND);
    let nanosecond = if micros {
        rng.random_range(0..1_000_000) * 1_000
    } else {
        0
    };
    let timestamp = Timestamp::new(second, nanosecond).ok()?;
    let format = if micros {
        "%Y-%m-%dT%H:%M:%S%.6fZ"
    } else {
        "%Y-%m-%dT%H:%M:%SZ"
    };
    strtime::format(format, timestamp).ok()
}

/// A quantity in canonical form ("0", "250m", "3Gi"), so that parsing and printing it gives it back.
fn quantity(rng: &mut StdRng) -> String {
    let (suffix, max) = QUANTITY_SUFFIXES[rng.random_range(0..QUANTITY_SUFFIXES.len())];
    // Zero is canonical only without a suffix.
    let min = if suffix.is_empty() { 0 } else { 1 };
    format!("{}{suffix}", rng.random_range(min..=max))
}

/// `bytes` in padded standard base64; a dozen lines spare the crate a dependency.
fn base64(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let group = chunk
            .iter()
            .enumerate()
            .fold(0u32, |acc, (i, &b)| acc | u32::from(b) << (16 - 8 * i));
        // A chunk of n bytes carries n + 1 sextets; '=' pads the group to four characters.
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(BASE64_ALPHABET[(group >> (18 - 6 * i)) as usize & 63]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::base64;

    #[test]
    fn base64_matches_rfc_4648_vectors() {
        let cases = [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
        ];
        for (input, want) in cases {
            assert_eq!(base64(input.as_bytes()), want, "base64 of {input:?}");
        }
    }
}
