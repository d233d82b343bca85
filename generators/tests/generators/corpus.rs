//! The real Kubernetes API at full scale: all 48 group-versions of k8s.io/api v0.23.17 (789
//! structs), translated into this project's conventions (`../shared/corpora/k8s-api`, see its
//! README), go through every generator without a diagnostic, and the OpenAPI definitions they
//! produce match Kubernetes' own, as Kubernetes v1.23.0 publishes them
//! (`data/k8s-1.23-api-definitions.json`, see `data/README.md`): every one of the 511 published
//! `io.k8s.api.*` definitions is generated, and each aspect of each definition and property
//! (type, format, `$ref`, items, additional properties, enum, description, required, the
//! `x-kubernetes-*` extensions) is equal, except the differences listed in `KNOWN` with their reason
//! (differences between Kubernetes v1.23.0 and the v0.23.17 sources, and openapi-gen fixes made since).
//! Type-checking the generated corpus is `cargo xtask corpus`, a step of `.ci/run`.
//!
//! The corpus is data outside this repository: `$K8S_API_CORPUS`, else `../shared/corpora/k8s-api`
//! beside the checkout. Where neither exists the test says so and checks nothing.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use serde_json::Value;

const OFFICIAL: &str = include_str!("../../data/k8s-1.23-api-definitions.json");

/// kube-openapi of Kubernetes 1.23 listed no enum values for a field behind a pointer
/// (`FailurePolicy *FailurePolicyType`); the corpus field is an `Option` of the enum, and kube-openapi
/// lists them since, as we do.
const ENUM_POINTER: &str = "enum behind a pointer";
/// `+enum` was removed from open-ended condition types in a 1.23 patch release; v0.23.17 has none.
const ENUM_REMOVED: &str = "enum removed after v1.23.0";
/// The v0.23.17 comments were reformatted by gofmt 1.19 (indented lists and code blocks).
const GOFMT: &str = "comment reformatted after v1.23.0";
/// openapi-gen of 1.23 kept a comment's leading blank line; it trims the text (TrimSpace) since, as we do.
const LEADING_LINE: &str = "leading blank line";
/// openapi-gen of 1.23 wrote descriptions into Go string literals unescaped, so `\\` became `\`;
/// it quotes them (`%#v`) since, which keeps the text, as we do.
const BACKSLASH: &str = "backslashes unescaped";
/// `+required` on an omitempty field: openapi-gen of 1.23 ignored it, it is honoured since, as we do.
const REQUIRED: &str = "+required on omitempty";
/// `patchStrategy:"replace"` was removed from the struct tag in a 1.23 patch release.
const PATCH_TAG: &str = "patch strategy removed after v1.23.0";

/// Each difference as `<group>.<version>.<Type>[.<property>]: <aspect>`, with its reason. A listed
/// difference that no longer occurs fails the test, so the list stays true.
const KNOWN: &[(&str, &str)] = &[
    (
        "admissionregistration.v1.MutatingWebhook.failurePolicy: description",
        ENUM_POINTER,
    ),
    (
        "admissionregistration.v1.MutatingWebhook.failurePolicy: enum",
        ENUM_POINTER,
    ),
    (
        "admissionregistration.v1.MutatingWebhook.matchPolicy: description",
        ENUM_POINTER,
    ),
    (
        "admissionregistration.v1.MutatingWebhook.matchPolicy: enum",
        ENUM_POINTER,
    ),
    (
        "admissionregistration.v1.MutatingWebhook.reinvocationPolicy: description",
        ENUM_POINTER,
    ),
    (
        "admissionregistration.v1.MutatingWebhook.reinvocationPolicy: enum",
        ENUM_POINTER,
    ),
    (
        "admissionregistration.v1.MutatingWebhook.sideEffects: description",
        ENUM_POINTER,
    ),
    (
        "admissionregistration.v1.MutatingWebhook.sideEffects: enum",
        ENUM_POINTER,
    ),
    (
        "admissionregistration.v1.RuleWithOperations.scope: description",
        ENUM_POINTER,
    ),
    ("admissionregistration.v1.RuleWithOperations.scope: enum", ENUM_POINTER),
    (
        "admissionregistration.v1.ValidatingWebhook.failurePolicy: description",
        ENUM_POINTER,
    ),
    (
        "admissionregistration.v1.ValidatingWebhook.failurePolicy: enum",
        ENUM_POINTER,
    ),
    (
        "admissionregistration.v1.ValidatingWebhook.matchPolicy: description",
        ENUM_POINTER,
    ),
    (
        "admissionregistration.v1.ValidatingWebhook.matchPolicy: enum",
        ENUM_POINTER,
    ),
    (
        "admissionregistration.v1.ValidatingWebhook.sideEffects: description",
        ENUM_POINTER,
    ),
    (
        "admissionregistration.v1.ValidatingWebhook.sideEffects: enum",
        ENUM_POINTER,
    ),
    ("apiserverinternal.v1alpha1.StorageVersion: description", LEADING_LINE),
    ("apiserverinternal.v1alpha1.StorageVersionCondition: required", REQUIRED),
    ("apps.v1.StatefulSet: description", GOFMT),
    ("apps.v1.StatefulSetStatus: required", REQUIRED),
    ("batch.v1.JobCondition.type: description", ENUM_REMOVED),
    ("batch.v1.JobCondition.type: enum", ENUM_REMOVED),
    ("batch.v1.JobSpec.completionMode: description", ENUM_POINTER),
    ("batch.v1.JobSpec.completionMode: enum", ENUM_POINTER),
    (
        "certificates.v1.CertificateSigningRequestCondition.type: description",
        ENUM_REMOVED,
    ),
    (
        "certificates.v1.CertificateSigningRequestCondition.type: enum",
        ENUM_REMOVED,
    ),
    ("core.v1.AzureDiskVolumeSource.cachingMode: description", ENUM_POINTER),
    ("core.v1.AzureDiskVolumeSource.cachingMode: enum", ENUM_POINTER),
    ("core.v1.AzureDiskVolumeSource.kind: description", ENUM_POINTER),
    ("core.v1.AzureDiskVolumeSource.kind: enum", ENUM_POINTER),
    ("core.v1.EndpointSubset: description", GOFMT),
    ("core.v1.Endpoints: description", GOFMT),
    ("core.v1.HostPathVolumeSource.type: description", ENUM_POINTER),
    ("core.v1.HostPathVolumeSource.type: enum", ENUM_POINTER),
    ("core.v1.LimitRangeItem.type: description", ENUM_REMOVED),
    ("core.v1.LimitRangeItem.type: enum", ENUM_REMOVED),
    ("core.v1.NamespaceCondition.type: description", ENUM_REMOVED),
    ("core.v1.NamespaceCondition.type: enum", ENUM_REMOVED),
    ("core.v1.NodeAddress.type: description", ENUM_REMOVED),
    ("core.v1.NodeAddress.type: enum", ENUM_REMOVED),
    ("core.v1.NodeCondition.type: description", ENUM_REMOVED),
    ("core.v1.NodeCondition.type: enum", ENUM_REMOVED),
    ("core.v1.PersistentVolumeClaimCondition.type: description", ENUM_REMOVED),
    ("core.v1.PersistentVolumeClaimCondition.type: enum", ENUM_REMOVED),
    (
        "core.v1.PersistentVolumeClaimSpec.volumeMode: description",
        ENUM_POINTER,
    ),
    ("core.v1.PersistentVolumeClaimSpec.volumeMode: enum", ENUM_POINTER),
    (
        "core.v1.PersistentVolumeClaimStatus.resizeStatus: description",
        ENUM_POINTER,
    ),
    ("core.v1.PersistentVolumeClaimStatus.resizeStatus: enum", ENUM_POINTER),
    ("core.v1.PersistentVolumeSpec.volumeMode: description", ENUM_POINTER),
    ("core.v1.PersistentVolumeSpec.volumeMode: enum", ENUM_POINTER),
    ("core.v1.PodCondition.type: description", ENUM_REMOVED),
    ("core.v1.PodCondition.type: enum", ENUM_REMOVED),
    ("core.v1.PodIP: description", GOFMT),
    ("core.v1.PodReadinessGate.conditionType: description", ENUM_REMOVED),
    ("core.v1.PodReadinessGate.conditionType: enum", ENUM_REMOVED),
    (
        "core.v1.PodSecurityContext.fsGroupChangePolicy: description",
        ENUM_POINTER,
    ),
    ("core.v1.PodSecurityContext.fsGroupChangePolicy: enum", ENUM_POINTER),
    ("core.v1.PodSpec.preemptionPolicy: description", ENUM_POINTER),
    ("core.v1.PodSpec.preemptionPolicy: enum", ENUM_POINTER),
    ("core.v1.PodSpec.setHostnameAsFQDN: description", BACKSLASH),
    ("core.v1.SecurityContext.procMount: description", ENUM_POINTER),
    ("core.v1.SecurityContext.procMount: enum", ENUM_POINTER),
    ("core.v1.ServiceSpec.internalTrafficPolicy: description", ENUM_POINTER),
    ("core.v1.ServiceSpec.internalTrafficPolicy: enum", ENUM_POINTER),
    ("core.v1.ServiceSpec.ipFamilyPolicy: description", ENUM_POINTER),
    ("core.v1.ServiceSpec.ipFamilyPolicy: enum", ENUM_POINTER),
    ("core.v1.VolumeMount.mountPropagation: description", ENUM_POINTER),
    ("core.v1.VolumeMount.mountPropagation: enum", ENUM_POINTER),
    ("discovery.v1.EndpointPort.protocol: description", ENUM_POINTER),
    ("discovery.v1.EndpointPort.protocol: enum", ENUM_POINTER),
    ("discovery.v1beta1.EndpointPort.protocol: description", ENUM_POINTER),
    ("discovery.v1beta1.EndpointPort.protocol: enum", ENUM_POINTER),
    (
        "flowcontrol.v1beta1.LimitedPriorityLevelConfiguration: description",
        GOFMT,
    ),
    (
        "flowcontrol.v1beta2.LimitedPriorityLevelConfiguration: description",
        GOFMT,
    ),
    ("networking.v1.HTTPIngressPath.pathType: description", ENUM_POINTER),
    ("networking.v1.HTTPIngressPath.pathType: enum", ENUM_POINTER),
    ("networking.v1.NetworkPolicyPort.protocol: description", ENUM_POINTER),
    ("networking.v1.NetworkPolicyPort.protocol: enum", ENUM_POINTER),
    (
        "policy.v1beta1.PodDisruptionBudgetSpec.selector: x-kubernetes-patch-strategy",
        PATCH_TAG,
    ),
    (
        "scheduling.v1.PriorityClass.preemptionPolicy: description",
        ENUM_POINTER,
    ),
    ("scheduling.v1.PriorityClass.preemptionPolicy: enum", ENUM_POINTER),
    ("storage.v1.StorageClass.reclaimPolicy: description", ENUM_POINTER),
    ("storage.v1.StorageClass.reclaimPolicy: enum", ENUM_POINTER),
    ("storage.v1.StorageClass.volumeBindingMode: description", ENUM_POINTER),
    ("storage.v1.StorageClass.volumeBindingMode: enum", ENUM_POINTER),
];

/// The corpus's directory, if it is here.
fn corpus() -> Option<PathBuf> {
    let dir = std::env::var_os("K8S_API_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpora/k8s-api"));
    dir.join("src/lib.rs").exists().then_some(dir)
}

fn shape(v: Option<&Value>) -> Value {
    let mut m = serde_json::Map::new();
    for k in ["type", "format", "$ref"] {
        if let Some(x) = v.and_then(|v| v.get(k)) {
            m.insert(k.into(), x.clone());
        }
    }
    Value::Object(m)
}

#[test]
fn the_whole_kubernetes_api_generates_and_matches_kubernetes_openapi() {
    let Some(dir) = corpus() else {
        eprintln!("the k8s.io/api corpus is not here (set K8S_API_CORPUS); nothing checked");
        return;
    };
    // The mod.rs files declare the generated modules at `generated/apis` beside `src/`; nothing
    // is written here, the plan is only read.
    let config = kube_code_generator::Config::new(dir.join("src"))
        .output(dir.join("generated/apis"))
        .documents(dir.join("generated/openapi"));
    let boilerplate = std::fs::read_to_string("../hack/boilerplate.rs.txt").unwrap();
    let plan = kube_code_generator::generate_from_sources(
        &config,
        kube_code_generator::read_sources(&dir.join("src")).unwrap(),
        &boilerplate,
    )
    .unwrap_or_else(|f| panic!("the corpus does not generate:\n{}", f.render()));
    let per_generator = plan.files.values().fold(BTreeMap::<&str, usize>::new(), |mut m, f| {
        *m.entry(f.generator).or_default() += 1;
        m
    });
    assert_eq!(
        per_generator,
        BTreeMap::from([
            ("deepcopy", 48),
            ("openapi", 49),
            ("prerelease-lifecycle", 24),
            ("protobuf", 96),
            ("register", 48)
        ]),
        "every package gets its files; openapi: swagger, definitions, the rule report, 46 v3 documents; protobuf: code and a .proto"
    );

    let swagger: Value =
        serde_json::from_str(&plan.files[&dir.join("generated/openapi/swagger.json")].contents).unwrap();
    let ours = swagger["definitions"].as_object().unwrap();
    let official: BTreeMap<String, Value> = serde_json::from_str(OFFICIAL).unwrap();
    assert_eq!(official.len(), 511);
    let known: BTreeMap<&str, &str> = KNOWN.iter().copied().collect();
    let mut seen = BTreeSet::new();
    let mut diffs = Vec::new();
    let mut differ = |key: String, off: &Value, our: &Value| {
        if known.contains_key(key.as_str()) {
            seen.insert(key);
        } else {
            diffs.push(format!("{key}:\n  Kubernetes {off}\n  ours       {our}"));
        }
    };
    for (name, off) in &official {
        let short = name.trim_start_matches("io.k8s.api.");
        let Some(our) = ours.get(name) else {
            differ(format!("{short}: generated"), &Value::Bool(true), &Value::Null);
            continue;
        };
        for aspect in [
            "type",
            "description",
            "required",
            "x-kubernetes-group-version-kind",
            "x-kubernetes-unions",
            "x-kubernetes-map-type",
        ] {
            let (a, b) = (
                off.get(aspect).unwrap_or(&Value::Null),
                our.get(aspect).unwrap_or(&Value::Null),
            );
            if a != b {
                differ(format!("{short}: {aspect}"), a, b);
            }
        }
        let empty = serde_json::Map::new();
        let (op, up) = (
            off.get("properties").and_then(Value::as_object).unwrap_or(&empty),
            our.get("properties").and_then(Value::as_object).unwrap_or(&empty),
        );
        let names: BTreeSet<&String> = op.keys().chain(up.keys()).collect();
        for p in names {
            let (Some(a), Some(b)) = (op.get(p), up.get(p)) else {
                differ(
                    format!("{short}.{p}: present"),
                    &Value::Bool(op.contains_key(p)),
                    &Value::Bool(up.contains_key(p)),
                );
                continue;
            };
            let aspects: BTreeSet<&String> = a
                .as_object()
                .unwrap()
                .keys()
                .chain(b.as_object().unwrap().keys())
                .collect();
            for aspect in aspects {
                let (x, y) = match aspect.as_str() {
                    "items" | "additionalProperties" => (shape(a.get(aspect)), shape(b.get(aspect))),
                    _ => (
                        a.get(aspect).cloned().unwrap_or(Value::Null),
                        b.get(aspect).cloned().unwrap_or(Value::Null),
                    ),
                };
                if x != y {
                    differ(format!("{short}.{p}: {aspect}"), &x, &y);
                }
            }
        }
    }
    let stale: Vec<&&str> = known.keys().filter(|k| !seen.contains(**k)).collect();
    assert!(
        stale.is_empty(),
        "KNOWN lists differences that no longer occur: {stale:?}"
    );
    assert!(
        diffs.is_empty(),
        "{} differences from Kubernetes' definitions:\n{}",
        diffs.len(),
        diffs.join("\n")
    );
}
