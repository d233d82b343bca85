//! A small API group for the codec's unit tests, shaped like generated code: `example.com` with the
//! kind `Widget` in an internal hub version and two external versions, `v1` and `v2`, that name
//! the replica count differently, plus a defaulter for v1 and the conversions through the hub.

use crate::{ConversionError, GroupVersion, Object, Scheme, SchemeError};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use kube_core::TypeMeta;
use serde::{Deserialize, Serialize};

pub(super) const V1: GroupVersion = GroupVersion::from_static("example.com", "v1");
pub(super) const V2: GroupVersion = GroupVersion::from_static("example.com", "v2");
pub(super) const INTERNAL: GroupVersion = GroupVersion::from_static("example.com", "__internal");

/// Implements `Object` the way generated code does.
macro_rules! impl_object {
    ($($ty:ty),*) => {$(
        impl Object for $ty {
            fn group_version_kind(&self) -> Option<crate::GroupVersionKind> {
                crate::TypeMetaAccess::gvk(&self.type_meta)
            }
            fn set_group_version_kind(&mut self, gvk: &crate::GroupVersionKind) {
                crate::TypeMetaAccess::set_gvk(&mut self.type_meta, gvk)
            }
            fn as_any(&self) -> &dyn std::any::Any {
                self
            }
            fn as_any_mut(&mut self) -> &mut dyn std::any::Any {
                self
            }
            fn into_any(self: Box<Self>) -> Box<dyn std::any::Any> {
                self
            }
            fn deep_copy_object(&self) -> Box<dyn Object> {
                Box::new(self.clone())
            }
        }
    )*};
}

impl_object!(Widget, WidgetV1, WidgetV2);

/// The internal Widget: never on the wire, so no serde.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct Widget {
    pub(super) type_meta: TypeMeta,
    pub(super) metadata: ObjectMeta,
    pub(super) replicas: i32,
    pub(super) color: String,
    pub(super) ports: Vec<Port>,
}

/// A port of a Widget, the same in every version.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub(super) struct Port {
    pub(super) port: i32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) name: Option<String>,
}

/// example.com/v1 Widget.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub(super) struct WidgetV1 {
    #[serde(flatten, default)]
    pub(super) type_meta: Option<TypeMeta>,
    #[serde(default)]
    pub(super) metadata: ObjectMeta,
    pub(super) spec: WidgetSpecV1,
}

/// example.com/v1 WidgetSpec.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub(super) struct WidgetSpecV1 {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) replicas: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) color: Option<String>,
    #[serde(default)]
    pub(super) ports: Vec<Port>,
}

/// example.com/v2 Widget: `spec.size` is v1's `spec.replicas`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub(super) struct WidgetV2 {
    #[serde(flatten, default)]
    pub(super) type_meta: Option<TypeMeta>,
    #[serde(default)]
    pub(super) metadata: ObjectMeta,
    pub(super) spec: WidgetSpecV2,
}

/// example.com/v2 WidgetSpec.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub(super) struct WidgetSpecV2 {
    pub(super) size: i32,
    #[serde(default)]
    pub(super) color: String,
    #[serde(default)]
    pub(super) ports: Vec<Port>,
}

/// A scheme with the three versions of Widget, v1 defaults and the hub conversions.
pub(super) fn scheme() -> Result<Scheme, SchemeError> {
    let mut s = Scheme::new();
    s.add_known_type::<Widget>(INTERNAL.with_kind("Widget"))?;
    s.add_known_type_serde::<WidgetV1>(V1.with_kind("Widget"))?;
    s.add_known_type_serde::<WidgetV2>(V2.with_kind("Widget"))?;
    s.set_version_priority(&[V2, V1])?;
    s.add_type_defaulting_func::<WidgetV1>(|w| {
        w.spec.color.get_or_insert_with(|| "blue".to_owned());
    });
    s.add_conversion_func::<WidgetV1, Widget>(v1_to_internal);
    s.add_conversion_func::<Widget, WidgetV1>(internal_to_v1);
    s.add_conversion_func::<WidgetV2, Widget>(|a, b| {
        b.metadata = a.metadata.clone();
        (b.replicas, b.color, b.ports) = (a.spec.size, a.spec.color.clone(), a.spec.ports.clone());
        Ok(())
    });
    s.add_conversion_func::<Widget, WidgetV2>(|a, b| {
        b.metadata = a.metadata.clone();
        b.spec = WidgetSpecV2 {
            size: a.replicas,
            color: a.color.clone(),
            ports: a.ports.clone(),
        };
        Ok(())
    });
    Ok(s)
}

fn v1_to_internal(a: &WidgetV1, b: &mut Widget) -> Result<(), ConversionError> {
    b.metadata = a.metadata.clone();
    b.replicas = a.spec.replicas.unwrap_or(1);
    b.color = a.spec.color.clone().unwrap_or_default();
    b.ports = a.spec.ports.clone();
    Ok(())
}

fn internal_to_v1(a: &Widget, b: &mut WidgetV1) -> Result<(), ConversionError> {
    b.metadata = a.metadata.clone();
    b.spec = WidgetSpecV1 {
        replicas: Some(a.replicas),
        color: Some(a.color.clone()).filter(|c| !c.is_empty()),
        ports: a.ports.clone(),
    };
    Ok(())
}
