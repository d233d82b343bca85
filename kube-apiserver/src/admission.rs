//! kube-apiserver's admission plugins by name, as `--enable-admission-plugins` and
//! `--disable-admission-plugins` name them: NamespaceLifecycle (k8s.io/apiserver's, on by default)
//! and AlwaysPullImages (mutating: every container of a Pod pulls its image on each start, so a
//! node's cached private image cannot be used without credentials).

use std::str::FromStr;

use kube_generic_apiserver::admission::{Attributes, Mutating};
use kube_generic_apiserver::status::ApiError;
use serde_json::{Value, json};

/// The plugins a server can enable by name (kube-apiserver's `--enable-admission-plugins`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Plugin {
    /// k8s.io/apiserver's NamespaceLifecycle: nothing is created in a namespace that is missing
    /// or terminating.
    NamespaceLifecycle,
    /// [`AlwaysPullImages`].
    AlwaysPullImages,
}

impl Plugin {
    /// Every plugin, by the name Kubernetes gives it, in the order they run.
    pub const ALL: &[(&str, Plugin)] = &[
        ("NamespaceLifecycle", Plugin::NamespaceLifecycle),
        ("AlwaysPullImages", Plugin::AlwaysPullImages),
    ];

    /// The plugins on unless disabled, as kube-apiserver's defaults have them.
    pub const DEFAULT: &[Plugin] = &[Plugin::NamespaceLifecycle];

    /// The plugins `enabled` and the defaults name, but those `disabled` names, in running order.
    pub fn enabled(enabled: &[Plugin], disabled: &[Plugin]) -> Vec<Plugin> {
        Plugin::ALL
            .iter()
            .map(|(_, p)| *p)
            .filter(|p| (Plugin::DEFAULT.contains(p) || enabled.contains(p)) && !disabled.contains(p))
            .collect()
    }
}

impl FromStr for Plugin {
    type Err = String;

    fn from_str(name: &str) -> Result<Plugin, String> {
        Plugin::ALL
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, p)| *p)
            .ok_or_else(|| {
                let known: Vec<&str> = Plugin::ALL.iter().map(|(n, _)| *n).collect();
                format!(
                    "unknown admission plugin \"{name}\": this server has {} (NamespaceLifecycle is on unless disabled)",
                    known.join(", ")
                )
            })
    }
}

/// AlwaysPullImages: sets `imagePullPolicy: Always` on every container, init container and
/// ephemeral container of a Pod that is created or replaced.
pub struct AlwaysPullImages;

impl Mutating for AlwaysPullImages {
    fn admit(&self, a: &Attributes<'_>, pod: &mut Value) -> Result<(), ApiError> {
        if !a.is("", "pods") {
            return Ok(());
        }
        for list in ["initContainers", "containers", "ephemeralContainers"] {
            let containers = pod
                .get_mut("spec")
                .and_then(|s| s.get_mut(list))
                .and_then(Value::as_array_mut);
            for container in containers.into_iter().flatten() {
                if let Some(c) = container.as_object_mut() {
                    c.insert("imagePullPolicy".into(), json!("Always"));
                }
            }
        }
        Ok(())
    }
}
