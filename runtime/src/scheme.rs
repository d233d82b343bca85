//! `Scheme`, the type registry (Go's `runtime.Scheme`): the two maps GVK -> type and type -> GVKs, plus
//! the lookups built on them.
//!
//! Version priority lives in `scheme/versions.rs`, the defaulting, conversion and field-label tables
//! live in `scheme/funcs.rs`, and the wire-format (serde) table in `scheme/serde.rs`. Maps that are
//! iterated are `BTreeMap`s or ordered `Vec`s, so every query answers in the same order on every run;
//! maps keyed by `TypeId` are only ever looked up.

mod convert;
mod funcs;
mod lifecycle;
mod protobuf;
mod query;
mod rest;
mod serde;
mod validation;
mod versions;

pub use funcs::{FieldLabelConversionFn, default_meta_v1_field_selector_conversion};

pub(crate) use self::serde::SerdeFns;
use crate::{GroupVersion, GroupVersionKind, Object, SchemeError};
use funcs::{ConversionFn, DefaulterFn};
use query::QueryDecodeFn;
use std::any::{Any, TypeId};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt;

/// Builds a fresh, default object of a registered type.
pub type NewObjectFn = fn() -> Box<dyn Object>;

/// The registry of API kinds and the functions that act on them.
///
/// Like Go's, a scheme is filled once at start-up (usually by [`SchemeBuilder`](crate::SchemeBuilder)s)
/// and read afterwards. Registration takes `&mut self`, so the borrow checker enforces Go's rule that a
/// scheme is only shared once registration is complete; after that it is `Send + Sync`.
#[derive(Default)]
pub struct Scheme {
    /// GVK -> the type registered for it (Go's `gvkToType`).
    gvk_to_type: BTreeMap<GroupVersionKind, KnownType>,
    /// Type -> every GVK it is registered under, sorted (Go's `typeToGVK`).
    type_to_gvk: HashMap<TypeId, BTreeSet<GroupVersionKind>>,
    /// External group versions in the order registration first saw them, without duplicates.
    observed_versions: Vec<GroupVersion>,
    /// Group -> its versions, most preferred first, as set by `set_version_priority`.
    version_priority: BTreeMap<String, Vec<GroupVersion>>,
    /// Type -> its defaulting function.
    defaulters: HashMap<TypeId, DefaulterFn>,
    /// (input type, output type) -> the function converting one into the other.
    conversions: HashMap<(TypeId, TypeId), ConversionFn>,
    /// GVK -> its field-selector conversion; kinds without one use the metadata-only default.
    field_label_conversions: BTreeMap<GroupVersionKind, FieldLabelConversionFn>,
    /// Type -> how to decode and encode it, for kinds registered with `add_known_type_serde`.
    serde_fns: HashMap<TypeId, SerdeFns>,
    /// Type -> how to read and write its protobuf message, for kinds registered with `add_protobuf`.
    protobuf_fns: HashMap<TypeId, protobuf::ProtobufFns>,
    /// GVK -> how to decode it from URL query parameters, for the options kinds.
    query_decoders: BTreeMap<GroupVersionKind, QueryDecodeFn>,
    /// GVR -> how the resource is served, as register-gen records it.
    rest_mappings: BTreeMap<crate::GroupVersionResource, crate::RestMapping>,
    /// GVK -> the resource serving it.
    kind_to_resource: BTreeMap<GroupVersionKind, crate::GroupVersionResource>,
    /// Mapped resources in registration order, which discovery lists them in.
    rest_mapping_order: Vec<crate::GroupVersionResource>,
    /// GVK -> its deprecation warning, as prerelease-lifecycle-gen records it.
    lifecycles: BTreeMap<GroupVersionKind, lifecycle::Lifecycle>,
    /// Type -> its validation, as validation-gen registers it, with the hand-written rules.
    validations: HashMap<TypeId, validation::Registered>,
}

/// What the scheme knows about one registered type.
#[derive(Clone, Copy)]
struct KnownType {
    type_id: TypeId,
    type_name: &'static str,
    new: NewObjectFn,
}

/// Builds a default `T` behind a box; instantiated per registered type to fill [`NewObjectFn`].
fn new_boxed<T: Object + Default>() -> Box<dyn Object> {
    Box::new(T::default())
}

/// The `TypeId` of the concrete type behind `obj`, taken through the compiler's vtable by upcasting.
fn type_id_of(obj: &dyn Object) -> TypeId {
    let any: &dyn Any = obj;
    any.type_id()
}

impl Scheme {
    /// An empty scheme. (`Scheme::default()` names the defaulting method, so use this or `Default`.)
    pub fn new() -> Self {
        <Self as Default>::default()
    }

    /// Registers T under gvk. The same (gvk, T) pair twice is a no-op; gvk already bound to another type is
    /// [`SchemeError::DuplicateKind`] naming both type names. Records gvk.group_version() as observed (in
    /// registration order, no duplicates).
    ///
    /// As in Go, the internal version is never recorded as observed, and a GVK without a version or kind is
    /// rejected. A failed registration leaves the scheme unchanged.
    pub fn add_known_type<T: Object + Default>(&mut self, gvk: GroupVersionKind) -> Result<(), SchemeError> {
        let type_name = std::any::type_name::<T>();
        if gvk.version.is_empty() {
            return Err(SchemeError::MissingVersion { gvk, type_name });
        }
        if gvk.kind.is_empty() {
            return Err(SchemeError::MissingKind { gvk, type_name });
        }
        let type_id = TypeId::of::<T>();
        if let Some(existing) = self.gvk_to_type.get(&gvk) {
            if existing.type_id == type_id {
                return Ok(());
            }
            return Err(SchemeError::DuplicateKind {
                gvk,
                existing: existing.type_name,
                new: type_name,
            });
        }
        self.observe(gvk.group_version());
        self.type_to_gvk.entry(type_id).or_default().insert(gvk.clone());
        self.gvk_to_type.insert(
            gvk,
            KnownType {
                type_id,
                type_name,
                new: new_boxed::<T>,
            },
        );
        Ok(())
    }

    /// A new default object of the type registered for `gvk`, with its TypeMeta set to `gvk` (Go's `New`).
    pub fn new_object(&self, gvk: &GroupVersionKind) -> Result<Box<dyn Object>, SchemeError> {
        let known = self
            .gvk_to_type
            .get(gvk)
            .ok_or_else(|| SchemeError::NotRegistered(gvk.clone()))?;
        let mut obj = (known.new)();
        obj.set_group_version_kind(gvk);
        Ok(obj)
    }

    /// Every GVK the concrete type of `obj` is registered under, sorted (Go's `ObjectKinds`).
    pub fn object_kinds(&self, obj: &dyn Object) -> Result<Vec<GroupVersionKind>, SchemeError> {
        match self.type_to_gvk.get(&type_id_of(obj)) {
            Some(kinds) => Ok(kinds.iter().cloned().collect()),
            None => Err(SchemeError::NotRegisteredType(obj.type_name())),
        }
    }

    /// Every GVK `T` is registered under, sorted; empty when `T` is not registered.
    pub fn object_kinds_of<T: Object>(&self) -> Vec<GroupVersionKind> {
        self.type_to_gvk
            .get(&TypeId::of::<T>())
            .map(|kinds| kinds.iter().cloned().collect())
            .unwrap_or_default()
    }

    /// Whether a type is registered for `gvk`.
    pub fn recognizes(&self, gvk: &GroupVersionKind) -> bool {
        self.gvk_to_type.contains_key(gvk)
    }

    /// The kinds registered in `gv`, each with the Rust name of its type.
    pub fn known_types(&self, gv: &GroupVersion) -> BTreeMap<String, &'static str> {
        self.gvk_to_type
            .iter()
            .filter(|(gvk, _)| gvk.group == gv.group && gvk.version == gv.version)
            .map(|(gvk, known)| (gvk.kind.to_string(), known.type_name))
            .collect()
    }

    /// Every registered GVK with the Rust name of its type.
    pub fn all_known_types(&self) -> BTreeMap<GroupVersionKind, &'static str> {
        self.gvk_to_type
            .iter()
            .map(|(gvk, known)| (gvk.clone(), known.type_name))
            .collect()
    }

    /// Records an external group version the first time registration sees it, as Go's
    /// `addObservedVersion` does; the internal version is left out so it is never offered as a priority.
    fn observe(&mut self, gv: GroupVersion) {
        if gv.version.is_empty() || gv.is_internal() || self.observed_versions.contains(&gv) {
            return;
        }
        self.observed_versions.push(gv);
    }
}

impl fmt::Debug for Scheme {
    /// Shows what is registered; the function tables show only their sizes, since closures cannot print.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Scheme")
            .field("known_types", &self.all_known_types())
            .field("observed_versions", &self.observed_versions)
            .field("version_priority", &self.version_priority)
            .field("defaulters", &self.defaulters.len())
            .field("conversions", &self.conversions.len())
            .field("wire_formats", &self.serde_fns.len())
            .field(
                "field_label_conversions",
                &self.field_label_conversions.keys().collect::<Vec<_>>(),
            )
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{Bar, Foo};

    const APPS_V1: GroupVersion = GroupVersion::from_static("apps", "v1");
    const APPS_V1BETA1: GroupVersion = GroupVersion::from_static("apps", "v1beta1");

    #[test]
    fn scheme_is_send_and_sync() {
        fn assert_send_sync<T: Send + Sync>() {}
        assert_send_sync::<Scheme>();
    }

    #[test]
    fn duplicate_gvk_with_another_type_is_an_error() {
        let mut scheme = Scheme::new();
        let gvk = APPS_V1.with_kind("Foo");
        assert_eq!(scheme.add_known_type::<Foo>(gvk.clone()), Ok(()));
        let err = scheme.add_known_type::<Bar>(gvk.clone());
        assert_eq!(
            err,
            Err(SchemeError::DuplicateKind {
                gvk: gvk.clone(),
                existing: std::any::type_name::<Foo>(),
                new: std::any::type_name::<Bar>(),
            })
        );
        // The rejected registration must not leak into either map.
        assert!(scheme.object_kinds_of::<Bar>().is_empty());
        assert_eq!(scheme.all_known_types().get(&gvk), Some(&std::any::type_name::<Foo>()));
    }

    #[test]
    fn same_pair_twice_is_a_no_op() {
        let mut scheme = Scheme::new();
        assert_eq!(scheme.add_known_type::<Foo>(APPS_V1.with_kind("Foo")), Ok(()));
        assert_eq!(
            scheme.add_known_type::<Foo>(GroupVersionKind::from_static("apps", "v1", "Foo")),
            Ok(())
        );
        assert_eq!(scheme.object_kinds_of::<Foo>(), vec![APPS_V1.with_kind("Foo")]);
        assert_eq!(scheme.prioritized_versions_for_group("apps"), vec![APPS_V1]);
    }

    #[test]
    fn gvk_without_version_or_kind_is_rejected() {
        let mut scheme = Scheme::new();
        let no_version = GroupVersionKind::from_static("apps", "", "Foo");
        assert!(matches!(
            scheme.add_known_type::<Foo>(no_version),
            Err(SchemeError::MissingVersion { .. })
        ));
        let no_kind = GroupVersionKind::from_static("apps", "v1", "");
        assert!(matches!(
            scheme.add_known_type::<Foo>(no_kind),
            Err(SchemeError::MissingKind { .. })
        ));
        assert!(scheme.all_known_types().is_empty());
        assert!(!scheme.is_group_registered("apps"));
    }

    #[test]
    fn new_object_builds_the_registered_type_with_its_type_meta() -> Result<(), SchemeError> {
        let mut scheme = Scheme::new();
        scheme.add_known_type::<Foo>(APPS_V1.with_kind("Foo"))?;
        scheme.add_known_type::<Bar>(GroupVersionKind::from_static("", "v1", "Bar"))?;

        let foo = scheme.new_object(&APPS_V1.with_kind("Foo"))?;
        assert!(foo.downcast_ref::<Foo>().is_some());
        assert_eq!(foo.group_version_kind(), Some(APPS_V1.with_kind("Foo")));

        let bar = scheme.new_object(&GroupVersionKind::from_static("", "v1", "Bar"))?;
        let type_meta = bar
            .downcast_ref::<Bar>()
            .map(|b| b.type_meta.clone())
            .unwrap_or_default();
        assert_eq!((type_meta.api_version.as_str(), type_meta.kind.as_str()), ("v1", "Bar"));
        Ok(())
    }

    #[test]
    fn new_object_of_an_unknown_gvk_is_not_registered() {
        let scheme = Scheme::new();
        let gvk = APPS_V1.with_kind("Foo");
        let err = scheme.new_object(&gvk).map(|_| ()).unwrap_err();
        assert_eq!(err, SchemeError::NotRegistered(gvk));
        assert_eq!(err.to_string(), r#"no kind "Foo" is registered for version "apps/v1""#);
    }

    #[test]
    fn object_kinds_lists_every_version_of_a_type_sorted() -> Result<(), SchemeError> {
        let mut scheme = Scheme::new();
        scheme.add_known_type::<Foo>(APPS_V1.with_kind("Foo"))?;
        scheme.add_known_type::<Foo>(APPS_V1BETA1.with_kind("Foo"))?;
        scheme.add_known_type::<Bar>(APPS_V1.with_kind("Bar"))?;
        let expected = vec![APPS_V1.with_kind("Foo"), APPS_V1BETA1.with_kind("Foo")];
        assert_eq!(scheme.object_kinds(&Foo::default())?, expected);
        assert_eq!(scheme.object_kinds_of::<Foo>(), expected);
        let boxed: Box<dyn Object> = Box::new(Bar::default());
        assert_eq!(scheme.object_kinds(boxed.as_ref())?, vec![APPS_V1.with_kind("Bar")]);
        Ok(())
    }

    #[test]
    fn object_kinds_of_an_unregistered_type_names_it() {
        let scheme = Scheme::new();
        let err = scheme.object_kinds(&Foo::default());
        assert_eq!(err, Err(SchemeError::NotRegisteredType(std::any::type_name::<Foo>())));
        assert!(scheme.object_kinds_of::<Foo>().is_empty());
    }

    #[test]
    fn recognizes_only_registered_gvks() -> Result<(), SchemeError> {
        let mut scheme = Scheme::new();
        scheme.add_known_type::<Foo>(APPS_V1.with_kind("Foo"))?;
        assert!(scheme.recognizes(&APPS_V1.with_kind("Foo")));
        assert!(!scheme.recognizes(&APPS_V1BETA1.with_kind("Foo")));
        assert!(!scheme.recognizes(&APPS_V1.with_kind("Bar")));
        Ok(())
    }

    #[test]
    fn known_types_and_all_known_types() -> Result<(), SchemeError> {
        let mut scheme = Scheme::new();
        scheme.add_known_type::<Foo>(APPS_V1.with_kind("Foo"))?;
        scheme.add_known_type::<Bar>(APPS_V1.with_kind("Bar"))?;
        scheme.add_known_type::<Foo>(APPS_V1BETA1.with_kind("Foo"))?;
        let (foo, bar) = (std::any::type_name::<Foo>(), std::any::type_name::<Bar>());

        let v1: Vec<_> = scheme.known_types(&APPS_V1).into_iter().collect();
        assert_eq!(v1, vec![("Bar".to_owned(), bar), ("Foo".to_owned(), foo)]);
        assert!(scheme.known_types(&GroupVersion::from_static("batch", "v1")).is_empty());

        let all: Vec<_> = scheme.all_known_types().into_iter().collect();
        assert_eq!(
            all,
            vec![
                (APPS_V1.with_kind("Bar"), bar),
                (APPS_V1.with_kind("Foo"), foo),
                (APPS_V1BETA1.with_kind("Foo"), foo),
            ]
        );
        Ok(())
    }

    #[test]
    fn debug_lists_the_registered_kinds() -> Result<(), SchemeError> {
        let mut scheme = Scheme::new();
        scheme.add_known_type::<Foo>(APPS_V1.with_kind("Foo"))?;
        let debug = format!("{scheme:?}");
        assert!(debug.contains("known_types"), "{debug}");
        assert!(debug.contains(std::any::type_name::<Foo>()), "{debug}");
        Ok(())
    }
}
