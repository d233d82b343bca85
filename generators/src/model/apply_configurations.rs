//! Which types get an apply configuration, decided across packages (applyconfiguration-gen's
//! reference graph): the `+genclient` kinds with ObjectMeta of external versions and the inputs
//! of their apply methods are the roots, and every struct of the apis crate their fields reach,
//! in any package, gets one too. Types an apply configuration uses as they are (string enums,
//! newtypes, unions, hand-written JSON) end the walk. The clients are completed from the result:
//! `apply` and `applyStatus` only where the kind has a configuration to send.

use std::collections::{BTreeMap, BTreeSet};

use super::kind::ApplyConfigurationRef;
use super::{Shape, Type, TypeId, TypeRef, Universe, names};
use crate::diag::{Diagnostic, Diagnostics};

/// Names the apply configuration of every type that gets one, and completes each client: its
/// apply verbs and apply methods with the configuration they send.
pub fn decide(universe: &mut Universe, diags: &mut Diagnostics) {
    let mut reached: BTreeSet<TypeId> = BTreeSet::new();
    let mut queue: Vec<TypeId> = universe
        .packages
        .values()
        .filter(|p| !p.is_internal())
        .flat_map(|p| p.kinds().filter(|(t, k)| is_root(t, k)).map(|(t, _)| p.id(&t.name)))
        .collect();
    // What an apply method sends (`+genclient:method=ApplyScale,verb=apply,input=...Scale`).
    for pkg in universe.packages.values().filter(|p| !p.is_internal()) {
        for (t, _) in pkg.kinds() {
            let methods = t.client().map(|c| c.methods.as_slice());
            for m in methods.unwrap_or_default() {
                if m.verb.is_apply() {
                    named(&m.input, &mut queue);
                }
            }
        }
    }
    while let Some(id) = queue.pop() {
        let Some(ty) = universe.get(&id) else { continue };
        if !has_configuration(ty) || !reached.insert(id) {
            continue;
        }
        for f in ty.fields().iter().filter(|f| !f.skip) {
            named(&f.ty, &mut queue);
        }
    }
    let mut refs = BTreeMap::new();
    for id in reached {
        let Some(pkg) = universe.packages.get_mut(&id.package) else {
            continue;
        };
        let module = pkg.accessor.clone();
        if let Some(t) = pkg.types.get_mut(&id.name) {
            let name = names::apply_configuration(&t.name);
            t.apply_configuration = Some(name.clone());
            refs.insert(id, ApplyConfigurationRef { module, name });
        }
    }
    complete_clients(universe, &refs, diags);
}

/// Gives each client its apply configuration and keeps its apply verbs only with one (a kind
/// without ObjectMeta has nothing to apply); an apply method whose input has no configuration is
/// an error at its tag.
fn complete_clients(universe: &mut Universe, refs: &BTreeMap<TypeId, ApplyConfigurationRef>, diags: &mut Diagnostics) {
    for pkg in universe.packages.values_mut() {
        let path = pkg.path.clone();
        for t in pkg.types.values_mut() {
            let own = refs
                .get(&TypeId {
                    package: path.clone(),
                    name: t.name.clone(),
                })
                .cloned();
            let Some(client) = t
                .kind
                .as_mut()
                .and_then(|k| k.resource.as_mut())
                .and_then(|r| r.client.as_mut())
            else {
                continue;
            };
            if own.is_none() {
                client.verbs.retain(|v| !v.is_apply());
            }
            client.apply_configuration = own;
            for m in client.methods.iter_mut().filter(|m| m.verb.is_apply()) {
                m.apply_configuration = match &m.input {
                    TypeRef::Named(id) => refs.get(id).cloned(),
                    _ => None,
                };
                if m.apply_configuration.is_none() {
                    diags.push(
                        Diagnostic::error(
                            &m.loc,
                            format!(
                                "apply method `{}` sends `{}`, which has no apply configuration",
                                m.name, m.input
                            ),
                        )
                        .label("an apply method sends its input's apply configuration")
                        .help("name a struct of the apis crate with named fields as `input=`"),
                    );
                }
            }
        }
    }
}

/// A root: a kind served with a client of its own, with ObjectMeta (client-gen skips the others).
fn is_root(t: &Type, k: &super::Kind) -> bool {
    k.object_meta.is_some() && t.client().is_some()
}

/// Whether the type is a struct of named fields whose JSON its fields describe: the shape an
/// apply configuration mirrors with every field optional.
pub fn has_configuration(t: &Type) -> bool {
    matches!(&t.shape, Shape::Struct { tuple: false, .. })
        && t.newtype().is_none()
        && !t.hand_written_json()
        && !t.generic
}

fn named(t: &TypeRef, out: &mut Vec<TypeId>) {
    match t {
        TypeRef::Named(id) => out.push(id.clone()),
        TypeRef::Option(inner) | TypeRef::Vec(inner) | TypeRef::Box(inner) => named(inner, out),
        TypeRef::Map { value, .. } => named(value, out),
        _ => {}
    }
}
