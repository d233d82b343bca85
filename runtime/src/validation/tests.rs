//! The errors validators produce, printed as apimachinery prints them.

use super::*;

fn text(e: Option<FieldError>) -> String {
    e.map(|e| e.to_string()).unwrap_or_default()
}

#[test]
fn paths_render_as_kubernetes_writes_them() {
    let spec = Path::new("spec");
    let containers = spec.child("containers");
    let first = containers.index(0);
    assert_eq!(first.child("image").to_string(), "spec.containers[0].image");
    let meta = Path::new("metadata");
    let labels = meta.child("labels");
    assert_eq!(labels.key("foo/bar").to_string(), "metadata.labels[foo/bar]");
    assert_eq!(Path::ROOT.child("spec").to_string(), "spec");
    assert_eq!(Path::ROOT.to_string(), "<nil>");
}

#[test]
fn errors_print_their_type_value_and_detail() {
    let p = Path::new("spec");
    let replicas = p.child("replicas");
    assert_eq!(
        text(minimum(&replicas, -5, 0)),
        "spec.replicas: Invalid value: -5: must be greater than or equal to 0"
    );
    assert!(minimum(&replicas, 0, 0).is_none());
    assert_eq!(
        text(maximum(&replicas, 70000, 65535)),
        "spec.replicas: Invalid value: 70000: must be less than or equal to 65535"
    );
    assert_eq!(required(&replicas).to_string(), "spec.replicas: Required value");
    assert_eq!(forbidden(&replicas).to_string(), "spec.replicas: Forbidden");
    assert_eq!(
        text(max_items(&replicas, 33, 32)),
        "spec.replicas: Too many: 33: must have at most 32 items"
    );
    assert_eq!(
        text(max_items(&replicas, 2, 1)),
        "spec.replicas: Too many: 2: must have at most 1 item"
    );
    assert_eq!(
        text(max_length(&replicas, "abcd", 3)),
        "spec.replicas: Too long: may not be more than 3 characters"
    );
    assert!(max_length(&replicas, "äöü", 3).is_none(), "characters, not bytes");
    assert_eq!(
        text(max_bytes(&replicas, "äöü", 3)),
        "spec.replicas: Too long: may not be more than 3 bytes"
    );
    assert_eq!(
        text(min_length(&replicas, "", 1)),
        "spec.replicas: Too short: must be at least 1 character"
    );
    let e = not_supported(&p.child("size"), "huge", &["Small", "Large", "Medium"]);
    assert_eq!(
        e.to_string(),
        "spec.size: Unsupported value: \"huge\": supported values: \"Large\", \"Medium\", \"Small\""
    );
    assert_eq!(e.kind.reason(), "FieldValueNotSupported");
    assert_eq!(
        text(immutable(&Operation::update(), &replicas)),
        "spec.replicas: Invalid value: null: field is immutable"
    );
    assert!(immutable(&Operation::create(), &replicas).is_none());
}

#[test]
fn formats_report_each_message_with_their_origin() {
    let p = Path::new("name");
    let errs = format(&p, "Not_OK", "k8s-short-name");
    assert_eq!(errs.len(), 1);
    assert!(
        errs[0]
            .to_string()
            .starts_with("name: Invalid value: \"Not_OK\": a lowercase RFC 1123 label")
    );
    assert_eq!(errs[0].origin.as_deref(), Some("format=k8s-short-name"));
    assert!(format(&p, "a.b", "k8s-long-name").is_empty());
    assert!(format(&p, "pool/a", "k8s-resource-pool-name").is_empty());
    assert_eq!(
        format(&p, "pool//a", "k8s-resource-pool-name")[0].detail,
        "segment 1: must not be empty"
    );
    assert!(format(&p, "example.com/gpu", "k8s-extended-resource-name").is_empty());
    assert!(!format(&p, "gpu", "k8s-extended-resource-name").is_empty());
    assert!(format(&p, "dra.example.com/my_attr", "k8s-resource-fully-qualified-name").is_empty());
    assert!(!format(&p, "my_attr", "k8s-resource-fully-qualified-name").is_empty());
}

#[test]
fn unions_and_uniqueness() {
    let p = Path::new("spec");
    assert_eq!(
        text(union(&p, &[("a", false), ("b", false)], false)),
        "spec: Invalid value: \"\": must specify one of: `a`, `b`"
    );
    assert_eq!(
        text(union(&p, &[("a", true), ("b", true)], false)),
        "spec: Invalid value: \"{a, b}\": must specify exactly one of: `a`, `b`"
    );
    assert!(union(&p, &[("a", false), ("b", false)], true).is_none());
    let errs = discriminated_union(&p, ("type", "A"), &[("a", "A", false), ("b", "B", true)]);
    let texts: Vec<String> = errs.iter().map(ToString::to_string).collect();
    assert_eq!(
        texts,
        [
            "spec.a: Invalid value: \"\": must be specified when `type` is \"A\"",
            "spec.b: Invalid value: \"\": may only be specified when `type` is \"B\"",
        ]
    );
    let dups = unique(&p.child("l"), &["a", "b", "a"], |x, y| x == y);
    assert_eq!(dups[0].to_string(), "spec.l[2]: Duplicate value: \"a\"");
}

#[test]
fn ratcheting_and_options() {
    let op = Operation::update().with_option("Gate", true);
    assert!(op.unchanged(&3, Some(&3)));
    assert!(!op.unchanged(&3, Some(&4)));
    assert!(!Operation::create().unchanged(&3, Some(&3)));
    assert_eq!(op.option("Gate"), Some(true));
    assert_eq!(op.option("Other"), None);
    assert_eq!(op.clone().undefined_options_off().option("Other"), Some(false));
    assert_eq!(
        undefined_option(&Path::new("f"), "Other").to_string(),
        "f: Internal error: undefined validation option \"Other\""
    );
    let p = Path::new("f");
    assert_eq!(
        update(&op, &p, true, Some(false), true, false, false).map(|e| e.to_string()),
        Some("f: Invalid value: null: field cannot be set once created".into())
    );
    assert!(update(&op, &p, true, Some(true), true, false, false).is_none());
}
