//! The apiextensions.k8s.io/v1 types (CustomResourceDefinition and its parts), field for field as k8s.io/apiextensions-apiserver pkg/apis/apiextensions/v1 serializes them.

// Doc comments keep Go's text verbatim (it becomes the OpenAPI descriptions): `[x]`, `[0-9]` and
// `[RFC1034]` in it are not links, and its tabs and list indentation are Go's.
#![allow(rustdoc::broken_intra_doc_links)]
#![allow(
    clippy::tabs_in_doc_comments,
    clippy::doc_overindented_list_items,
    clippy::doc_lazy_continuation
)]

use k8s_openapi::ByteString;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{ListMeta, ObjectMeta, Time};
use kube_core::TypeMeta;

use super::JSONSchemaProps;

/// CustomResourceDefinitionSpec describes how a user wants their resource to appear
#[derive(Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CustomResourceDefinitionSpec {
    /// group is the API group of the defined custom resource.
    /// The custom resources are served under `/apis/<group>/...`.
    /// Must match the name of the CustomResourceDefinition (in the form `<names.plural>.<group>`).
    /// +protobuf=1
    pub group: String,
    /// names specify the resource and kind names for the custom resource.
    /// +protobuf=3
    pub names: CustomResourceDefinitionNames,
    /// scope indicates whether the defined custom resource is cluster- or namespace-scoped.
    /// Allowed values are `Cluster` and `Namespaced`.
    /// +protobuf=4
    pub scope: String,
    /// versions is the list of all API versions of the defined custom resource.
    /// Version names are used to compute the order in which served versions are listed in API discovery.
    /// If the version string is "kube-like", it will sort above non "kube-like" version strings, which are ordered
    /// lexicographically. "Kube-like" versions start with a "v", then are followed by a number (the major version),
    /// then optionally the string "alpha" or "beta" and another number (the minor version). These are sorted first
    /// by GA > beta > alpha (where GA is a version with no suffix such as beta or alpha), and then by comparing
    /// major version, then minor version. An example sorted list of versions:
    /// v10, v2, v1, v11beta2, v10beta3, v3beta1, v12alpha1, v11alpha2, foo1, foo10.
    /// +listType=atomic
    /// +protobuf=7
    pub versions: Vec<CustomResourceDefinitionVersion>,
    /// conversion defines conversion settings for the CRD.
    /// +optional
    /// +protobuf=9
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conversion: Option<CustomResourceConversion>,
    /// preserveUnknownFields indicates that object fields which are not specified
    /// in the OpenAPI schema should be preserved when persisting to storage.
    /// apiVersion, kind, metadata and known fields inside metadata are always preserved.
    /// This field is deprecated in favor of setting `x-preserve-unknown-fields` to true in `spec.versions[*].schema.openAPIV3Schema`.
    /// See https://kubernetes.io/docs/tasks/extend-kubernetes/custom-resources/custom-resource-definitions/#field-pruning for details.
    /// +optional
    /// +protobuf=10
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preserve_unknown_fields: Option<bool>,
}

/// CustomResourceConversion describes how to convert different versions of a CR.
#[derive(Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CustomResourceConversion {
    /// strategy specifies how custom resources are converted between versions. Allowed values are:
    /// - `"None"`: The converter only change the apiVersion and would not touch any other field in the custom resource.
    /// - `"Webhook"`: API Server will call to an external webhook to do the conversion. Additional information
    ///   is needed for this option. This requires spec.preserveUnknownFields to be false, and spec.conversion.webhook to be set.
    /// +protobuf=1
    pub strategy: String,
    /// webhook describes how to call the conversion webhook. Required when `strategy` is set to `"Webhook"`.
    /// +optional
    /// +protobuf=2
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub webhook: Option<WebhookConversion>,
}

/// WebhookConversion describes how to call a conversion webhook
#[derive(Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WebhookConversion {
    /// clientConfig is the instructions for how to call the webhook if strategy is `Webhook`.
    /// +optional
    /// +protobuf=2
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_config: Option<WebhookClientConfig>,
    /// conversionReviewVersions is an ordered list of preferred `ConversionReview`
    /// versions the Webhook expects. The API server will use the first version in
    /// the list which it supports. If none of the versions specified in this list
    /// are supported by API server, conversion will fail for the custom resource.
    /// If a persisted Webhook configuration specifies allowed versions and does not
    /// include any versions known to the API Server, calls to the webhook will fail.
    /// +listType=atomic
    /// +protobuf=3
    pub conversion_review_versions: Vec<String>,
}

/// WebhookClientConfig contains the information to make a TLS connection with the webhook.
#[derive(Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WebhookClientConfig {
    /// url gives the location of the webhook, in standard URL form
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
    /// +protobuf=3
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// service is a reference to the service for this webhook. Either
    /// service or url must be specified.
    ///
    /// If the webhook is running within the cluster, then you should use `service`.
    ///
    /// +optional
    /// +protobuf=1
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub service: Option<ServiceReference>,
    /// caBundle is a PEM encoded CA bundle which will be used to validate the webhook's server certificate.
    /// If unspecified, system trust roots on the apiserver are used.
    /// +optional
    /// +protobuf=2
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ca_bundle: Option<ByteString>,
}

/// ServiceReference holds a reference to Service.legacy.k8s.io
#[derive(Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ServiceReference {
    /// namespace is the namespace of the service.
    /// Required
    /// +protobuf=1
    pub namespace: String,
    /// name is the name of the service.
    /// Required
    /// +protobuf=2
    pub name: String,
    /// path is an optional URL path at which the webhook will be contacted.
    /// +optional
    /// +protobuf=3
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// port is an optional service port at which the webhook will be contacted.
    /// `port` should be a valid port number (1-65535, inclusive).
    /// Defaults to 443 for backward compatibility.
    /// +optional
    /// +protobuf=4
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub port: Option<i32>,
}

/// CustomResourceDefinitionVersion describes a version for CRD.
#[derive(Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CustomResourceDefinitionVersion {
    /// name is the version name, e.g. “v1”, “v2beta1”, etc.
    /// The custom resources are served under this version at `/apis/<group>/<version>/...` if `served` is true.
    /// +protobuf=1
    pub name: String,
    /// served is a flag enabling/disabling this version from being served via REST APIs
    /// +protobuf=2
    pub served: bool,
    /// storage indicates this version should be used when persisting custom resources to storage.
    /// There must be exactly one version with storage=true.
    /// +protobuf=3
    pub storage: bool,
    /// deprecated indicates this version of the custom resource API is deprecated.
    /// When set to true, API requests to this version receive a warning header in the server response.
    /// Defaults to false.
    /// +optional
    /// +protobuf=7
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deprecated: Option<bool>,
    /// deprecationWarning overrides the default warning returned to API clients.
    /// May only be set when `deprecated` is true.
    /// The default warning indicates this version is deprecated and recommends use
    /// of the newest served version of equal or greater stability, if one exists.
    /// +optional
    /// +protobuf=8
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deprecation_warning: Option<String>,
    /// schema describes the schema used for validation, pruning, and defaulting of this version of the custom resource.
    /// +optional
    /// +protobuf=4
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub schema: Option<CustomResourceValidation>,
    /// subresources specify what subresources this version of the defined custom resource have.
    /// +optional
    /// +protobuf=5
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subresources: Option<CustomResourceSubresources>,
    /// additionalPrinterColumns specifies additional columns returned in Table output.
    /// See https://kubernetes.io/docs/reference/using-api/api-concepts/#receiving-resources-as-tables for details.
    /// If no columns are specified, a single column displaying the age of the custom resource is used.
    /// +optional
    /// +listType=atomic
    /// +protobuf=6
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub additional_printer_columns: Option<Vec<CustomResourceColumnDefinition>>,
    /// selectableFields specifies paths to fields that may be used as field selectors.
    /// A maximum of 8 selectable fields are allowed.
    /// See https://kubernetes.io/docs/concepts/overview/working-with-objects/field-selectors
    ///
    /// +featureGate=CustomResourceFieldSelectors
    /// +optional
    /// +listType=atomic
    /// +protobuf=9
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selectable_fields: Option<Vec<SelectableField>>,
}

/// SelectableField specifies the JSON path of a field that may be used with field selectors.
#[derive(Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SelectableField {
    /// jsonPath is a simple JSON path which is evaluated against each custom resource to produce a
    /// field selector value.
    /// Only JSON paths without the array notation are allowed.
    /// Must point to a field of type string, boolean or integer. Types with enum values
    /// and strings with formats are allowed.
    /// If jsonPath refers to absent field in a resource, the jsonPath evaluates to an empty string.
    /// Must not point to metdata fields.
    /// Required.
    /// +protobuf=1
    pub json_path: String,
}

/// CustomResourceColumnDefinition specifies a column for server side printing.
#[derive(Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CustomResourceColumnDefinition {
    /// name is a human readable name for the column.
    /// +protobuf=1
    pub name: String,
    /// type is an OpenAPI type definition for this column.
    /// See https://github.com/OAI/OpenAPI-Specification/blob/master/versions/2.0.md#data-types for details.
    /// +protobuf=2
    #[serde(rename = "type")]
    pub type_: String,
    /// format is an optional OpenAPI type definition for this column. The 'name' format is applied
    /// to the primary identifier column to assist in clients identifying column is the resource name.
    /// See https://github.com/OAI/OpenAPI-Specification/blob/master/versions/2.0.md#data-types for details.
    /// +optional
    /// +protobuf=3
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<String>,
    /// description is a human readable description of this column.
    /// +optional
    /// +protobuf=4
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// priority is an integer defining the relative importance of this column compared to others. Lower
    /// numbers are considered higher priority. Columns that may be omitted in limited space scenarios
    /// should be given a priority greater than 0.
    /// +optional
    /// +protobuf=5
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub priority: Option<i32>,
    /// jsonPath is a simple JSON path (i.e. with array notation) which is evaluated against
    /// each custom resource to produce the value for this column.
    /// +protobuf=6
    pub json_path: String,
}

/// CustomResourceDefinitionNames indicates the names to serve this CustomResourceDefinition
#[derive(Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CustomResourceDefinitionNames {
    /// plural is the plural name of the resource to serve.
    /// The custom resources are served under `/apis/<group>/<version>/.../<plural>`.
    /// Must match the name of the CustomResourceDefinition (in the form `<names.plural>.<group>`).
    /// Must be all lowercase.
    /// +protobuf=1
    pub plural: String,
    /// singular is the singular name of the resource. It must be all lowercase. Defaults to lowercased `kind`.
    /// +optional
    /// +protobuf=2
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub singular: Option<String>,
    /// shortNames are short names for the resource, exposed in API discovery documents,
    /// and used by clients to support invocations like `kubectl get <shortname>`.
    /// It must be all lowercase.
    /// +optional
    /// +listType=atomic
    /// +protobuf=3
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub short_names: Option<Vec<String>>,
    /// kind is the serialized kind of the resource. It is normally CamelCase and singular.
    /// Custom resource instances will use this value as the `kind` attribute in API calls.
    /// +protobuf=4
    pub kind: String,
    /// listKind is the serialized kind of the list for this resource. Defaults to "`kind`List".
    /// +optional
    /// +protobuf=5
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub list_kind: Option<String>,
    /// categories is a list of grouped resources this custom resource belongs to (e.g. 'all').
    /// This is published in API discovery documents, and used by clients to support invocations like
    /// `kubectl get all`.
    /// +optional
    /// +listType=atomic
    /// +protobuf=6
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub categories: Option<Vec<String>>,
}

/// CustomResourceDefinitionCondition contains details for the current condition of this pod.
#[derive(Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CustomResourceDefinitionCondition {
    /// type is the type of the condition. Types include Established, NamesAccepted and Terminating.
    /// +protobuf=1
    #[serde(rename = "type")]
    pub type_: String,
    /// status is the status of the condition.
    /// Can be True, False, Unknown.
    /// +protobuf=2
    pub status: String,
    /// lastTransitionTime last time the condition transitioned from one status to another.
    /// +optional
    /// +protobuf=3
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_transition_time: Option<Time>,
    /// reason is a unique, one-word, CamelCase reason for the condition's last transition.
    /// +optional
    /// +protobuf=4
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// message is a human-readable message indicating details about last transition.
    /// +optional
    /// +protobuf=5
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// observedGeneration represents the .metadata.generation that the condition was set based upon.
    /// For instance, if .metadata.generation is currently 12, but the .status.conditions[x].observedGeneration is 9, the condition is out of date
    /// with respect to the current state of the instance.
    /// +featureGate=CRDObservedGenerationTracking
    /// +optional
    /// +protobuf=6
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub observed_generation: Option<i64>,
}

/// CustomResourceDefinitionStatus indicates the state of the CustomResourceDefinition
#[derive(Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CustomResourceDefinitionStatus {
    /// conditions indicate state for particular aspects of a CustomResourceDefinition
    /// +optional
    /// +listType=map
    /// +listMapKey=type
    /// +protobuf=1
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conditions: Option<Vec<CustomResourceDefinitionCondition>>,
    /// acceptedNames are the names that are actually being used to serve discovery.
    /// They may be different than the names in spec.
    /// +optional
    /// +protobuf=2
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub accepted_names: Option<CustomResourceDefinitionNames>,
    /// storedVersions lists all versions of CustomResources that were ever persisted. Tracking these
    /// versions allows a migration path for stored versions in etcd. The field is mutable
    /// so a migration controller can finish a migration to another version (ensuring
    /// no old objects are left in storage), and then remove the rest of the
    /// versions from this list.
    /// Versions may not be removed from `spec.versions` while they exist in this list.
    /// +optional
    /// +listType=atomic
    /// +protobuf=3
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stored_versions: Option<Vec<String>>,
    /// The generation observed by the CRD controller.
    /// +featureGate=CRDObservedGenerationTracking
    /// +optional
    /// +protobuf=4
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub observed_generation: Option<i64>,
}

/// CustomResourceDefinition represents a resource that should be exposed on the API server.  Its name MUST be in the format
/// <.spec.name>.<.spec.group>.
/// +genclient
/// +genclient:nonNamespaced
/// +k8s:deepcopy-gen:interfaces=runtime::Object
/// +k8s:prerelease-lifecycle-gen:introduced=1.16
/// +k8s:crd-gen:shortNames=crd,crds
#[derive(Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CustomResourceDefinition {
    /// Standard type metadata (apiVersion and kind).
    #[serde(flatten, default)]
    pub type_meta: Option<TypeMeta>,
    /// Standard object's metadata
    /// More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata
    /// +optional
    /// +protobuf=1
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// spec describes how the user wants the resources to appear
    /// +protobuf=2
    pub spec: CustomResourceDefinitionSpec,
    /// status indicates the actual state of the CustomResourceDefinition
    /// +optional
    /// +protobuf=3
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<CustomResourceDefinitionStatus>,
}

/// CustomResourceDefinitionList is a list of CustomResourceDefinition objects.
/// +k8s:deepcopy-gen:interfaces=runtime::Object
/// +k8s:prerelease-lifecycle-gen:introduced=1.16
#[derive(Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CustomResourceDefinitionList {
    /// Standard type metadata (apiVersion and kind).
    #[serde(flatten, default)]
    pub type_meta: Option<TypeMeta>,
    /// Standard object's metadata
    /// More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata
    /// +optional
    /// +protobuf=1
    #[serde(default)]
    pub metadata: ListMeta,
    /// items list individual CustomResourceDefinition objects
    /// +protobuf=2
    pub items: Vec<CustomResourceDefinition>,
}

/// CustomResourceValidation is a list of validation methods for CustomResources.
#[derive(Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CustomResourceValidation {
    /// openAPIV3Schema is the OpenAPI v3 schema to use for validation and pruning.
    /// +optional
    /// +protobuf=1
    #[serde(rename = "openAPIV3Schema", default, skip_serializing_if = "Option::is_none")]
    pub open_api_v3_schema: Option<JSONSchemaProps>,
}

/// CustomResourceSubresources defines the status and scale subresources for CustomResources.
#[derive(Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CustomResourceSubresources {
    /// status indicates the custom resource should serve a `/status` subresource.
    /// When enabled:
    /// 1. requests to the custom resource primary endpoint ignore changes to the `status` stanza of the object.
    /// 2. requests to the custom resource `/status` subresource ignore changes to anything other than the `status` stanza of the object.
    /// +optional
    /// +protobuf=1
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<CustomResourceSubresourceStatus>,
    /// scale indicates the custom resource should serve a `/scale` subresource that returns an `autoscaling/v1` Scale object.
    /// +optional
    /// +protobuf=2
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scale: Option<CustomResourceSubresourceScale>,
}

/// CustomResourceSubresourceStatus defines how to serve the status subresource for CustomResources.
/// Status is represented by the `.status` JSON path inside of a CustomResource. When set,
/// * exposes a /status subresource for the custom resource
/// * PUT requests to the /status subresource take a custom resource object, and ignore changes to anything except the status stanza
/// * PUT/POST/PATCH requests to the custom resource ignore changes to the status stanza
#[derive(Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CustomResourceSubresourceStatus {}

/// CustomResourceSubresourceScale defines how to serve the scale subresource for CustomResources.
#[derive(Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CustomResourceSubresourceScale {
    /// specReplicasPath defines the JSON path inside of a custom resource that corresponds to Scale `spec.replicas`.
    /// Only JSON paths without the array notation are allowed.
    /// Must be a JSON Path under `.spec`.
    /// If there is no value under the given path in the custom resource, the `/scale` subresource will return an error on GET.
    /// +protobuf=1
    pub spec_replicas_path: String,
    /// statusReplicasPath defines the JSON path inside of a custom resource that corresponds to Scale `status.replicas`.
    /// Only JSON paths without the array notation are allowed.
    /// Must be a JSON Path under `.status`.
    /// If there is no value under the given path in the custom resource, the `status.replicas` value in the `/scale` subresource
    /// will default to 0.
    /// +protobuf=2
    pub status_replicas_path: String,
    /// labelSelectorPath defines the JSON path inside of a custom resource that corresponds to Scale `status.selector`.
    /// Only JSON paths without the array notation are allowed.
    /// Must be a JSON Path under `.status` or `.spec`.
    /// Must be set to work with HorizontalPodAutoscaler.
    /// The field pointed by this JSON path must be a string field (not a complex selector struct)
    /// which contains a serialized label selector in string form.
    /// More info: https://kubernetes.io/docs/tasks/access-kubernetes-api/custom-resources/custom-resource-definitions#scale-subresource
    /// If there is no value under the given path in the custom resource, the `status.selector` value in the `/scale`
    /// subresource will default to the empty string.
    /// +optional
    /// +protobuf=3
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label_selector_path: Option<String>,
}
