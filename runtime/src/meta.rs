//! The apimachinery `meta/v1` wire types that k8s-openapi does not carry, because Kubernetes
//! publishes no OpenAPI definition for them, but that API types embed: `GroupVersionKind` and
//! `GroupVersionResource` (admission's `AdmissionRequest.kind` and `.resource`). Their JSON is
//! Kubernetes' (`{"group": "apps", "version": "v1", "kind": "Deployment"}`).

/// The `meta/v1` types.
pub mod v1 {
    use serde::{Deserialize, Serialize};

    /// A group, version and kind, as API objects carry it (apimachinery's `metav1.GroupVersionKind`).
    #[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
    pub struct GroupVersionKind {
        /// The API group (empty for the core group).
        pub group: String,
        /// The version.
        pub version: String,
        /// The kind.
        pub kind: String,
    }

    /// A group, version and resource, as API objects carry it (`metav1.GroupVersionResource`).
    #[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
    pub struct GroupVersionResource {
        /// The API group (empty for the core group).
        pub group: String,
        /// The version.
        pub version: String,
        /// The resource (lower-case plural).
        pub resource: String,
    }

    impl From<&crate::GroupVersionKind> for GroupVersionKind {
        fn from(gvk: &crate::GroupVersionKind) -> Self {
            GroupVersionKind {
                group: gvk.group.to_string(),
                version: gvk.version.to_string(),
                kind: gvk.kind.to_string(),
            }
        }
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn json_is_kubernetes_form() {
            let gvk = GroupVersionKind::from(&crate::GroupVersionKind::from_static("apps", "v1", "Deployment"));
            assert_eq!(
                serde_json::to_string(&gvk).unwrap(),
                r#"{"group":"apps","version":"v1","kind":"Deployment"}"#
            );
            let gvr: GroupVersionResource =
                serde_json::from_str(r#"{"group":"","version":"v1","resource":"pods"}"#).unwrap();
            assert_eq!(gvr.resource, "pods");
        }
    }
}
