//! Kubernetes API types, written by hand, that the code generators read.
//!
//! Each package is a module directory: the group module (`core`, `apps`) holds the internal
//! version, its `v1` child the external version. Package tags are the `//!` lines of a
//! package's `mod.rs`; type and field tags are the `///` lines on the item.

// Doc comments keep Kubernetes' Go text verbatim (it becomes the OpenAPI descriptions), bare URLs
// and `<name>` placeholders included.
#![deny(warnings)]
// apiextensions v1 and v1beta1 compile one marshal.rs each for their own same-named types.
#![allow(clippy::duplicate_mod)]
#![allow(rustdoc::bare_urls, rustdoc::invalid_html_tags)]

pub mod apiextensions;
pub mod apps;
pub mod autoscaling;
pub mod core;
pub mod rbac;
pub mod widgets;

use kube_apimachinery::{Scheme, SchemeError};

/// Installs every group of this crate into `scheme`: each group's internal version, its external
/// versions and its version priority.
pub fn install(scheme: &mut Scheme) -> Result<(), SchemeError> {
    core::install::install(scheme)?;
    apps::install::install(scheme)?;
    apiextensions::install::install(scheme)?;
    autoscaling::install::install(scheme)?;
    rbac::install::install(scheme)?;
    widgets::install::install(scheme)?;
    Ok(())
}

/// A Scheme with every group of this crate installed.
pub fn scheme() -> Result<Scheme, SchemeError> {
    let mut scheme = Scheme::new();
    install(&mut scheme)?;
    Ok(scheme)
}
