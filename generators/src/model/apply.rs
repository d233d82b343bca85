//! Which types get an apply configuration, decided across packages (applyconfiguration-gen's
//! reference graph): the `+genclient` kinds with ObjectMeta of external versions and the inputs
//! of their apply methods are the roots, and every struct of the apis crate their fields reach, in any package, gets one too. Types an
//! apply configuration uses as they are (string enums, newtypes, unions, hand-written JSON) end
//! the walk.

use std::collections::BTreeSet;

use super::kind::Verb;
use super::{Scope, Shape, Type, TypeId, TypeRef, Universe};

/// Sets `selection.apply` on every type that gets an apply configuration.
pub fn decide(universe: &mut Universe) {
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
            let methods = t
                .resource()
                .and_then(|r| r.client.as_ref())
                .map(|c| c.methods.as_slice());
            for m in methods.unwrap_or_default() {
                if matches!(m.verb, Verb::Apply | Verb::ApplyStatus) {
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
    for id in reached {
        if let Some(t) = universe
            .packages
            .get_mut(&id.package)
            .and_then(|p| p.types.get_mut(&id.name))
        {
            t.selection.apply = true;
        }
    }
}

/// A root: a kind served with a client of its own, with ObjectMeta (client-gen skips the others).
fn is_root(t: &Type, k: &super::Kind) -> bool {
    k.object_meta.is_some()
        && t.resource()
            .is_some_and(|r| r.scope != Scope::Subresource && r.client.is_some())
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
