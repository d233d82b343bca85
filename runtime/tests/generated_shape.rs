//! Compiles the exact code shapes the generators emit against `runtime` from outside the crate, so a
//! change to a public name or signature breaks here before it breaks `generated/`.
//!
//! Two fake API packages stand in for generated ones: `apps` (internal) and `apps_v1` (external), each
//! with `impl Object` blocks, a register function, conversions, defaults and a static `SCHEME_BUILDER`.

#![deny(warnings)]

mod apps {
    //! The internal version of the fake `apps` group.

    /// The internal Deployment.
    #[derive(Clone, Debug, Default, PartialEq)]
    pub struct Deployment {
        pub type_meta: ::kube_core::TypeMeta,
        pub replicas: i32,
    }

    ::kube_apimachinery::impl_object!(Deployment, type_meta = type_meta);

    pub const SCHEME_GROUP_VERSION: ::kube_apimachinery::GroupVersion =
        ::kube_apimachinery::GroupVersion::from_static("apps", ::kube_apimachinery::API_VERSION_INTERNAL);

    pub fn add_known_types(scheme: &mut ::kube_apimachinery::Scheme) -> Result<(), ::kube_apimachinery::SchemeError> {
        scheme.add_known_type::<Deployment>(SCHEME_GROUP_VERSION.with_kind("Deployment"))?;
        Ok(())
    }

    pub static SCHEME_BUILDER: ::kube_apimachinery::SchemeBuilder =
        ::kube_apimachinery::SchemeBuilder::from_fns(&[add_known_types]);
}

mod apps_v1 {
    //! The external v1 version of the fake `apps` group; its TypeMeta is optional, as some kinds have it.

    /// The v1 Deployment, whose replicas default to 1.
    #[derive(Clone, Debug, Default, PartialEq)]
    pub struct Deployment {
        pub type_meta: Option<::kube_core::TypeMeta>,
        pub replicas: Option<i32>,
    }

    ::kube_apimachinery::impl_object!(Deployment, type_meta = type_meta);

    pub const SCHEME_GROUP_VERSION: ::kube_apimachinery::GroupVersion =
        ::kube_apimachinery::GroupVersion::from_static("apps", "v1");

    pub fn add_known_types(scheme: &mut ::kube_apimachinery::Scheme) -> Result<(), ::kube_apimachinery::SchemeError> {
        scheme.add_known_type::<Deployment>(SCHEME_GROUP_VERSION.with_kind("Deployment"))?;
        Ok(())
    }

    pub fn set_object_defaults_deployment(obj: &mut Deployment) {
        obj.replicas.get_or_insert(1);
    }

    pub fn register_defaults(scheme: &mut ::kube_apimachinery::Scheme) -> Result<(), ::kube_apimachinery::SchemeError> {
        scheme.add_type_defaulting_func::<Deployment>(set_object_defaults_deployment);
        Ok(())
    }

    pub fn convert_v1_deployment_to_apps_deployment(
        input: &Deployment,
        out: &mut super::apps::Deployment,
    ) -> Result<(), ::kube_apimachinery::ConversionError> {
        out.replicas = input.replicas.unwrap_or_default();
        Ok(())
    }

    pub fn convert_apps_deployment_to_v1_deployment(
        input: &super::apps::Deployment,
        out: &mut Deployment,
    ) -> Result<(), ::kube_apimachinery::ConversionError> {
        out.replicas = Some(input.replicas);
        Ok(())
    }

    pub fn register_conversions(
        scheme: &mut ::kube_apimachinery::Scheme,
    ) -> Result<(), ::kube_apimachinery::SchemeError> {
        scheme.add_conversion_func::<Deployment, super::apps::Deployment>(convert_v1_deployment_to_apps_deployment);
        scheme.add_conversion_func::<super::apps::Deployment, Deployment>(convert_apps_deployment_to_v1_deployment);
        Ok(())
    }

    pub static SCHEME_BUILDER: ::kube_apimachinery::SchemeBuilder =
        ::kube_apimachinery::SchemeBuilder::from_fns(&[add_known_types, register_defaults, register_conversions]);
}

/// What an install package does: internal first, then the external versions, then their priority.
fn install(scheme: &mut kube_apimachinery::Scheme) -> Result<(), kube_apimachinery::SchemeError> {
    apps::SCHEME_BUILDER.add_to_scheme(scheme)?;
    apps_v1::SCHEME_BUILDER.add_to_scheme(scheme)?;
    scheme.set_version_priority(&[apps_v1::SCHEME_GROUP_VERSION])
}

#[test]
fn generated_packages_install_decode_default_and_convert() -> Result<(), Box<dyn std::error::Error>> {
    let mut scheme = kube_apimachinery::Scheme::new();
    install(&mut scheme)?;
    assert_eq!(
        scheme.prioritized_versions_for_group("apps"),
        vec![apps_v1::SCHEME_GROUP_VERSION]
    );

    let gvk = apps_v1::SCHEME_GROUP_VERSION.with_kind("Deployment");
    let mut external = scheme.new_object(&gvk)?;
    assert_eq!(external.group_version_kind(), Some(gvk.clone()));
    scheme.default(external.as_mut());

    let mut internal = scheme.new_object(&apps::SCHEME_GROUP_VERSION.with_kind("Deployment"))?;
    scheme.convert(external.as_ref(), internal.as_mut())?;
    let internal = internal
        .downcast::<apps::Deployment>()
        .map_err(|_| "not the internal Deployment")?;
    assert_eq!(internal.replicas, 1);

    let kinds = scheme.object_kinds(&apps_v1::Deployment::default())?;
    assert_eq!(kinds, vec![gvk]);
    Ok(())
}

#[test]
fn builders_are_usable_from_threads() -> Result<(), kube_apimachinery::SchemeError> {
    let mut scheme = kube_apimachinery::Scheme::new();
    install(&mut scheme)?;
    let scheme = std::sync::Arc::new(scheme);
    let worker = std::sync::Arc::clone(&scheme);
    let recognized = std::thread::spawn(move || {
        worker.recognizes(&kube_apimachinery::GroupVersionKind::from_static(
            "apps",
            "v1",
            "Deployment",
        ))
    })
    .join()
    .unwrap_or(false);
    assert!(recognized);
    Ok(())
}
