//! Kubernetes knowledge several generators share, kept in one place: the interface and source
//! type names tags refer to, the model names of k8s-openapi types, Kubernetes' own published
//! definitions of the apimachinery types (vendored under `generators/data/`), the descriptions
//! openapi-gen writes for TypeMeta's two properties, and the pattern of a Quantity.

use std::collections::BTreeMap;
use std::sync::LazyLock;

use serde_json::Value;

/// The interface of `+k8s:deepcopy-gen:interfaces` that means apimachinery's runtime.Object:
/// `runtime::Object` (or `kube_apimachinery::Object`, the crate's name), with or without a
/// leading `::`.
pub fn is_object_interface(path: &str) -> bool {
    matches!(
        path.trim().trim_start_matches("::"),
        "runtime::Object" | "kube_apimachinery::Object"
    )
}

/// Whether Kubernetes' hand-written strategy of a core resource counts no generations although the
/// kind has a `spec`: namespaces (its namespace strategy never sets `metadata.generation`).
pub fn counts_no_generation(group: &str, plural: &str) -> bool {
    group.is_empty() && plural == "namespaces"
}

/// The source type of `+k8s:conversion-gen:explicit-from` that means URL query parameters.
pub const URL_VALUES: &str = "net/url.Values";

/// Kubernetes' definitions of the apimachinery types in swagger 2.0 form (see
/// `generators/data/README.md` for their origin).
const META_DEFINITIONS: &str = include_str!("../../data/k8s-1.37-meta-definitions.json");

/// Kubernetes' definitions of the apimachinery types, by model name, parsed once per process.
pub fn meta_definitions() -> &'static BTreeMap<String, Value> {
    static META: LazyLock<BTreeMap<String, Value>> = LazyLock::new(|| match serde_json::from_str(META_DEFINITIONS) {
        Ok(m) => m,
        // The file is compiled in and checked by a unit test: not user input.
        Err(e) => panic!("the vendored meta definitions are not valid JSON: {e}"),
    });
    &META
}

/// The definitions a document may refer to: Kubernetes' published apimachinery ones, and those of
/// the meta/v1 types the runtime defines because k8s-openapi lacks them (apidiscovery refers to
/// `GroupVersionKind`), as openapi-gen writes them: three required strings defaulting to "".
pub fn openapi_meta_definitions() -> &'static BTreeMap<String, Value> {
    static ALL: LazyLock<BTreeMap<String, Value>> = LazyLock::new(|| {
        let mut all = meta_definitions().clone();
        let gv = |last: &str, doc: &str| {
            serde_json::json!({
                "description": doc,
                "type": "object",
                "required": ["group", "version", last],
                "properties": {
                    "group": {"type": "string", "default": ""},
                    "version": {"type": "string", "default": ""},
                    last: {"type": "string", "default": ""},
                },
            })
        };
        all.insert(
            format!("{META_V1}GroupVersionKind"),
            gv("kind", "GroupVersionKind unambiguously identifies a kind.  It doesn't anonymously include GroupVersion to avoid automatic coercion.  It doesn't use a GroupVersion to avoid custom marshalling"),
        );
        all.insert(
            format!("{META_V1}GroupVersionResource"),
            gv("resource", "GroupVersionResource unambiguously identifies a resource.  It doesn't anonymously include GroupVersion to avoid automatic coercion.  It doesn't use a GroupVersion to avoid custom marshalling"),
        );
        all
    });
    &ALL
}

/// The model name of a k8s-openapi type: its module path under `io.k8s`
/// (`k8s_openapi::api::core::v1::PersistentVolumeClaim` -> `io.k8s.api.core.v1.PersistentVolumeClaim`).
pub fn external_model(path: &str) -> String {
    if let Some(name) = path.strip_prefix("runtime::meta::v1::") {
        return format!("{META_V1}{name}");
    }
    let rest = path.strip_prefix("k8s_openapi::").unwrap_or(path);
    format!(
        "io.k8s.{}",
        rest.replace("::", ".")
            .replace("apiextensions_apiserver", "apiextensions-apiserver")
    )
}

/// The meta/v1 type a k8s-openapi path names that k8s-openapi does not have: its meta/v1 module
/// holds exactly the definitions Kubernetes publishes, so `GroupVersionKind` is not there.
pub fn missing_meta_type(path: &str) -> Option<&str> {
    let name = path.strip_prefix("k8s_openapi::apimachinery::pkg::apis::meta::v1::")?;
    (!meta_definitions().contains_key(&format!("{META_V1}{name}"))).then_some(name)
}

/// The model-name prefix of apimachinery's meta/v1 types.
pub const META_V1: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.";

/// The model name of IntOrString.
pub const INT_OR_STRING: &str = "io.k8s.apimachinery.pkg.util.intstr.IntOrString";

/// The model name of Quantity.
pub const QUANTITY: &str = "io.k8s.apimachinery.pkg.api.resource.Quantity";

/// The model name of RawExtension.
pub const RAW_EXTENSION: &str = "io.k8s.apimachinery.pkg.runtime.RawExtension";

/// The pattern controller-gen writes for `resource.Quantity`, the form the API server parses.
pub const QUANTITY_PATTERN: &str = r"^(\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))))?$";

/// Whether a string is a Quantity the API server accepts.
pub fn is_quantity(s: &str) -> bool {
    static RE: LazyLock<Option<regex::Regex>> = LazyLock::new(|| regex::Regex::new(QUANTITY_PATTERN).ok());
    RE.as_ref().is_some_and(|re| re.is_match(s))
}

/// openapi-gen's description of TypeMeta's `apiVersion`.
pub const API_VERSION_DOC: &str = "APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources";

/// openapi-gen's description of TypeMeta's `kind`.
pub const KIND_DOC: &str = "Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn model_names() {
        assert_eq!(
            external_model("k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta"),
            "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"
        );
        assert_eq!(
            external_model("k8s_openapi::api::core::v1::PersistentVolumeClaim"),
            "io.k8s.api.core.v1.PersistentVolumeClaim"
        );
    }

    #[test]
    fn meta_types_k8s_openapi_lacks() {
        let meta = "k8s_openapi::apimachinery::pkg::apis::meta::v1::";
        assert_eq!(
            missing_meta_type(&format!("{meta}GroupVersionKind")),
            Some("GroupVersionKind")
        );
        assert_eq!(missing_meta_type(&format!("{meta}DeleteOptions")), None);
        assert_eq!(missing_meta_type("k8s_openapi::api::core::v1::Pod"), None);
        assert_eq!(
            external_model("runtime::meta::v1::GroupVersionKind"),
            "io.k8s.apimachinery.pkg.apis.meta.v1.GroupVersionKind"
        );
    }

    #[test]
    fn quantities() {
        assert!(is_quantity("500m") && is_quantity("1Gi") && is_quantity("1e3"));
        assert!(!is_quantity("lots"));
    }
}
