//! `SchemeBuilder`, an ordered list of registration functions (Go's `runtime.SchemeBuilder`).
//!
//! Go grows its builders from `init()` functions; Rust has no `init`, so a generated package instead
//! names all of its functions at once in a `static`, which `from_fns` allows without allocating. A
//! builder that must grow at run time copies the list on its first `register`.

use crate::{Scheme, SchemeError};
use std::borrow::Cow;

/// A function that registers types or functions in a scheme (Go's `func(*Scheme) error`).
pub type AddToSchemeFn = fn(&mut Scheme) -> Result<(), SchemeError>;

/// An ordered list of [`AddToSchemeFn`]s applied together by [`SchemeBuilder::add_to_scheme`].
///
/// A generated package declares its builder as
/// `pub static SCHEME_BUILDER: SchemeBuilder = SchemeBuilder::from_fns(&[add_known_types]);`.
#[derive(Clone, Debug, Default)]
pub struct SchemeBuilder {
    fns: Cow<'static, [AddToSchemeFn]>,
}

impl SchemeBuilder {
    /// A builder over a static list of functions, usable in `static` and `const` items.
    pub const fn from_fns(fns: &'static [AddToSchemeFn]) -> Self {
        Self {
            fns: Cow::Borrowed(fns),
        }
    }

    /// An empty builder.
    pub fn new() -> Self {
        Self::default()
    }

    /// Appends `f`, to run after every function already in the builder.
    pub fn register(&mut self, f: AddToSchemeFn) {
        self.fns.to_mut().push(f);
    }

    /// Runs every function on `scheme` in order, stopping at the first error and returning it.
    ///
    /// Functions before the failing one have already changed `scheme`; as in Go, a failed build leaves a
    /// partial scheme that the caller should discard.
    pub fn add_to_scheme(&self, scheme: &mut Scheme) -> Result<(), SchemeError> {
        self.fns.iter().try_for_each(|f| f(scheme))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{Bar, Foo};
    use crate::{GroupVersion, GroupVersionKind};

    // One group each: groups are listed in the order registration saw them (a group's versions
    // follow Kubernetes' version order, which would hide the order the functions ran in).
    const GROUP_V1: GroupVersion = GroupVersion::from_static("one.example.com", "v1");
    const GROUP_V2: GroupVersion = GroupVersion::from_static("two.example.com", "v1");
    const GROUP_V3: GroupVersion = GroupVersion::from_static("three.example.com", "v1");

    fn add_v1(scheme: &mut Scheme) -> Result<(), SchemeError> {
        scheme.add_known_type::<Foo>(GROUP_V1.with_kind("Foo"))
    }

    fn add_v2(scheme: &mut Scheme) -> Result<(), SchemeError> {
        scheme.add_known_type::<Foo>(GROUP_V2.with_kind("Foo"))
    }

    fn add_v3(scheme: &mut Scheme) -> Result<(), SchemeError> {
        scheme.add_known_type::<Foo>(GROUP_V3.with_kind("Foo"))
    }

    /// Fails because v1's `Foo` kind is already bound to the type `Foo`.
    fn add_conflict(scheme: &mut Scheme) -> Result<(), SchemeError> {
        scheme.add_known_type::<Bar>(GROUP_V1.with_kind("Foo"))
    }

    static STATIC_BUILDER: SchemeBuilder = SchemeBuilder::from_fns(&[add_v2, add_v1]);

    #[test]
    fn static_builder_runs_in_order() -> Result<(), SchemeError> {
        let mut scheme = Scheme::new();
        STATIC_BUILDER.add_to_scheme(&mut scheme)?;
        // Observed order records which function ran first.
        assert_eq!(scheme.prioritized_versions_all_groups(), vec![GROUP_V2, GROUP_V1]);
        Ok(())
    }

    #[test]
    fn register_appends_after_the_static_functions() -> Result<(), SchemeError> {
        let mut builder = STATIC_BUILDER.clone();
        builder.register(add_v3);
        let mut scheme = Scheme::new();
        builder.add_to_scheme(&mut scheme)?;
        assert_eq!(
            scheme.prioritized_versions_all_groups(),
            vec![GROUP_V2, GROUP_V1, GROUP_V3]
        );
        // The static list itself is untouched by the clone's registration.
        let mut fresh = Scheme::new();
        STATIC_BUILDER.add_to_scheme(&mut fresh)?;
        assert!(!fresh.is_version_registered(&GROUP_V3));
        Ok(())
    }

    #[test]
    fn add_to_scheme_stops_at_the_first_error() {
        let mut builder = SchemeBuilder::new();
        builder.register(add_v1);
        builder.register(add_conflict);
        builder.register(add_v3);
        let mut scheme = Scheme::new();
        let err = builder.add_to_scheme(&mut scheme);
        assert_eq!(
            err,
            Err(SchemeError::DuplicateKind {
                gvk: GroupVersionKind::from_static("one.example.com", "v1", "Foo"),
                existing: std::any::type_name::<Foo>(),
                new: std::any::type_name::<Bar>(),
            })
        );
        assert!(scheme.is_version_registered(&GROUP_V1));
        assert!(
            !scheme.is_version_registered(&GROUP_V3),
            "functions after the failure must not run"
        );
    }

    #[test]
    fn empty_builder_is_a_no_op() -> Result<(), SchemeError> {
        let mut scheme = Scheme::new();
        SchemeBuilder::new().add_to_scheme(&mut scheme)?;
        SchemeBuilder::from_fns(&[]).add_to_scheme(&mut scheme)?;
        assert!(scheme.all_known_types().is_empty());
        Ok(())
    }
}
