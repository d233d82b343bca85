//! A stored object as the storage returned it: its bytes (JSON in the storage version, without a
//! resourceVersion) and its revision. A list in the storage version writes each item straight from
//! the bytes, splicing in the resourceVersion and leaving out apiVersion and kind, so a list of
//! 10k objects builds no tree of values; everything else parses the object with [`Stored::value`].

use std::borrow::Cow;
use std::fmt;

use bytes::Bytes;
use serde::de::{self, Deserializer as _, MapAccess, Visitor};
use serde_json::Value;
use serde_json::value::RawValue;

use crate::meta;
use crate::status::ApiError;
use kube_apiserver_storage::Revision;

/// One stored object and the revision that last wrote it.
#[derive(Clone, Debug)]
pub struct Stored {
    /// The stored JSON.
    pub bytes: Bytes,
    /// Its resourceVersion.
    pub revision: Revision,
}

impl Stored {
    /// The object as a value, with its resourceVersion.
    pub fn value(&self) -> Result<Value, ApiError> {
        let mut obj: Value = serde_json::from_slice(&self.bytes).map_err(broken)?;
        meta::set_resource_version(&mut obj, self.revision);
        Ok(obj)
    }

    /// The object's labels (for a label selector), read without parsing the rest of it.
    pub fn labels(&self) -> Result<Option<serde_json::Map<String, Value>>, ApiError> {
        let top = entries(&self.bytes)?;
        let Some((_, metadata)) = top.iter().find(|(k, _)| k == "metadata") else {
            return Ok(None);
        };
        let metadata = entries(metadata.get().as_bytes())?;
        match metadata.iter().find(|(k, _)| k == "labels") {
            Some((_, labels)) => serde_json::from_str(labels.get()).map_err(broken),
            None => Ok(None),
        }
    }

    /// Appends the object as a list item: its fields as stored but apiVersion and kind, which list
    /// items do not carry, and with `metadata.resourceVersion` in its place among the sorted keys.
    pub fn write_list_item(&self, out: &mut Vec<u8>) -> Result<(), ApiError> {
        self.write(out, false)
    }

    /// The object as a GET in its stored version answers it: its fields as stored, with
    /// `metadata.resourceVersion` in its place; the bytes the parsed path would write, without
    /// building a tree of values to write them.
    pub fn to_json(&self) -> Result<Vec<u8>, ApiError> {
        let mut out = Vec::with_capacity(self.bytes.len() + 32);
        self.write(&mut out, true)?;
        Ok(out)
    }

    fn write(&self, out: &mut Vec<u8>, type_meta: bool) -> Result<(), ApiError> {
        let top = entries(&self.bytes)?;
        out.push(b'{');
        let mut first = true;
        for (key, value) in &top {
            if !type_meta && (key == "apiVersion" || key == "kind") {
                continue;
            }
            comma(out, &mut first);
            write_key(out, key);
            if key == "metadata" {
                self.write_metadata(out, value.get().as_bytes())?;
            } else {
                out.extend_from_slice(value.get().as_bytes());
            }
        }
        out.push(b'}');
        Ok(())
    }

    fn write_metadata(&self, out: &mut Vec<u8>, metadata: &[u8]) -> Result<(), ApiError> {
        let rv = self.revision.to_string();
        let mut written = false;
        let mut first = true;
        out.push(b'{');
        for (key, value) in entries(metadata)? {
            if key == "resourceVersion" {
                continue;
            }
            if !written && key.as_ref() > "resourceVersion" {
                comma(out, &mut first);
                write_key(out, "resourceVersion");
                write_string(out, &rv);
                written = true;
            }
            comma(out, &mut first);
            write_key(out, &key);
            out.extend_from_slice(value.get().as_bytes());
        }
        if !written {
            comma(out, &mut first);
            write_key(out, "resourceVersion");
            write_string(out, &rv);
        }
        out.push(b'}');
        Ok(())
    }
}

/// A stored object that is not JSON: the store holds something this server did not write.
fn broken(e: serde_json::Error) -> ApiError {
    ApiError::internal(format!("stored object does not decode: {e}"))
}

fn comma(out: &mut Vec<u8>, first: &mut bool) {
    if !*first {
        out.push(b',');
    }
    *first = false;
}

fn write_key(out: &mut Vec<u8>, key: &str) {
    write_string(out, key);
    out.push(b':');
}

fn write_string(out: &mut Vec<u8>, text: &str) {
    // Writing a string into a Vec cannot fail.
    let _ = serde_json::to_writer(&mut *out, text);
}

/// The entries of a JSON object in input order, values left as their raw text.
fn entries(bytes: &[u8]) -> Result<Vec<(Cow<'_, str>, &RawValue)>, ApiError> {
    serde_json::Deserializer::from_slice(bytes)
        .deserialize_map(Entries)
        .map_err(broken)
}

struct Entries;

impl<'de> Visitor<'de> for Entries {
    type Value = Vec<(Cow<'de, str>, &'de RawValue)>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<Self::Value, M::Error> {
        let mut out = Vec::new();
        while let Some(key) = map.next_key::<Key<'de>>()? {
            out.push((key.0, map.next_value::<&'de RawValue>()?));
        }
        Ok(out)
    }
}

/// An object key, borrowed unless it has escapes.
struct Key<'a>(Cow<'a, str>);

impl<'de> de::Deserialize<'de> for Key<'de> {
    fn deserialize<D: de::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct KeyVisitor;
        impl<'de> Visitor<'de> for KeyVisitor {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Borrowed(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(v.to_owned())))
            }
        }
        deserializer.deserialize_str(KeyVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn stored(value: Value) -> Stored {
        Stored {
            bytes: serde_json::to_vec(&value).unwrap().into(),
            revision: 42,
        }
    }

    /// The spliced item is the parsed object without its TypeMeta, key for key.
    #[test]
    fn list_items_are_written_as_the_parsed_object_without_type_meta() {
        for obj in [
            json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "a", "namespace": "n", "uid": "u"}, "spec": {"x": [1, {"y": "\"q\""}]}}),
            json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "a"}}),
            json!({"kind": "ConfigMap", "metadata": {}, "data": {"k\n": "v"}}),
            json!({"metadata": {"resourceVersion": "7", "zzz": 1}}),
        ] {
            let s = stored(obj);
            let mut out = Vec::new();
            s.write_list_item(&mut out).unwrap();
            let text = String::from_utf8(out).unwrap();
            let mut expected = s.value().unwrap();
            let m = expected.as_object_mut().unwrap();
            m.remove("apiVersion");
            m.remove("kind");
            assert_eq!(
                text,
                serde_json::to_string(&expected).unwrap(),
                "same bytes, same key order"
            );
        }
    }

    #[test]
    fn labels_are_read_without_the_rest() {
        let s = stored(json!({"metadata": {"labels": {"app": "web"}}, "spec": {}}));
        assert_eq!(
            s.labels().unwrap(),
            Some(json!({"app": "web"}).as_object().unwrap().clone())
        );
        assert_eq!(stored(json!({"spec": {}})).labels().unwrap(), None);
        let broken = Stored {
            bytes: Bytes::from_static(b"{\"metadata\": 1"),
            revision: 1,
        };
        assert_eq!(broken.labels().unwrap_err().code, 500);
    }
}
