//! v1alpha1 widget types: the first shape of the API, deprecated for v1. v1 adds `paused`.

use std::collections::BTreeMap;

use k8s_openapi::apimachinery::pkg::api::resource::Quantity;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{Condition, LabelSelector, ListMeta, ObjectMeta};
use kube_core::TypeMeta;
use serde::{Deserialize, Serialize};

/// Widget runs a set of identical widget replicas.
/// +genclient
/// +k8s:deepcopy-gen:interfaces=runtime::Object
/// +k8s:prerelease-lifecycle-gen:introduced=1.0
/// +k8s:prerelease-lifecycle-gen:deprecated=1.34
/// +k8s:prerelease-lifecycle-gen:replacement=widgets.example.dev,v1,Widget
/// +k8s:crd-gen:subresource:status
/// +k8s:crd-gen:subresource:scale=specpath=.spec.replicas,statuspath=.status.replicas,selectorpath=.status.selector
/// +k8s:crd-gen:printcolumn=name=Replicas,type=integer,jsonPath=.spec.replicas,description="Desired replicas"
/// +k8s:crd-gen:printcolumn=name=Ready,type=integer,jsonPath=.status.readyReplicas
/// +k8s:crd-gen:printcolumn=name=Size,type=string,jsonPath=.spec.size,priority=1
/// +k8s:crd-gen:printcolumn=name=Age,type=date,jsonPath=.metadata.creationTimestamp
/// +k8s:crd-gen:shortNames=wd
/// +k8s:crd-gen:categories=example
#[derive(Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Widget {
    /// Type metadata.
    #[serde(flatten, default)]
    pub type_meta: Option<TypeMeta>,
    /// Standard object's metadata.
    /// +optional
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// Desired state of the widgets.
    /// +optional
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spec: Option<WidgetSpec>,
    /// Most recently observed state of the widgets. Written by the controller.
    /// +optional
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<WidgetStatus>,
}

/// WidgetList is a list of widgets.
/// +k8s:deepcopy-gen:interfaces=runtime::Object
/// +k8s:prerelease-lifecycle-gen:introduced=1.0
#[derive(Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WidgetList {
    /// Type metadata.
    #[serde(flatten, default)]
    pub type_meta: Option<TypeMeta>,
    /// Standard list metadata.
    /// +optional
    #[serde(default)]
    pub metadata: ListMeta,
    /// The widgets.
    pub items: Vec<Widget>,
}

/// WidgetSpec is the desired state of a set of widgets.
#[derive(Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WidgetSpec {
    /// Number of desired widgets. Defaults to 1.
    /// +optional
    /// +default=1
    /// +k8s:validation:minimum=0
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i32>,
    /// Label query over the pods that run the widgets. It must match the pod template's labels.
    /// +optional
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selector: Option<LabelSelector>,
    /// Container image that runs a widget.
    /// +k8s:validation:minLength=1
    pub image: String,
    /// Size class of each widget. Defaults to Medium.
    /// +optional
    /// +default="Medium"
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<WidgetSize>,
    /// Ports each widget serves, one per name.
    /// +optional
    /// +listType=map
    /// +listMapKey=name
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ports: Vec<WidgetPort>,
    /// Compute resources each widget may use, by resource name.
    /// +optional
    #[serde(
        default,
        deserialize_with = "kube_apimachinery::quantity::deserialize",
        skip_serializing_if = "BTreeMap::is_empty"
    )]
    pub limits: BTreeMap<String, Quantity>,
}

/// WidgetSize is the size class of a widget.
/// +enum
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum WidgetSize {
    /// One CPU, 1 GiB of memory.
    Small,
    /// Two CPUs, 4 GiB of memory.
    #[default]
    Medium,
    /// Eight CPUs, 32 GiB of memory.
    Large,
}

/// WidgetPort is one network port a widget serves.
#[derive(Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WidgetPort {
    /// Name of the port, unique among the widget's ports.
    /// +k8s:validation:maxLength=15
    pub name: String,
    /// Port number.
    /// +k8s:validation:minimum=1
    /// +k8s:validation:maximum=65535
    pub port: i32,
    /// Protocol of the port: TCP or UDP. Defaults to "TCP".
    /// +optional
    /// +default="TCP"
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub protocol: Option<String>,
}

/// WidgetStatus is the most recently observed state of a set of widgets.
#[derive(Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WidgetStatus {
    /// The generation of the spec that this status describes.
    /// +optional
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub observed_generation: Option<i64>,
    /// Number of widgets running.
    /// +optional
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i32>,
    /// Number of widgets ready to serve.
    /// +optional
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ready_replicas: Option<i32>,
    /// The label selector of the widgets' pods in string form, for the scale subresource.
    /// +optional
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selector: Option<String>,
    /// Latest observations of the widgets' state.
    /// +optional
    /// +listType=map
    /// +listMapKey=type
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<Condition>,
}

/// WidgetClass describes a kind of widget that a cluster offers. It is cluster-scoped.
/// +genclient
/// +genclient:nonNamespaced
/// +k8s:deepcopy-gen:interfaces=runtime::Object
/// +k8s:prerelease-lifecycle-gen:introduced=1.0
/// +k8s:prerelease-lifecycle-gen:deprecated=1.34
/// +k8s:prerelease-lifecycle-gen:replacement=widgets.example.dev,v1,WidgetClass
/// +k8s:crd-gen:printcolumn=name=Controller,type=string,jsonPath=.spec.controller
/// +k8s:crd-gen:printcolumn=name=Age,type=date,jsonPath=.metadata.creationTimestamp
/// +k8s:crd-gen:categories=example
#[derive(Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WidgetClass {
    /// Type metadata.
    #[serde(flatten, default)]
    pub type_meta: Option<TypeMeta>,
    /// Standard object's metadata.
    /// +optional
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// What the class offers.
    /// +optional
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spec: Option<WidgetClassSpec>,
}

/// WidgetClassList is a list of widget classes.
/// +k8s:deepcopy-gen:interfaces=runtime::Object
/// +k8s:prerelease-lifecycle-gen:introduced=1.0
#[derive(Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WidgetClassList {
    /// Type metadata.
    #[serde(flatten, default)]
    pub type_meta: Option<TypeMeta>,
    /// Standard list metadata.
    /// +optional
    #[serde(default)]
    pub metadata: ListMeta,
    /// The widget classes.
    pub items: Vec<WidgetClass>,
}

/// WidgetClassSpec is what a widget class offers.
#[derive(Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WidgetClassSpec {
    /// Name of the controller that runs widgets of this class, such as `example.dev/widget-controller`.
    /// +k8s:validation:cel[0]:rule="self == oldSelf"
    /// +k8s:validation:cel[0]:message="controller is immutable"
    pub controller: String,
    /// Settings for the controller, by name.
    /// +optional
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub parameters: BTreeMap<String, String>,
}
