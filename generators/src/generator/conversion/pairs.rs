//! Which types convert to which, and the names and paths of their conversion functions. Shared
//! by the conversion generator (which writes the functions) and the field rules (which call the
//! functions of nested types, in this package or any other).

use crate::model::{Package, Type, TypeId, Universe, names};

/// The internal (hub) package an external package converts through: the first path of
/// `+k8s:conversion-gen`.
pub fn peer<'u>(universe: &'u Universe, pkg: &Package) -> Option<&'u Package> {
    universe.packages.get(pkg.attrs.conversion_peers.first()?)
}

/// The package holding the external types: `+k8s:conversion-gen-external-types`, or the package
/// itself.
pub fn types_package<'u>(universe: &'u Universe, pkg: &'u Package) -> &'u Package {
    pkg.attrs
        .conversion_external_types
        .as_ref()
        .and_then(|p| universe.packages.get(p))
        .unwrap_or(pkg)
}

/// Whether a type opted out with `+k8s:conversion-gen=false`.
pub fn opted_out(ty: &Type) -> bool {
    !ty.selection.conversion
}

/// One direction of a convertible type pair: the external package owns the functions.
pub struct Direction<'u> {
    /// The package whose module holds the conversion functions (the external one).
    pub home: &'u Package,
    /// Source package and type.
    pub from: (&'u Package, &'u Type),
    /// Destination package and type.
    pub to: (&'u Package, &'u Type),
}

impl Direction<'_> {
    /// The public function's name.
    pub fn name(&self) -> String {
        names::conversion_fn(&self.from.0.path, &self.to.0.path, &self.from.1.name)
    }

    /// The generated half's name.
    pub fn auto_name(&self) -> String {
        names::auto_conversion_fn(&self.from.0.path, &self.to.0.path, &self.from.1.name)
    }

    /// The path through which any package calls the function: the home package's path, where
    /// generated and hand-written conversion functions are re-exported.
    pub fn path(&self) -> syn::Path {
        super::super::type_path(&self.home.path, &self.name())
    }
}

/// The conversion between two named types, if one exists: same name, one package external with
/// the other as its conversion peer, and neither type opted out.
pub fn direction<'u>(universe: &'u Universe, from: &TypeId, to: &TypeId) -> Option<Direction<'u>> {
    if from.name != to.name {
        return None;
    }
    let (fp, tp) = (
        universe.packages.get(&from.package)?,
        universe.packages.get(&to.package)?,
    );
    let home = if peer(universe, fp).is_some_and(|p| p.path == tp.path) {
        fp
    } else if peer(universe, tp).is_some_and(|p| p.path == fp.path) {
        tp
    } else {
        return None;
    };
    let (ft, tt) = (universe.get(from)?, universe.get(to)?);
    if opted_out(ft) || opted_out(tt) {
        return None;
    }
    Some(Direction {
        home,
        from: (fp, ft),
        to: (tp, tt),
    })
}
