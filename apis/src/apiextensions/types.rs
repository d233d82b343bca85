//! The internal apiextensions types, mirroring k8s.io/apiextensions-apiserver pkg/apis/apiextensions: in-memory only, no serialization.
//!
//! Where Go has a non-pointer `metav1.Time`, the field is `Option<Time>`: `None` is Go's zero time,
//! which Rust's `Time` has no value for.

// Doc comments keep Go's text verbatim (it becomes the OpenAPI descriptions): `[x]`, `[0-9]` and
// `[RFC1034]` in it are not links, and its tabs and list indentation are Go's.
#![allow(rustdoc::broken_intra_doc_links)]

use k8s_openapi::ByteString;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{ListMeta, ObjectMeta, Time};
use kube_core::TypeMeta;

use super::JSONSchemaProps;

/// CustomResourceDefinitionSpec describes how a user wants their resource to appear
#[derive(Debug, Default, PartialEq)]
pub struct CustomResourceDefinitionSpec {
    /// Group is the group this resource belongs in
    pub group: String,
    /// Version is the version this resource belongs in
    /// Should be always first item in Versions field if provided.
    /// Optional, but at least one of Version or Versions must be set.
    /// Deprecated: Please use `Versions`.
    pub version: String,
    /// Names are the names used to describe this custom resource
    pub names: CustomResourceDefinitionNames,
    /// Scope indicates whether this resource is cluster or namespace scoped.  Default is namespaced
    pub scope: String,
    /// Validation describes the validation methods for CustomResources
    /// Optional, the global validation schema for all versions.
    /// Top-level and per-version schemas are mutually exclusive.
    /// +optional
    pub validation: Option<CustomResourceValidation>,
    /// Subresources describes the subresources for CustomResource
    /// Optional, the global subresources for all versions.
    /// Top-level and per-version subresources are mutually exclusive.
    /// +optional
    pub subresources: Option<CustomResourceSubresources>,
    /// Versions is the list of all supported versions for this resource.
    /// If Version field is provided, this field is optional.
    /// Validation: All versions must use the same validation schema for now. i.e., top
    /// level Validation field is applied to all of these versions.
    /// Order: The version name will be used to compute the order.
    /// If the version string is "kube-like", it will sort above non "kube-like" version strings, which are ordered
    /// lexicographically. "Kube-like" versions start with a "v", then are followed by a number (the major version),
    /// then optionally the string "alpha" or "beta" and another number (the minor version). These are sorted first
    /// by GA > beta > alpha (where GA is a version with no suffix such as beta or alpha), and then by comparing
    /// major version, then minor version. An example sorted list of versions:
    /// v10, v2, v1, v11beta2, v10beta3, v3beta1, v12alpha1, v11alpha2, foo1, foo10.
    pub versions: Vec<CustomResourceDefinitionVersion>,
    /// AdditionalPrinterColumns are additional columns shown e.g. in kubectl next to the name. Defaults to a created-at column.
    /// Optional, the global columns for all versions.
    /// Top-level and per-version columns are mutually exclusive.
    /// +optional
    pub additional_printer_columns: Vec<CustomResourceColumnDefinition>,
    /// selectableFields specifies paths to fields that may be used as field selectors.
    /// A maximum of 8 selectable fields are allowed.
    /// See https://kubernetes.io/docs/concepts/overview/working-with-objects/field-selectors
    /// Top-level and per-version columns are mutually exclusive.
    /// +optional
    pub selectable_fields: Vec<SelectableField>,
    /// `conversion` defines conversion settings for the CRD.
    pub conversion: Option<CustomResourceConversion>,
    /// preserveUnknownFields disables pruning of object fields which are not
    /// specified in the OpenAPI schema. apiVersion, kind, metadata and known
    /// fields inside metadata are always preserved.
    /// Defaults to true in v1beta and will default to false in v1.
    pub preserve_unknown_fields: Option<bool>,
}

/// CustomResourceConversion describes how to convert different versions of a CR.
#[derive(Debug, Default, PartialEq)]
pub struct CustomResourceConversion {
    /// `strategy` specifies the conversion strategy. Allowed values are:
    /// - `None`: The converter only change the apiVersion and would not touch any other field in the CR.
    /// - `Webhook`: API Server will call to an external webhook to do the conversion. Additional information
    ///   is needed for this option. This requires spec.preserveUnknownFields to be false.
    pub strategy: String,
    /// `webhookClientConfig` is the instructions for how to call the webhook if strategy is `Webhook`.
    pub webhook_client_config: Option<WebhookClientConfig>,
    /// ConversionReviewVersions is an ordered list of preferred `ConversionReview`
    /// versions the Webhook expects. API server will try to use first version in
    /// the list which it supports. If none of the versions specified in this list
    /// supported by API server, conversion will fail for this object.
    /// If a persisted Webhook configuration specifies allowed versions and does not
    /// include any versions known to the API Server, calls to the webhook will fail.
    /// +optional
    pub conversion_review_versions: Vec<String>,
}

/// WebhookClientConfig contains the information to make a TLS
/// connection with the webhook. It has the same field as admissionregistration.internal.WebhookClientConfig.
#[derive(Debug, Default, PartialEq)]
pub struct WebhookClientConfig {
    /// `url` gives the location of the webhook, in standard URL form
    /// (`scheme://host:port/path`). Exactly one of `url` or `service`
    /// must be specified.
    ///
    /// The `host` should not refer to a service running in the cluster; use
    /// the `service` field instead. The host might be resolved via external
    /// DNS in some apiservers (e.g., `kube-apiserver` cannot resolve
    /// in-cluster DNS as that would be a layering violation). `host` may
    /// also be an IP address.
    ///
    /// Please note that using `localhost` or `127.0.0.1` as a `host` is
    /// risky unless you take great care to run this webhook on all hosts
    /// which run an apiserver which might need to make calls to this
    /// webhook. Such installs are likely to be non-portable, i.e., not easy
    /// to turn up in a new cluster.
    ///
    /// The scheme must be "https"; the URL must begin with "https://".
    ///
    /// A path is optional, and if present may be any string permissible in
    /// a URL. You may use the path to pass an arbitrary string to the
    /// webhook, for example, a cluster identifier.
    ///
    /// Attempting to use a user or basic auth e.g. "user:password@" is not
    /// allowed. Fragments ("#...") and query parameters ("?...") are not
    /// allowed, either.
    ///
    /// +optional
    pub url: Option<String>,
    /// `service` is a reference to the service for this webhook. Either
    /// `service` or `url` must be specified.
    ///
    /// If the webhook is running within the cluster, then you should use `service`.
    ///
    /// +optional
    pub service: Option<ServiceReference>,
    /// `caBundle` is a PEM encoded CA bundle which will be used to validate the webhook's server certificate.
    /// If unspecified, system trust roots on the apiserver are used.
    /// +optional
    pub ca_bundle: ByteString,
}

/// ServiceReference holds a reference to Service.legacy.k8s.io
#[derive(Debug, Default, PartialEq)]
pub struct ServiceReference {
    /// `namespace` is the namespace of the service.
    /// Required
    pub namespace: String,
    /// `name` is the name of the service.
    /// Required
    pub name: String,
    /// `path` is an optional URL path which will be sent in any request to
    /// this service.
    /// +optional
    pub path: Option<String>,
    /// If specified, the port on the service that hosting webhook.
    /// `port` should be a valid port number (1-65535, inclusive).
    /// +optional
    pub port: i32,
}

/// CustomResourceDefinitionVersion describes a version for CRD.
#[derive(Debug, Default, PartialEq)]
pub struct CustomResourceDefinitionVersion {
    /// Name is the version name, e.g. “v1”, “v2beta1”, etc.
    pub name: String,
    /// Served is a flag enabling/disabling this version from being served via REST APIs
    pub served: bool,
    /// Storage flags the version as storage version. There must be exactly one flagged
    /// as storage version.
    pub storage: bool,
    /// deprecated indicates this version of the custom resource API is deprecated.
    /// When set to true, API requests to this version receive a warning header in the server response.
    /// Defaults to false.
    pub deprecated: bool,
    /// deprecationWarning overrides the default warning returned to API clients.
    /// May only be set when `deprecated` is true.
    /// The default warning indicates this version is deprecated and recommends use
    /// of the newest served version of equal or greater stability, if one exists.
    pub deprecation_warning: Option<String>,
    /// Schema describes the schema for CustomResource used in validation, pruning, and defaulting.
    /// Top-level and per-version schemas are mutually exclusive.
    /// Per-version schemas must not all be set to identical values (top-level validation schema should be used instead)
    /// This field is alpha-level and is only honored by servers that enable the CustomResourceWebhookConversion feature.
    /// +optional
    pub schema: Option<CustomResourceValidation>,
    /// Subresources describes the subresources for CustomResource
    /// Top-level and per-version subresources are mutually exclusive.
    /// Per-version subresources must not all be set to identical values (top-level subresources should be used instead)
    /// This field is alpha-level and is only honored by servers that enable the CustomResourceWebhookConversion feature.
    /// +optional
    pub subresources: Option<CustomResourceSubresources>,
    /// AdditionalPrinterColumns are additional columns shown e.g. in kubectl next to the name. Defaults to a created-at column.
    /// Top-level and per-version columns are mutually exclusive.
    /// Per-version columns must not all be set to identical values (top-level columns should be used instead)
    /// This field is alpha-level and is only honored by servers that enable the CustomResourceWebhookConversion feature.
    /// NOTE: CRDs created prior to 1.13 populated the top-level additionalPrinterColumns field by default. To apply an
    /// update that changes to per-version additionalPrinterColumns, the top-level additionalPrinterColumns field must
    /// be explicitly set to null
    /// +optional
    pub additional_printer_columns: Vec<CustomResourceColumnDefinition>,
    /// selectableFields specifies paths to fields that may be used as field selectors.
    /// A maximum of 8 selectable fields are allowed.
    /// See https://kubernetes.io/docs/concepts/overview/working-with-objects/field-selectors
    /// +optional
    pub selectable_fields: Vec<SelectableField>,
}

/// SelectableField specifies the JSON path of a field that may be used with field selectors.
#[derive(Debug, Default, PartialEq)]
pub struct SelectableField {
    /// jsonPath is a simple JSON path which is evaluated against each custom resource to produce a
    /// field selector value.
    /// Only JSON paths without the array notation are allowed.
    /// Must point to a field of type string, boolean or integer. Types with enum values
    /// and strings with formats are allowed.
    /// If jsonPath refers to absent field in a resource, the jsonPath evaluates to an empty string.
    /// Must not point to metdata fields.
    /// Required.
    pub json_path: String,
}

/// CustomResourceColumnDefinition specifies a column for server side printing.
#[derive(Debug, Default, PartialEq)]
pub struct CustomResourceColumnDefinition {
    /// name is a human readable name for the column.
    pub name: String,
    /// type is an OpenAPI type definition for this column.
    /// See https://github.com/OAI/OpenAPI-Specification/blob/master/versions/2.0.md#data-types for more.
    pub type_: String,
    /// format is an optional OpenAPI type definition for this column. The 'name' format is applied
    /// to the primary identifier column to assist in clients identifying column is the resource name.
    /// See https://github.com/OAI/OpenAPI-Specification/blob/master/versions/2.0.md#data-types for more.
    pub format: String,
    /// description is a human readable description of this column.
    pub description: String,
    /// priority is an integer defining the relative importance of this column compared to others. Lower
    /// numbers are considered higher priority. Columns that may be omitted in limited space scenarios
    /// should be given a higher priority.
    pub priority: i32,
    /// JSONPath is a simple JSON path, i.e. without array notation.
    pub json_path: String,
}

/// CustomResourceDefinitionNames indicates the names to serve this CustomResourceDefinition
#[derive(Debug, Default, PartialEq)]
pub struct CustomResourceDefinitionNames {
    /// Plural is the plural name of the resource to serve.  It must match the name of the CustomResourceDefinition-registration
    /// too: plural.group and it must be all lowercase.
    pub plural: String,
    /// Singular is the singular name of the resource.  It must be all lowercase  Defaults to lowercased <kind>
    pub singular: String,
    /// ShortNames are short names for the resource.  It must be all lowercase.
    pub short_names: Vec<String>,
    /// Kind is the serialized kind of the resource.  It is normally CamelCase and singular.
    pub kind: String,
    /// ListKind is the serialized kind of the list for this resource.  Defaults to <kind>List.
    pub list_kind: String,
    /// Categories is a list of grouped resources custom resources belong to (e.g. 'all')
    /// +optional
    pub categories: Vec<String>,
}

/// CustomResourceDefinitionCondition contains details for the current condition of this pod.
#[derive(Debug, Default, PartialEq)]
pub struct CustomResourceDefinitionCondition {
    /// Type is the type of the condition. Types include Established, NamesAccepted and Terminating.
    pub type_: String,
    /// Status is the status of the condition.
    /// Can be True, False, Unknown.
    pub status: String,
    /// Last time the condition transitioned from one status to another.
    /// +optional
    pub last_transition_time: Option<Time>,
    /// Unique, one-word, CamelCase reason for the condition's last transition.
    /// +optional
    pub reason: String,
    /// Human-readable message indicating details about last transition.
    /// +optional
    pub message: String,
    /// observedGeneration represents the .metadata.generation that the condition was set based upon.
    /// For instance, if .metadata.generation is currently 12, but the .status.conditions[x].observedGeneration is 9, the condition is out of date
    /// with respect to the current state of the instance.
    /// +featureGate=CRDObservedGenerationTracking
    /// +optional
    pub observed_generation: i64,
}

/// CustomResourceDefinitionStatus indicates the state of the CustomResourceDefinition
#[derive(Debug, Default, PartialEq)]
pub struct CustomResourceDefinitionStatus {
    /// Conditions indicate state for particular aspects of a CustomResourceDefinition
    /// +listType=map
    /// +listMapKey=type
    pub conditions: Vec<CustomResourceDefinitionCondition>,
    /// AcceptedNames are the names that are actually being used to serve discovery
    /// They may be different than the names in spec.
    pub accepted_names: CustomResourceDefinitionNames,
    /// StoredVersions are all versions of CustomResources that were ever persisted. Tracking these
    /// versions allows a migration path for stored versions in etcd. The field is mutable
    /// so the migration controller can first finish a migration to another version (i.e.
    /// that no old objects are left in the storage), and then remove the rest of the
    /// versions from this list.
    /// None of the versions in this list can be removed from the spec.Versions field.
    pub stored_versions: Vec<String>,
    /// The generation observed by the CRD controller.
    /// +featureGate=CRDObservedGenerationTracking
    /// +optional
    pub observed_generation: i64,
}

/// CustomResourceDefinition represents a resource that should be exposed on the API server.  Its name MUST be in the format
/// <.spec.name>.<.spec.group>.
/// +genclient
/// +genclient:nonNamespaced
/// +k8s:deepcopy-gen:interfaces=runtime::Object
#[derive(Debug, Default, PartialEq)]
pub struct CustomResourceDefinition {
    /// Standard type metadata (apiVersion and kind).
    pub type_meta: TypeMeta,
    pub metadata: ObjectMeta,
    /// Spec describes how the user wants the resources to appear
    pub spec: CustomResourceDefinitionSpec,
    /// Status indicates the actual state of the CustomResourceDefinition
    pub status: CustomResourceDefinitionStatus,
}

/// CustomResourceDefinitionList is a list of CustomResourceDefinition objects.
/// +k8s:deepcopy-gen:interfaces=runtime::Object
#[derive(Debug, Default, PartialEq)]
pub struct CustomResourceDefinitionList {
    /// Standard type metadata (apiVersion and kind).
    pub type_meta: TypeMeta,
    pub metadata: ListMeta,
    /// Items individual CustomResourceDefinitions
    pub items: Vec<CustomResourceDefinition>,
}

/// CustomResourceValidation is a list of validation methods for CustomResources.
#[derive(Debug, Default, PartialEq)]
pub struct CustomResourceValidation {
    /// OpenAPIV3Schema is the OpenAPI v3 schema to be validated against.
    pub open_api_v3_schema: Option<JSONSchemaProps>,
}

/// CustomResourceSubresources defines the status and scale subresources for CustomResources.
#[derive(Debug, Default, PartialEq)]
pub struct CustomResourceSubresources {
    /// Status denotes the status subresource for CustomResources
    pub status: Option<CustomResourceSubresourceStatus>,
    /// Scale denotes the scale subresource for CustomResources
    pub scale: Option<CustomResourceSubresourceScale>,
}

/// CustomResourceSubresourceStatus defines how to serve the status subresource for CustomResources.
/// Status is represented by the `.status` JSON path inside of a CustomResource. When set,
/// * exposes a /status subresource for the custom resource
/// * PUT requests to the /status subresource take a custom resource object, and ignore changes to anything except the status stanza
/// * PUT/POST/PATCH requests to the custom resource ignore changes to the status stanza
#[derive(Debug, Default, PartialEq)]
pub struct CustomResourceSubresourceStatus {}

/// CustomResourceSubresourceScale defines how to serve the scale subresource for CustomResources.
#[derive(Debug, Default, PartialEq)]
pub struct CustomResourceSubresourceScale {
    /// SpecReplicasPath defines the JSON path inside of a CustomResource that corresponds to Scale.Spec.Replicas.
    /// Only JSON paths without the array notation are allowed.
    /// Must be a JSON Path under .spec.
    /// If there is no value under the given path in the CustomResource, the /scale subresource will return an error on GET.
    pub spec_replicas_path: String,
    /// StatusReplicasPath defines the JSON path inside of a CustomResource that corresponds to Scale.Status.Replicas.
    /// Only JSON paths without the array notation are allowed.
    /// Must be a JSON Path under .status.
    /// If there is no value under the given path in the CustomResource, the status replica value in the /scale subresource
    /// will default to 0.
    pub status_replicas_path: String,
    /// LabelSelectorPath defines the JSON path inside of a CustomResource that corresponds to Scale.Status.Selector.
    /// Only JSON paths without the array notation are allowed.
    /// Must be a JSON Path under .status or .spec.
    /// Must be set to work with HPA.
    /// The field pointed by this JSON path must be a string field (not a complex selector struct)
    /// which contains a serialized label selector in string form.
    /// More info: https://kubernetes.io/docs/tasks/access-kubernetes-api/custom-resources/custom-resource-definitions#scale-subresource
    /// If there is no value under the given path in the CustomResource, the status label selector value in the /scale
    /// subresource will default to the empty string.
    /// +optional
    pub label_selector_path: Option<String>,
}
