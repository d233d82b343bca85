//! Unit tests of streams and encoding: multi-document YAML, JSON Lists and concatenated values with
//! errors that name the document and item, exact JSON and YAML output, and encode errors.

use super::test_types::{INTERNAL, V1, V2, Widget, scheme};
use super::{Codec, DecodeError, EncodeError, Format};
use crate::{GroupVersion, Object, Scheme};

fn test_scheme() -> Scheme {
    scheme().expect("the test scheme registers")
}

fn widget(name: &str, replicas: i32) -> String {
    format!("apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: {name}\nspec:\n  replicas: {replicas}\n")
}

fn names(objects: &[Box<dyn Object>]) -> Vec<String> {
    objects
        .iter()
        .map(|o| {
            let w = o.downcast_ref::<Widget>().expect("internal widgets");
            format!("{}={}", w.metadata.name.as_deref().unwrap_or(""), w.replicas)
        })
        .collect()
}

fn stream_err(scheme: &Scheme, input: &str) -> String {
    match Codec::new(scheme).decode_stream(input.as_bytes()) {
        Ok(objects) => panic!("decoding succeeded: {objects:?}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn a_yaml_stream_decodes_every_document_and_skips_empty_ones() -> Result<(), DecodeError> {
    let s = test_scheme();
    let input = format!(
        "---\n# first\n{}---\n---   # only a comment\n\n{}--- \n",
        widget("a", 1),
        widget("b", 2)
    );
    let objects = Codec::new(&s).decode_stream(input.as_bytes())?;
    assert_eq!(names(&objects), ["a=1", "b=2"]);
    Ok(())
}

#[test]
fn lists_expand_into_their_items_in_json_and_yaml() -> Result<(), DecodeError> {
    let s = test_scheme();
    let codec = Codec::new(&s);
    let json = r#"{"apiVersion": "v1", "kind": "List", "items": [
        {"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "a"}, "spec": {"replicas": 1}},
        {"apiVersion": "example.com/v2", "kind": "Widget", "metadata": {"name": "b"}, "spec": {"size": 2}}
    ]}"#;
    assert_eq!(names(&codec.decode_stream(json.as_bytes())?), ["a=1", "b=2"]);
    let yaml = format!(
        "apiVersion: v1\nkind: List\nitems:\n- {}",
        widget("c", 3).replace('\n', "\n  ")
    );
    let mixed = format!("{}---\n{yaml}", widget("z", 9));
    assert_eq!(names(&codec.decode_stream(mixed.as_bytes())?), ["z=9", "c=3"]);
    let concatenated = r#"{"apiVersion": "example.com/v2", "kind": "Widget", "spec": {"size": 4}}
        {"apiVersion": "v1", "kind": "List"}"#;
    assert_eq!(names(&codec.decode_stream(concatenated.as_bytes())?), ["=4"]);
    Ok(())
}

#[test]
fn stream_errors_name_the_document_and_its_first_line() {
    let s = test_scheme();
    let input = format!(
        "{}---\n\n# the second\n{}",
        widget("a", 1),
        widget("b", 1).replace("replicas: 1", "replicas: x")
    );
    assert_eq!(
        stream_err(&s, &input),
        r#"document 2 (line 10): spec.replicas: invalid type: string "x", expected i32"#
    );
    let input = format!("{}---\nkind: Widget\n", widget("a", 1));
    assert_eq!(stream_err(&s, &input), r#"document 2 (line 8): missing "apiVersion""#);
    let json = r#"{"apiVersion": "example.com/v1", "kind": "Widget", "spec": {}}
{"kind": "Widget"}"#;
    assert_eq!(stream_err(&s, json), r#"document 2 (line 2): missing "apiVersion""#);
}

#[test]
fn stream_syntax_errors_count_lines_over_the_whole_input() {
    let s = test_scheme();
    let input = format!("{}---\napiVersion: v1\nkind: [\n", widget("a", 1));
    assert_eq!(
        stream_err(&s, &input),
        "malformed YAML at line 9, column 7: unclosed bracket '['"
    );
    let input = format!("{}--- kind: Widget\n", widget("a", 1));
    assert_eq!(
        stream_err(&s, &input),
        r#"malformed YAML at line 7, column 4: unexpected "kind: Widget" after the document separator "---""#
    );
}

#[test]
fn list_errors_name_the_item() {
    let s = test_scheme();
    let input = r#"{"apiVersion": "v1", "kind": "List", "items": [
        {"apiVersion": "example.com/v1", "kind": "Widget", "spec": {}},
        {"apiVersion": "example.com/v1", "spec": {}}
    ]}"#;
    assert_eq!(
        stream_err(&s, input),
        r#"document 1 (line 1): items[1]: missing "kind""#
    );
    assert_eq!(
        stream_err(&s, "apiVersion: v1\nkind: List\nitems: {}\n"),
        r#"document 1 (line 1): "items" of a List must be an array, found an object"#
    );
}

const JSON_V2: &str = r#"{
    "apiVersion": "example.com/v2",
    "kind": "Widget",
    "metadata": {
        "name": "w"
    },
    "spec": {
        "size": 3,
        "color": "blue",
        "ports": [
            {
                "port": 80
            }
        ]
    }
}
"#;

const YAML_V1: &str = "\
apiVersion: example.com/v1
kind: Widget
metadata:
  name: w
spec:
  replicas: 3
  color: blue
  ports:
  - port: 80
";

#[test]
fn encode_writes_any_served_version_in_serde_field_order() -> Result<(), Box<dyn std::error::Error>> {
    let s = test_scheme();
    let codec = Codec::new(&s);
    let obj = codec.decode(YAML_V1.as_bytes())?;
    assert_eq!(
        String::from_utf8(codec.encode(obj.as_ref(), &V2, Format::Json)?)?,
        JSON_V2
    );
    assert_eq!(
        String::from_utf8(codec.encode(obj.as_ref(), &V1, Format::Yaml)?)?,
        YAML_V1
    );
    // Decoding the output gives the object back: the encodings are the same after a round trip.
    let back = codec.decode(JSON_V2.as_bytes())?;
    assert_eq!(back.downcast_ref::<Widget>(), obj.downcast_ref::<Widget>());
    Ok(())
}

#[test]
fn encode_stream_writes_yaml_documents_or_a_json_list() -> Result<(), Box<dyn std::error::Error>> {
    let s = test_scheme();
    let codec = Codec::new(&s);
    let objects = codec.decode_stream(format!("{}---\n{}", widget("a", 1), widget("b", 2)).as_bytes())?;
    let yaml = String::from_utf8(codec.encode_stream(&objects, &V2, Format::Yaml)?)?;
    assert_eq!(
        yaml,
        "apiVersion: example.com/v2\nkind: Widget\nmetadata:\n  name: a\nspec:\n  size: 1\n  color: blue\n  ports: []\n\
         ---\napiVersion: example.com/v2\nkind: Widget\nmetadata:\n  name: b\nspec:\n  size: 2\n  color: blue\n  ports: []\n"
    );
    let json = codec.encode_stream(&objects, &V1, Format::Json)?;
    let list: serde_json::Value = serde_json::from_slice(&json)?;
    assert_eq!(list["kind"], "List");
    assert_eq!(list["items"][1]["metadata"]["name"], "b");
    assert!(String::from_utf8(json)?.starts_with(
        "{\n    \"apiVersion\": \"v1\",\n    \"kind\": \"List\",\n    \"metadata\": {},\n    \"items\": [\n        {\n            \"apiVersion\": \"example.com/v1\",\n"
    ));
    // The List decodes back into the same objects.
    let again = codec.decode_stream(&codec.encode_stream(&objects, &V1, Format::Json)?)?;
    assert_eq!(names(&again), names(&objects));
    assert_eq!(
        codec.encode_stream(&[], &V1, Format::Json)?,
        b"{\n    \"apiVersion\": \"v1\",\n    \"kind\": \"List\",\n    \"metadata\": {},\n    \"items\": []\n}\n"
    );
    Ok(())
}

#[test]
fn encode_errors_name_the_version_and_the_object() -> Result<(), DecodeError> {
    let s = test_scheme();
    let codec = Codec::new(&s);
    let obj = codec.decode(YAML_V1.as_bytes())?;
    let err = |target: &GroupVersion| match codec.encode(obj.as_ref(), target, Format::Json) {
        Ok(_) => panic!("encoding to {target} succeeded"),
        Err(e) => e.to_string(),
    };
    assert_eq!(
        err(&INTERNAL),
        "example.com/__internal, Kind=Widget has no wire format: objects are encoded to an external version"
    );
    assert_eq!(
        err(&GroupVersion::new("apps", "v1")),
        "Widget.example.com cannot be converted to apps/v1: the target version has no such kind"
    );
    let objects = vec![obj.clone(), obj];
    let stream = codec.encode_stream(&objects, &GroupVersion::new("example.com", "v3"), Format::Yaml);
    assert!(matches!(stream, Err(EncodeError::Object { number: 1, .. })));
    assert_eq!(
        stream.map(|_| ()).unwrap_err().to_string(),
        "object 1: Widget.example.com cannot be converted to example.com/v3: the target version has no such kind"
    );
    Ok(())
}
