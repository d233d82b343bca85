//! The internal widget types, the hub every version converts through: in-memory only, no
//! serialization. They hold every field of every version (v1's `paused` included).

use std::collections::BTreeMap;

use k8s_openapi::apimachinery::pkg::api::resource::Quantity;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{Condition, LabelSelector, ListMeta, ObjectMeta};
use kube_core::TypeMeta;

/// Widget runs a set of identical widget replicas.
/// +k8s:deepcopy-gen:interfaces=runtime::Object
#[derive(Debug, Default, PartialEq)]
pub struct Widget {
    /// Type metadata.
    pub type_meta: TypeMeta,
    /// Standard object's metadata.
    /// +optional
    pub metadata: ObjectMeta,
    /// Desired state of the widgets.
    /// +optional
    pub spec: Option<WidgetSpec>,
    /// Most recently observed state of the widgets. Written by the controller.
    /// +optional
    pub status: Option<WidgetStatus>,
}

/// WidgetList is a list of widgets.
/// +k8s:deepcopy-gen:interfaces=runtime::Object
#[derive(Debug, Default, PartialEq)]
pub struct WidgetList {
    /// Type metadata.
    pub type_meta: TypeMeta,
    /// Standard list metadata.
    /// +optional
    pub metadata: ListMeta,
    /// The widgets.
    pub items: Vec<Widget>,
}

/// WidgetSpec is the desired state of a set of widgets.
#[derive(Debug, Default, PartialEq)]
pub struct WidgetSpec {
    /// Number of desired widgets. Defaults to 1.
    /// +optional
    pub replicas: Option<i32>,
    /// Label query over the pods that run the widgets. It must match the pod template's labels.
    /// +optional
    pub selector: Option<LabelSelector>,
    /// Container image that runs a widget.
    pub image: String,
    /// Size class of each widget. Defaults to Medium.
    /// +optional
    pub size: Option<WidgetSize>,
    /// Ports each widget serves, one per name.
    /// +optional
    /// +listType=map
    /// +listMapKey=name
    pub ports: Vec<WidgetPort>,
    /// Compute resources each widget may use, by resource name.
    /// +optional
    pub limits: BTreeMap<String, Quantity>,
    /// Stops the controller from acting on the widgets while true.
    /// +optional
    pub paused: Option<bool>,
}

/// WidgetSize is the size class of a widget.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
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
#[derive(Debug, Default, PartialEq)]
pub struct WidgetPort {
    /// Name of the port, unique among the widget's ports.
    pub name: String,
    /// Port number.
    pub port: i32,
    /// Protocol of the port: TCP or UDP. Defaults to "TCP".
    /// +optional
    pub protocol: Option<String>,
}

/// WidgetStatus is the most recently observed state of a set of widgets.
#[derive(Debug, Default, PartialEq)]
pub struct WidgetStatus {
    /// The generation of the spec that this status describes.
    /// +optional
    pub observed_generation: Option<i64>,
    /// Number of widgets running.
    /// +optional
    pub replicas: Option<i32>,
    /// Number of widgets ready to serve.
    /// +optional
    pub ready_replicas: Option<i32>,
    /// The label selector of the widgets' pods in string form, for the scale subresource.
    /// +optional
    pub selector: Option<String>,
    /// Latest observations of the widgets' state.
    /// +optional
    /// +listType=map
    /// +listMapKey=type
    pub conditions: Vec<Condition>,
}

/// WidgetClass describes a kind of widget that a cluster offers. It is cluster-scoped.
/// +k8s:deepcopy-gen:interfaces=runtime::Object
#[derive(Debug, Default, PartialEq)]
pub struct WidgetClass {
    /// Type metadata.
    pub type_meta: TypeMeta,
    /// Standard object's metadata.
    /// +optional
    pub metadata: ObjectMeta,
    /// What the class offers.
    /// +optional
    pub spec: Option<WidgetClassSpec>,
}

/// WidgetClassList is a list of widget classes.
/// +k8s:deepcopy-gen:interfaces=runtime::Object
#[derive(Debug, Default, PartialEq)]
pub struct WidgetClassList {
    /// Type metadata.
    pub type_meta: TypeMeta,
    /// Standard list metadata.
    /// +optional
    pub metadata: ListMeta,
    /// The widget classes.
    pub items: Vec<WidgetClass>,
}

/// WidgetClassSpec is what a widget class offers.
#[derive(Debug, Default, PartialEq)]
pub struct WidgetClassSpec {
    /// Name of the controller that runs widgets of this class, such as `example.dev/widget-controller`.
    pub controller: String,
    /// Settings for the controller, by name.
    /// +optional
    pub parameters: BTreeMap<String, String>,
}
