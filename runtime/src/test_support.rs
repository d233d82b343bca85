//! Small hand-written `Object` types shared by the unit tests of every module.
//!
//! The macro writes the same `impl Object` shape the generators emit, so the unit tests exercise the
//! scheme through exactly the methods generated code provides.

/// Defines unit-test object types with a `type_meta` field and a `value` payload, and implements
/// [`crate::Object`] for them the way generated code does.
macro_rules! test_objects {
    ($($name:ident),* $(,)?) => {$(
        #[doc = concat!("The test object `", stringify!($name), "`.")]
        #[derive(Clone, Debug, Default, PartialEq)]
        pub(crate) struct $name {
            pub(crate) type_meta: kube_core::TypeMeta,
            pub(crate) value: i64,
        }

        impl crate::Object for $name {
            fn group_version_kind(&self) -> Option<crate::GroupVersionKind> {
                crate::TypeMetaAccess::gvk(&self.type_meta)
            }
            fn set_group_version_kind(&mut self, gvk: &crate::GroupVersionKind) {
                crate::TypeMetaAccess::set_gvk(&mut self.type_meta, gvk)
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
            fn deep_copy_object(&self) -> ::std::boxed::Box<dyn crate::Object> {
                ::std::boxed::Box::new(::core::clone::Clone::clone(self))
            }
        }
    )*};
}

test_objects!(Foo, Bar, Baz);
