//! The internal rbac types, mirroring k8s.io/kubernetes pkg/apis/rbac: in-memory only, no
//! serialization.

use k8s_openapi::apimachinery::pkg::apis::meta::v1::{LabelSelector, ListMeta, ObjectMeta};
use kube_core::TypeMeta;

/// PolicyRule holds information that describes a policy rule, but does not contain information
/// about who the rule applies to or which namespace the rule applies to.
#[derive(Debug, Default, PartialEq)]
pub struct PolicyRule {
    /// Verbs is a list of Verbs that apply to ALL the ResourceKinds contained in this rule. '*' represents all verbs.
    pub verbs: Vec<String>,
    /// APIGroups is the name of the APIGroup that contains the resources.
    /// +optional
    pub api_groups: Vec<String>,
    /// Resources is a list of resources this rule applies to. '*' represents all resources.
    /// +optional
    pub resources: Vec<String>,
    /// ResourceNames is an optional white list of names that the rule applies to.
    /// +optional
    pub resource_names: Vec<String>,
    /// NonResourceURLs is a set of partial urls that a user should have access to.
    /// +optional
    pub non_resource_urls: Vec<String>,
}

/// Subject contains a reference to the object or user identities a role binding applies to.
#[derive(Debug, Default, PartialEq)]
pub struct Subject {
    /// Kind of object being referenced: "User", "Group" or "ServiceAccount".
    pub kind: String,
    /// APIGroup holds the API group of the referenced subject.
    /// +optional
    pub api_group: String,
    /// Name of the object being referenced.
    pub name: String,
    /// Namespace of the referenced object.
    /// +optional
    pub namespace: String,
}

/// RoleRef contains information that points to the role being used.
#[derive(Debug, Default, PartialEq)]
pub struct RoleRef {
    /// APIGroup is the group for the resource being referenced.
    pub api_group: String,
    /// Kind is the type of resource being referenced.
    pub kind: String,
    /// Name is the name of resource being referenced.
    pub name: String,
}

/// Role is a namespaced, logical grouping of PolicyRules that can be referenced as a unit by a RoleBinding.
/// +k8s:deepcopy-gen:interfaces=runtime::Object
#[derive(Debug, Default, PartialEq)]
pub struct Role {
    /// Standard type metadata (apiVersion and kind).
    pub type_meta: TypeMeta,
    /// Standard object's metadata.
    /// +optional
    pub metadata: ObjectMeta,
    /// Rules holds all the PolicyRules for this Role.
    pub rules: Vec<PolicyRule>,
}

/// RoleList is a collection of Roles.
/// +k8s:deepcopy-gen:interfaces=runtime::Object
#[derive(Debug, Default, PartialEq)]
pub struct RoleList {
    /// Standard type metadata (apiVersion and kind).
    pub type_meta: TypeMeta,
    /// Standard object's metadata.
    /// +optional
    pub metadata: ListMeta,
    /// Items is a list of Roles.
    pub items: Vec<Role>,
}

/// RoleBinding references a role, but does not contain it.
/// +k8s:deepcopy-gen:interfaces=runtime::Object
#[derive(Debug, Default, PartialEq)]
pub struct RoleBinding {
    /// Standard type metadata (apiVersion and kind).
    pub type_meta: TypeMeta,
    /// Standard object's metadata.
    /// +optional
    pub metadata: ObjectMeta,
    /// Subjects holds references to the objects the role applies to.
    /// +optional
    pub subjects: Vec<Subject>,
    /// RoleRef can reference a Role in the current namespace or a ClusterRole in the global namespace.
    pub role_ref: RoleRef,
}

/// RoleBindingList is a collection of RoleBindings.
/// +k8s:deepcopy-gen:interfaces=runtime::Object
#[derive(Debug, Default, PartialEq)]
pub struct RoleBindingList {
    /// Standard type metadata (apiVersion and kind).
    pub type_meta: TypeMeta,
    /// Standard object's metadata.
    /// +optional
    pub metadata: ListMeta,
    /// Items is a list of RoleBindings.
    pub items: Vec<RoleBinding>,
}

/// ClusterRole is a cluster level, logical grouping of PolicyRules that can be referenced as a
/// unit by a RoleBinding or ClusterRoleBinding.
/// +k8s:deepcopy-gen:interfaces=runtime::Object
#[derive(Debug, Default, PartialEq)]
pub struct ClusterRole {
    /// Standard type metadata (apiVersion and kind).
    pub type_meta: TypeMeta,
    /// Standard object's metadata.
    /// +optional
    pub metadata: ObjectMeta,
    /// Rules holds all the PolicyRules for this ClusterRole.
    pub rules: Vec<PolicyRule>,
    /// AggregationRule is an optional field that describes how to build the Rules for this ClusterRole.
    /// +optional
    pub aggregation_rule: Option<AggregationRule>,
}

/// AggregationRule describes how to locate ClusterRoles to aggregate into the ClusterRole.
#[derive(Debug, Default, PartialEq)]
pub struct AggregationRule {
    /// ClusterRoleSelectors holds a list of selectors which will be used to find ClusterRoles and create the rules.
    /// +optional
    pub cluster_role_selectors: Vec<LabelSelector>,
}

/// ClusterRoleList is a collection of ClusterRoles.
/// +k8s:deepcopy-gen:interfaces=runtime::Object
#[derive(Debug, Default, PartialEq)]
pub struct ClusterRoleList {
    /// Standard type metadata (apiVersion and kind).
    pub type_meta: TypeMeta,
    /// Standard object's metadata.
    /// +optional
    pub metadata: ListMeta,
    /// Items is a list of ClusterRoles.
    pub items: Vec<ClusterRole>,
}

/// ClusterRoleBinding references a ClusterRole, but does not contain it.
/// +k8s:deepcopy-gen:interfaces=runtime::Object
#[derive(Debug, Default, PartialEq)]
pub struct ClusterRoleBinding {
    /// Standard type metadata (apiVersion and kind).
    pub type_meta: TypeMeta,
    /// Standard object's metadata.
    /// +optional
    pub metadata: ObjectMeta,
    /// Subjects holds references to the objects the role applies to.
    /// +optional
    pub subjects: Vec<Subject>,
    /// RoleRef can only reference a ClusterRole in the global namespace.
    pub role_ref: RoleRef,
}

/// ClusterRoleBindingList is a collection of ClusterRoleBindings.
/// +k8s:deepcopy-gen:interfaces=runtime::Object
#[derive(Debug, Default, PartialEq)]
pub struct ClusterRoleBindingList {
    /// Standard type metadata (apiVersion and kind).
    pub type_meta: TypeMeta,
    /// Standard object's metadata.
    /// +optional
    pub metadata: ListMeta,
    /// Items is a list of ClusterRoleBindings.
    pub items: Vec<ClusterRoleBinding>,
}
