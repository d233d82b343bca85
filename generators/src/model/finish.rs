//! The facts decided once every type of a package is known: which generators select each type,
//! how a `runtime::Object` reads its apiVersion and kind, and each kind's list, resource and
//! lifecycle (`kind::build`). Tags that cannot mean anything here are reported.

use super::tags::name as tag;
use super::{External, ObjectAccess, Package, Selection, Shape, Type, TypeRef, Universe, kind, known};
use crate::diag::{Diagnostic, Diagnostics};

/// Completes every package of the universe.
pub fn finish(universe: &mut Universe, diags: &mut Diagnostics) {
    for pkg in universe.packages.values_mut() {
        let selections: Vec<(String, Selection)> = pkg
            .types
            .values()
            .map(|t| (t.name.clone(), selection(pkg, t, diags)))
            .collect();
        for (name, selection) in selections {
            if let Some(t) = pkg.types.get_mut(&name) {
                t.selection = selection;
            }
        }
        let internal = pkg.is_internal();
        for ty in pkg.types.values_mut() {
            unknown_interfaces(ty, diags);
            ty.object = object_access(internal, ty, diags);
        }
        lifecycle_tags_without_package_tag(pkg, diags);
        kind::build(pkg, diags);
    }
    // Apply configurations complete the clients (their apply verbs), which the notes of
    // `serving::decide` describe.
    super::apply_configurations::decide(universe, diags);
    super::serving::decide(universe, diags);
    super::protobuf::decide(universe, diags);
}

/// Which generators select a type: the package tag unless the type overrides it. A generic type
/// is never selected; asking for one explicitly is an error.
fn selection(pkg: &Package, ty: &Type, diags: &mut Diagnostics) -> Selection {
    let a = &ty.attrs;
    let pick = |own: Option<bool>, package: bool| own.unwrap_or(package);
    let wanted = Selection {
        deepcopy: pick(a.deepcopy, pkg.attrs.deepcopy == Some(true)),
        defaults: pick(a.defaulter, pkg.attrs.defaulter.is_some()),
        openapi: !pkg.is_internal() && pick(a.openapi.enabled, pkg.attrs.openapi == Some(true)),
        conversion: !a.conversion_opt_out,
    };
    if !ty.generic {
        return wanted;
    }
    for (asked, name) in [
        (a.deepcopy == Some(true), tag::DEEPCOPY),
        (a.defaulter == Some(true), tag::DEFAULTER),
        (a.openapi.enabled == Some(true), tag::OPENAPI),
    ] {
        if asked {
            diags.push(
                Diagnostic::error(
                    &ty.tags.loc(name, &ty.loc),
                    format!("generic type `{}` cannot be generated for", ty.name),
                )
                .label("generic")
                .help("API types are concrete; remove the tag and write what it asks for by hand"),
            );
        }
    }
    diags.note(format!(
        "{}: generic type `{}` is left to hand-written code",
        ty.loc, ty.name
    ));
    Selection {
        conversion: wanted.conversion,
        ..Selection::default()
    }
}

/// `+k8s:deepcopy-gen:interfaces` names apimachinery's runtime.Object or nothing we implement.
fn unknown_interfaces(ty: &Type, diags: &mut Diagnostics) {
    for t in ty.tags.all(tag::DEEPCOPY_INTERFACES) {
        for iface in t.value.as_deref().unwrap_or("").split(',').map(str::trim) {
            if !known::is_object_interface(iface) {
                diags.push(
                    Diagnostic::error(&t.loc, format!("unknown deep-copy interface `{iface}`"))
                        .label("not an interface this generator implements")
                        .help("the interface is `runtime::Object` (Go's k8s.io/apimachinery/pkg/runtime.Object)"),
                );
            }
        }
    }
}

/// Where a type asking for `runtime::Object` keeps its apiVersion and kind: a TypeMeta field, or
/// (as ObjectReference does in Go, by hand) its own `api_version` and `kind` string fields.
fn object_access(internal: bool, ty: &Type, diags: &mut Diagnostics) -> Option<ObjectAccess> {
    if !ty.attrs.object {
        return None;
    }
    let fields = ty.fields();
    if let Some(f) = fields
        .iter()
        .find(|f| f.ty.strip_option().is_external(External::TypeMeta))
    {
        return Some(ObjectAccess::TypeMeta(f.name.clone()));
    }
    let string = |json: &str| {
        fields
            .iter()
            .find(|f| f.json_name == json && matches!(f.ty.strip_option(), TypeRef::String))
            .map(|f| f.name.clone())
    };
    if let (Some(api_version), Some(kind), Shape::Struct { .. }) = (string("apiVersion"), string("kind"), &ty.shape) {
        return Some(ObjectAccess::Fields { api_version, kind });
    }
    diags.push(
        Diagnostic::error(
            &ty.tags.loc(tag::DEEPCOPY_INTERFACES, &ty.loc),
            format!("`{}` asks for runtime::Object but has no TypeMeta field", ty.name),
        )
        .label("runtime::Object needs TypeMeta")
        .help(if internal {
            "add `pub type_meta: TypeMeta`"
        } else {
            "add `#[serde(flatten, default)] pub type_meta: Option<TypeMeta>`"
        }),
    );
    None
}

/// Lifecycle tags do something only in a `+k8s:prerelease-lifecycle-gen=true` package.
fn lifecycle_tags_without_package_tag(pkg: &Package, diags: &mut Diagnostics) {
    if pkg.attrs.lifecycle {
        return;
    }
    for ty in pkg.types.values() {
        if let Some(t) = ty
            .tags
            .0
            .iter()
            .find(|t| t.name.starts_with("k8s:prerelease-lifecycle-gen:"))
        {
            diags.push(
                Diagnostic::error(&t.loc, format!("`+{}` does nothing here", t.name))
                    .label(format!("package `{}` has no lifecycle generation", pkg.path))
                    .related(&pkg.tag_loc(tag::GROUP_NAME), "the package")
                    .help("add `//! +k8s:prerelease-lifecycle-gen=true` to the package's mod.rs, or remove the tag"),
            );
        }
    }
}
