//! `apply_metadata!`: the ObjectMeta setters of a kind's apply configuration, the same for every
//! kind, written here once so applyconfiguration-gen's output only names the kind and its setters.

/// Implements, for the apply configuration `$ty` of a kind whose ObjectMeta field is `$meta`,
/// `name()`, [`ApplyConfiguration`](crate::client::ApplyConfiguration) and each listed setter of
/// `metadata` (client-go's `WithName`, `WithNamespace`, `WithLabels`, `WithAnnotations`,
/// `WithFinalizers`, `WithOwnerReferences`). A setter whose name a field's setter already takes
/// is left out of the list by the generator.
///
/// ```ignore
/// kube_apimachinery::apply_metadata!(DeploymentApplyConfiguration, metadata { with_name, with_labels });
/// ```
#[macro_export]
macro_rules! apply_metadata {
    ($ty:ident, $meta:ident { $($setter:ident),* $(,)? }) => {
        impl $ty {
            /// The name the configuration is applied to.
            pub fn name(&self) -> ::core::option::Option<&str> {
                self.$meta.as_ref()?.name.as_deref()
            }

            #[allow(dead_code)]
            fn metadata(&mut self) -> &mut $crate::__private::ObjectMeta {
                self.$meta.get_or_insert_with(::core::default::Default::default)
            }

            $( $crate::apply_metadata!(@setter $setter); )*
        }

        impl $crate::client::ApplyConfiguration for $ty {
            fn name(&self) -> ::core::option::Option<&str> {
                $ty::name(self)
            }
        }
    };
    (@setter with_name) => {
        /// Sets `metadata.name`.
        pub fn with_name(mut self, name: impl ::core::convert::Into<::std::string::String>) -> Self {
            self.metadata().name = ::core::option::Option::Some(name.into());
            self
        }
    };
    (@setter with_namespace) => {
        /// Sets `metadata.namespace`.
        pub fn with_namespace(mut self, namespace: impl ::core::convert::Into<::std::string::String>) -> Self {
            self.metadata().namespace = ::core::option::Option::Some(namespace.into());
            self
        }
    };
    (@setter with_labels) => {
        /// Adds entries to `metadata.labels` (merged key by key).
        pub fn with_labels<K, V>(mut self, entries: impl ::core::iter::IntoIterator<Item = (K, V)>) -> Self
        where
            K: ::core::convert::Into<::std::string::String>,
            V: ::core::convert::Into<::std::string::String>,
        {
            let labels = self.metadata().labels.get_or_insert_with(::core::default::Default::default);
            labels.extend(entries.into_iter().map(|(k, v)| (k.into(), v.into())));
            self
        }
    };
    (@setter with_annotations) => {
        /// Adds entries to `metadata.annotations` (merged key by key).
        pub fn with_annotations<K, V>(mut self, entries: impl ::core::iter::IntoIterator<Item = (K, V)>) -> Self
        where
            K: ::core::convert::Into<::std::string::String>,
            V: ::core::convert::Into<::std::string::String>,
        {
            let annotations = self.metadata().annotations.get_or_insert_with(::core::default::Default::default);
            annotations.extend(entries.into_iter().map(|(k, v)| (k.into(), v.into())));
            self
        }
    };
    (@setter with_finalizers) => {
        /// Appends to `metadata.finalizers` (a set).
        pub fn with_finalizers<S: ::core::convert::Into<::std::string::String>>(
            mut self,
            values: impl ::core::iter::IntoIterator<Item = S>,
        ) -> Self {
            let finalizers = self.metadata().finalizers.get_or_insert_with(::std::vec::Vec::new);
            finalizers.extend(values.into_iter().map(::core::convert::Into::into));
            self
        }
    };
    (@setter with_owner_references) => {
        /// Appends to `metadata.ownerReferences` (a list-map keyed by `uid`).
        pub fn with_owner_references(
            mut self,
            values: impl ::core::iter::IntoIterator<Item = $crate::__private::OwnerReference>,
        ) -> Self {
            self.metadata().owner_references.get_or_insert_with(::std::vec::Vec::new).extend(values);
            self
        }
    };
}
