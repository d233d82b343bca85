//! The rbac.authorization.k8s.io/v1 types, field for field as k8s.io/api rbac/v1 serializes them.

use k8s_openapi::apimachinery::pkg::apis::meta::v1::{LabelSelector, ListMeta, ObjectMeta};
use kube_core::TypeMeta;

/// PolicyRule holds information that describes a policy rule, but does not contain information
/// about who the rule applies to or which namespace the rule applies to.
#[derive(Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PolicyRule {
    /// Verbs is a list of Verbs that apply to ALL the ResourceKinds contained in this rule. '*' represents all verbs.
    /// +protobuf=1
    pub verbs: Vec<String>,
    /// APIGroups is the name of the APIGroup that contains the resources.  If multiple API groups are specified, any action requested against one of
    /// the enumerated resources in any API group will be allowed. "" represents the core API group and "*" represents all API groups.
    /// +optional
    /// +protobuf=2
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub api_groups: Option<Vec<String>>,
    /// Resources is a list of resources this rule applies to. '*' represents all resources.
    /// +optional
    /// +protobuf=3
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resources: Option<Vec<String>>,
    /// ResourceNames is an optional white list of names that the rule applies to.  An empty set means that everything is allowed.
    /// +optional
    /// +protobuf=4
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resource_names: Option<Vec<String>>,
    /// NonResourceURLs is a set of partial urls that a user should have access to.  *s are allowed, but only as the full, final step in the path
    /// Since non-resource URLs are not namespaced, this field is only applicable for ClusterRoles referenced from a ClusterRoleBinding.
    /// Rules can either apply to API resources (such as "pods" or "secrets") or non-resource URL paths (such as "/api"),  but not both.
    /// +optional
    /// +protobuf=5
    #[serde(rename = "nonResourceURLs", default, skip_serializing_if = "Option::is_none")]
    pub non_resource_urls: Option<Vec<String>>,
}

/// Subject contains a reference to the object or user identities a role binding applies to.  This can either hold a direct API object reference,
/// or a value for non-objects such as user and group names.
/// +structType=atomic
#[derive(Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Subject {
    /// Kind of object being referenced. Values defined by this API group are "User", "Group", and "ServiceAccount".
    /// If the Authorizer does not recognized the kind value, the Authorizer should report an error.
    /// +protobuf=1
    pub kind: String,
    /// APIGroup holds the API group of the referenced subject.
    /// Defaults to "" for ServiceAccount subjects.
    /// Defaults to "rbac.authorization.k8s.io" for User and Group subjects.
    /// +optional
    /// +protobuf=2
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub api_group: Option<String>,
    /// Name of the object being referenced.
    /// +protobuf=3
    pub name: String,
    /// Namespace of the referenced object.  If the object kind is non-namespace, such as "User" or "Group", and this value is not empty
    /// the Authorizer should report an error.
    /// +optional
    /// +protobuf=4
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
}

/// RoleRef contains information that points to the role being used
/// +structType=atomic
#[derive(Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RoleRef {
    /// APIGroup is the group for the resource being referenced
    /// +protobuf=1
    pub api_group: String,
    /// Kind is the type of resource being referenced
    /// +protobuf=2
    pub kind: String,
    /// Name is the name of resource being referenced
    /// +protobuf=3
    pub name: String,
}

/// Role is a namespaced, logical grouping of PolicyRules that can be referenced as a unit by a RoleBinding.
/// +genclient
/// +k8s:deepcopy-gen:interfaces=runtime::Object
/// +k8s:prerelease-lifecycle-gen:introduced=1.8
#[derive(Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Role {
    /// Standard type metadata (apiVersion and kind).
    #[serde(flatten, default)]
    pub type_meta: Option<TypeMeta>,
    /// Standard object's metadata.
    /// +optional
    /// +protobuf=1
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// Rules holds all the PolicyRules for this Role
    /// +optional
    /// +protobuf=2
    #[serde(default)]
    pub rules: Vec<PolicyRule>,
}

/// RoleBinding references a role, but does not contain it.  It can reference a Role in the same namespace or a ClusterRole in the global namespace.
/// It adds who information via Subjects and namespace information by which namespace it exists in.  RoleBindings in a given
/// namespace only have effect in that namespace.
/// +genclient
/// +k8s:deepcopy-gen:interfaces=runtime::Object
/// +k8s:prerelease-lifecycle-gen:introduced=1.8
#[derive(Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RoleBinding {
    /// Standard type metadata (apiVersion and kind).
    #[serde(flatten, default)]
    pub type_meta: Option<TypeMeta>,
    /// Standard object's metadata.
    /// +optional
    /// +protobuf=1
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// Subjects holds references to the objects the role applies to.
    /// +optional
    /// +protobuf=2
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subjects: Option<Vec<Subject>>,
    /// RoleRef can reference a Role in the current namespace or a ClusterRole in the global namespace.
    /// If the RoleRef cannot be resolved, the Authorizer must return an error.
    /// +protobuf=3
    pub role_ref: RoleRef,
}

/// RoleBindingList is a collection of RoleBindings
/// +k8s:deepcopy-gen:interfaces=runtime::Object
/// +k8s:prerelease-lifecycle-gen:introduced=1.8
#[derive(Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RoleBindingList {
    /// Standard type metadata (apiVersion and kind).
    #[serde(flatten, default)]
    pub type_meta: Option<TypeMeta>,
    /// Standard object's metadata.
    /// +optional
    /// +protobuf=1
    #[serde(default)]
    pub metadata: ListMeta,
    /// Items is a list of RoleBindings
    /// +protobuf=2
    pub items: Vec<RoleBinding>,
}

/// RoleList is a collection of Roles
/// +k8s:deepcopy-gen:interfaces=runtime::Object
/// +k8s:prerelease-lifecycle-gen:introduced=1.8
#[derive(Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RoleList {
    /// Standard type metadata (apiVersion and kind).
    #[serde(flatten, default)]
    pub type_meta: Option<TypeMeta>,
    /// Standard object's metadata.
    /// +optional
    /// +protobuf=1
    #[serde(default)]
    pub metadata: ListMeta,
    /// Items is a list of Roles
    /// +protobuf=2
    pub items: Vec<Role>,
}

/// ClusterRole is a cluster level, logical grouping of PolicyRules that can be referenced as a unit by a RoleBinding or ClusterRoleBinding.
/// +genclient
/// +genclient:nonNamespaced
/// +k8s:deepcopy-gen:interfaces=runtime::Object
/// +k8s:prerelease-lifecycle-gen:introduced=1.8
#[derive(Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ClusterRole {
    /// Standard type metadata (apiVersion and kind).
    #[serde(flatten, default)]
    pub type_meta: Option<TypeMeta>,
    /// Standard object's metadata.
    /// +optional
    /// +protobuf=1
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// Rules holds all the PolicyRules for this ClusterRole
    /// +optional
    /// +protobuf=2
    #[serde(default)]
    pub rules: Vec<PolicyRule>,
    /// AggregationRule is an optional field that describes how to build the Rules for this ClusterRole.
    /// If AggregationRule is set, then the Rules are controller managed and direct changes to Rules will be
    /// stomped by the controller.
    /// +optional
    /// +protobuf=3
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub aggregation_rule: Option<AggregationRule>,
}

/// AggregationRule describes how to locate ClusterRoles to aggregate into the ClusterRole
#[derive(Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AggregationRule {
    /// ClusterRoleSelectors holds a list of selectors which will be used to find ClusterRoles and create the rules.
    /// If any of the selectors match, then the ClusterRole's permissions will be added
    /// +optional
    /// +protobuf=1
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cluster_role_selectors: Option<Vec<LabelSelector>>,
}

/// ClusterRoleBinding references a ClusterRole, but not contain it.  It can reference a ClusterRole in the global namespace,
/// and adds who information via Subject.
/// +genclient
/// +genclient:nonNamespaced
/// +k8s:deepcopy-gen:interfaces=runtime::Object
/// +k8s:prerelease-lifecycle-gen:introduced=1.8
#[derive(Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ClusterRoleBinding {
    /// Standard type metadata (apiVersion and kind).
    #[serde(flatten, default)]
    pub type_meta: Option<TypeMeta>,
    /// Standard object's metadata.
    /// +optional
    /// +protobuf=1
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// Subjects holds references to the objects the role applies to.
    /// +optional
    /// +protobuf=2
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subjects: Option<Vec<Subject>>,
    /// RoleRef can only reference a ClusterRole in the global namespace.
    /// If the RoleRef cannot be resolved, the Authorizer must return an error.
    /// +protobuf=3
    pub role_ref: RoleRef,
}

/// ClusterRoleBindingList is a collection of ClusterRoleBindings
/// +k8s:deepcopy-gen:interfaces=runtime::Object
/// +k8s:prerelease-lifecycle-gen:introduced=1.8
#[derive(Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ClusterRoleBindingList {
    /// Standard type metadata (apiVersion and kind).
    #[serde(flatten, default)]
    pub type_meta: Option<TypeMeta>,
    /// Standard object's metadata.
    /// +optional
    /// +protobuf=1
    #[serde(default)]
    pub metadata: ListMeta,
    /// Items is a list of ClusterRoleBindings
    /// +protobuf=2
    pub items: Vec<ClusterRoleBinding>,
}

/// ClusterRoleList is a collection of ClusterRoles
/// +k8s:deepcopy-gen:interfaces=runtime::Object
/// +k8s:prerelease-lifecycle-gen:introduced=1.8
#[derive(Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ClusterRoleList {
    /// Standard type metadata (apiVersion and kind).
    #[serde(flatten, default)]
    pub type_meta: Option<TypeMeta>,
    /// Standard object's metadata.
    /// +optional
    /// +protobuf=1
    #[serde(default)]
    pub metadata: ListMeta,
    /// Items is a list of ClusterRoles
    /// +protobuf=2
    pub items: Vec<ClusterRole>,
}
