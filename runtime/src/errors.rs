//! The errors of this crate: registration ([`SchemeError`]), conversion ([`ConversionError`]) and parsing
//! ([`ParseError`](crate::ParseError)), worded like their apimachinery counterparts so messages stay familiar.

use crate::{API_VERSION_INTERNAL, GroupVersion, GroupVersionKind, GroupVersionResource};
use thiserror::Error;

/// An error from registering types in a [`Scheme`](crate::Scheme) or looking them up.
///
/// Go panics on a bad registration; here the registration function returns this error instead, so a
/// program decides for itself whether a broken scheme is fatal.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum SchemeError {
    /// One GVK was registered with two different Rust types.
    #[error("double registration of different types for {gvk}: old={existing}, new={new}")]
    DuplicateKind {
        /// The GVK registered twice.
        gvk: GroupVersionKind,
        /// The type name already bound to `gvk`.
        existing: &'static str,
        /// The type name of the rejected registration.
        new: &'static str,
    },
    /// A type was registered under a GVK without a version.
    #[error("version is required on all types: {gvk} {type_name}")]
    MissingVersion {
        /// The GVK that lacks a version.
        gvk: GroupVersionKind,
        /// The type name that was being registered.
        type_name: &'static str,
    },
    /// A type was registered under a GVK without a kind.
    #[error("kind is required on all types: {gvk} {type_name}")]
    MissingKind {
        /// The GVK that lacks a kind.
        gvk: GroupVersionKind,
        /// The type name that was being registered.
        type_name: &'static str,
    },
    /// No type is registered for the GVK.
    #[error("{}", not_registered_message(.0))]
    NotRegistered(GroupVersionKind),
    /// The Rust type is not registered under any GVK.
    #[error("no kind is registered for the type {0}")]
    NotRegisteredType(&'static str),
    /// A version priority list named no group or more than one.
    #[error("must register versions for exactly one group: {}", join_groups(.groups))]
    MixedGroups {
        /// The distinct groups named, sorted.
        groups: Vec<String>,
    },
    /// A version priority list contained the internal version or an empty version.
    #[error("internal versions cannot be prioritized: {0}")]
    InternalVersionPriority(GroupVersion),
    /// The kind is not decoded from query parameters.
    #[error("{0} is not decoded from query parameters")]
    NoQueryDecoder(GroupVersionKind),
    /// A resource or kind was mapped twice, differently.
    #[error("{0} is mapped twice, differently")]
    ConflictingRestMapping(GroupVersionResource),
    /// A query parameter did not decode.
    #[error(transparent)]
    Query(#[from] crate::query::QueryError),
}

/// An error from converting an object or a field selector.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum ConversionError {
    /// No conversion function is registered for the pair of types.
    #[error("converting ({from}) to ({to}): unknown conversion")]
    NoConversion {
        /// The type name of the input.
        from: &'static str,
        /// The type name of the output.
        to: &'static str,
    },
    /// The default field-selector conversion met a label other than `metadata.name` or `metadata.namespace`.
    #[error("{label:?} is not a known field selector: only \"metadata.name\", \"metadata.namespace\"")]
    UnknownFieldSelector {
        /// The rejected label.
        label: String,
    },
    /// A kind-specific field-label conversion does not support the label.
    #[error("field label not supported: {label}")]
    FieldLabelNotSupported {
        /// The rejected label.
        label: String,
    },
    /// The object or the target version is not known to the scheme.
    #[error(transparent)]
    Scheme(#[from] SchemeError),
    /// The object's group has no version the conversion can go to.
    #[error("{kind} cannot be converted to {target}: the target version has no such kind")]
    NoTargetKind {
        /// The object's group and kind.
        kind: String,
        /// The requested group/version.
        target: String,
    },
    /// Any other failure, reported by a hand-written conversion function.
    #[error("{0}")]
    Custom(String),
}

/// Words a missing GVK the way Go's `notRegisteredErr` does, which distinguishes a missing version, a
/// missing internal kind and a missing external kind.
fn not_registered_message(gvk: &GroupVersionKind) -> String {
    let gv = gvk.group_version();
    if gvk.kind.is_empty() {
        format!("no version {:?} has been registered", gv.to_string())
    } else if gvk.version == API_VERSION_INTERNAL {
        format!(
            "no kind {:?} is registered for the internal version of group {:?}",
            gvk.kind, gvk.group
        )
    } else {
        format!("no kind {:?} is registered for version {:?}", gvk.kind, gv.to_string())
    }
}

/// Lists groups quoted, because the core group is the empty string and would otherwise vanish.
fn join_groups(groups: &[String]) -> String {
    if groups.is_empty() {
        return "none given".to_owned();
    }
    groups.iter().map(|g| format!("{g:?}")).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn not_registered_messages_follow_go() {
        let external = SchemeError::NotRegistered(GroupVersionKind::from_static("apps", "v1", "Foo"));
        assert_eq!(
            external.to_string(),
            r#"no kind "Foo" is registered for version "apps/v1""#
        );

        let core = SchemeError::NotRegistered(GroupVersionKind::from_static("", "v1", "Foo"));
        assert_eq!(core.to_string(), r#"no kind "Foo" is registered for version "v1""#);

        let internal = SchemeError::NotRegistered(GroupVersionKind::from_static("apps", API_VERSION_INTERNAL, "Foo"));
        assert_eq!(
            internal.to_string(),
            r#"no kind "Foo" is registered for the internal version of group "apps""#
        );

        let no_kind = SchemeError::NotRegistered(GroupVersionKind::from_static("apps", "v9", ""));
        assert_eq!(no_kind.to_string(), r#"no version "apps/v9" has been registered"#);
    }

    #[test]
    fn duplicate_kind_names_both_types() {
        let err = SchemeError::DuplicateKind {
            gvk: GroupVersionKind::from_static("apps", "v1", "Deployment"),
            existing: "a::Deployment",
            new: "b::Deployment",
        };
        assert_eq!(
            err.to_string(),
            "double registration of different types for apps/v1, Kind=Deployment: old=a::Deployment, new=b::Deployment"
        );
    }

    #[test]
    fn mixed_groups_quote_the_core_group() {
        let err = SchemeError::MixedGroups {
            groups: vec![String::new(), "apps".to_owned()],
        };
        assert_eq!(
            err.to_string(),
            r#"must register versions for exactly one group: "", "apps""#
        );
        let empty = SchemeError::MixedGroups { groups: Vec::new() };
        assert_eq!(
            empty.to_string(),
            "must register versions for exactly one group: none given"
        );
    }

    #[test]
    fn conversion_and_parse_messages() {
        let err = ConversionError::NoConversion {
            from: "a::X",
            to: "b::Y",
        };
        assert_eq!(err.to_string(), "converting (a::X) to (b::Y): unknown conversion");
        let err = ConversionError::UnknownFieldSelector {
            label: "spec.foo".to_owned(),
        };
        assert_eq!(
            err.to_string(),
            r#""spec.foo" is not a known field selector: only "metadata.name", "metadata.namespace""#
        );
        let err = crate::ParseError::InvalidGroupVersion("a/b/c".to_owned());
        assert_eq!(err.to_string(), r#"unexpected GroupVersion string: "a/b/c""#);
    }
}
