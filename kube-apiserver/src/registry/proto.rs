//! The protobuf fields of the review and token request bodies kubectl's typed clients send
//! (`application/vnd.kubernetes.protobuf`), read by their numbers in k8s.io/api's
//! generated.proto, for a server whose Scheme does not hold these kinds (a Scheme that does
//! reads them with its generated decoders).

use serde_json::{Value, json};

/// One field's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field<'a> {
    /// A varint (integers, booleans).
    Varint(u64),
    /// A length-delimited value (strings, bytes, messages).
    Bytes(&'a [u8]),
}

impl<'a> Field<'a> {
    /// The bytes of a length-delimited field.
    pub fn bytes(self) -> Option<&'a [u8]> {
        match self {
            Field::Bytes(b) => Some(b),
            Field::Varint(_) => None,
        }
    }

    /// The text of a string field.
    pub fn text(self) -> String {
        String::from_utf8_lossy(self.bytes().unwrap_or_default()).into_owned()
    }
}

fn varint(buf: &mut &[u8]) -> Option<u64> {
    let mut value = 0u64;
    for shift in (0..64).step_by(7) {
        let (&byte, rest) = buf.split_first()?;
        *buf = rest;
        value |= u64::from(byte & 0x7f) << shift;
        if byte & 0x80 == 0 {
            return Some(value);
        }
    }
    None
}

/// The fields of a message, by number, in order; fixed-width fields are skipped. `None` when
/// the bytes are not a message.
pub fn fields(mut buf: &[u8]) -> Option<Vec<(u32, Field<'_>)>> {
    let mut out = Vec::new();
    while !buf.is_empty() {
        let key = varint(&mut buf)?;
        let number = u32::try_from(key >> 3).ok()?;
        match key & 7 {
            0 => out.push((number, Field::Varint(varint(&mut buf)?))),
            1 => buf = buf.get(8..)?,
            5 => buf = buf.get(4..)?,
            2 => {
                let len = usize::try_from(varint(&mut buf)?).ok()?;
                let (field, rest) = (buf.get(..len)?, buf.get(len..)?);
                out.push((number, Field::Bytes(field)));
                buf = rest;
            }
            _ => return None,
        }
    }
    Some(out)
}

/// The body of a `runtime.Unknown` envelope, when `bytes` are Kubernetes protobuf.
pub fn envelope(bytes: &[u8]) -> Option<Result<Vec<u8>, String>> {
    if !kube_apimachinery::protobuf::is_protobuf(bytes) {
        return None;
    }
    Some(
        kube_apimachinery::protobuf::Unknown::decode(bytes)
            .map(|u| u.raw)
            .map_err(|e| e.to_string()),
    )
}

/// A review's protobuf message as its JSON (kubectl's typed client sends protobuf): the spec
/// fields the reviews read, by their numbers in k8s.io/api's generated.proto.
pub fn review(raw: &[u8], kind: &str) -> Option<Value> {
    let spec = fields(raw)?
        .into_iter()
        .find(|(n, _)| *n == 2)
        .and_then(|(_, f)| f.bytes())
        .unwrap_or_default();
    let object = |f: Field<'_>, names: &[&str]| -> Option<Value> {
        let mut out = serde_json::Map::new();
        for (n, value) in fields(f.bytes()?)? {
            if let Some(name) = names.get((n as usize).wrapping_sub(1)) {
                out.insert(name.to_string(), Value::String(value.text()));
            }
        }
        Some(Value::Object(out))
    };
    const RESOURCE: [&str; 7] = [
        "namespace",
        "verb",
        "group",
        "version",
        "resource",
        "subresource",
        "name",
    ];
    let access = matches!(
        kind,
        "SelfSubjectAccessReview" | "SubjectAccessReview" | "LocalSubjectAccessReview"
    );
    let subject = kind != "SelfSubjectAccessReview";
    let mut out = serde_json::Map::new();
    let mut groups = Vec::new();
    let mut extra = serde_json::Map::new();
    for (n, value) in fields(spec)? {
        match n {
            1 if access => {
                out.insert("resourceAttributes".into(), object(value, &RESOURCE)?);
            }
            2 if access => {
                out.insert("nonResourceAttributes".into(), object(value, &["path", "verb"])?);
            }
            3 if access && subject => {
                out.insert("user".into(), Value::String(value.text()));
            }
            4 if access && subject => groups.push(Value::String(value.text())),
            5 if access && subject => {
                // map<string, ExtraValue>: entries of key (1) and value (2, whose items are 1).
                let (mut key, mut items) = (String::new(), Vec::new());
                for (m, v) in fields(value.bytes()?)? {
                    match m {
                        1 => key = v.text(),
                        2 => items.extend(fields(v.bytes()?)?.into_iter().map(|(_, i)| Value::String(i.text()))),
                        _ => {}
                    }
                }
                extra.insert(key, Value::Array(items));
            }
            6 if access && subject => {
                out.insert("uid".into(), Value::String(value.text()));
            }
            1 if kind == "SelfSubjectRulesReview" => {
                out.insert("namespace".into(), Value::String(value.text()));
            }
            1 if kind == "TokenReview" => {
                out.insert("token".into(), Value::String(value.text()));
            }
            2 if kind == "TokenReview" => groups.push(Value::String(value.text())),
            1 if kind == "TokenRequest" => groups.push(Value::String(value.text())),
            3 if kind == "TokenRequest" => {
                out.insert(
                    "boundObjectRef".into(),
                    object(value, &["kind", "apiVersion", "name", "uid"])?,
                );
            }
            4 if kind == "TokenRequest" => {
                if let Field::Varint(seconds) = value {
                    out.insert("expirationSeconds".into(), json!(seconds as i64));
                }
            }
            _ => {}
        }
    }
    if !groups.is_empty() {
        let key = if matches!(kind, "TokenReview" | "TokenRequest") {
            "audiences"
        } else {
            "groups"
        };
        out.insert(key.into(), Value::Array(groups));
    }
    if !extra.is_empty() {
        out.insert("extra".into(), Value::Object(extra));
    }
    Some(json!({"kind": kind, "spec": out}))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varints_and_strings_are_read_and_fixed_widths_skipped() {
        // 1: "ab", 4: 600, 5 (fixed32) skipped, 2: "".
        let buf = [0x0a, 2, b'a', b'b', 0x20, 0xd8, 0x04, 0x2d, 0, 0, 0, 0, 0x12, 0];
        let f = fields(&buf).unwrap();
        assert_eq!(
            f,
            [
                (1, Field::Bytes(b"ab")),
                (4, Field::Varint(600)),
                (2, Field::Bytes(b""))
            ]
        );
        assert_eq!(f[0].1.text(), "ab");
        assert!(fields(&[0x0a, 5, b'a']).is_none(), "a length past the end");
    }
}
