//! The sample server's admission plugins beyond Kubernetes' NamespaceLifecycle (which
//! `apiserver::kube_apiserver` always runs), enabled by name as kube-apiserver's
//! `--enable-admission-plugins` enables them: AlwaysPullImages (mutating: every container of a Pod
//! pulls its image on each start, so a node's cached private image cannot be used without
//! credentials).

use std::str::FromStr;
use std::sync::Arc;

use apiserver::ApiError;
use apiserver::admission::{Attributes, Mutating};
use serde_json::{Value, json};

/// The optional plugins a server can enable by name (kube-apiserver's
/// `--enable-admission-plugins`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Plugin {
    /// [`AlwaysPullImages`].
    AlwaysPullImages,
}

impl Plugin {
    /// Every optional plugin, by the name Kubernetes gives it.
    pub const ALL: &[(&str, Plugin)] = &[("AlwaysPullImages", Plugin::AlwaysPullImages)];

    /// The plugin itself.
    pub fn mutating(self) -> Arc<dyn Mutating> {
        match self {
            Plugin::AlwaysPullImages => Arc::new(AlwaysPullImages),
        }
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
                    "unknown admission plugin \"{name}\": this server has {} (NamespaceLifecycle is always on)",
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
