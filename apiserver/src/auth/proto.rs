//! The protobuf fields of the review and token request bodies kubectl's typed clients send
//! (`application/vnd.kubernetes.protobuf`), read by their numbers in k8s.io/api's
//! generated.proto: these kinds are not compiled into the Scheme, so no generated decoder reads
//! them.

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
    if !runtime::protobuf::is_protobuf(bytes) {
        return None;
    }
    Some(
        runtime::protobuf::Unknown::decode(bytes)
            .map(|u| u.raw)
            .map_err(|e| e.to_string()),
    )
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
