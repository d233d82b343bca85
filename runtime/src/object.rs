//! The `Object` trait every registered kind implements (Go's `runtime.Object`), and `TypeMetaAccess`,
//! the `TypeMeta` half that generated `impl Object` blocks delegate to so they stay one line per method.

use crate::{GroupVersion, GroupVersionKind};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use kube_core::TypeMeta;
use std::any::Any;
use std::fmt;

/// An API object a [`Scheme`](crate::Scheme) can create, recognize, default and convert.
///
/// Generated code implements it for every kind; each method is a one-line delegation, so the trait
/// holds no logic of its own beyond [`Object::type_name`].
pub trait Object: Any + Send + Sync + fmt::Debug {
    /// The apiVersion/kind the object carries in its TypeMeta (None when unset or malformed).
    fn group_version_kind(&self) -> Option<GroupVersionKind>;

    /// Writes gvk into the object's TypeMeta.
    fn set_group_version_kind(&mut self, gvk: &GroupVersionKind);

    /// The object as `Any`, for downcasting by reference.
    fn as_any(&self) -> &dyn Any;

    /// The object as mutable `Any`, for downcasting by mutable reference.
    fn as_any_mut(&mut self) -> &mut dyn Any;

    /// The boxed object as boxed `Any`, for downcasting by value.
    fn into_any(self: Box<Self>) -> Box<dyn Any>;

    /// A deep copy behind a new box (Go's DeepCopyObject).
    fn deep_copy_object(&self) -> Box<dyn Object>;

    /// The object's ObjectMeta, for kinds that have one (Go's `meta.Accessor`); generated for every
    /// kind with an ObjectMeta field, so an API server reads and sets names, resourceVersions and
    /// timestamps without knowing the type. Kinds without one (the `*Options` kinds) answer `None`.
    fn object_meta(&self) -> Option<&ObjectMeta> {
        None
    }

    /// The object's ObjectMeta, mutably; see [`Object::object_meta`].
    fn object_meta_mut(&mut self) -> Option<&mut ObjectMeta> {
        None
    }

    /// The Rust name of the concrete type, for error messages.
    ///
    /// The default body is instantiated for each implementing type, so through `dyn Object` it still names
    /// the concrete type; implementations have no reason to override it.
    fn type_name(&self) -> &'static str {
        std::any::type_name::<Self>()
    }
}

impl dyn Object {
    /// Whether the concrete type is `T`.
    pub fn is<T: Object>(&self) -> bool {
        // Upcasting uses the compiler's vtable, so the answer does not depend on a hand-written `as_any`.
        let any: &dyn Any = self;
        any.is::<T>()
    }

    /// The object as a `T`, if that is its concrete type.
    pub fn downcast_ref<T: Object>(&self) -> Option<&T> {
        let any: &dyn Any = self;
        any.downcast_ref::<T>()
    }

    /// The object as a mutable `T`, if that is its concrete type.
    pub fn downcast_mut<T: Object>(&mut self) -> Option<&mut T> {
        let any: &mut dyn Any = self;
        any.downcast_mut::<T>()
    }

    /// The boxed object as a boxed `T`, or the box back unchanged if `T` is not its concrete type.
    pub fn downcast<T: Object>(self: Box<Self>) -> Result<Box<T>, Box<dyn Object>> {
        if !self.is::<T>() {
            return Err(self);
        }
        let any: Box<dyn Any> = self;
        match any.downcast::<T>() {
            Ok(typed) => Ok(typed),
            // The `is` check above has just established the concrete type.
            Err(_) => unreachable!("the concrete type was checked before downcasting"),
        }
    }
}

impl Clone for Box<dyn Object> {
    fn clone(&self) -> Self {
        self.deep_copy_object()
    }
}

/// Reads and writes the apiVersion/kind pair of a TypeMeta-like field.
///
/// Generated `impl Object` blocks call it on their `type_meta` field, whether that field is a
/// [`kube_core::TypeMeta`] or an `Option` of one.
pub trait TypeMetaAccess {
    /// The GVK recorded in the field, or `None` when the kind is empty or the apiVersion does not parse.
    fn gvk(&self) -> Option<GroupVersionKind>;

    /// Records `gvk` in the field as apiVersion and kind.
    fn set_gvk(&mut self, gvk: &GroupVersionKind);
}

impl TypeMetaAccess for TypeMeta {
    fn gvk(&self) -> Option<GroupVersionKind> {
        if self.kind.is_empty() {
            return None;
        }
        let gv = GroupVersion::parse_api_version(&self.api_version).ok()?;
        Some(gv.with_kind(self.kind.as_str()))
    }

    fn set_gvk(&mut self, gvk: &GroupVersionKind) {
        self.api_version = gvk.api_version();
        self.kind = gvk.kind.to_string();
    }
}

impl TypeMetaAccess for Option<TypeMeta> {
    fn gvk(&self) -> Option<GroupVersionKind> {
        self.as_ref().and_then(TypeMetaAccess::gvk)
    }

    /// Creates the TypeMeta when it is absent, so the GVK is never silently dropped.
    fn set_gvk(&mut self, gvk: &GroupVersionKind) {
        self.get_or_insert_with(TypeMeta::default).set_gvk(gvk);
    }
}

/// A string field that holds an apiVersion or a kind: `String`, or `Option<String>` (unset is empty).
pub trait StringField {
    /// The value; `None` when unset or empty.
    fn get(&self) -> Option<&str>;

    /// Replaces the value.
    fn put(&mut self, value: String);
}

impl StringField for String {
    fn get(&self) -> Option<&str> {
        Some(self.as_str()).filter(|s| !s.is_empty())
    }

    fn put(&mut self, value: String) {
        *self = value;
    }
}

impl StringField for Option<String> {
    fn get(&self) -> Option<&str> {
        self.as_deref().filter(|s| !s.is_empty())
    }

    fn put(&mut self, value: String) {
        *self = Some(value);
    }
}

/// The GVK of an object that keeps its apiVersion and kind in fields of its own, as
/// ObjectReference does (Go implements its GetObjectKind by hand the same way).
pub fn gvk_from_fields(api_version: &impl StringField, kind: &impl StringField) -> Option<GroupVersionKind> {
    let gv = GroupVersion::parse_api_version(api_version.get()?).ok()?;
    Some(gv.with_kind(kind.get()?))
}

/// Writes a GVK into an object's own apiVersion and kind fields.
pub fn set_gvk_fields(api_version: &mut impl StringField, kind: &mut impl StringField, gvk: &GroupVersionKind) {
    api_version.put(gvk.api_version());
    kind.put(gvk.kind.to_string());
}

/// Implements [`Object`] for a kind, deepcopy-gen's `DeepCopyObject` and accessors: the type, where
/// its apiVersion and kind live (`type_meta = <field>`, or `fields = (<apiVersion>, <kind>)`) and,
/// for kinds with one, its ObjectMeta field. Every method is the same delegation for every kind,
/// so it is written here once.
///
/// ```ignore
/// kube_apimachinery::impl_object!(crate::apps::v1::types::Deployment, type_meta = type_meta, object_meta = metadata);
/// ```
#[macro_export]
macro_rules! impl_object {
    ($ty:ty, type_meta = $tm:tt $(, object_meta = $meta:tt)?) => {
        $crate::impl_object!(@impl $ty, $(object_meta = $meta,)?
            get(this) = $crate::TypeMetaAccess::gvk(&this.$tm),
            set(this, gvk) = $crate::TypeMetaAccess::set_gvk(&mut this.$tm, gvk));
    };
    ($ty:ty, fields = ($api_version:tt, $kind:tt) $(, object_meta = $meta:tt)?) => {
        $crate::impl_object!(@impl $ty, $(object_meta = $meta,)?
            get(this) = $crate::gvk_from_fields(&this.$api_version, &this.$kind),
            set(this, gvk) = $crate::set_gvk_fields(&mut this.$api_version, &mut this.$kind, gvk));
    };
    (@impl $ty:ty, $(object_meta = $meta:tt,)? get($g:ident) = $get:expr, set($s:ident, $gvk:ident) = $set:expr) => {
        impl $crate::Object for $ty {
            $(
                fn object_meta(&self) -> ::core::option::Option<&$crate::__private::ObjectMeta> {
                    ::core::option::Option::Some(&self.$meta)
                }
                fn object_meta_mut(&mut self) -> ::core::option::Option<&mut $crate::__private::ObjectMeta> {
                    ::core::option::Option::Some(&mut self.$meta)
                }
            )?
            fn group_version_kind(&self) -> ::core::option::Option<$crate::GroupVersionKind> {
                let $g = self;
                $get
            }
            fn set_group_version_kind(&mut self, $gvk: &$crate::GroupVersionKind) {
                let $s = self;
                $set
            }
            fn as_any(&self) -> &dyn ::core::any::Any {
                self
            }
            fn as_any_mut(&mut self) -> &mut dyn ::core::any::Any {
                self
            }
            fn into_any(self: ::std::boxed::Box<Self>) -> ::std::boxed::Box<dyn ::core::any::Any> {
                self
            }
            fn deep_copy_object(&self) -> ::std::boxed::Box<dyn $crate::Object> {
                ::std::boxed::Box::new(::core::clone::Clone::clone(self))
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{Bar, Foo};
    use std::any::TypeId;

    fn type_meta(api_version: &str, kind: &str) -> TypeMeta {
        TypeMeta {
            api_version: api_version.to_owned(),
            kind: kind.to_owned(),
        }
    }

    #[test]
    fn type_meta_gvk_reads_api_version_and_kind() {
        assert_eq!(
            type_meta("apps/v1", "Deployment").gvk(),
            Some(GroupVersionKind::from_static("apps", "v1", "Deployment"))
        );
        assert_eq!(
            type_meta("v1", "Pod").gvk(),
            Some(GroupVersionKind::from_static("", "v1", "Pod"))
        );
    }

    #[test]
    fn type_meta_gvk_is_none_when_unset_or_malformed() {
        assert_eq!(TypeMeta::default().gvk(), None);
        assert_eq!(type_meta("apps/v1", "").gvk(), None);
        assert_eq!(type_meta("", "Pod").gvk(), None);
        assert_eq!(type_meta("a/b/c", "Pod").gvk(), None);
    }

    #[test]
    fn type_meta_set_gvk_writes_api_version() {
        let mut tm = TypeMeta::default();
        tm.set_gvk(&GroupVersionKind::from_static("", "v1", "Pod"));
        assert_eq!(tm, type_meta("v1", "Pod"));
        tm.set_gvk(&GroupVersionKind::from_static("apps", "v1", "Deployment"));
        assert_eq!(tm, type_meta("apps/v1", "Deployment"));
    }

    #[test]
    fn own_fields_carry_the_gvk_as_object_reference_does() {
        let (mut api_version, mut kind): (Option<String>, String) = (None, String::new());
        assert_eq!(gvk_from_fields(&api_version, &kind), None);
        let gvk = GroupVersionKind::from_static("apps", "v1", "Deployment");
        set_gvk_fields(&mut api_version, &mut kind, &gvk);
        assert_eq!((api_version.as_deref(), kind.as_str()), (Some("apps/v1"), "Deployment"));
        assert_eq!(gvk_from_fields(&api_version, &kind), Some(gvk));
    }

    #[test]
    fn optional_type_meta_is_created_on_set() {
        let mut tm: Option<TypeMeta> = None;
        assert_eq!(tm.gvk(), None);
        let gvk = GroupVersionKind::from_static("apps", "v1", "Deployment");
        tm.set_gvk(&gvk);
        assert_eq!(tm, Some(type_meta("apps/v1", "Deployment")));
        assert_eq!(tm.gvk(), Some(gvk));
    }

    #[test]
    fn downcasts_find_the_concrete_type() {
        let mut obj: Box<dyn Object> = Box::new(Foo {
            value: 7,
            ..Foo::default()
        });
        assert!(obj.is::<Foo>());
        assert!(!obj.is::<Bar>());
        assert_eq!(obj.downcast_ref::<Foo>().map(|f| f.value), Some(7));
        assert!(obj.downcast_ref::<Bar>().is_none());
        if let Some(foo) = obj.downcast_mut::<Foo>() {
            foo.value = 8;
        }
        let obj = match obj.downcast::<Bar>() {
            Ok(_) => panic!("a Foo is not a Bar"),
            Err(back) => back,
        };
        assert_eq!(obj.downcast::<Foo>().map(|f| f.value).ok(), Some(8));
    }

    #[test]
    fn type_name_and_type_id_name_the_concrete_type() {
        let obj: Box<dyn Object> = Box::new(Foo::default());
        assert_eq!(obj.type_name(), std::any::type_name::<Foo>());
        assert_eq!(obj.as_any().type_id(), TypeId::of::<Foo>());
        let any: &dyn Any = &*obj;
        assert_eq!(any.type_id(), TypeId::of::<Foo>());
    }

    #[test]
    fn deep_copy_is_independent_of_the_original() {
        let original: Box<dyn Object> = Box::new(Foo {
            value: 1,
            ..Foo::default()
        });
        let mut copy = original.clone();
        if let Some(foo) = copy.downcast_mut::<Foo>() {
            foo.value = 2;
        }
        assert_eq!(original.downcast_ref::<Foo>().map(|f| f.value), Some(1));
        assert_eq!(copy.downcast_ref::<Foo>().map(|f| f.value), Some(2));
    }

    #[test]
    fn into_any_keeps_the_concrete_type() {
        let obj: Box<dyn Object> = Box::new(Bar::default());
        assert!(obj.into_any().downcast::<Bar>().is_ok());
    }
}
