//! Kubernetes API types that the code generators read: all of k8s.io/api, imported from Go
//! (`cargo xtask import-go`, docs/codegen.md), and the hand-written groups `apiextensions` and
//! `widgets` (the example group).
//!
//! Each package is a module directory: the version module (`apps::v1`) holds an external version;
//! a group module holding types (`apiextensions`, `widgets`) is the group's internal version, the
//! hub its versions convert through. An imported group has none: its preferred version is the hub.
//! Package tags are the `//!` lines of a package's `mod.rs`; type and field tags are the `///`
//! lines on the item.

// Doc comments keep Kubernetes' Go text verbatim (it becomes the OpenAPI descriptions), bare URLs
// and `<name>` placeholders included.
#![deny(warnings)]
// apiextensions v1 and v1beta1 compile one marshal.rs each for their own same-named types.
#![allow(clippy::duplicate_mod)]
#![allow(rustdoc::bare_urls, rustdoc::invalid_html_tags)]

pub mod admission;
pub mod admissionregistration;
pub mod apidiscovery;
pub mod apiextensions;
pub mod apiserverinternal;
pub mod apps;
pub mod authentication;
pub mod authorization;
pub mod autoscaling;
pub mod batch;
pub mod certificates;
pub mod coordination;
pub mod core;
pub mod discovery;
pub mod events;
pub mod extensions;
pub mod flowcontrol;
pub mod imagepolicy;
pub mod networking;
pub mod node;
pub mod policy;
pub mod rbac;
pub mod resource;
pub mod scheduling;
pub mod storage;
pub mod storagemigration;
pub mod widgets;

use kube_apimachinery::{Scheme, SchemeError};

/// Installs every group of this crate into `scheme`: each group's internal version, its external
/// versions and its version priority.
pub fn install(scheme: &mut Scheme) -> Result<(), SchemeError> {
    install_kubernetes(scheme)?;
    widgets::install::install(scheme)
}

/// Installs Kubernetes' own groups: every version of k8s.io/api and apiextensions.k8s.io (what
/// kube-apiserver compiles in), without the example group.
pub fn install_kubernetes(scheme: &mut Scheme) -> Result<(), SchemeError> {
    // Every version of k8s.io/api. Each group prefers its versions as Kubernetes orders them (GA,
    // beta, alpha; higher numbers first), which is the Scheme's order where none is set.
    admission::v1::add_to_scheme(scheme)?;
    admission::v1beta1::add_to_scheme(scheme)?;
    admissionregistration::v1::add_to_scheme(scheme)?;
    admissionregistration::v1alpha1::add_to_scheme(scheme)?;
    admissionregistration::v1beta1::add_to_scheme(scheme)?;
    apidiscovery::v2::add_to_scheme(scheme)?;
    apidiscovery::v2beta1::add_to_scheme(scheme)?;
    apiserverinternal::v1alpha1::add_to_scheme(scheme)?;
    apps::v1::add_to_scheme(scheme)?;
    apps::v1beta1::add_to_scheme(scheme)?;
    apps::v1beta2::add_to_scheme(scheme)?;
    authentication::v1::add_to_scheme(scheme)?;
    authentication::v1alpha1::add_to_scheme(scheme)?;
    authentication::v1beta1::add_to_scheme(scheme)?;
    authorization::v1::add_to_scheme(scheme)?;
    authorization::v1beta1::add_to_scheme(scheme)?;
    autoscaling::v1::add_to_scheme(scheme)?;
    autoscaling::v2::add_to_scheme(scheme)?;
    batch::v1::add_to_scheme(scheme)?;
    batch::v1beta1::add_to_scheme(scheme)?;
    certificates::v1::add_to_scheme(scheme)?;
    certificates::v1alpha1::add_to_scheme(scheme)?;
    certificates::v1beta1::add_to_scheme(scheme)?;
    coordination::v1::add_to_scheme(scheme)?;
    coordination::v1alpha2::add_to_scheme(scheme)?;
    coordination::v1beta1::add_to_scheme(scheme)?;
    core::v1::add_to_scheme(scheme)?;
    discovery::v1::add_to_scheme(scheme)?;
    discovery::v1beta1::add_to_scheme(scheme)?;
    events::v1::add_to_scheme(scheme)?;
    events::v1beta1::add_to_scheme(scheme)?;
    extensions::v1beta1::add_to_scheme(scheme)?;
    flowcontrol::v1::add_to_scheme(scheme)?;
    flowcontrol::v1beta1::add_to_scheme(scheme)?;
    flowcontrol::v1beta2::add_to_scheme(scheme)?;
    flowcontrol::v1beta3::add_to_scheme(scheme)?;
    imagepolicy::v1alpha1::add_to_scheme(scheme)?;
    networking::v1::add_to_scheme(scheme)?;
    networking::v1beta1::add_to_scheme(scheme)?;
    node::v1::add_to_scheme(scheme)?;
    node::v1alpha1::add_to_scheme(scheme)?;
    node::v1beta1::add_to_scheme(scheme)?;
    policy::v1::add_to_scheme(scheme)?;
    policy::v1beta1::add_to_scheme(scheme)?;
    rbac::v1::add_to_scheme(scheme)?;
    rbac::v1alpha1::add_to_scheme(scheme)?;
    rbac::v1beta1::add_to_scheme(scheme)?;
    resource::v1::add_to_scheme(scheme)?;
    resource::v1alpha3::add_to_scheme(scheme)?;
    resource::v1beta1::add_to_scheme(scheme)?;
    resource::v1beta2::add_to_scheme(scheme)?;
    scheduling::v1::add_to_scheme(scheme)?;
    scheduling::v1alpha2::add_to_scheme(scheme)?;
    scheduling::v1beta1::add_to_scheme(scheme)?;
    storage::v1::add_to_scheme(scheme)?;
    storage::v1alpha1::add_to_scheme(scheme)?;
    storage::v1beta1::add_to_scheme(scheme)?;
    storagemigration::v1beta1::add_to_scheme(scheme)?;
    core::v1::add_field_label_conversions(scheme);
    autoscaling::v1::register_horizontal_pod_autoscaler_conversions(scheme);
    apiextensions::install::install(scheme)?;
    Ok(())
}

/// A Scheme with every group of this crate installed.
pub fn scheme() -> Result<Scheme, SchemeError> {
    let mut scheme = Scheme::new();
    install(&mut scheme)?;
    Ok(scheme)
}
