//! The codec over every manifest in `examples/manifests`: each decodes in strict mode, and each
//! object survives a trip through every served version of its group back to its own version.
//!
//! Normalization: the baseline of an object is not its first encoding but that encoding after one
//! trip through every version of its group, because each version's defaulter fills fields the
//! others leave unset (apps/v1 defaults what the v1beta1 and v1beta2 objects leave unset). The test checks
//! that the first encoding keeps every field of the manifest (`null`s aside, a quantity written as
//! a number comes back as a string), that the trips keep every field of the first encoding and add
//! only such defaults or empty objects and lists, and then that every further trip through any
//! version gives the baseline back byte for byte. Conversion bugs found this way and not yet fixed
//! are listed in `KNOWN_BUGS`.

use std::path::{Path, PathBuf};

use kube_apimachinery::codec::{Codec, Format};
use kube_apimachinery::quantity::canonical;
use kube_apimachinery::{GroupVersion, Scheme};
use serde_json::Value;

type Result<T> = std::result::Result<T, Box<dyn std::error::Error>>;

fn scheme() -> Scheme {
    apis::scheme().expect("install succeeds")
}

/// Every manifest file, in name order.
fn manifests() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/manifests");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("examples/manifests exists")
        .map(|e| e.expect("a readable directory entry").path())
        .collect();
    files.sort();
    assert!(files.len() >= 15, "manifests went missing: {files:?}");
    files
}

/// The objects of a manifest file as JSON values: every document, each `List` expanded.
fn objects_of(path: &Path) -> Result<Vec<Value>> {
    let text = std::fs::read_to_string(path)?;
    let documents: Vec<Value> = if Format::sniff(text.as_bytes()) == Format::Json {
        vec![serde_json::from_str(&text)?]
    } else {
        serde_saphyr::from_multiple(&text)?
    };
    let mut objects = Vec::new();
    for doc in documents.into_iter().filter(|d| !d.is_null()) {
        match doc.get("items") {
            Some(Value::Array(items)) if doc["kind"] == "List" => objects.extend(items.iter().cloned()),
            _ => objects.push(doc),
        }
    }
    Ok(objects)
}

fn own_version(object: &Value) -> Result<GroupVersion> {
    let api_version = object["apiVersion"].as_str().ok_or("no apiVersion")?;
    Ok(GroupVersion::parse_api_version(api_version)?)
}

/// `json` (an object in version `own`) decoded, encoded to `via`, decoded again and encoded back to
/// `own`.
fn trip(codec: &Codec<'_>, json: &[u8], via: &GroupVersion, own: &GroupVersion) -> Result<Vec<u8>> {
    let internal = codec.decode(json)?;
    let there = codec.encode(internal.as_ref(), via, Format::Json)?;
    let back = codec.decode(&there)?;
    Ok(codec.encode(back.as_ref(), own, Format::Json)?)
}

/// Fields that a trip through another version may add, because that version's defaulter fills
/// them where the object's own version leaves them unset: apps/v1beta1 copies the pod template's
/// labels to the object's, as it does in Kubernetes.
const FILLED_BY_OTHER_VERSIONS: &[&str] = &[
    ".metadata.labels",
    // apps/v1beta1 and v1beta2, which Kubernetes stopped serving in 1.16, have no defaulters here:
    // what a trip through apps/v1 adds is v1's defaults.
    ".spec.persistentVolumeClaimRetentionPolicy",
    ".spec.podManagementPolicy",
    ".spec.progressDeadlineSeconds",
    ".spec.revisionHistoryLimit",
    ".spec.strategy",
    ".spec.template.spec.dnsPolicy",
    ".spec.template.spec.restartPolicy",
    ".spec.template.spec.schedulerName",
    ".spec.template.spec.terminationGracePeriodSeconds",
    ".spec.updateStrategy",
];

/// Conversion bugs the manifests reveal, as (manifest, JSON path): reported, not yet fixed. The
/// test fails when one of them no longer happens, so that its entry goes with the fix.
const KNOWN_BUGS: &[(&str, &str)] = &[];

/// The paths where `before` has something `after` lacks or has differently. `null` in `before`
/// counts as absent, and a number equals its string form (quantities are written both ways).
fn lost(before: &Value, after: &Value, path: &str, found: &mut Vec<String>) {
    match (before, after) {
        (Value::Object(a), Value::Object(b)) => {
            // `null` is absent, and a scalar zero is what Go's omitempty leaves out.
            let zero = |v: &Value| v.is_null() || *v == Value::Bool(false) || *v == 0 || v.as_str() == Some("");
            for (key, value) in a.iter().filter(|(_, v)| !zero(v)) {
                match b.get(key) {
                    Some(other) => lost(value, other, &format!("{path}.{key}"), found),
                    None => found.push(format!("{path}.{key}")),
                }
            }
        }
        (Value::Array(a), Value::Array(b)) if a.len() == b.len() => {
            for (index, (x, y)) in a.iter().zip(b).enumerate() {
                lost(x, y, &format!("{path}[{index}]"), found);
            }
        }
        (Value::Number(n), Value::String(s)) if n.to_string() == *s => {}
        // A Quantity comes back in its canonical form (`0.25` as `250m`), as Go writes it.
        (Value::Number(n), Value::String(s)) if canonical(&n.to_string()).is_ok_and(|c| c == *s) => {}
        (Value::String(a), Value::String(s)) if canonical(a).is_ok_and(|c| c == *s) => {}
        _ if before != after => found.push(path.to_owned()),
        _ => {}
    }
}

/// The fields `after` has and `before` lacks, except empty objects and lists (which Kubernetes
/// reads as absent) and the fields other versions default.
fn added(before: &Value, after: &Value) -> Vec<String> {
    let (Value::Object(a), Value::Object(b)) = (before, after) else {
        return Vec::new();
    };
    let mut paths = Vec::new();
    added_in(a, b, "", &mut paths);
    paths
}

fn added_in(
    before: &serde_json::Map<String, Value>,
    after: &serde_json::Map<String, Value>,
    path: &str,
    found: &mut Vec<String>,
) {
    for (key, value) in after {
        let here = format!("{path}.{key}");
        match (before.get(key), value) {
            (Some(Value::Object(a)), Value::Object(b)) => added_in(a, b, &here, found),
            (Some(_), _) => {}
            (None, Value::Object(o)) if o.is_empty() => {}
            (None, Value::Array(a)) if a.is_empty() => {}
            (None, _) if FILLED_BY_OTHER_VERSIONS.contains(&here.as_str()) => {}
            (None, _) => found.push(here),
        }
    }
}

/// The register generator gives every external kind (serde derives) a wire format and no
/// internal kind one.
#[test]
fn external_kinds_and_only_they_have_a_wire_format() {
    let scheme = scheme();
    let kinds = scheme.all_known_types();
    assert!(kinds.len() > 40, "{} kinds", kinds.len());
    for gvk in kinds.keys() {
        assert_eq!(scheme.has_wire_format(gvk), !gvk.group_version().is_internal(), "{gvk}");
    }
}

#[test]
fn every_manifest_decodes_in_strict_mode() -> Result<()> {
    let scheme = scheme();
    let codec = Codec::new(&scheme).with_strict(true);
    for path in manifests() {
        let bytes = std::fs::read(&path)?;
        let objects = codec
            .decode_stream(&bytes)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        assert_eq!(objects.len(), objects_of(&path)?.len(), "{}", path.display());
    }
    Ok(())
}

/// Every object of every manifest: decoding and encoding it in its own version keeps every field;
/// a trip through every version of its group keeps every field and adds only defaults; after that,
/// each trip through any version gives the same bytes back.
#[test]
fn every_object_round_trips_through_every_version_of_its_group() -> Result<()> {
    let scheme = scheme();
    let codec = Codec::new(&scheme).with_strict(true);
    let (mut trips, mut findings) = (0, Vec::new());
    for path in manifests() {
        let file = path.file_name().and_then(|f| f.to_str()).unwrap_or_default().to_owned();
        for (index, object) in objects_of(&path)?.iter().enumerate() {
            let at = format!("{file} object {}", index + 1);
            let own = own_version(object)?;
            let kind = own.with_kind(object["kind"].as_str().ok_or("no kind")?);
            let versions = scheme.versions_for_group_kind(&kind.group_kind());
            assert!(versions.contains(&own), "{at}: {own} is not served");
            let decoded = codec.decode(&serde_json::to_vec(object)?)?;
            let first = codec.encode(decoded.as_ref(), &own, Format::Json)?;
            let mut baseline = first.clone();
            for via in &versions {
                baseline = trip(&codec, &baseline, via, &own).map_err(|e| format!("{at} via {via}: {e}"))?;
            }
            let first_value: Value = serde_json::from_slice(&first)?;
            let baseline_value: Value = serde_json::from_slice(&baseline)?;
            let mut changed = Vec::new();
            lost(object, &first_value, "", &mut changed);
            lost(&first_value, &baseline_value, "", &mut changed);
            changed.extend(added(&first_value, &baseline_value));
            findings.extend(changed.into_iter().map(|p| (file.clone(), p)));
            for via in &versions {
                let back = trip(&codec, &baseline, via, &own).map_err(|e| format!("{at} via {via}: {e}"))?;
                assert_eq!(
                    String::from_utf8(back)?,
                    String::from_utf8(baseline.clone())?,
                    "{at}: {own} -> {via} -> {own}"
                );
                trips += 1;
            }
        }
    }
    assert!(trips >= 40, "only {trips} round trips ran");
    findings.sort();
    findings.dedup();
    let known: Vec<(String, String)> = KNOWN_BUGS.iter().map(|(f, p)| (f.to_string(), p.to_string())).collect();
    let unexpected: Vec<_> = findings.iter().filter(|f| !known.contains(f)).collect();
    assert!(
        unexpected.is_empty(),
        "fields lost, changed or added by conversion: {unexpected:#?}"
    );
    let fixed: Vec<_> = known.iter().filter(|k| !findings.contains(k)).collect();
    assert!(fixed.is_empty(), "fixed, remove from KNOWN_BUGS: {fixed:#?}");
    Ok(())
}

fn decode_file(codec: &Codec<'_>, name: &str) -> Result<Box<dyn kube_apimachinery::Object>> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples/manifests")
        .join(name);
    Ok(codec.decode(&std::fs::read(path)?)?)
}

fn encode_value(codec: &Codec<'_>, obj: &dyn kube_apimachinery::Object, target: &GroupVersion) -> Result<Value> {
    Ok(serde_json::from_slice(&codec.encode(obj, target, Format::Json)?)?)
}

#[test]
fn rollback_to_travels_through_v1_in_an_annotation() -> Result<()> {
    let scheme = scheme();
    let codec = Codec::new(&scheme);
    // apps has no internal version: a v1beta1 document decodes into apps/v1, the group's hub.
    let hub = decode_file(&codec, "apps-v1beta1-deployment-rollback.yaml")?;
    let deployment = hub
        .downcast_ref::<apis::apps::v1::Deployment>()
        .ok_or("not an apps/v1 Deployment")?;
    let annotations = deployment.metadata.annotations.as_ref().ok_or("no annotations")?;
    assert_eq!(annotations["deprecated.deployment.rollback.to"], "3");
    let v1 = encode_value(&codec, hub.as_ref(), &GroupVersion::new("apps", "v1"))?;
    assert_eq!(v1["metadata"]["annotations"]["deprecated.deployment.rollback.to"], "3");
    assert!(v1["spec"].get("rollbackTo").is_none());
    let back = codec.decode(&serde_json::to_vec(&v1)?)?;
    let v1beta1 = encode_value(&codec, back.as_ref(), &GroupVersion::new("apps", "v1beta1"))?;
    assert_eq!(v1beta1["spec"]["rollbackTo"]["revision"], 3);
    assert!(
        v1beta1["metadata"]
            .get("annotations")
            .is_none_or(|a| a.get("deprecated.deployment.rollback.to").is_none())
    );
    Ok(())
}

#[test]
fn v1beta1_crd_top_level_fields_move_into_every_v1_version_and_back() -> Result<()> {
    let scheme = scheme();
    let codec = Codec::new(&scheme);
    let internal = decode_file(&codec, "apiextensions-v1beta1-crd.yaml")?;
    let v1 = encode_value(
        &codec,
        internal.as_ref(),
        &GroupVersion::new("apiextensions.k8s.io", "v1"),
    )?;
    let versions = v1["spec"]["versions"].as_array().ok_or("no versions")?;
    assert_eq!(versions.len(), 2);
    for version in versions {
        let properties = &version["schema"]["openAPIV3Schema"]["properties"];
        assert_eq!(properties["spec"]["properties"]["replicas"]["maximum"], 10.0);
        assert_eq!(
            version["subresources"]["scale"]["labelSelectorPath"],
            ".status.labelSelector"
        );
        assert_eq!(version["additionalPrinterColumns"][0]["jsonPath"], ".spec.cronSpec");
    }
    let webhook = &v1["spec"]["conversion"]["webhook"];
    assert_eq!(webhook["clientConfig"]["service"]["name"], "crontab-conversion");
    assert_eq!(
        webhook["conversionReviewVersions"],
        serde_json::json!(["v1", "v1beta1"])
    );
    for field in ["validation", "subresources", "additionalPrinterColumns", "version"] {
        assert!(v1["spec"].get(field).is_none(), "v1 has no top-level {field}");
    }
    let back = codec.decode(&serde_json::to_vec(&v1)?)?;
    let v1beta1 = encode_value(
        &codec,
        back.as_ref(),
        &GroupVersion::new("apiextensions.k8s.io", "v1beta1"),
    )?;
    assert_eq!(v1beta1["spec"]["validation"]["openAPIV3Schema"]["type"], "object");
    assert_eq!(
        v1beta1["spec"]["additionalPrinterColumns"][0]["JSONPath"],
        ".spec.cronSpec"
    );
    assert_eq!(
        v1beta1["spec"]["conversion"]["webhookClientConfig"]["service"]["path"],
        "/convert"
    );
    assert!(v1beta1["spec"]["versions"][0].get("schema").is_none());
    Ok(())
}

/// Strict decoding knows every top-level key a generated kind reads (register-gen lists them), so
/// an unknown one is reported even when its value is empty, on both decode paths (bytes and a
/// parsed value); known keys with empty values and lenient decoding are untouched.
#[test]
fn strict_decoding_reports_unknown_top_level_keys_with_empty_values() -> Result<()> {
    let scheme = scheme();
    let strict = Codec::new(&scheme).with_strict(true);
    for empty in ["null", "0", "false", "\"\""] {
        let text = format!(
            r#"{{"apiVersion":"v1","kind":"ConfigMap","metadata":{{"name":"x"}},"data":null,"dataa":{empty}}}"#
        );
        let err = strict.decode(text.as_bytes()).err().ok_or("decoded")?.to_string();
        assert!(err.contains("unknown field \"dataa\""), "{empty}: {err}");
        let value: Value = serde_json::from_str(&text)?;
        let err = strict.decode_value(&value).err().ok_or("decoded")?.to_string();
        assert!(err.contains("unknown field \"dataa\""), "{empty}: {err}");
        Codec::new(&scheme).decode(text.as_bytes())?;
    }
    let known = r#"{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x"},"data":null,"binaryData":null}"#;
    strict.decode(known.as_bytes())?;
    Ok(())
}
