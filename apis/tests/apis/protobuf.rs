//! The protobuf form of every message kind (protobuf-gen's output through the codec): every
//! object of `examples/manifests`, in every version of its group that has a protobuf form, reads
//! back from protobuf as it reads from JSON; random values of every kind encode to bytes that decode and encode to the
//! same bytes again (a fixed point, as Go's Marshal(Unmarshal(b)) is); bodies that are not what
//! their envelope says, arbitrary bytes and corrupted messages are errors, never panics; and
//! protoc reads and writes what the generated `.proto` files describe.

use std::path::Path;

use apis::{apiextensions, apps, autoscaling, core};
use kube_apimachinery::codec::{Codec, DecodeError, Format};
use kube_apimachinery::protobuf::{Message, Unknown, decode_message, encode_message};
use kube_apimachinery::{GroupVersion, Object, Scheme};
use proptest::prelude::*;
use serde::de::DeserializeOwned;
use serde_json::Value;

fn scheme() -> Scheme {
    apis::scheme().expect("install succeeds")
}

/// Every object of every manifest, as JSON in every version of its group that has its kind.
fn manifest_objects() -> Vec<(String, Value)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/manifests");
    let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    let scheme = scheme();
    let codec = Codec::new(&scheme);
    let mut out = Vec::new();
    for file in files {
        let objects = codec.decode_stream(&std::fs::read(&file).unwrap()).unwrap();
        for obj in objects {
            let gvk = obj.group_version_kind().unwrap();
            for version in scheme.versions_for_group_kind(&gvk.group_kind()) {
                let json = codec.encode_value(obj.as_ref(), &version).unwrap();
                out.push((format!("{} as {version}", file.display()), json));
            }
        }
    }
    out
}

#[test]
fn manifests_read_back_from_protobuf_unchanged() {
    let scheme = scheme();
    let codec = Codec::new(&scheme);
    let mut checked = 0;
    for (file, json) in manifest_objects() {
        let Some(body) = codec.protobuf_from_value(&json).unwrap() else {
            continue;
        };
        assert!(body.starts_with(b"k8s\0"), "{file}: the envelope's magic");
        let gv = GroupVersion::parse_api_version(json["apiVersion"].as_str().unwrap()).unwrap();
        // Both paths default what they read (apps/v1beta1 labels an object with its template's
        // labels), so protobuf is compared with JSON read the same way.
        let from_protobuf = codec
            .decode_to_version(&body, &gv)
            .unwrap_or_else(|e| panic!("{file}: {e}"));
        let from_json = codec.decode_to_version(json.to_string().as_bytes(), &gv).unwrap();
        assert_eq!(
            codec.encode_value(from_protobuf.as_ref(), &gv).unwrap(),
            codec.encode_value(from_json.as_ref(), &gv).unwrap(),
            "{file}: {} through protobuf",
            json["kind"]
        );
        checked += 1;
    }
    assert!(checked >= 20, "only {checked} objects have a protobuf kind");
}

#[test]
fn a_body_decodes_into_the_internal_version_like_json_does() {
    let scheme = scheme();
    let codec = Codec::new(&scheme);
    let manifest = br#"{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","labels":{"app":"web"}},
        "spec":{"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},
        "spec":{"containers":[{"name":"nginx","image":"nginx:1.27","ports":[{"containerPort":80}]}]}}}}"#;
    let from_json = codec.decode(manifest).unwrap();
    let v1 = GroupVersion::new("apps", "v1");
    let body = codec.encode_protobuf(from_json.as_ref(), &v1).unwrap();
    let from_protobuf = codec.decode(&body).unwrap();
    assert_eq!(
        codec.encode(from_protobuf.as_ref(), &v1, Format::Json).unwrap(),
        codec.encode(from_json.as_ref(), &v1, Format::Json).unwrap()
    );
    // Defaults applied on the way in, as for JSON: replicas 1, strategy RollingUpdate.
    let json = codec.encode_value(from_protobuf.as_ref(), &v1).unwrap();
    assert_eq!(json["spec"]["replicas"], 1);
    assert_eq!(json["spec"]["strategy"]["type"], "RollingUpdate");
    // Go's value fields are written even when zero, and read back as zero: no `hostPort: 0`.
    assert!(
        json["spec"]["template"]["spec"]["containers"][0]["ports"][0]
            .get("hostPort")
            .is_none()
    );
}

#[test]
fn bad_bodies_are_errors() {
    let scheme = scheme();
    let codec = Codec::new(&scheme);
    let ns = core::v1::Namespace::default();
    let wrap = |api_version: &str, kind: &str, raw: Vec<u8>| {
        Unknown {
            api_version: api_version.into(),
            kind: kind.into(),
            raw,
        }
        .encode()
    };
    let unknown = codec.decode(&wrap("v1", "Widget", encode_message(&ns))).unwrap_err();
    assert!(matches!(unknown, DecodeError::UnknownKind { .. }), "{unknown}");
    let truncated = codec
        .decode(&wrap("v1", "Namespace", vec![0x0a, 0x05, 0x0a]))
        .unwrap_err();
    assert!(matches!(truncated, DecodeError::Protobuf(_)), "{truncated}");
    assert!(codec.decode(b"k8s\0\xff\xff").is_err());
    let no_kind = codec.decode(&wrap("v1", "", Vec::new())).unwrap_err();
    assert!(matches!(no_kind, DecodeError::MissingKind), "{no_kind}");
}

/// Encode, decode, encode: what is read writes the same bytes again. A Go value field's zero
/// (`+k8s:zeroIsUnset`) is written once and read as unset, so the first bytes may hold more;
/// from the second on they are a fixed point.
fn fixed_point<T>(seed: u64) -> Result<(), TestCaseError>
where
    T: Message + Default + DeserializeOwned + Object,
{
    let decode = |bytes: &[u8]| decode_message::<T>(bytes).map_err(|e| TestCaseError::fail(e.to_string()));
    let value: T = kube_apimachinery::testing::fill(seed).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let first = encode_message(&value);
    prop_assert_eq!(first.len(), value.encoded_len());
    let second = encode_message(&decode(&first)?);
    prop_assert!(second.len() <= first.len());
    prop_assert_eq!(encode_message(&decode(&second)?), second);
    Ok(())
}

macro_rules! fixed_points {
    ($($name:ident: $ty:ty;)*) => {
        proptest! {
            #![proptest_config(ProptestConfig::with_cases(48))]
            $(
                #[test]
                fn $name(seed in any::<u64>()) {
                    fixed_point::<$ty>(seed)?;
                }
            )*
        }
    };
}

fixed_points! {
    deployment: apps::v1::Deployment;
    deployment_list: apps::v1::DeploymentList;
    stateful_set: apps::v1::StatefulSet;
    replica_set_v1beta2: apps::v1beta2::ReplicaSet;
    deployment_v1beta1: apps::v1beta1::Deployment;
    pod: core::v1::Pod;
    config_map: core::v1::ConfigMap;
    service_account: core::v1::ServiceAccount;
    event: core::v1::Event;
    namespace_list: core::v1::NamespaceList;
    scale: autoscaling::v1::Scale;
    crd: apiextensions::v1::CustomResourceDefinition;
    crd_v1beta1: apiextensions::v1beta1::CustomResourceDefinition;
}

/// Runs protoc over the generated IDL with the test's apimachinery stubs, feeding `stdin`.
fn protoc(args: &[&str], stdin: &[u8]) -> Vec<u8> {
    use std::io::Write;
    const PROTOC: &str = "/usr/bin/protoc";
    assert!(
        Path::new(PROTOC).exists(),
        "{PROTOC} is missing: install Debian's protobuf-compiler (.ci/run does)"
    );
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut child = std::process::Command::new(PROTOC)
        .arg(format!("-I{}", root.join("../generated/proto").display()))
        .arg(format!("-I{}", root.join("tests/data/proto").display()))
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "protoc {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

const CORE_V1: &str = "k8s.io/api/core/v1/generated.proto";
const APIEXTENSIONS_V1: &str = "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1/generated.proto";

/// The generated `.proto` files compile, and protoc (a protobuf implementation that is not ours)
/// reads what the runtime writes and writes what it reads.
#[test]
fn protoc_reads_and_writes_what_the_idl_describes() {
    for file in [
        CORE_V1,
        "k8s.io/api/apps/v1/generated.proto",
        "k8s.io/api/autoscaling/v1/generated.proto",
        APIEXTENSIONS_V1,
        "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1beta1/generated.proto",
    ] {
        protoc(&["--descriptor_set_out=/dev/null", file], b"");
    }

    let cm: core::v1::ConfigMap = serde_json::from_value(serde_json::json!({
        "metadata": {"name": "cfg", "labels": {"app": "web"}},
        "data": {"mode": "fast"},
        "immutable": true
    }))
    .unwrap();
    let text = String::from_utf8(protoc(
        &["--decode=k8s.io.api.core.v1.ConfigMap", CORE_V1],
        &encode_message(&cm),
    ))
    .unwrap();
    for expected in [
        "name: \"cfg\"",
        "labels {\n    key: \"app\"\n    value: \"web\"\n  }",
        "data {\n  key: \"mode\"\n  value: \"fast\"\n}",
        "immutable: true",
    ] {
        assert!(text.contains(expected), "{expected:?} not in:\n{text}");
    }

    // protoc writes a CRD from text; the runtime reads it, nested schemas and raw JSON included.
    let text = r#"
        metadata { name: "widgets.example.dev" }
        spec {
          group: "example.dev"
          names { plural: "widgets" kind: "Widget" }
          scope: "Namespaced"
          versions {
            name: "v1" served: true storage: true
            schema { openAPIV3Schema {
              type: "object"
              properties { key: "spec" value { type: "object" default { raw: "{\"size\":\"small\"}" } } }
              xKubernetesPreserveUnknownFields: false
            } }
          }
        }
    "#;
    let bytes = protoc(
        &[
            "--encode=k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition",
            APIEXTENSIONS_V1,
        ],
        text.as_bytes(),
    );
    let crd: apiextensions::v1::CustomResourceDefinition = decode_message(&bytes).unwrap();
    let json = serde_json::to_value(&crd).unwrap();
    assert_eq!(json["metadata"]["name"], "widgets.example.dev");
    assert_eq!(json["spec"]["names"]["kind"], "Widget");
    let schema = &json["spec"]["versions"][0]["schema"]["openAPIV3Schema"];
    assert_eq!(
        schema["properties"]["spec"]["default"],
        serde_json::json!({"size": "small"})
    );
    assert_eq!(schema["x-kubernetes-preserve-unknown-fields"], false);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Arbitrary bytes, after the magic or as a bare message, are an error or an object: never a
    /// panic, whatever lengths, wire types and nesting they claim.
    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
        let _ = decode_message::<apps::v1::Deployment>(&bytes);
        let _ = decode_message::<apiextensions::v1::CustomResourceDefinition>(&bytes);
        let scheme = scheme();
        let mut body = b"k8s\0".to_vec();
        body.extend_from_slice(&bytes);
        let _ = Codec::new(&scheme).decode(&body);
    }

    /// A real message cut or corrupted anywhere is an error or an object, never a panic.
    #[test]
    fn corrupted_messages_never_panic(seed in any::<u64>(), at in any::<prop::sample::Index>(), byte in any::<u8>()) {
        let value: apps::v1::Deployment = kube_apimachinery::testing::fill(seed).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let mut bytes = encode_message(&value);
        if !bytes.is_empty() {
            let i = at.index(bytes.len());
            bytes[i] = byte;
            let _ = decode_message::<apps::v1::Deployment>(&bytes);
            let _ = decode_message::<apps::v1::Deployment>(&bytes[..i]);
        }
    }
}

/// Go writes an unset string field as `""`: a Deployment's `strategy: {}` (what kubectl sends)
/// reads as a strategy without a type, which defaulting then sets, not as the enum's first value.
#[test]
fn an_empty_enum_string_is_unset() {
    let mut bytes = Vec::new();
    kube_apimachinery::protobuf::encode_str("", 1, &mut bytes);
    assert!(!bytes.is_empty(), "the empty string is on the wire");
    let strategy: apps::v1::DeploymentStrategy = kube_apimachinery::protobuf::decode_message(&bytes).unwrap();
    assert_eq!(strategy.type_, None);
    let mut bytes = Vec::new();
    kube_apimachinery::protobuf::encode_str("Recreate", 1, &mut bytes);
    let strategy: apps::v1::DeploymentStrategy = kube_apimachinery::protobuf::decode_message(&bytes).unwrap();
    assert_eq!(
        strategy.type_,
        Some(apps::v1::DeploymentStrategyType::RecreateDeploymentStrategyType)
    );
}
