//! The function tables of a [`Scheme`]: defaulting per type, conversion per (input, output) type pair,
//! and field-selector conversion per GVK.
//!
//! Registration takes plain typed `fn` pointers, which is what generated code has; the scheme wraps each
//! in a type-erased closure that downcasts, so lookups need only the objects' `TypeId`s.

use super::{Scheme, type_id_of};
use crate::{ConversionError, GroupVersionKind, Object};
use std::any::TypeId;

/// A type-erased defaulting function; it does nothing to objects of another type.
pub(super) type DefaulterFn = Box<dyn Fn(&mut dyn Object) + Send + Sync>;

/// A type-erased conversion function between two concrete types.
pub(super) type ConversionFn = Box<dyn Fn(&dyn Object, &mut dyn Object) -> Result<(), ConversionError> + Send + Sync>;

/// Converts a field selector `(label, value)` of one kind to its internal form (Go's
/// `FieldLabelConversionFunc`).
pub type FieldLabelConversionFn = fn(&str, &str) -> Result<(String, String), ConversionError>;

impl Scheme {
    /// Registers the defaulting function for `T`, replacing any earlier one (Go's `AddTypeDefaultingFunc`).
    pub fn add_type_defaulting_func<T: Object>(&mut self, f: fn(&mut T)) {
        let erased = move |obj: &mut dyn Object| {
            if let Some(typed) = obj.downcast_mut::<T>() {
                f(typed);
            }
        };
        self.defaulters.insert(TypeId::of::<T>(), Box::new(erased));
    }

    /// Runs the defaulter registered for obj's concrete type, if any (Go's `Default`).
    pub fn default(&self, obj: &mut dyn Object) {
        if let Some(defaulter) = self.defaulters.get(&type_id_of(obj)) {
            defaulter(obj);
        }
    }

    /// Registers the conversion from `A` to `B`, replacing any earlier one (Go's `AddConversionFunc`).
    pub fn add_conversion_func<A: Object, B: Object>(&mut self, f: fn(&A, &mut B) -> Result<(), ConversionError>) {
        let erased = move |input: &dyn Object, out: &mut dyn Object| {
            let (from, to) = (input.type_name(), out.type_name());
            match (input.downcast_ref::<A>(), out.downcast_mut::<B>()) {
                (Some(a), Some(b)) => f(a, b),
                // The table is keyed by both TypeIds, so this arm only guards the invariant.
                _ => Err(ConversionError::NoConversion { from, to }),
            }
        };
        self.conversions
            .insert((TypeId::of::<A>(), TypeId::of::<B>()), Box::new(erased));
    }

    /// Whether a conversion from `A` to `B` is registered.
    pub fn has_conversion_func<A: Object, B: Object>(&self) -> bool {
        self.conversions.contains_key(&(TypeId::of::<A>(), TypeId::of::<B>()))
    }

    /// Converts `input` into `out` with the function registered for their concrete types (Go's `Convert`).
    ///
    /// Without one this is [`ConversionError::NoConversion`] naming both types; a type is not converted to
    /// itself implicitly, since that is a deep copy and callers should ask for one.
    pub fn convert(&self, input: &dyn Object, out: &mut dyn Object) -> Result<(), ConversionError> {
        match self.conversions.get(&(type_id_of(input), type_id_of(out))) {
            Some(convert) => convert(input, out),
            None => Err(ConversionError::NoConversion {
                from: input.type_name(),
                to: out.type_name(),
            }),
        }
    }

    /// Registers the field-selector conversion for `gvk`, replacing any earlier one.
    pub fn add_field_label_conversion_func(&mut self, gvk: GroupVersionKind, f: FieldLabelConversionFn) {
        self.field_label_conversions.insert(gvk, f);
    }

    /// Converts a field selector of `gvk` with its registered function, or with
    /// [`default_meta_v1_field_selector_conversion`] when it has none (Go's `ConvertFieldLabel`).
    pub fn convert_field_label(
        &self,
        gvk: &GroupVersionKind,
        label: &str,
        value: &str,
    ) -> Result<(String, String), ConversionError> {
        let convert = self
            .field_label_conversions
            .get(gvk)
            .copied()
            .unwrap_or(default_meta_v1_field_selector_conversion);
        convert(label, value)
    }
}

/// The field selectors every kind supports, `metadata.name` and `metadata.namespace`, passed through
/// unchanged; any other label is [`ConversionError::UnknownFieldSelector`] (Go's
/// `DefaultMetaV1FieldSelectorConversion`). Kind-specific functions call it for their fallback.
pub fn default_meta_v1_field_selector_conversion(
    label: &str,
    value: &str,
) -> Result<(String, String), ConversionError> {
    match label {
        "metadata.name" | "metadata.namespace" => Ok((label.to_owned(), value.to_owned())),
        _ => Err(ConversionError::UnknownFieldSelector {
            label: label.to_owned(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{Bar, Baz, Foo};

    fn double_value(foo: &mut Foo) {
        foo.value *= 2;
    }

    fn foo_to_bar(foo: &Foo, bar: &mut Bar) -> Result<(), ConversionError> {
        if foo.value < 0 {
            return Err(ConversionError::Custom(format!("negative value {}", foo.value)));
        }
        bar.value = foo.value + 100;
        Ok(())
    }

    fn pod_field_labels(label: &str, value: &str) -> Result<(String, String), ConversionError> {
        match label {
            "spec.nodeName" => Ok((label.to_owned(), value.to_owned())),
            "spec.host" => Ok(("spec.nodeName".to_owned(), value.to_owned())),
            _ => default_meta_v1_field_selector_conversion(label, value),
        }
    }

    #[test]
    fn default_runs_the_defaulter_of_the_concrete_type_only() {
        let mut scheme = Scheme::new();
        scheme.add_type_defaulting_func::<Foo>(double_value);
        let mut foo: Box<dyn Object> = Box::new(Foo {
            value: 21,
            ..Foo::default()
        });
        scheme.default(foo.as_mut());
        assert_eq!(foo.downcast_ref::<Foo>().map(|f| f.value), Some(42));

        let mut bar = Bar {
            value: 21,
            ..Bar::default()
        };
        scheme.default(&mut bar);
        assert_eq!(bar.value, 21);
    }

    #[test]
    fn a_later_defaulter_replaces_the_earlier_one() {
        let mut scheme = Scheme::new();
        scheme.add_type_defaulting_func::<Foo>(double_value);
        scheme.add_type_defaulting_func::<Foo>(|foo| foo.value = -1);
        let mut foo = Foo {
            value: 5,
            ..Foo::default()
        };
        scheme.default(&mut foo);
        assert_eq!(foo.value, -1);
    }

    #[test]
    fn convert_uses_the_function_for_the_type_pair() -> Result<(), ConversionError> {
        let mut scheme = Scheme::new();
        scheme.add_conversion_func::<Foo, Bar>(foo_to_bar);
        assert!(scheme.has_conversion_func::<Foo, Bar>());
        assert!(!scheme.has_conversion_func::<Bar, Foo>());

        let input: Box<dyn Object> = Box::new(Foo {
            value: 1,
            ..Foo::default()
        });
        let mut out: Box<dyn Object> = Box::new(Bar::default());
        scheme.convert(input.as_ref(), out.as_mut())?;
        assert_eq!(out.downcast_ref::<Bar>().map(|b| b.value), Some(101));

        let negative = Foo {
            value: -3,
            ..Foo::default()
        };
        assert_eq!(
            scheme.convert(&negative, &mut Bar::default()),
            Err(ConversionError::Custom("negative value -3".to_owned()))
        );
        Ok(())
    }

    #[test]
    fn convert_without_a_function_names_both_types() {
        let mut scheme = Scheme::new();
        scheme.add_conversion_func::<Foo, Bar>(foo_to_bar);
        let err = scheme.convert(&Foo::default(), &mut Baz::default());
        assert_eq!(
            err,
            Err(ConversionError::NoConversion {
                from: std::any::type_name::<Foo>(),
                to: std::any::type_name::<Baz>(),
            })
        );
        assert!(scheme.convert(&Bar::default(), &mut Foo::default()).is_err());
    }

    #[test]
    fn field_labels_default_to_metadata_only() {
        let scheme = Scheme::new();
        let gvk = GroupVersionKind::from_static("apps", "v1", "Foo");
        for label in ["metadata.name", "metadata.namespace"] {
            assert_eq!(
                scheme.convert_field_label(&gvk, label, "x"),
                Ok((label.to_owned(), "x".to_owned()))
            );
        }
        assert_eq!(
            scheme.convert_field_label(&gvk, "spec.foo", "x"),
            Err(ConversionError::UnknownFieldSelector {
                label: "spec.foo".to_owned()
            })
        );
    }

    #[test]
    fn field_labels_use_the_kind_specific_function() {
        let mut scheme = Scheme::new();
        let pod = GroupVersionKind::from_static("", "v1", "Pod");
        scheme.add_field_label_conversion_func(pod.clone(), pod_field_labels);
        let converted = scheme.convert_field_label(&pod, "spec.host", "node1");
        assert_eq!(converted, Ok(("spec.nodeName".to_owned(), "node1".to_owned())));
        assert_eq!(
            scheme.convert_field_label(&pod, "metadata.name", "p"),
            Ok(("metadata.name".to_owned(), "p".to_owned()))
        );
        // Another kind, even in the same version, keeps the default.
        let node = GroupVersionKind::from_static("", "v1", "Node");
        assert!(scheme.convert_field_label(&node, "spec.host", "node1").is_err());
    }
}
