//! What an API server serves for each resource, decided across the packages of a group once every
//! package is complete: the storage version of each group-resource and the kinds of its
//! subresources. The register generator writes these facts into the REST mapping of the Scheme.

use std::collections::BTreeMap;

use super::kind::{ScalePaths, Scope, Subresource};
use super::{TypeRef, Universe, Version};
use crate::diag::Diagnostics;

/// The autoscaling/v1 Scale kind, which a CRD's scale subresource serves (`+k8s:crd-gen:scale`).
const CRD_SCALE: (&str, &str, &str) = ("autoscaling", "v1", "Scale");

/// Decides each resource's storage version and subresource kinds, and notes for `--verbose` what was
/// decided for each resource.
pub fn decide(universe: &mut Universe, diags: &mut Diagnostics) {
    let storage = storage_versions(universe);
    let subresources = subresource_kinds(universe);
    for pkg in universe.packages.values_mut() {
        for ty in pkg.types.values_mut() {
            let name = ty.name.clone();
            let Some(r) = ty.kind.as_mut().and_then(|k| k.resource.as_mut()) else {
                continue;
            };
            if let Some(v) = storage.get(&(pkg.group.clone(), r.plural.clone())) {
                r.storage_version = v.as_str().to_string();
            }
            r.subresources = subresources.get(&(pkg.path.clone(), name)).cloned().unwrap_or_default();
            diags.note(format!("{}: {} {}: {}", ty.loc, pkg.api_version, ty.name, r.describe()));
        }
    }
}

/// Per (group, plural): the version tagged `+k8s:crd-gen:storageversion` when exactly one is, else
/// the most preferred external version serving it (Kubernetes stores built-in kinds in the group's
/// preferred version). Two tags are the CRD generator's error to report.
fn storage_versions(universe: &Universe) -> BTreeMap<(String, String), Version> {
    let mut candidates: BTreeMap<(String, String), Vec<(Version, bool)>> = BTreeMap::new();
    for pkg in universe.packages.values().filter(|p| !p.is_internal()) {
        for (t, k) in pkg.kinds() {
            let Some(r) = k.resource.as_ref().filter(|r| r.scope != Scope::Subresource) else {
                continue;
            };
            let tagged = t.attrs.crd.storage_version.is_some();
            candidates
                .entry((pkg.group.clone(), r.plural.clone()))
                .or_default()
                .push((pkg.version.clone(), tagged));
        }
    }
    candidates
        .into_iter()
        .filter_map(|(key, mut versions)| {
            versions.sort();
            let tagged: Vec<&Version> = versions.iter().filter(|(_, t)| *t).map(|(v, _)| v).collect();
            let chosen = match tagged.as_slice() {
                [one] => (*one).clone(),
                _ => versions.first()?.0.clone(),
            };
            Some((key, chosen))
        })
        .collect()
}

/// Per (package path, kind name): `status` with the kind itself, and `scale` with the kind its
/// `get` scale method answers (or autoscaling/v1 Scale for a CRD's scale tag).
fn subresource_kinds(universe: &Universe) -> BTreeMap<(String, String), Vec<Subresource>> {
    let mut out = BTreeMap::new();
    for pkg in universe.packages.values().filter(|p| !p.is_internal()) {
        for (t, k) in pkg.kinds() {
            let Some(r) = k.resource.as_ref() else { continue };
            let mut subs = Vec::new();
            if r.status {
                subs.push(Subresource {
                    name: "status".into(),
                    group: pkg.group.clone(),
                    version: pkg.version.as_str().to_string(),
                    kind: t.name.clone(),
                    scale: None,
                });
            }
            if r.scale {
                let from_method = r.client.iter().flat_map(|c| &c.methods).find_map(|m| {
                    if m.subresource.as_deref() != Some("scale") {
                        return None;
                    }
                    let TypeRef::Named(id) = &m.result else { return None };
                    let target = universe.packages.get(&id.package)?;
                    Some((
                        target.group.clone(),
                        target.version.as_str().to_string(),
                        id.name.clone(),
                    ))
                });
                let (group, version, kind) = from_method.unwrap_or_else(|| {
                    let (g, v, k) = CRD_SCALE;
                    (g.to_string(), v.to_string(), k.to_string())
                });
                subs.push(Subresource {
                    name: "scale".into(),
                    group,
                    version,
                    kind,
                    scale: Some(scale_paths(t)),
                });
            }
            out.insert((pkg.path.clone(), t.name.clone()), subs);
        }
    }
    out
}

/// The CRD scale tag's paths (`specpath`, `statuspath`, `selectorpath`), or the ones Kubernetes'
/// hand-written scale storage of Deployments, ReplicaSets and StatefulSets reads.
fn scale_paths(t: &super::Type) -> ScalePaths {
    let pairs = t.attrs.crd.scale.as_ref().map(|l| l.value.clone()).unwrap_or_default();
    let get = |k: &str| pairs.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone());
    match (get("specpath"), get("statuspath")) {
        (Some(spec), Some(status)) => ScalePaths {
            spec_replicas: spec,
            status_replicas: status,
            label_selector: get("selectorpath"),
        },
        _ => ScalePaths {
            spec_replicas: ".spec.replicas".into(),
            status_replicas: ".status.replicas".into(),
            label_selector: Some(".spec.selector".into()),
        },
    }
}
