//! Unit tests of decoding one object: JSON and YAML, defaults and conversion, every error message
//! word for word, and strict mode.

use super::test_types::{INTERNAL, V1, V2, Widget, WidgetV2, scheme};
use super::{Codec, DecodeError, Format};
use crate::{Object, Scheme};

const WIDGET_JSON: &str = r#"{
  "apiVersion": "example.com/v1",
  "kind": "Widget",
  "metadata": {"name": "w", "labels": {"app.kubernetes.io/name": "w"}},
  "spec": {"replicas": 3, "ports": [{"port": 80, "name": "http"}]}
}"#;

const WIDGET_YAML: &str = "\
apiVersion: example.com/v1
kind: Widget
metadata:
  name: w
  labels:
    app.kubernetes.io/name: w
spec:
  replicas: 3
  ports:
  - port: 80
    name: http
";

fn test_scheme() -> Scheme {
    scheme().expect("the test scheme registers")
}

/// The message of decoding `input` with a codec of the given strictness.
fn decode_err(scheme: &Scheme, strict: bool, input: &str) -> String {
    match Codec::new(scheme).with_strict(strict).decode(input.as_bytes()) {
        Ok(obj) => panic!("decoding succeeded: {obj:?}"),
        Err(e) => e.to_string(),
    }
}

fn internal(obj: &dyn Object) -> &Widget {
    obj.downcast_ref::<Widget>().expect("decode returns the internal type")
}

#[test]
fn json_decodes_defaults_and_converts_to_internal() -> Result<(), DecodeError> {
    let s = test_scheme();
    let obj = Codec::new(&s).decode(WIDGET_JSON.as_bytes())?;
    let w = internal(obj.as_ref());
    assert_eq!(obj.group_version_kind(), Some(INTERNAL.with_kind("Widget")));
    assert_eq!(w.metadata.name.as_deref(), Some("w"));
    assert_eq!(w.replicas, 3);
    assert_eq!(w.color, "blue", "the v1 defaulter ran before conversion");
    assert_eq!(w.ports[0].name.as_deref(), Some("http"));
    Ok(())
}

#[test]
fn yaml_decodes_to_the_same_object_as_json() -> Result<(), DecodeError> {
    let s = test_scheme();
    let codec = Codec::new(&s);
    let from_yaml = codec.decode(WIDGET_YAML.as_bytes())?;
    let from_json = codec.decode(WIDGET_JSON.as_bytes())?;
    assert_eq!(internal(from_yaml.as_ref()), internal(from_json.as_ref()));
    Ok(())
}

#[test]
fn yaml_reads_legacy_octal_and_a_byte_order_mark() -> Result<(), DecodeError> {
    let s = test_scheme();
    let input = "\u{feff}apiVersion: example.com/v1\nkind: Widget\nspec:\n  replicas: 0644\n";
    let obj = Codec::new(&s).decode(input.as_bytes())?;
    assert_eq!(internal(obj.as_ref()).replicas, 420);
    Ok(())
}

#[test]
fn decode_to_version_converts_through_the_hub() -> Result<(), DecodeError> {
    let s = test_scheme();
    let obj = Codec::new(&s).decode_to_version(WIDGET_YAML.as_bytes(), &V2)?;
    assert_eq!(obj.group_version_kind(), Some(V2.with_kind("Widget")));
    let v2 = obj.downcast_ref::<WidgetV2>().expect("a v2 Widget");
    assert_eq!((v2.spec.size, v2.spec.color.as_str()), (3, "blue"));
    let same = Codec::new(&s).decode_to_version(WIDGET_YAML.as_bytes(), &V1)?;
    assert_eq!(same.group_version_kind(), Some(V1.with_kind("Widget")));
    Ok(())
}

#[test]
fn malformed_input_names_line_and_column() {
    let s = test_scheme();
    assert_eq!(
        decode_err(
            &s,
            false,
            "{\n  \"apiVersion\": \"example.com/v1\",\n  \"kind\": Widget\n}"
        ),
        "malformed JSON at line 3, column 11: expected value"
    );
    assert_eq!(
        decode_err(
            &s,
            false,
            "apiVersion: example.com/v1\nkind: Widget\nspec:\n  replicas: [1\n"
        ),
        "malformed YAML at line 4, column 13: unclosed bracket '['"
    );
    assert_eq!(
        decode_err(&s, false, "apiVersion: v1\nkind: a: b\n"),
        "malformed YAML at line 2, column 8: mapping values are not allowed in this context"
    );
}

#[test]
fn missing_or_malformed_type_meta_is_named() {
    let s = test_scheme();
    assert_eq!(decode_err(&s, false, "kind: Widget\n"), r#"missing "apiVersion""#);
    assert_eq!(
        decode_err(&s, false, "apiVersion: ''\nkind: Widget\n"),
        r#"missing "apiVersion""#
    );
    assert_eq!(
        decode_err(&s, false, "apiVersion: example.com/v1\n"),
        r#"missing "kind""#
    );
    assert_eq!(
        decode_err(&s, false, "apiVersion: 1\nkind: Widget\n"),
        r#""apiVersion" must be a string, found a number"#
    );
    assert_eq!(
        decode_err(&s, false, "apiVersion: a/b/c\nkind: Widget\n"),
        r#"invalid apiVersion "a/b/c": expected "version" or "group/version""#
    );
    assert_eq!(
        decode_err(&s, false, "- apiVersion: v1\n"),
        r#"expected an object with "apiVersion" and "kind", found an array"#
    );
    assert_eq!(
        decode_err(&s, false, "# nothing here\n"),
        "no object found: the input is empty"
    );
}

#[test]
fn unknown_kinds_list_the_versions_that_have_the_kind() {
    let s = test_scheme();
    assert_eq!(
        decode_err(&s, false, "apiVersion: example.com/v9\nkind: Widget\n"),
        r#"no kind "Widget" is registered for version "example.com/v9" (versions with kind "Widget": "example.com/v2", "example.com/v1")"#
    );
    // The internal version is registered but has no wire format, so it cannot be decoded either.
    assert_eq!(
        decode_err(&s, false, "apiVersion: example.com/__internal\nkind: Widget\n"),
        r#"no kind "Widget" is registered for version "example.com/__internal" (versions with kind "Widget": "example.com/v2", "example.com/v1")"#
    );
    assert_eq!(
        decode_err(&s, false, "apiVersion: example.com/v1\nkind: Gadget\n"),
        r#"no kind "Gadget" is registered for version "example.com/v1""#
    );
}

#[test]
fn field_errors_name_the_json_path() {
    let s = test_scheme();
    let head = "apiVersion: example.com/v1\nkind: Widget\n";
    assert_eq!(
        decode_err(&s, false, &format!("{head}spec:\n  replicas: three\n")),
        r#"spec.replicas: invalid type: string "three", expected i32"#
    );
    assert_eq!(
        decode_err(
            &s,
            false,
            &format!("{head}spec:\n  ports:\n  - port: 80\n  - name: x\n")
        ),
        "spec.ports[1]: missing field `port`"
    );
    assert_eq!(decode_err(&s, false, head), "missing field `spec`");
}

#[test]
fn several_documents_or_a_list_need_decode_stream() {
    let s = test_scheme();
    let two = format!("{WIDGET_YAML}---\n{WIDGET_YAML}");
    assert_eq!(
        decode_err(&s, false, &two),
        "expected one object, found 2 documents (a stream is read with decode_stream)"
    );
    assert_eq!(
        decode_err(&s, false, "apiVersion: v1\nkind: List\nitems: []\n"),
        "expected one object, found a List (a List is read with decode_stream)"
    );
}

#[test]
fn strict_mode_rejects_unknown_fields_by_path() {
    let s = test_scheme();
    let input = "\
apiVersion: example.com/v1
kind: Widget
specc: {}
metadata:
  name: w
  nmae: x
spec:
  replicas: 1
  ports:
  - port: 80
  - port: 81
    protocol: TCP
";
    assert_eq!(
        decode_err(&s, true, input),
        r#"strict decoding error: unknown field "metadata.nmae", unknown field "spec.ports[1].protocol", unknown field "specc""#
    );
    let lenient = Codec::new(&s).decode(input.as_bytes());
    assert_eq!(lenient.map(|o| internal(o.as_ref()).ports.len()).ok(), Some(2));
}

#[test]
fn strict_mode_accepts_nulls_and_every_known_field() {
    let s = test_scheme();
    let input = "\
apiVersion: example.com/v1
kind: Widget
metadata: {name: w, creationTimestamp: null}
spec: {replicas: 2, color: null, ports: []}
status: null
";
    let obj = Codec::new(&s).with_strict(true).decode(input.as_bytes());
    assert_eq!(obj.map(|o| internal(o.as_ref()).replicas).ok(), Some(2));
    let json = Codec::new(&s).with_strict(true).decode(WIDGET_JSON.as_bytes());
    assert!(json.is_ok(), "{json:?}");
}

/// JSON objects take the single pass; the same input as a parsed value takes the general path.
/// Both must agree on every outcome, errors included.
#[test]
fn single_pass_json_agrees_with_the_general_path() {
    let s = test_scheme();
    let cases = [
        WIDGET_JSON,
        r#"{"apiVersion": "example.com/v1", "kind": "Widget", "specc": {}, "metadata": {"name": "w", "nmae": "x"},
            "spec": {"replicas": 1, "ports": [{"port": 80}, {"port": 81, "protocol": "TCP"}]}}"#,
        r#"{"kind": "Widget", "apiVersion": "example.com/v1", "spec": {"replicas": 1, "bogus": null}, "extra": null}"#,
        r#"{"apiVersion": "example.com/v1", "kind": "Widget", "spec": {"replicas": "three"}}"#,
        r#"{"apiVersion": "example.com/v1", "kind": "Widget", "spec": {"replicas": 1, "replicas": 2}}"#,
        r#"{"apiVersion": "example.com/v9", "kind": "Widget"}"#,
        r#"{"apiVersion": "example.com/v1", "kind": "Gadget"}"#,
        r#"{"apiVersion": "example.com/v2", "kind": "Widget", "spec": {"size": 4}}"#,
    ];
    for strict in [false, true] {
        let codec = Codec::new(&s).with_strict(strict);
        for input in cases {
            let single = codec.decode(input.as_bytes()).map(|o| format!("{o:?}"));
            let value: serde_json::Value = serde_json::from_str(input).unwrap();
            let general = codec.decode_value(&value).map(|o| format!("{o:?}"));
            assert_eq!(
                single.map_err(|e| e.to_string()),
                general.map_err(|e| e.to_string()),
                "strict={strict}: {input}"
            );
        }
    }
    assert_eq!(
        decode_err(&s, true, cases[2]),
        r#"strict decoding error: unknown field "spec.bogus""#,
        "an unknown nested field is reported even when null; an empty top-level one is not"
    );
    let last = Codec::new(&s).decode(cases[4].as_bytes());
    assert_eq!(
        last.map(|o| internal(o.as_ref()).replicas).ok(),
        Some(2),
        "the last key wins"
    );
}

#[test]
fn repeated_yaml_keys_are_an_error_only_in_strict_mode() {
    let s = test_scheme();
    let input = "apiVersion: example.com/v1\nkind: Widget\nspec:\n  replicas: 1\n  replicas: 2\n";
    assert_eq!(
        decode_err(&s, true, input),
        "malformed YAML at line 5, column 3: duplicate mapping key: replicas"
    );
    let lenient = Codec::new(&s).decode(input.as_bytes());
    assert_eq!(
        lenient.map(|o| internal(o.as_ref()).replicas).ok(),
        Some(2),
        "the last key wins"
    );
}

#[test]
fn format_is_sniffed_from_the_first_character() {
    assert_eq!(Format::sniff(b"  \n{\"a\": 1}"), Format::Json);
    assert_eq!(Format::sniff(b"[]"), Format::Json);
    assert_eq!(Format::sniff("\u{feff}{}".as_bytes()), Format::Json);
    assert_eq!(Format::sniff(b"apiVersion: v1"), Format::Yaml);
    assert_eq!(Format::sniff(b""), Format::Yaml);
}
