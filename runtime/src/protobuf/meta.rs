//! The protobuf messages of k8s-openapi's apimachinery types (meta/v1's ObjectMeta, ListMeta,
//! LabelSelector, Condition, ..., Time, IntOrString, Quantity), with the field numbers of
//! apimachinery's generated.proto.
//!
//! k8s-openapi makes every Go field an `Option`, so the impls say per field what Go's field is: a
//! pointer (`field`: written when set, read as set) or a value (`value`: always written, its zero
//! when unset; a zero read back is unset, as Go's JSON then omits it).

use k8s_openapi::apimachinery::pkg::api::resource::Quantity;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{
    Condition, DeleteOptions, FieldsV1, LabelSelector, LabelSelectorRequirement, ListMeta, ManagedFieldsEntry,
    MicroTime, ObjectMeta, OwnerReference, Preconditions, Status, StatusCause, StatusDetails, Time,
};
use k8s_openapi::apimachinery::pkg::runtime::RawExtension;
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
use k8s_openapi::jiff::Timestamp;
use prost::encoding::{decode_key, encode_key};

use super::{
    DecodeError, Field, WireType, delimited_len, encode_delimited_header, encode_nested, skip, take_delimited,
};

/// Implements [`super::Message`] and [`Field`] for a k8s-openapi struct: each line is a field
/// number, the Rust field and how Go holds it (`field`, `value`, `time_value`).
macro_rules! k8s_message {
    ($ty:ty { $($number:literal => $name:tt: $how:ident),+ $(,)? }) => {
        k8s_message!($ty { $($number => $name: $how),+ } empty = ::core::default::Default::default());
    };
    ($ty:ty { $($number:literal => $name:tt: $how:ident),+ $(,)? } empty = $empty:expr) => {
        impl super::Message for $ty {
            fn encode_raw(&self, buf: &mut Vec<u8>) {
                $( $how::encode(&self.$name, $number, buf); )+
            }

            fn encoded_len(&self) -> usize {
                0 $( + $how::len(&self.$name, $number) )+
            }

            fn merge_field(
                &mut self,
                number: u32,
                wire_type: WireType,
                buf: &mut &[u8],
                depth: u32,
            ) -> Result<(), DecodeError> {
                match number {
                    $( $number => $how::merge(&mut self.$name, wire_type, buf, depth), )+
                    _ => skip(wire_type, number, buf),
                }
            }
        }

        crate::protobuf_message_field!($ty, empty = $empty);
    };
}
pub(super) use k8s_message;

/// A field as its Rust type writes it: Go's pointers, slices, maps and value fields that
/// k8s-openapi does not wrap in an `Option`.
pub(super) mod field {
    use super::{DecodeError, Field, WireType};

    pub fn encode<T: Field>(v: &T, number: u32, buf: &mut Vec<u8>) {
        v.encode_field(number, buf);
    }

    pub fn len<T: Field>(v: &T, number: u32) -> usize {
        v.field_len(number)
    }

    pub fn merge<T: Field>(v: &mut T, wire_type: WireType, buf: &mut &[u8], depth: u32) -> Result<(), DecodeError> {
        v.merge(wire_type, buf, depth)
    }
}

/// A Go value field that k8s-openapi holds as an `Option`: always written (its zero when unset),
/// and unset when its zero is read.
pub(super) mod value {
    use super::{DecodeError, Field, WireType};

    pub fn encode<T: Field + Default>(v: &Option<T>, number: u32, buf: &mut Vec<u8>) {
        match v {
            Some(v) => v.encode_field(number, buf),
            None => T::default().encode_field(number, buf),
        }
    }

    pub fn len<T: Field + Default>(v: &Option<T>, number: u32) -> usize {
        match v {
            Some(v) => v.field_len(number),
            None => T::default().field_len(number),
        }
    }

    pub fn merge<T: Field + Default + PartialEq>(
        v: &mut Option<T>,
        wire_type: WireType,
        buf: &mut &[u8],
        depth: u32,
    ) -> Result<(), DecodeError> {
        let mut read = v.take().unwrap_or_default();
        read.merge(wire_type, buf, depth)?;
        *v = (read != T::default()).then_some(read);
        Ok(())
    }
}

/// The nanoseconds Go writes: none for `Time` (JSON keeps seconds only), microseconds for
/// `MicroTime`.
fn nanos(t: &Timestamp, micro: bool) -> i32 {
    if micro { split(t).1 / 1000 * 1000 } else { 0 }
}

/// Seconds and nanoseconds as Go's `Unix()` gives them: seconds rounded down, nanoseconds from 0
/// to 999,999,999 (jiff rounds toward zero and gives a negative fraction before 1970).
fn split(t: &Timestamp) -> (i64, i32) {
    match t.subsec_nanosecond() {
        n if n < 0 => (t.as_second() - 1, n + 1_000_000_000),
        n => (t.as_second(), n),
    }
}

/// The length of a `Timestamp{seconds = 1, nanos = 2}` message, both always written.
fn timestamp_len(t: &Timestamp, micro: bool) -> usize {
    split(t).0.field_len(1) + nanos(t, micro).field_len(2)
}

/// Writes a time as field `number`: a timestamp message.
fn encode_time(t: &Timestamp, micro: bool, number: u32, buf: &mut Vec<u8>) {
    encode_delimited_header(number, timestamp_len(t, micro), buf);
    split(t).0.encode_field(1, buf);
    nanos(t, micro).encode_field(2, buf);
}

/// Reads a timestamp message; an empty one is Go's zero time, which is unset.
fn merge_timestamp(wire_type: WireType, buf: &mut &[u8], micro: bool) -> Result<Option<Timestamp>, DecodeError> {
    let mut msg = take_delimited(wire_type, buf)?;
    if msg.is_empty() {
        return Ok(None);
    }
    let (mut seconds, mut nanos) = (0i64, 0i32);
    while !msg.is_empty() {
        let (number, wire_type) = decode_key(&mut msg)?;
        match number {
            1 => seconds.merge(wire_type, &mut msg, 0)?,
            2 => nanos.merge(wire_type, &mut msg, 0)?,
            _ => skip(wire_type, number, &mut msg)?,
        }
    }
    let nanos = if micro { nanos / 1000 * 1000 } else { 0 };
    Timestamp::new(seconds, nanos)
        .map(Some)
        .map_err(|_| DecodeError::new("a time is out of range"))
}

/// Go's zero time (0001-01-01T00:00:00Z), which a `Time` read from an empty message is, and which
/// writes as one.
fn go_zero() -> Timestamp {
    Timestamp::new(-62_135_596_800, 0).unwrap_or(Timestamp::MIN)
}

/// `Time` and `MicroTime`: `{seconds = 1, nanos = 2}`, empty for Go's zero time. In an `Option`,
/// the zero time is unset (`null` in JSON), as Go's `omitempty` treats it.
macro_rules! time_field {
    ($($ty:ident: $micro:literal),+) => {$(
        impl Field for $ty {
            const WIRE_TYPE: WireType = WireType::LengthDelimited;

            fn encode_field(&self, number: u32, buf: &mut Vec<u8>) {
                if self.0 == go_zero() {
                    encode_delimited_header(number, 0, buf);
                } else {
                    encode_time(&self.0, $micro, number, buf);
                }
            }

            fn field_len(&self, number: u32) -> usize {
                if self.0 == go_zero() {
                    delimited_len(number, 0)
                } else {
                    delimited_len(number, timestamp_len(&self.0, $micro))
                }
            }

            fn merge(&mut self, wire_type: WireType, buf: &mut &[u8], _depth: u32) -> Result<(), DecodeError> {
                self.0 = merge_timestamp(wire_type, buf, $micro)?.unwrap_or_else(go_zero);
                Ok(())
            }

            fn empty() -> Self {
                $ty(go_zero())
            }

            fn is_unset(&self) -> bool {
                self.0 == go_zero()
            }
        }
    )+};
}

time_field!(Time: false, MicroTime: true);

/// `IntOrString{type = 1, intVal = 2, strVal = 3}`, all three always written, as Go's value type.
impl Field for IntOrString {
    const WIRE_TYPE: WireType = WireType::LengthDelimited;

    fn encode_field(&self, number: u32, buf: &mut Vec<u8>) {
        let (kind, int, string) = parts(self);
        encode_delimited_header(number, int_or_string_len(kind, int, string), buf);
        kind.encode_field(1, buf);
        int.encode_field(2, buf);
        encode_key(3, WireType::LengthDelimited, buf);
        prost::encoding::encode_varint(string.len() as u64, buf);
        buf.extend_from_slice(string.as_bytes());
    }

    fn field_len(&self, number: u32) -> usize {
        let (kind, int, string) = parts(self);
        delimited_len(number, int_or_string_len(kind, int, string))
    }

    fn merge(&mut self, wire_type: WireType, buf: &mut &[u8], _depth: u32) -> Result<(), DecodeError> {
        let mut msg = take_delimited(wire_type, buf)?;
        let (mut kind, mut int, mut string) = (0i64, 0i32, String::new());
        while !msg.is_empty() {
            let (number, wire_type) = decode_key(&mut msg)?;
            match number {
                1 => kind.merge(wire_type, &mut msg, 0)?,
                2 => int.merge(wire_type, &mut msg, 0)?,
                3 => string.merge(wire_type, &mut msg, 0)?,
                _ => skip(wire_type, number, &mut msg)?,
            }
        }
        *self = if kind == 1 {
            IntOrString::String(string)
        } else {
            IntOrString::Int(int)
        };
        Ok(())
    }

    fn empty() -> Self {
        IntOrString::Int(0)
    }
}

/// An IntOrString's type (0 int, 1 string), its int and its string.
fn parts(v: &IntOrString) -> (i64, i32, &str) {
    match v {
        IntOrString::Int(i) => (0, *i, ""),
        IntOrString::String(s) => (1, 0, s),
    }
}

fn int_or_string_len(kind: i64, int: i32, string: &str) -> usize {
    kind.field_len(1) + int.field_len(2) + delimited_len(3, string.len())
}

/// `Quantity{string = 1}`: the quantity's text, read in canonical form.
impl Field for Quantity {
    const WIRE_TYPE: WireType = WireType::LengthDelimited;

    fn encode_field(&self, number: u32, buf: &mut Vec<u8>) {
        encode_nested(number, buf, |buf| self.0.encode_field(1, buf));
    }

    fn field_len(&self, number: u32) -> usize {
        delimited_len(number, self.0.field_len(1))
    }

    fn merge(&mut self, wire_type: WireType, buf: &mut &[u8], _depth: u32) -> Result<(), DecodeError> {
        let mut msg = take_delimited(wire_type, buf)?;
        let mut text = None;
        while !msg.is_empty() {
            let (number, wire_type) = decode_key(&mut msg)?;
            match number {
                1 => text.get_or_insert_with(String::new).merge(wire_type, &mut msg, 0)?,
                _ => skip(wire_type, number, &mut msg)?,
            }
        }
        // Go's Unmarshal parses the text it is given, so a Quantity is stored and answered in
        // canonical form; without one it is Go's zero Quantity, which reads "0".
        self.0 = match text {
            Some(text) => crate::quantity::canonical(&text).map_err(|e| DecodeError::new(e.to_string()))?,
            None => "0".into(),
        };
        Ok(())
    }

    fn empty() -> Self {
        Quantity::default()
    }
}

k8s_message!(ObjectMeta {
    1 => name: value,
    2 => generate_name: value,
    3 => namespace: value,
    4 => self_link: value,
    5 => uid: value,
    6 => resource_version: value,
    7 => generation: value,
    8 => creation_timestamp: time_value,
    9 => deletion_timestamp: field,
    10 => deletion_grace_period_seconds: field,
    11 => labels: field,
    12 => annotations: field,
    13 => owner_references: field,
    14 => finalizers: field,
    17 => managed_fields: field,
});

k8s_message!(ListMeta {
    1 => self_link: value,
    2 => resource_version: value,
    3 => continue_: value,
    4 => remaining_item_count: field,
});

k8s_message!(OwnerReference {
    1 => kind: field,
    3 => name: field,
    4 => uid: field,
    5 => api_version: field,
    6 => controller: field,
    7 => block_owner_deletion: field,
});

k8s_message!(ManagedFieldsEntry {
    1 => manager: value,
    2 => operation: value,
    3 => api_version: value,
    4 => time: field,
    6 => fields_type: value,
    7 => fields_v1: field,
    8 => subresource: value,
});

k8s_message!(FieldsV1 { 1 => 0: field });

k8s_message!(RawExtension { 1 => 0: field });

k8s_message!(crate::meta::v1::GroupVersionKind {
    1 => group: field,
    2 => version: field,
    3 => kind: field,
});

k8s_message!(crate::meta::v1::GroupVersionResource {
    1 => group: field,
    2 => version: field,
    3 => resource: field,
});

k8s_message!(Status {
    1 => metadata: field,
    2 => status: value,
    3 => message: value,
    4 => reason: value,
    5 => details: field,
    6 => code: value,
});

k8s_message!(StatusDetails {
    1 => name: value,
    2 => group: value,
    3 => kind: value,
    4 => causes: field,
    5 => retry_after_seconds: value,
    6 => uid: value,
});

k8s_message!(StatusCause {
    1 => reason: value,
    2 => message: value,
    3 => field: value,
});

k8s_message!(DeleteOptions {
    1 => grace_period_seconds: field,
    2 => preconditions: field,
    3 => orphan_dependents: field,
    4 => propagation_policy: field,
    5 => dry_run: field,
    6 => ignore_store_read_error_with_cluster_breaking_potential: field,
});

k8s_message!(Preconditions {
    1 => uid: field,
    2 => resource_version: field,
});

k8s_message!(LabelSelector {
    1 => match_labels: field,
    2 => match_expressions: field,
});

k8s_message!(LabelSelectorRequirement {
    1 => key: field,
    2 => operator: field,
    3 => values: field,
});

k8s_message!(k8s_openapi::apimachinery::pkg::apis::meta::v1::FieldSelectorRequirement {
    1 => key: field,
    2 => operator: field,
    3 => values: field,
});

// k8s-openapi has GroupResource from Kubernetes 1.35 on (storagemigration's first use of it).
k8s_openapi::k8s_if_ge_1_35! {
    k8s_message!(k8s_openapi::apimachinery::pkg::apis::meta::v1::GroupResource {
        1 => group: field,
        2 => resource: field,
    });
}

k8s_message!(Condition {
    1 => type_: field,
    2 => status: field,
    3 => observed_generation: value,
    4 => last_transition_time: field,
    5 => reason: field,
    6 => message: field,
} empty = Condition {
    last_transition_time: Time(go_zero()),
    message: String::new(),
    observed_generation: None,
    reason: String::new(),
    status: String::new(),
    type_: String::new(),
});

/// ObjectMeta's `creationTimestamp`: a Go value `Time`, an empty message when unset.
pub(super) mod time_value {
    use super::{DecodeError, Field, Time, WireType, encode_delimited_header};

    pub fn encode(v: &Option<Time>, number: u32, buf: &mut Vec<u8>) {
        match v {
            Some(_) => v.encode_field(number, buf),
            None => encode_delimited_header(number, 0, buf),
        }
    }

    pub fn len(v: &Option<Time>, number: u32) -> usize {
        match v {
            Some(_) => v.field_len(number),
            None => super::delimited_len(number, 0),
        }
    }

    pub fn merge(v: &mut Option<Time>, wire_type: WireType, buf: &mut &[u8], depth: u32) -> Result<(), DecodeError> {
        v.merge(wire_type, buf, depth)
    }
}
