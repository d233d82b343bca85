//! Checks that span several items, run once after the model is built: kinds have the metadata
//! the register generator needs, resource names do not collide, and kind-only tags sit on kinds.

use std::collections::BTreeMap;

use super::tags::name as tag;
use super::{External, Package, Type, TypeRef, Universe, names};
use crate::diag::{Diagnostic, Diagnostics};

/// Runs every cross-item check over the universe.
pub fn check(universe: &Universe, diags: &mut Diagnostics) {
    for pkg in universe.packages.values() {
        let mut resources: BTreeMap<String, &Type> = BTreeMap::new();
        for ty in pkg.types.values() {
            check_enum_tag(ty, diags);
            if !ty.is_kind() {
                for name in [tag::GENCLIENT, tag::RESOURCE_NAME, tag::NON_NAMESPACED] {
                    if let Some(t) = ty.tags.get(name) {
                        diags.push(
                            Diagnostic::error(&t.loc, format!("`+{name}` is on `{}`, which is not a kind", ty.name))
                                .label("kinds only")
                                .help("a kind is a struct with a TypeMeta field (`type_meta: Option<TypeMeta>` flattened, in external versions)"),
                        );
                    }
                }
                continue;
            }
            check_kind(pkg, ty, diags);
            if is_list(ty) {
                continue;
            }
            let resource = resource_name(ty);
            if let Some(other) = resources.get(&resource) {
                // Point at the `+resourceName` that caused the clash when there is one.
                let at = ty.tags.get(tag::RESOURCE_NAME).map(|t| &t.loc).unwrap_or(&ty.loc);
                diags.push(
                    Diagnostic::error(
                        at,
                        format!(
                            "kinds `{}` and `{}` both map to resource `{resource}`",
                            other.name, ty.name
                        ),
                    )
                    .label("conflicting resource name")
                    .related(&other.loc, "also maps there")
                    .help("set a distinct `+resourceName=<plural>` on one of them"),
                );
            } else {
                resources.insert(resource, ty);
            }
        }
    }
}

/// `+enum` names a type whose values are a fixed set of strings: in Rust, an enum of unit variants.
fn check_enum_tag(ty: &Type, diags: &mut Diagnostics) {
    if let Some(t) = ty.tags.get(tag::ENUM)
        && ty.unit_variants().is_none()
    {
        diags.push(
            Diagnostic::error(
                &t.loc,
                format!("`+enum` is on `{}`, which is not an enum of unit variants", ty.name),
            )
            .label("not a string enum")
            .help("`+enum` marks an enum whose variants carry no data; each variant is one JSON string"),
        );
    }
}

/// The resource (plural) a kind is served under: `+resourceName` or the derived plural.
pub fn resource_name(ty: &Type) -> String {
    ty.tags
        .value(tag::RESOURCE_NAME)
        .map(str::to_string)
        .unwrap_or_else(|| names::plural(&ty.name))
}

/// Whether a kind is a list: it has ListMeta rather than ObjectMeta.
pub fn is_list(ty: &Type) -> bool {
    ty.fields().iter().any(|f| f.ty.is_external(External::ListMeta))
}

/// The field holding ObjectMeta, for the Metadata impl.
pub fn object_meta_field(ty: &Type) -> Option<&super::Field> {
    ty.fields().iter().find(|f| f.ty.is_external(External::ObjectMeta))
}

fn check_kind(pkg: &Package, ty: &Type, diags: &mut Diagnostics) {
    let Some(tm) = ty.type_meta_field() else { return };
    if !pkg.is_internal() && !tm.flatten {
        diags.push(
            Diagnostic::error(
                &tm.loc,
                format!("TypeMeta of external kind `{}` is not flattened", ty.name),
            )
            .label("needs `#[serde(flatten, default)]`")
            .help("apiVersion and kind are top-level JSON properties; flatten the TypeMeta field"),
        );
    }
    if matches!(ty.shape, super::Shape::Struct { tuple: true, .. }) {
        diags.push(
            Diagnostic::error(&ty.loc, format!("kind `{}` is a tuple struct", ty.name))
                .label("kinds have named fields")
                .help("write `pub struct Kind { pub type_meta: ..., pub metadata: ObjectMeta, ... }`"),
        );
    }
    if ty.generic {
        diags.push(
            Diagnostic::error(&ty.loc, format!("kind `{}` has generic parameters", ty.name)).label("not supported"),
        );
    }
    let has_meta = object_meta_field(ty).is_some() || is_list(ty);
    if !has_meta {
        diags.push(
            Diagnostic::error(
                &ty.loc,
                format!("kind `{}` has TypeMeta but no metadata field", ty.name),
            )
            .label("missing `metadata: ObjectMeta`")
            .help("add `pub metadata: ObjectMeta` (or `ListMeta` for a list kind)"),
        );
    }
    if is_list(ty) {
        let items = ty.fields().iter().find(|f| f.name == "items");
        if !matches!(items.map(|f| &f.ty), Some(TypeRef::Vec(_))) {
            diags.push(
                Diagnostic::error(
                    &ty.loc,
                    format!("list kind `{}` has no `items: Vec<...>` field", ty.name),
                )
                .label("list kinds hold their objects in `items`")
                .help(format!("add `pub items: Vec<{}>`", ty.name.trim_end_matches("List"))),
            );
        }
    }
}
