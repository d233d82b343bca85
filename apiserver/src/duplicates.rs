//! Duplicate keys in a JSON body, which a parse into a map silently collapses (the last one wins)
//! and Kubernetes' strict decoder reports: `duplicate field "spec.replicas"`, an error under
//! `fieldValidation=Strict` and a warning by default. One streaming pass over the body that
//! keeps only each object's keys.

use std::collections::HashSet;
use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};

/// The paths (`spec.template.metadata.labels.app`, list items as `[0]`) of the keys that appear
/// more than once in their object, in the order they were met; empty for a body that is not JSON.
pub fn duplicate_fields(body: &[u8]) -> Vec<String> {
    let mut found = Vec::new();
    let mut de = serde_json::Deserializer::from_slice(body);
    let _ = Scan {
        path: String::new(),
        found: &mut found,
    }
    .deserialize(&mut de);
    found
}

/// One value at `path`, reporting duplicates below it into `found`.
struct Scan<'a> {
    path: String,
    found: &'a mut Vec<String>,
}

impl<'de> DeserializeSeed<'de> for Scan<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Scan<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut seen: HashSet<String> = HashSet::new();
        while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            let path = if self.path.is_empty() {
                key.to_string()
            } else {
                format!("{}.{key}", self.path)
            };
            if !seen.insert(key.into_owned()) {
                self.found.push(path.clone());
            }
            map.next_value_seed(Scan {
                path,
                found: &mut *self.found,
            })?;
        }
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let mut i = 0;
        while seq
            .next_element_seed(Scan {
                path: format!("{}[{i}]", self.path),
                found: &mut *self.found,
            })?
            .is_some()
        {
            i += 1;
        }
        Ok(())
    }

    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeated_keys_are_found_at_their_paths() {
        let body = br#"{"metadata":{"name":"a","name":"b","labels":{"x":"1"}},
                        "spec":{"ports":[{"port":1,"port":2}],"replicas":1},"spec":{}}"#;
        assert_eq!(duplicate_fields(body), ["metadata.name", "spec.ports[0].port", "spec"]);
        assert!(
            duplicate_fields(br#"{"a":{"b":1},"c":{"b":2}}"#).is_empty(),
            "same key, other objects"
        );
        assert!(duplicate_fields(b"kind: X").is_empty(), "not JSON");
    }
}
