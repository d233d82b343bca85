//! Which group-versions and resources a server serves (k8s.io/apiserver's
//! `serverstorage.ResourceConfig` with kube-apiserver's `--runtime-config`): GA versions on,
//! alpha and beta versions on or off by default per group (Kubernetes serves its own pre-release
//! APIs only when asked, KEP 3136), each level, version or resource turned on or off by name.

use std::collections::BTreeMap;

use kube_apimachinery::GroupVersion;

/// How stable a version is, as `--runtime-config`'s `api/ga`, `api/beta` and `api/alpha` name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Stability {
    /// `v1`, `v2`.
    Ga,
    /// `v1beta1`.
    Beta,
    /// `v1alpha1`, and any version that does not read as Kubernetes' (`v1-preview`).
    Alpha,
}

impl Stability {
    /// The stability of `version`.
    pub fn of(version: &str) -> Stability {
        let Some(rest) = version.strip_prefix('v') else {
            return Stability::Alpha;
        };
        let digits = rest.find(|c: char| !c.is_ascii_digit()).unwrap_or(rest.len());
        if digits == 0 {
            return Stability::Alpha;
        }
        let tail = &rest[digits..];
        let numbered = |word: &str| {
            tail.strip_prefix(word)
                .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        };
        if tail.is_empty() {
            Stability::Ga
        } else if numbered("beta") {
            Stability::Beta
        } else {
            Stability::Alpha
        }
    }
}

/// What a server serves: every GA version, pre-release versions where the group's default says so,
/// and whatever `--runtime-config` turned on or off.
#[derive(Clone, Debug)]
pub struct ResourceConfig {
    /// `api/all`: every version of every group.
    all: Option<bool>,
    /// `api/ga`, `api/beta`, `api/alpha`.
    levels: BTreeMap<Stability, bool>,
    /// Versions by name (`apps/v1beta1=true`; the core group is `api/v1` or `v1`).
    versions: BTreeMap<GroupVersion, bool>,
    /// Resources by name (`batch/v1/cronjobs=false`).
    resources: BTreeMap<(GroupVersion, String), bool>,
    /// Whether a group's alpha and beta versions are served when nothing names them.
    prerelease_by_default: fn(&str) -> bool,
}

impl Default for ResourceConfig {
    /// Every version of every group (what a server of its own API serves).
    fn default() -> Self {
        ResourceConfig::new(|_| true)
    }
}

/// A `--runtime-config` entry that does not parse.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RuntimeConfigError {
    /// A value other than `true` or `false`.
    #[error("invalid value of {key}: {value}, err: strconv.ParseBool: parsing {value:?}: invalid syntax")]
    Value {
        /// The entry's key.
        key: String,
        /// Its value.
        value: String,
    },
    /// A key that names no level, version or resource.
    #[error("invalid key {0}")]
    Key(String),
}

impl ResourceConfig {
    /// GA versions served, and a group's pre-release versions where `prerelease_by_default`
    /// says so.
    pub fn new(prerelease_by_default: fn(&str) -> bool) -> Self {
        ResourceConfig {
            all: None,
            levels: BTreeMap::new(),
            versions: BTreeMap::new(),
            resources: BTreeMap::new(),
            prerelease_by_default,
        }
    }

    /// Applies `--runtime-config` (`api/all=true,apps/v1beta1=false,batch/v1/jobs=false`; a key
    /// alone means `=true`), as kube-apiserver merges it: `api/all`, then the levels, then
    /// versions, then resources, the most specific winning.
    pub fn apply(&mut self, runtime_config: &str) -> Result<(), RuntimeConfigError> {
        for entry in runtime_config.split(',').map(str::trim).filter(|e| !e.is_empty()) {
            let (key, value) = entry.split_once('=').unwrap_or((entry, "true"));
            let on = match value.trim() {
                "true" | "1" | "t" | "T" | "TRUE" | "True" => true,
                "false" | "0" | "f" | "F" | "FALSE" | "False" => false,
                other => {
                    return Err(RuntimeConfigError::Value {
                        key: key.to_string(),
                        value: other.to_string(),
                    });
                }
            };
            let key = key.trim();
            match key {
                "api/all" => self.all = Some(on),
                "api/ga" => _ = self.levels.insert(Stability::Ga, on),
                "api/beta" => _ = self.levels.insert(Stability::Beta, on),
                "api/alpha" => _ = self.levels.insert(Stability::Alpha, on),
                // The core group's old name.
                "api/legacy" => _ = self.versions.insert(GroupVersion::new("", "v1"), on),
                _ => {
                    let parts: Vec<&str> = key.split('/').collect();
                    let group = |g: &str| if g == "api" { String::new() } else { g.to_string() };
                    match parts.as_slice() {
                        [v] if !v.is_empty() => _ = self.versions.insert(GroupVersion::new("", *v), on),
                        [g, v] if !g.is_empty() && !v.is_empty() => {
                            _ = self.versions.insert(GroupVersion::new(group(g), *v), on)
                        }
                        [g, v, r] if !g.is_empty() && !v.is_empty() && !r.is_empty() => {
                            _ = self
                                .resources
                                .insert((GroupVersion::new(group(g), *v), r.to_string()), on)
                        }
                        _ => return Err(RuntimeConfigError::Key(key.to_string())),
                    }
                }
            }
        }
        Ok(())
    }

    /// Whether `gv` is served.
    pub fn version_enabled(&self, gv: &GroupVersion) -> bool {
        if let Some(on) = self.versions.get(gv) {
            return *on;
        }
        let stability = Stability::of(&gv.version);
        if let Some(on) = self.levels.get(&stability) {
            return *on;
        }
        if let Some(on) = self.all {
            return on;
        }
        stability == Stability::Ga || (self.prerelease_by_default)(&gv.group)
    }

    /// Whether `resource` of `gv` is served: named itself, else as its version is. A resource
    /// turned on by name is served even when its version is off, as kube-apiserver serves
    /// `--runtime-config=batch/v1beta1/cronjobs=true` alone.
    pub fn resource_enabled(&self, gv: &GroupVersion, resource: &str) -> bool {
        match self.resources.get(&(gv.clone(), resource.to_string())) {
            Some(on) => *on,
            None => self.version_enabled(gv),
        }
    }

    /// The versions and resources `--runtime-config` named that `known` says do not exist:
    /// what a server reports instead of serving nothing under a mistyped name.
    pub fn unknown(&self, known: &dyn Fn(&GroupVersion) -> bool) -> Vec<String> {
        let versions = self.versions.keys().filter(|gv| !known(gv)).map(|gv| gv.to_string());
        let resources = self
            .resources
            .keys()
            .filter(|(gv, _)| !known(gv))
            .map(|(gv, r)| format!("{gv}/{r}"));
        versions.chain(resources).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn served_prerelease(group: &str) -> bool {
        !(group.is_empty() || group.ends_with(".k8s.io") || !group.contains('.'))
    }

    #[test]
    fn stabilities_read_as_kubernetes_reads_versions() {
        assert_eq!(Stability::of("v1"), Stability::Ga);
        assert_eq!(Stability::of("v12"), Stability::Ga);
        assert_eq!(Stability::of("v2beta2"), Stability::Beta);
        assert_eq!(Stability::of("v1alpha3"), Stability::Alpha);
        assert_eq!(Stability::of("v1beta"), Stability::Alpha);
        assert_eq!(Stability::of("beta1"), Stability::Alpha);
    }

    #[test]
    fn ga_is_served_and_prerelease_follows_the_groups_default() {
        let c = ResourceConfig::new(served_prerelease);
        assert!(c.version_enabled(&GroupVersion::new("apps", "v1")));
        assert!(!c.version_enabled(&GroupVersion::new("resource.k8s.io", "v1beta2")));
        assert!(c.version_enabled(&GroupVersion::new("widgets.example.dev", "v1alpha1")));
        let all = ResourceConfig::default();
        assert!(all.version_enabled(&GroupVersion::new("resource.k8s.io", "v1beta2")));
    }

    #[test]
    fn the_most_specific_entry_wins() {
        let mut c = ResourceConfig::new(served_prerelease);
        c.apply("api/all=false, api/beta=true,resource.k8s.io/v1beta1=false,batch/v1/jobs,api/v1=true")
            .unwrap();
        assert!(!c.version_enabled(&GroupVersion::new("apps", "v1")), "api/all=false");
        assert!(
            c.version_enabled(&GroupVersion::new("", "v1")),
            "api/v1 names the core group"
        );
        assert!(
            c.version_enabled(&GroupVersion::new("resource.k8s.io", "v1beta2")),
            "api/beta"
        );
        assert!(!c.version_enabled(&GroupVersion::new("resource.k8s.io", "v1beta1")));
        assert!(c.resource_enabled(&GroupVersion::new("batch", "v1"), "jobs"));
        assert!(!c.resource_enabled(&GroupVersion::new("batch", "v1"), "cronjobs"));
        assert_eq!(c.unknown(&|gv| gv.group != "batch"), vec!["batch/v1/jobs".to_string()]);
    }

    #[test]
    fn bad_entries_are_errors() {
        let mut c = ResourceConfig::default();
        assert_eq!(
            c.apply("apps/v1=maybe"),
            Err(RuntimeConfigError::Value {
                key: "apps/v1".into(),
                value: "maybe".into()
            })
        );
        assert_eq!(c.apply("a/b/c/d"), Err(RuntimeConfigError::Key("a/b/c/d".into())));
        assert_eq!(c.apply("/v1"), Err(RuntimeConfigError::Key("/v1".into())));
    }
}
