//! kube-apimachinery: the Rust reading of apimachinery's `runtime.Scheme`, which generated code links
//! against.
//!
//! Generated API packages stay thin because this crate does the work, as prost's runtime does for
//! prost-build. The pieces map onto apimachinery one to one:
//!
//! - [`GroupVersion`], [`GroupVersionKind`], [`GroupVersionResource`], [`GroupKind`] and
//!   [`GroupResource`] are `k8s.io/apimachinery/pkg/runtime/schema`.
//! - [`Object`] is `runtime.Object`; [`TypeMetaAccess`] is the `GetObjectKind()` half of it that generated
//!   `impl Object` blocks delegate to.
//! - [`Scheme`] is `runtime.Scheme`: GVK to constructor, type to GVKs, version priority, and the defaulting,
//!   conversion and field-label function tables.
//! - [`SchemeBuilder`] is `runtime.SchemeBuilder`: an ordered list of registration functions.
//! - [`codec::Codec`] is the JSON and YAML `runtime.Codec`: manifest bytes to internal objects (with
//!   defaults applied) and objects to the bytes of any served version.
//!
//! A generated package registers its kinds like this, and a program collects the packages it wants:
//!
//! ```
//! use kube_apimachinery::{GroupVersion, Scheme, SchemeBuilder, SchemeError};
//!
//! #[derive(Clone, Debug, Default)]
//! pub struct Deployment {
//!     pub type_meta: kube_core::TypeMeta,
//! }
//!
//! impl ::kube_apimachinery::Object for Deployment {
//!     fn group_version_kind(&self) -> Option<::kube_apimachinery::GroupVersionKind> { ::kube_apimachinery::TypeMetaAccess::gvk(&self.type_meta) }
//!     fn set_group_version_kind(&mut self, gvk: &::kube_apimachinery::GroupVersionKind) { ::kube_apimachinery::TypeMetaAccess::set_gvk(&mut self.type_meta, gvk) }
//!     fn as_any(&self) -> &dyn ::core::any::Any { self }
//!     fn as_any_mut(&mut self) -> &mut dyn ::core::any::Any { self }
//!     fn into_any(self: ::std::boxed::Box<Self>) -> ::std::boxed::Box<dyn ::core::any::Any> { self }
//!     fn deep_copy_object(&self) -> ::std::boxed::Box<dyn ::kube_apimachinery::Object> { ::std::boxed::Box::new(::core::clone::Clone::clone(self)) }
//! }
//!
//! pub const SCHEME_GROUP_VERSION: GroupVersion = GroupVersion::from_static("apps", "v1");
//!
//! fn add_known_types(scheme: &mut Scheme) -> Result<(), SchemeError> {
//!     scheme.add_known_type::<Deployment>(SCHEME_GROUP_VERSION.with_kind("Deployment"))
//! }
//!
//! pub static SCHEME_BUILDER: SchemeBuilder = SchemeBuilder::from_fns(&[add_known_types]);
//!
//! let mut scheme = Scheme::new();
//! SCHEME_BUILDER.add_to_scheme(&mut scheme)?;
//! let obj = scheme.new_object(&SCHEME_GROUP_VERSION.with_kind("Deployment"))?;
//! assert!(obj.downcast_ref::<Deployment>().is_some());
//! assert_eq!(obj.group_version_kind().map(|gvk| gvk.to_string()).as_deref(), Some("apps/v1, Kind=Deployment"));
//! # Ok::<(), SchemeError>(())
//! ```

//! # Layers
//!
//! Top to bottom; a module uses only the modules of the layers below its own:
//!
//! 1. [`client`], `testing`: typed clients, listers, informers (feature `client`); random values
//!    for fuzz tests (feature `testing`).
//! 2. [`codec`]: JSON, YAML and protobuf bytes to objects and back.
//! 3. `builder`: the `SchemeBuilder` of a package's registration functions.
//! 4. `scheme`: the `Scheme`.
//! 5. [`conversion`], [`defaulting`], `kube_interop`, `lifecycle`, [`openapi`], [`protobuf`],
//!    [`validation`], `wire`: what the Scheme's tables hold and the forms objects take.
//! 6. `errors`: the Scheme's and conversions' errors.
//! 7. [`go_value`], [`meta`], `object`, [`query`], [`quantity`], `rest_mapping`: Go value fields
//!    read from JSON, meta wire types, `Object`, options kinds from query parameters, Quantities in
//!    canonical form, REST mappings.
//! 8. `gvk`, `__private`: groups, versions, kinds and resources; what macros expand to.

#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod builder;
#[cfg(feature = "client")]
pub mod client;
pub mod codec;
pub mod conversion;
pub mod defaulting;
mod errors;
pub mod go_value;
mod gvk;
mod kube_interop;
mod lifecycle;
pub mod meta;
mod object;
pub mod openapi;
pub mod protobuf;
pub mod quantity;
pub mod query;
mod rest_mapping;
mod scheme;
#[cfg(test)]
mod test_support;
#[cfg(feature = "testing")]
pub mod testing;
pub mod validation;
mod wire;

/// What the runtime's macros name in the crates that call them; not part of the API.
#[doc(hidden)]
pub mod __private {
    pub use k8s_openapi::apimachinery::pkg::apis::meta::v1::{ObjectMeta, OwnerReference};
}

pub use builder::{AddToSchemeFn, SchemeBuilder};
pub use errors::{ConversionError, SchemeError};
pub use gvk::{
    GroupKind, GroupResource, GroupVersion, GroupVersionKind, GroupVersionResource, ParseError, kube_aware_version_key,
};
pub use lifecycle::{ApiLifecycle, Release};
pub use object::{Object, StringField, TypeMetaAccess, gvk_from_fields, set_gvk_fields};
pub use rest_mapping::{PrinterColumn, RestMapping, RestScope, ScalePaths, SubresourceMapping};
pub use scheme::{FieldLabelConversionFn, NewObjectFn, Scheme, default_meta_v1_field_selector_conversion};

/// Whether `value` is its type's zero value: the `skip_serializing_if` of a field Go declares as
/// a value with `omitempty` (`HostPort int32 json:"hostPort,omitempty"`), so that zero is left
/// out on the wire as Go leaves it out, while `Option` stays for Go's pointers, whose zero is a
/// value the client set.
pub fn is_zero<T: Default + PartialEq>(value: &T) -> bool {
    *value == T::default()
}

/// The version string of the internal, hub version of a group (Go's `runtime.APIVersionInternal`).
///
/// Internal types never go on the wire; every external version converts to and from them.
pub const API_VERSION_INTERNAL: &str = "__internal";

/// The examples of `docs/clients.md`, compiled and run as doc tests (with this crate's
/// dev-dependencies: this repository's API types and the clients generated for them).
#[cfg(doctest)]
#[doc = include_str!("../../docs/clients.md")]
pub struct ClientsDoctests;
