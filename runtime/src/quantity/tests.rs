//! Canonical forms checked against Go's `resource.ParseQuantity` and `MarshalJSON` (k8s.io/apimachinery
//! v0.36.3): each pair is what Go answered for the text.

use super::{QuantityError, canonical};

/// (text, Go's canonical form).
const GO_ANSWERS: &[(&str, &str)] = &[
    ("0", "0"),
    ("00", "0"),
    ("-0", "0"),
    ("0.0", "0"),
    ("+", "0"),
    (".", "0"),
    ("0.75", "750m"),
    (".5", "500m"),
    ("1.", "1."),
    ("5.", "5."),
    ("+5", "+5"),
    ("-5", "-5"),
    ("100m", "100m"),
    ("1000m", "1"),
    ("1500m", "1500m"),
    ("1500", "1500"),
    ("1000", "1k"),
    ("1000000", "1M"),
    ("1024Mi", "1Gi"),
    ("1Gi", "1Gi"),
    ("8Gi", "8Gi"),
    ("1.5Gi", "1536Mi"),
    ("0.5Gi", "512Mi"),
    ("0.5Ki", "512"),
    ("1023", "1023"),
    ("1024", "1024"),
    ("1025Ki", "1025Ki"),
    ("1536Mi", "1536Mi"),
    ("+1Gi", "+1Gi"),
    ("-1Gi", "-1Gi"),
    ("12e6", "12e6"),
    ("1E3", "1E3"),
    ("1e3", "1e3"),
    ("1.5e3", "1500"),
    ("1e-3", "1e-3"),
    ("1e-10", "1e-9"),
    ("0.0000000001", "1n"),
    ("1n", "1n"),
    ("0.1n", "1n"),
    ("-0.1n", "-1n"),
    ("1u", "1u"),
    ("1Ei", "1Ei"),
    ("8Ei", "9223372036854775807"),
    ("16Ei", "9223372036854775807"),
    ("100E", "100E"),
    ("1e100", "10e99"),
    ("123456789012345678901", "123456789012345678901"),
    ("1234567890123456789", "1234567890123456789"),
    ("2Ki", "2Ki"),
    ("-2048", "-2048"),
    ("1e+3", "1e+3"),
    ("e3", "0"),
    ("Ki", "0"),
    ("1k", "1k"),
    ("10.5M", "10500k"),
    ("0.001", "1m"),
    ("7Ki", "7Ki"),
    ("1.000", "1"),
    ("001", "001"),
    ("0100m", "0100m"),
    ("1e1", "10"),
    ("1e2", "100"),
    ("-1e-9", "-1e-9"),
    ("999999999999999999Ki", "9223372036854775807"),
    ("-0.5", "-500m"),
    ("3e-1", "300e-3"),
    ("2.5Mi", "2560Ki"),
];

/// (text, Go's error).
const GO_REFUSALS: &[(&str, QuantityError)] = &[
    ("1x", QuantityError::Format),
    ("1KiB", QuantityError::Format),
    ("1e", QuantityError::Suffix),
    ("1.2.3", QuantityError::Format),
    ("1K", QuantityError::Suffix),
    ("", QuantityError::Format),
];

#[test]
fn canonical_forms_are_go_s() {
    for (text, go) in GO_ANSWERS {
        assert_eq!(canonical(text).as_deref(), Ok(*go), "{text}");
    }
}

#[test]
fn refusals_are_go_s() {
    for (text, go) in GO_REFUSALS {
        assert_eq!(canonical(text).as_ref(), Err(go), "{text}");
    }
}

#[test]
fn values_past_the_largest_suffix_keep_their_size() {
    // Go answers `1` for `1000E` (its suffix table ends at E); the value is kept here.
    assert_eq!(canonical("1000E").unwrap(), "1000E");
    assert_eq!(canonical("2000000E").unwrap(), "2000000E");
}

#[test]
fn canonical_forms_are_fixed_points() {
    for (_, go) in GO_ANSWERS {
        assert_eq!(canonical(go).as_deref(), Ok(*go), "{go}");
    }
}

#[test]
fn hostile_exponents_stay_small() {
    assert_eq!(canonical("1e2147483647").unwrap(), "10e2147483646");
    // Go does not answer this one within minutes; rounded up to `1n` it is the smallest value.
    assert_eq!(canonical("1e-2147483648").unwrap(), "1e-9");
    // Go takes minutes over this one (its decimal library scales to 10^2147483648).
    assert!(canonical("5e99999999999").unwrap().len() < 40);
}
