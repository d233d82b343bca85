//! [`GoValue`]: how a field that Go holds as a value, and Rust as an `Option`, is read from the
//! wire (`+k8s:zeroIsUnset`).

use super::{DecodeError, Field, WireType};

/// An `Option` of a scalar that Go declares as a value (`SchedulerName string`, not `*string`).
/// gogo-protobuf writes such a field even when it holds Go's zero, which means unset in Go (an
/// empty scheduler name is defaulted, `omitempty` leaves it out of JSON): a zero read is `None`,
/// so that defaults apply and the JSON answer is Go's.
pub trait GoValue {
    /// Writes the value when set; an unset field is left out, which Go reads as its zero.
    fn encode_field(&self, number: u32, buf: &mut Vec<u8>);

    /// The length of [`GoValue::encode_field`]'s output.
    fn field_len(&self, number: u32) -> usize;

    /// Reads one occurrence of the field; a zero leaves it unset.
    fn merge(&mut self, wire_type: WireType, buf: &mut &[u8], depth: u32) -> Result<(), DecodeError>;
}

impl<T: Field + PartialEq> GoValue for Option<T> {
    fn encode_field(&self, number: u32, buf: &mut Vec<u8>) {
        Field::encode_field(self, number, buf);
    }

    fn field_len(&self, number: u32) -> usize {
        Field::field_len(self, number)
    }

    fn merge(&mut self, wire_type: WireType, buf: &mut &[u8], depth: u32) -> Result<(), DecodeError> {
        Field::merge(self, wire_type, buf, depth)?;
        if self.as_ref().is_some_and(|v| *v == T::empty()) {
            *self = None;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use prost::encoding::decode_key;

    /// Reads field 1 of `bytes` through [`GoValue`].
    fn read<T: Field + PartialEq>(bytes: &[u8]) -> Option<T> {
        let mut buf = bytes;
        let mut slot = None;
        let (_, wire_type) = decode_key(&mut buf).unwrap();
        GoValue::merge(&mut slot, wire_type, &mut buf, 0).unwrap();
        slot
    }

    fn written<T: Field>(value: &T) -> Vec<u8> {
        let mut buf = Vec::new();
        value.encode_field(1, &mut buf);
        buf
    }

    #[test]
    fn zero_values_go_writes_read_as_unset() {
        assert_eq!(read::<String>(&written(&String::new())), None);
        assert_eq!(read::<bool>(&written(&false)), None);
        assert_eq!(read::<i32>(&written(&0i32)), None);
        assert_eq!(read::<f64>(&written(&0.0f64)), None);
    }

    #[test]
    fn other_values_read_as_set() {
        assert_eq!(
            read::<String>(&written(&"10.0.0.1".to_string())),
            Some("10.0.0.1".to_string())
        );
        assert_eq!(read::<bool>(&written(&true)), Some(true));
        assert_eq!(read::<i32>(&written(&-1i32)), Some(-1));
    }

    #[test]
    fn unset_is_not_written() {
        let mut buf = Vec::new();
        GoValue::encode_field(&None::<String>, 1, &mut buf);
        assert!(buf.is_empty());
        assert_eq!(GoValue::field_len(&None::<String>, 1), 0);
        GoValue::encode_field(&Some("a".to_string()), 1, &mut buf);
        assert_eq!(buf.len(), GoValue::field_len(&Some("a".to_string()), 1));
    }
}
