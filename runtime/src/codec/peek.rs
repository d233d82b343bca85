//! The TypeMeta of a JSON object read without building the object: one scan of the bytes keeps
//! `apiVersion` and `kind` (and, for strict decoding, every top-level key with whether its value
//! is empty) and skips every value. The codec then decodes the bytes straight into the registered
//! type instead of going through a `serde_json::Value`.
//!
//! Anything unusual (not an object, a TypeMeta field that is not a string, a syntax error) makes
//! the peek give up; the codec then takes its general path, whose errors say what is wrong.

use serde::Deserializer as _;
use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
use std::borrow::Cow;
use std::fmt;

/// What the scan found.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct Peek<'a> {
    /// `apiVersion`, when it is a non-empty string.
    pub(crate) api_version: Option<Cow<'a, str>>,
    /// `kind`, when it is a non-empty string.
    pub(crate) kind: Option<Cow<'a, str>>,
    /// Every top-level key in input order with whether its value is empty (`null`, `false`, `0`,
    /// `""`); only collected when asked for.
    pub(crate) keys: Vec<(Cow<'a, str>, bool)>,
}

/// Scans `bytes`, a JSON object. Without `all_keys` the scan stops as soon as it has seen both
/// `apiVersion` and `kind`, which clients write first.
pub(crate) fn read(bytes: &[u8], all_keys: bool) -> Option<Peek<'_>> {
    let mut peek = Peek::default();
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let scan = Scan {
        out: &mut peek,
        all_keys,
    };
    match de.deserialize_map(scan) {
        Ok(()) => Some(peek),
        Err(_) if !all_keys && peek.api_version.is_some() && peek.kind.is_some() => Some(peek),
        Err(_) => None,
    }
}

/// The visitor of the top-level object.
struct Scan<'p, 'a> {
    out: &'p mut Peek<'a>,
    all_keys: bool,
}

impl<'de: 'a, 'a> Visitor<'de> for Scan<'_, 'a> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<(), M::Error> {
        while let Some(Text(key)) = map.next_key::<Text<'de>>()? {
            let empty = match key.as_ref() {
                "apiVersion" | "kind" => {
                    let value = map.next_value::<Option<Text<'de>>>()?.map(|t| t.0);
                    let empty = value.as_deref().is_none_or(str::is_empty);
                    let value = value.filter(|v| !v.is_empty());
                    if key == "kind" {
                        self.out.kind = value;
                    } else {
                        self.out.api_version = value;
                    }
                    empty
                }
                _ if self.all_keys => map.next_value_seed(Empty)?,
                _ => {
                    map.next_value::<IgnoredAny>()?;
                    false
                }
            };
            if self.all_keys {
                self.out.keys.push((key, empty));
            } else if self.out.api_version.is_some() && self.out.kind.is_some() {
                // Stopping early is an error to serde; `read` tells it from a real one.
                return Err(de::Error::custom("stopped after the TypeMeta"));
            }
        }
        Ok(())
    }
}

/// A string, borrowed from the input unless it has escapes.
struct Text<'a>(Cow<'a, str>);

impl<'de> de::Deserialize<'de> for Text<'de> {
    fn deserialize<D: de::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct TextVisitor;
        impl<'de> Visitor<'de> for TextVisitor {
            type Value = Text<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Text<'de>, E> {
                Ok(Text(Cow::Borrowed(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Text<'de>, E> {
                Ok(Text(Cow::Owned(v.to_owned())))
            }
        }
        deserializer.deserialize_str(TextVisitor)
    }
}

/// Skips a value, answering whether it is empty: `null`, `false`, zero or `""`, which an absent
/// optional field or an omitempty value field leaves out of an encoding.
struct Empty;

impl<'de> DeserializeSeed<'de> for Empty {
    type Value = bool;

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<bool, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Empty {
    type Value = bool;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<bool, E> {
        Ok(!v)
    }
    fn visit_i64<E>(self, v: i64) -> Result<bool, E> {
        Ok(v == 0)
    }
    fn visit_u64<E>(self, v: u64) -> Result<bool, E> {
        Ok(v == 0)
    }
    fn visit_f64<E>(self, v: f64) -> Result<bool, E> {
        Ok(v == 0.0)
    }
    fn visit_str<E>(self, v: &str) -> Result<bool, E> {
        Ok(v.is_empty())
    }
    fn visit_unit<E>(self) -> Result<bool, E> {
        Ok(true)
    }
    fn visit_none<E>(self) -> Result<bool, E> {
        Ok(true)
    }
    fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<bool, M::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(false)
    }
    fn visit_seq<S: SeqAccess<'de>>(self, mut seq: S) -> Result<bool, S::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stops_after_the_type_meta_unless_every_key_is_wanted() {
        let input = br#"{"apiVersion": "apps/v1", "kind": "Deployment", "spec": {"x": [1]}, "paused": false"#;
        // The input is cut short after the TypeMeta: a lenient scan never reads that far.
        let peek = read(input, false).unwrap();
        assert_eq!(peek.api_version.as_deref(), Some("apps/v1"));
        assert_eq!(peek.kind.as_deref(), Some("Deployment"));
        assert!(peek.keys.is_empty());
        assert_eq!(read(input, true), None);

        let full = br#"{"kind": "Deployment", "spec": {"x": [1]}, "paused": false, "n": 0, "s": "a", "apiVersion": "apps\/v1"}"#;
        let peek = read(full, true).unwrap();
        assert_eq!(peek.api_version.as_deref(), Some("apps/v1"));
        let keys: Vec<_> = peek.keys.iter().map(|(k, e)| (k.as_ref(), *e)).collect();
        assert_eq!(
            keys,
            [
                ("kind", false),
                ("spec", false),
                ("paused", true),
                ("n", true),
                ("s", false),
                ("apiVersion", false)
            ]
        );
    }

    #[test]
    fn gives_up_on_what_the_general_path_must_explain() {
        assert_eq!(read(b"[1]", false), None);
        assert_eq!(read(br#"{"apiVersion": 1, "kind": "Pod"}"#, false), None);
        assert_eq!(read(b"{\"kind\": \"Pod\"", false), None);
        let missing = read(br#"{"kind": "Pod", "apiVersion": ""}"#, false).unwrap();
        assert_eq!((missing.api_version, missing.kind.as_deref()), (None, Some("Pod")));
    }
}
