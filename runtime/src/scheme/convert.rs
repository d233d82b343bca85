//! Version conversion through the hub: `convert_to_version` takes an object of any registered
//! version to the hub and from there to the target version, never from one version straight to
//! another. The hub is the group's internal version, or, for a group without one (an imported
//! k8s.io/api group, a CRD-style API), its most preferred version. It plays the part of
//! apimachinery's `Scheme.ConvertToVersion`; going through the hub means each version needs
//! conversions to and from the hub only, not to every other version.

use super::Scheme;
use crate::{API_VERSION_INTERNAL, ConversionError, GroupVersion, GroupVersionKind, Object};

impl Scheme {
    /// Converts `obj` to the `target` version of its group, through the internal version. The
    /// result carries the target apiVersion and kind. Converting to the version the object already
    /// has only copies it.
    pub fn convert_to_version(
        &self,
        obj: &dyn Object,
        target: &GroupVersion,
    ) -> Result<Box<dyn Object>, ConversionError> {
        let from = self.kind_of(obj)?;
        if from.group != target.group {
            return Err(ConversionError::NoTargetKind {
                kind: from.group_kind().to_string(),
                target: target.to_string(),
            });
        }
        let to = target.with_kind(from.kind.to_string());
        if !self.recognizes(&to) {
            return Err(ConversionError::NoTargetKind {
                kind: from.group_kind().to_string(),
                target: target.to_string(),
            });
        }
        if from.version == target.version {
            let mut copy = obj.deep_copy_object();
            copy.set_group_version_kind(&to);
            return Ok(copy);
        }
        let hub_kind = self.hub_kind(&from);
        // An object already in the hub's version is only read, never copied.
        let converted;
        let hub: &dyn Object = if from.version == hub_kind.version {
            obj
        } else {
            let mut h = self.new_object(&hub_kind)?;
            self.convert(obj, h.as_mut())?;
            h.set_group_version_kind(&hub_kind);
            if target.version == hub_kind.version {
                return Ok(h);
            }
            converted = h;
            converted.as_ref()
        };
        let mut out = self.new_object(&to)?;
        self.convert(hub, out.as_mut())?;
        out.set_group_version_kind(&to);
        Ok(out)
    }

    /// The kind every version of `gvk`'s kind converts through: the internal version when the
    /// group registers one (Kubernetes' built-in groups in k8s.io/kubernetes), else the group's
    /// most preferred version that has the kind, which is then the hub the other versions convert
    /// to and from (kubebuilder's `Hub`; what an imported k8s.io/api group without internal types
    /// does). A kind no preferred version has is its own hub.
    pub fn hub_kind(&self, gvk: &GroupVersionKind) -> GroupVersionKind {
        let internal = GroupVersionKind::new(gvk.group.to_string(), API_VERSION_INTERNAL, gvk.kind.to_string());
        if self.recognizes(&internal) {
            return internal;
        }
        self.prioritized_versions_for_group(&gvk.group)
            .into_iter()
            .map(|gv| gv.with_kind(gvk.kind.to_string()))
            .find(|k| self.recognizes(k))
            .unwrap_or_else(|| gvk.clone())
    }

    /// The GVK an object is registered under. A type registered under several versions (rare)
    /// is identified by the apiVersion it carries, when that is one of them.
    fn kind_of(&self, obj: &dyn Object) -> Result<GroupVersionKind, ConversionError> {
        let kinds = self.object_kinds(obj)?;
        let carried = obj.group_version_kind();
        Ok(match carried {
            Some(gvk) if kinds.contains(&gvk) => gvk,
            _ => kinds
                .into_iter()
                .next()
                .ok_or(ConversionError::Custom(format!("{} has no kind", obj.type_name())))?,
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::test_support::{Bar, Baz, Foo};
    use crate::{ConversionError, GroupVersion, GroupVersionKind, Scheme};

    // Foo is g/v1 (value in units), Bar the hub (value in tenths), Baz g/v2 (value in hundredths):
    // a conversion that skipped the hub would get the scale wrong.
    fn scheme() -> Scheme {
        let mut s = Scheme::new();
        s.add_known_type::<Foo>(GroupVersionKind::new("g", "v1", "Thing"))
            .unwrap();
        s.add_known_type::<Bar>(GroupVersionKind::new("g", "__internal", "Thing"))
            .unwrap();
        s.add_known_type::<Baz>(GroupVersionKind::new("g", "v2", "Thing"))
            .unwrap();
        s.add_conversion_func::<Foo, Bar>(|a, b| {
            b.value = a.value * 10;
            Ok(())
        });
        s.add_conversion_func::<Bar, Foo>(|a, b| {
            b.value = a.value / 10;
            Ok(())
        });
        s.add_conversion_func::<Bar, Baz>(|a, b| {
            b.value = a.value * 10;
            Ok(())
        });
        s.add_conversion_func::<Baz, Bar>(|a, b| {
            b.value = a.value / 10;
            Ok(())
        });
        s
    }

    #[test]
    fn converts_through_the_hub_and_sets_the_target_kind() {
        let s = scheme();
        let foo = Foo {
            value: 7,
            ..Default::default()
        };
        let out = s.convert_to_version(&foo, &GroupVersion::new("g", "v2")).unwrap();
        let baz = out.downcast_ref::<Baz>().unwrap();
        assert_eq!(baz.value, 700);
        assert_eq!(
            out.group_version_kind(),
            Some(GroupVersionKind::new("g", "v2", "Thing"))
        );
        let back = s
            .convert_to_version(out.as_ref(), &GroupVersion::new("g", "v1"))
            .unwrap();
        assert_eq!(back.downcast_ref::<Foo>().unwrap().value, 7);
        let hub = s
            .convert_to_version(&foo, &GroupVersion::new("g", "__internal"))
            .unwrap();
        assert_eq!(hub.downcast_ref::<Bar>().unwrap().value, 70);
    }

    // Without an internal version the most preferred version is the hub: Foo is g/v1 (units),
    // Baz g/v2 (hundredths, preferred), Bar g/v1beta1 (tenths); v1 and v1beta1 convert only to
    // and from v2.
    #[test]
    fn without_an_internal_version_the_preferred_version_is_the_hub() {
        let mut s = Scheme::new();
        s.add_known_type::<Foo>(GroupVersionKind::new("g", "v1", "Thing"))
            .unwrap();
        s.add_known_type::<Baz>(GroupVersionKind::new("g", "v2", "Thing"))
            .unwrap();
        s.add_known_type::<Bar>(GroupVersionKind::new("g", "v1beta1", "Thing"))
            .unwrap();
        s.set_version_priority(&[
            GroupVersion::new("g", "v2"),
            GroupVersion::new("g", "v1"),
            GroupVersion::new("g", "v1beta1"),
        ])
        .unwrap();
        s.add_conversion_func::<Foo, Baz>(|a, b| {
            b.value = a.value * 100;
            Ok(())
        });
        s.add_conversion_func::<Baz, Foo>(|a, b| {
            b.value = a.value / 100;
            Ok(())
        });
        s.add_conversion_func::<Bar, Baz>(|a, b| {
            b.value = a.value * 10;
            Ok(())
        });
        s.add_conversion_func::<Baz, Bar>(|a, b| {
            b.value = a.value / 10;
            Ok(())
        });
        assert_eq!(
            s.hub_kind(&GroupVersionKind::new("g", "v1", "Thing")),
            GroupVersionKind::new("g", "v2", "Thing")
        );
        let foo = Foo {
            value: 7,
            ..Default::default()
        };
        let bar = s.convert_to_version(&foo, &GroupVersion::new("g", "v1beta1")).unwrap();
        assert_eq!(bar.downcast_ref::<Bar>().unwrap().value, 70);
        let hub = s
            .convert_to_version(bar.as_ref(), &GroupVersion::new("g", "v2"))
            .unwrap();
        assert_eq!(hub.downcast_ref::<Baz>().unwrap().value, 700);
        assert_eq!(
            hub.group_version_kind(),
            Some(GroupVersionKind::new("g", "v2", "Thing"))
        );
        let back = s
            .convert_to_version(hub.as_ref(), &GroupVersion::new("g", "v1"))
            .unwrap();
        assert_eq!(back.downcast_ref::<Foo>().unwrap().value, 7);
    }

    #[test]
    fn same_version_only_copies() {
        let s = scheme();
        let foo = Foo {
            value: 3,
            ..Default::default()
        };
        let out = s.convert_to_version(&foo, &GroupVersion::new("g", "v1")).unwrap();
        assert_eq!(out.downcast_ref::<Foo>().unwrap().value, 3);
        assert_eq!(
            out.group_version_kind(),
            Some(GroupVersionKind::new("g", "v1", "Thing"))
        );
    }

    #[test]
    fn unknown_targets_and_missing_conversions_are_errors() {
        let s = scheme();
        let foo = Foo::default();
        assert!(matches!(
            s.convert_to_version(&foo, &GroupVersion::new("other", "v1")),
            Err(ConversionError::NoTargetKind { .. })
        ));
        assert!(matches!(
            s.convert_to_version(&foo, &GroupVersion::new("g", "v9")),
            Err(ConversionError::NoTargetKind { .. })
        ));
        let mut bare = Scheme::new();
        bare.add_known_type::<Foo>(GroupVersionKind::new("g", "v1", "Thing"))
            .unwrap();
        bare.add_known_type::<Bar>(GroupVersionKind::new("g", "__internal", "Thing"))
            .unwrap();
        bare.add_known_type::<Baz>(GroupVersionKind::new("g", "v2", "Thing"))
            .unwrap();
        assert!(matches!(
            bare.convert_to_version(&foo, &GroupVersion::new("g", "v2")),
            Err(ConversionError::NoConversion { .. })
        ));
        assert!(matches!(
            Scheme::new().convert_to_version(&foo, &GroupVersion::new("g", "v2")),
            Err(ConversionError::Scheme(_))
        ));
    }
}
