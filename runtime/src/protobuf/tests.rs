//! Bytes checked by hand against gogo-protobuf's rules: value fields always written, pointers
//! when set, maps as sorted entries, times as seconds, envelopes with the magic prefix.

use std::collections::BTreeMap;

use k8s_openapi::apimachinery::pkg::api::resource::Quantity;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{ObjectMeta, Time};
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
use k8s_openapi::jiff::Timestamp;

use super::*;

#[test]
fn object_meta_writes_go_value_fields_even_when_empty() {
    let meta = ObjectMeta {
        name: Some("a".into()),
        ..Default::default()
    };
    // name "a", then generateName, namespace, selfLink, uid, resourceVersion empty, generation 0
    // and an empty creationTimestamp, as Go writes an ObjectMeta with only a name.
    let expected = [
        0x0a, 1, b'a', 0x12, 0, 0x1a, 0, 0x22, 0, 0x2a, 0, 0x32, 0, 0x38, 0, 0x42, 0,
    ];
    assert_eq!(encode_message(&meta), expected);
    assert_eq!(meta.encoded_len(), expected.len());
    // Read back, the empty value fields are unset again, so JSON omits them as Go's does.
    assert_eq!(decode_message::<ObjectMeta>(&expected).unwrap(), meta);
}

#[test]
fn maps_are_sorted_entries_and_times_are_seconds() {
    let meta = ObjectMeta {
        labels: Some(BTreeMap::from([("b".into(), "2".into()), ("a".into(), "1".into())])),
        creation_timestamp: Some(Time(Timestamp::new(1_700_000_000, 0).unwrap())),
        generation: Some(3),
        ..Default::default()
    };
    let bytes = encode_message(&meta);
    let entry_a = [0x5a, 6, 0x0a, 1, b'a', 0x12, 1, b'1'];
    let at = bytes.windows(entry_a.len()).position(|w| w == entry_a).unwrap();
    assert_eq!(&bytes[at + 8..at + 10], &[0x5a, 6], "b's entry follows a's");
    assert_eq!(decode_message::<ObjectMeta>(&bytes).unwrap(), meta);
}

#[test]
fn int_or_string_writes_all_three_fields() {
    let mut buf = Vec::new();
    IntOrString::String("25%".into()).encode_field(4, &mut buf);
    assert_eq!(buf, [0x22, 9, 0x08, 1, 0x10, 0, 0x1a, 3, b'2', b'5', b'%']);
    let mut read = IntOrString::default();
    let mut rest = &buf[1..];
    read.merge(WireType::LengthDelimited, &mut rest, 0).unwrap();
    assert_eq!(read, IntOrString::String("25%".into()));
    assert!(rest.is_empty());

    let mut buf = Vec::new();
    IntOrString::Int(-1).encode_field(1, &mut buf);
    let mut rest = &buf[1..];
    let mut read = IntOrString::default();
    read.merge(WireType::LengthDelimited, &mut rest, 0).unwrap();
    assert_eq!(read, IntOrString::Int(-1));
    // A negative int32 is sign-extended to ten bytes, as Go writes it.
    assert_eq!(buf.len(), 2 + 2 + 11 + 2);
}

#[test]
fn quantities_and_repeated_numbers() {
    let mut buf = Vec::new();
    Quantity("100m".into()).encode_field(1, &mut buf);
    assert_eq!(buf, [0x0a, 6, 0x0a, 4, b'1', b'0', b'0', b'm']);

    // Both one field per element and a packed run read into the same Vec.
    let unpacked = [0x08, 1, 0x08, 2];
    let packed = [0x0a, 2, 3, 4];
    let mut v: Vec<i32> = Vec::new();
    let mut rest = &unpacked[1..];
    v.merge(WireType::Varint, &mut rest, 0).unwrap();
    let mut rest = &unpacked[3..];
    v.merge(WireType::Varint, &mut rest, 0).unwrap();
    let mut rest = &packed[1..];
    v.merge(WireType::LengthDelimited, &mut rest, 0).unwrap();
    assert_eq!(v, [1, 2, 3, 4]);
}

#[test]
fn unknown_fields_are_skipped_and_bad_input_is_an_error() {
    // Field 99 (a string) before the name.
    let bytes = [0x9a, 0x06, 2, b'x', b'y', 0x0a, 1, b'a'];
    let meta: ObjectMeta = decode_message(&bytes).unwrap();
    assert_eq!(meta.name.as_deref(), Some("a"));

    assert!(
        decode_message::<ObjectMeta>(&[0x0a, 5, b'a']).is_err(),
        "a length past the end"
    );
    assert!(
        decode_message::<ObjectMeta>(&[0x0a, 1, 0xff]).is_err(),
        "a string that is not UTF-8"
    );
    assert!(
        decode_message::<ObjectMeta>(&[0x08, 1]).is_err(),
        "a varint where a string belongs"
    );
}

#[test]
fn envelopes_carry_the_magic_and_type_meta() {
    let meta = ObjectMeta {
        name: Some("web".into()),
        ..Default::default()
    };
    let body = Unknown::wrap("v1", "Namespace", &meta).encode();
    assert!(is_protobuf(&body));
    assert_eq!(&body[..6], b"k8s\0\x0a\x0f", "TypeMeta: 15 bytes of v1 and Namespace");
    let read = Unknown::decode(&body).unwrap();
    assert_eq!((read.api_version.as_str(), read.kind.as_str()), ("v1", "Namespace"));
    assert_eq!(read.object::<ObjectMeta>().unwrap(), meta);
    assert!(Unknown::decode(b"{\"kind\":\"Namespace\"}").is_err());
}

#[test]
fn nesting_past_the_limit_is_an_error_not_a_crash() {
    #[derive(Default, Debug)]
    struct Nest(Option<Box<Nest>>);
    impl Message for Nest {
        fn encode_raw(&self, buf: &mut Vec<u8>) {
            self.0.encode_field(1, buf);
        }
        fn encoded_len(&self) -> usize {
            self.0.field_len(1)
        }
        fn merge_field(
            &mut self,
            number: u32,
            wire_type: WireType,
            buf: &mut &[u8],
            depth: u32,
        ) -> Result<(), DecodeError> {
            match number {
                1 => self.0.merge(wire_type, buf, depth),
                _ => skip(wire_type, number, buf),
            }
        }
    }
    crate::protobuf_message_field!(Nest);
    let mut deep = Nest::default();
    for _ in 0..200 {
        deep = Nest(Some(Box::new(deep)));
    }
    let bytes = encode_message(&deep);
    assert!(decode_message::<Nest>(&bytes).is_err());
    let mut shallow = Nest::default();
    for _ in 0..10 {
        shallow = Nest(Some(Box::new(shallow)));
    }
    assert!(decode_message::<Nest>(&encode_message(&shallow)).is_ok());
}

#[test]
fn nested_fields_get_the_lengths_measuring_would_give() {
    // Lengths that fit one, two and three varint bytes, in a map entry, a message and raw JSON:
    // written after the contents, they must be what `encoded_len` measures, byte for byte. (An
    // empty name would read back unset, as Go's omitted value fields do.)
    for size in [1, 127, 128, 300, 16_383, 16_384, 70_000] {
        let value = "v".repeat(size);
        let meta = ObjectMeta {
            name: Some(value.clone()),
            annotations: Some(BTreeMap::from([("k".into(), value.clone())])),
            managed_fields: Some(vec![
                k8s_openapi::apimachinery::pkg::apis::meta::v1::ManagedFieldsEntry {
                    fields_v1: Some(k8s_openapi::apimachinery::pkg::apis::meta::v1::FieldsV1(
                        serde_json::json!({ "f:x": value }),
                    )),
                    ..Default::default()
                },
            ]),
            ..Default::default()
        };
        let bytes = encode_message(&meta);
        assert_eq!(bytes.len(), meta.encoded_len(), "size {size}");
        let mut nested = Vec::new();
        encode_message_field(&meta, 1, &mut nested);
        assert_eq!(nested.len(), message_field_len(&meta, 1), "size {size}");
        assert_eq!(&nested[nested.len() - bytes.len()..], &bytes[..]);
        assert_eq!(decode_message::<ObjectMeta>(&bytes).unwrap(), meta, "size {size}");
    }
}
