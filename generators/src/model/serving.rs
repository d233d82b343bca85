//! What an API server serves for each resource, decided across the packages of a group once every
//! package is complete: the storage version of each group-resource and the kind its `scale`
//! subresource serves. The register generator writes these facts into the REST mapping of the Scheme.

use std::collections::BTreeMap;

use super::kind::Scope;
use super::{TypeRef, Universe, Version};
use crate::diag::Diagnostics;

/// Decides each resource's storage version and scale kind, and notes for `--verbose` what was
/// decided for each resource.
pub fn decide(universe: &mut Universe, diags: &mut Diagnostics) {
    let storage = storage_versions(universe);
    let scale_kinds = scale_kinds(universe);
    for pkg in universe.packages.values_mut() {
        for ty in pkg.types.values_mut() {
            let name = ty.name.clone();
            let Some(r) = ty.kind.as_mut().and_then(|k| k.resource.as_mut()) else {
                continue;
            };
            if let Some(v) = storage.get(&(pkg.group.clone(), r.plural.clone())) {
                r.storage_version = v.as_str().to_string();
            }
            let scale = r.subresources.iter_mut().find(|s| s.name == "scale");
            if let (Some(s), Some((group, version, kind))) = (scale, scale_kinds.get(&(pkg.path.clone(), name))) {
                (s.group, s.version, s.kind) = (group.clone(), version.clone(), kind.clone());
            }
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

/// Per (package path, kind name): the kind a `scale` subresource serves, when a custom `get`
/// method of `scale` names it (`+genclient:method=GetScale,...,result=...Scale`).
fn scale_kinds(universe: &Universe) -> BTreeMap<(String, String), (String, String, String)> {
    let mut out = BTreeMap::new();
    for pkg in universe.packages.values().filter(|p| !p.is_internal()) {
        for (t, _) in pkg.kinds() {
            let from_method = t.client().into_iter().flat_map(|c| &c.methods).find_map(|m| {
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
            if let Some(kind) = from_method {
                out.insert((pkg.path.clone(), t.name.clone()), kind);
            }
        }
    }
    out
}
