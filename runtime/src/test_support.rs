//! Small hand-written `Object` types shared by the unit tests of every module.
//!
//! Their `impl Object` comes from `impl_object!`, the macro generated code calls, so the unit tests
//! exercise the scheme through exactly the methods generated code provides.

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

        crate::impl_object!($name, type_meta = type_meta);
    )*};
}

test_objects!(Foo, Bar, Baz);
