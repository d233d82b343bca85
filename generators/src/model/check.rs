//! Checks that span several items, run once after the model is built: kinds have the shape the
//! register generator needs, resource names do not collide within a package, group names do not
//! collide in the clientset, and kind-only tags sit on kinds.

use std::collections::BTreeMap;

use super::attrs::ListType;
use super::tags::name as tag;
use super::{Field, Package, Type, TypeRef, Universe};
use crate::diag::{Diagnostic, Diagnostics, SourceLoc};

/// Runs every cross-item check over the universe.
pub fn check(universe: &Universe, diags: &mut Diagnostics) {
    for pkg in universe.packages.values() {
        check_internal_openapi(pkg, diags);
        check_conversion_peer(universe, pkg, diags);
        unused_crd_tags(pkg, diags);
        let mut resources: BTreeMap<&str, &Type> = BTreeMap::new();
        for ty in pkg.types.values() {
            check_enum_tag(ty, diags);
            check_zero_is_unset(ty, diags);
            check_serde(universe, ty, diags);
            check_list_tags(universe, ty, diags);
            check_defaults(universe, ty, diags);
            super::unions::unions(universe, ty, Some(diags));
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
            let Some(resource) = ty.resource() else { continue };
            if let Some(other) = resources.get(resource.plural.as_str()) {
                // Point at the `+resourceName` that caused the clash when there is one.
                let at = ty.tags.loc(tag::RESOURCE_NAME, &ty.loc);
                diags.push(
                    Diagnostic::error(
                        &at,
                        format!(
                            "kinds `{}` and `{}` both map to resource `{}`",
                            other.name, ty.name, resource.plural
                        ),
                    )
                    .label("conflicting resource name")
                    .related(&other.loc, "also maps there")
                    .help("set a distinct `+resourceName=<plural>` on one of them"),
                );
            } else {
                resources.insert(&resource.plural, ty);
            }
        }
    }
    check_group_names(universe, diags);
}

/// What serde would do wrong with the type: two fields (or variants) under one JSON name, which
/// serde writes twice and reads once; and `flatten` on a field that is neither a struct nor a map,
/// which serde rejects when (de)serializing.
fn check_serde(universe: &Universe, ty: &Type, diags: &mut Diagnostics) {
    if !ty.serde {
        return;
    }
    let mut seen: BTreeMap<&str, &super::SourceLoc> = BTreeMap::new();
    let names: Vec<(&str, &super::SourceLoc)> = match &ty.shape {
        super::Shape::Struct { tuple: false, fields } => fields
            .iter()
            .filter(|f| !f.skip && !f.flatten)
            .map(|f| (f.json_name.as_str(), &f.loc))
            .collect(),
        super::Shape::Enum { variants } => variants.iter().map(|v| (v.json_name.as_str(), &v.loc)).collect(),
        super::Shape::Struct { .. } => Vec::new(),
    };
    for (name, loc) in names {
        if let Some(first) = seen.insert(name, loc) {
            diags.push(
                Diagnostic::error(loc, format!("`{}` has two members named `{name}` in JSON", ty.name))
                    .label("second member with this JSON name")
                    .related(first, "first")
                    .help("give one of them another `#[serde(rename = \"...\")]`"),
            );
        }
    }
    for f in ty.fields().iter().filter(|f| f.flatten) {
        let ok = match f.ty.strip_option() {
            TypeRef::Named(id) => universe
                .get(id)
                .is_none_or(|t| matches!(t.shape, super::Shape::Struct { tuple: false, .. })),
            TypeRef::Map { .. } | TypeRef::External(..) | TypeRef::Unresolved(_) => true,
            _ => false,
        };
        if !ok {
            diags.push(
                Diagnostic::error(
                    &f.ty_loc,
                    format!(
                        "field `{}` of `{}` is flattened, but `{}` is not a struct or a map",
                        f.name, ty.name, f.ty
                    ),
                )
                .label("serde flattens only structs and maps")
                .help("remove `flatten`, or give the field a struct or map type"),
            );
        }
    }
}

/// `+listType` and `+listMapKey` describe lists: `+listType=map` needs struct items, and each key
/// names a scalar field of the item; on a map (which takes `+mapType`) or a scalar they are errors.
fn check_list_tags(universe: &Universe, ty: &Type, diags: &mut Diagnostics) {
    for f in ty.fields() {
        let a = &f.attrs;
        if a.list_type.is_none() && a.list_map_keys.is_empty() {
            continue;
        }
        let at = f.tags.loc(tag::LIST_TYPE, &f.tags.loc(tag::LIST_MAP_KEY, &f.loc));
        let Some(item) = list_item(ty, f, &at, diags) else {
            continue;
        };
        check_keys_need_map_list(f, diags);
        if a.list_type != Some(ListType::Map) {
            continue;
        }
        check_list_map_keys(universe, f, item, &at, diags);
    }
}

/// The item type of a field with list tags; `None` for a Go `[]byte` (a list Kubernetes marks
/// `+listType=atomic`), and `None` with an error for a map or a scalar, whose schema has no list
/// to describe.
fn list_item<'a>(ty: &Type, f: &'a Field, at: &SourceLoc, diags: &mut Diagnostics) -> Option<&'a TypeRef> {
    match f.ty.strip_option() {
        TypeRef::Vec(item) => Some(&**item),
        // Go's `[]byte` is a list too; Kubernetes marks such fields `+listType=atomic`.
        TypeRef::External(super::External::ByteString, _) if f.attrs.list_type != Some(ListType::Map) => None,
        other => {
            let (what, help) = match other {
                TypeRef::Map { .. } => ("a map", "a map's merge is `+mapType=atomic|granular`"),
                _ => ("not a list", "`+listType` and `+listMapKey` go on `Vec` fields"),
            };
            let d = Diagnostic::error(at, format!("field `{}` of `{}` is {what}", f.name, ty.name))
                .label("list tags on a field that is no list")
                .help(help);
            // Kubernetes' generators ignore `+listType=atomic` on a scalar (admissionregistration's
            // `sideEffects` has one): it changes nothing, so it is a warning; any other list tag
            // would describe a merge the field cannot have.
            let harmless = f.attrs.list_type == Some(ListType::Atomic) && f.attrs.list_map_keys.is_empty();
            if harmless && !matches!(other, TypeRef::Map { .. }) {
                diags.warn(d);
            } else {
                diags.push(d);
            }
            None
        }
    }
}

/// Checks that `+listMapKey` comes with `+listType=map`, because keys mean nothing to any other
/// kind of list.
fn check_keys_need_map_list(f: &Field, diags: &mut Diagnostics) {
    let a = &f.attrs;
    if !a.list_map_keys.is_empty() && a.list_type != Some(ListType::Map) {
        diags.push(
            Diagnostic::error(
                &f.tags.loc(tag::LIST_MAP_KEY, &f.loc),
                format!("`+listMapKey` on `{}`, which is not `+listType=map`", f.name),
            )
            .label("keys of no map list")
            .help("add `+listType=map`, or remove the keys"),
        );
    }
}

/// Checks the items and keys of a `+listType=map` field, because a map list merges its items by
/// those keys: each problem is reported at the key it names, else at the list tags.
fn check_list_map_keys(universe: &Universe, f: &Field, item: &TypeRef, at: &SourceLoc, diags: &mut Diagnostics) {
    // Each key is a scalar property of the item: a field of our struct (internal types have no
    // JSON, so only their struct shape counts), or of a k8s-openapi type's published schema.
    let keys: Vec<(&SourceLoc, &String)> = f
        .tags
        .all(tag::LIST_MAP_KEY)
        .map(|t| &t.loc)
        .zip(&f.attrs.list_map_keys)
        .collect();
    for why in list_map_key_problems(universe, f, item, &keys) {
        let loc = keys
            .iter()
            .find(|(_, key)| why.contains(&format!("`{key}`")))
            .map_or(at.clone(), |(loc, _)| (*loc).clone());
        let (label, help) = if why.starts_with("`+listType=map`") {
            (
                "a map list keys struct items by their fields",
                "use `+listType=set` for unique scalars, or `atomic`",
            )
        } else {
            (
                "unknown list-map key",
                "a key is the JSON name of a scalar field of the list's item type",
            )
        };
        diags.push(Diagnostic::error(&loc, why).label(label).help(help));
    }
}

/// What is wrong with a map list's items and keys: items that are not structs, or keys that name
/// no property of the item (our struct's fields, or a k8s-openapi type's published schema).
fn list_map_key_problems(
    universe: &Universe,
    f: &Field,
    item: &TypeRef,
    keys: &[(&SourceLoc, &String)],
) -> Vec<String> {
    match item.strip_option() {
        TypeRef::Named(id) => match universe
            .get(id)
            .filter(|t| matches!(t.shape, super::Shape::Struct { tuple: false, .. }))
        {
            None => vec![format!(
                "`+listType=map` on `{}`, whose items `{item}` are not structs",
                f.name
            )],
            Some(item_ty) if !item_ty.serde => Vec::new(),
            Some(item_ty) => struct_key_problems(universe, item_ty, keys),
        },
        TypeRef::External(_, path) => {
            let def = super::known::meta_definitions().get(&super::known::external_model(path));
            let props = def.and_then(|d| d.get("properties"));
            keys.iter()
                .filter(|(_, key)| props.is_some_and(|p| p.get(key.as_str()).is_none()))
                .map(|(_, key)| format!("`{item}` has no field `{key}`"))
                .collect()
        }
        _ => vec![format!(
            "`+listType=map` on `{}`, whose items `{item}` are not structs",
            f.name
        )],
    }
}

/// The keys of a map list that name no serialized scalar field of the item struct, because the
/// API server can only key items by a scalar property they have.
fn struct_key_problems(universe: &Universe, item_ty: &Type, keys: &[(&SourceLoc, &String)]) -> Vec<String> {
    keys.iter()
        .filter_map(|(_, key)| {
            let field = wire_field(universe, item_ty, key);
            // Kubernetes keys one list by its items' `metadata.name`
            // (storage CSIStorageCapacityList, `+listMapKey=name`).
            if field.is_none() && item_ty.kind.as_ref().is_some_and(|k| k.object_meta.is_some()) && **key == "name" {
                return None;
            }
            match field {
                None => Some(format!("`{}` has no field `{key}`", item_ty.name)),
                Some(k) if !scalar(universe, &k.ty) => Some(format!(
                    "field `{key}` of `{}` is `{}`, not a scalar",
                    item_ty.name, k.ty
                )),
                Some(_) => None,
            }
        })
        .collect()
}

/// The serialized field of a struct with this JSON name, looked for through flattened structs
/// too (core's `EphemeralContainer` inlines `EphemeralContainerCommon`, which has `name`).
pub fn wire_field<'a>(universe: &'a Universe, ty: &'a Type, json_name: &str) -> Option<&'a Field> {
    ty.fields().iter().filter(|f| !f.skip).find_map(|f| {
        if !f.flatten {
            return (f.json_name == json_name).then_some(f);
        }
        match f.ty.strip_option() {
            TypeRef::Named(id) => universe
                .get(id)
                .and_then(|inner| wire_field(universe, inner, json_name)),
            _ => None,
        }
    })
}

/// A `+default` is written into schemas wherever it is: it must decode as the field's type, to
/// the exact range of an integer. (Types the defaults generator selects are checked there, with
/// the rules of applying a default.)
fn check_defaults(universe: &Universe, ty: &Type, diags: &mut Diagnostics) {
    if ty.selection.defaults {
        return;
    }
    for f in ty.fields() {
        let Some(value) = &f.attrs.default else { continue };
        if let Err(why) = super::json_fit::check(universe, &f.ty, value) {
            diags.push(
                Diagnostic::error(
                    &f.tags.loc(tag::DEFAULT, &f.loc),
                    format!("`+default={value}` does not fit field `{}`: {why}", f.name),
                )
                .label("invalid default")
                .help("a default is JSON that decodes as the field's type"),
            );
        }
    }
}

/// Whether a field's values are scalars on the wire (a possible list-map key).
fn scalar(universe: &Universe, t: &TypeRef) -> bool {
    match t.strip_option() {
        TypeRef::String | TypeRef::Primitive(_) => true,
        TypeRef::Named(id) => universe.get(id).is_some_and(|t| t.string_enum().is_some()),
        TypeRef::External(super::External::IntOrString | super::External::Quantity, _) => true,
        _ => false,
    }
}

/// A `+k8s:crd-gen:*` tag does something only on a kind (not a list) of a CRD package; short
/// names and categories also serve discovery through the REST mapping, so any served kind of an
/// external version may carry them.
fn unused_crd_tags(pkg: &Package, diags: &mut Diagnostics) {
    for ty in pkg.types.values() {
        let served = ty.resource().is_some() && !pkg.is_internal();
        let discovery = |name: &str| served && (name == tag::CRD_SHORT_NAMES || name == tag::CRD_CATEGORIES);
        let Some(t) = ty
            .tags
            .0
            .iter()
            .find(|t| t.name.starts_with("k8s:crd-gen:") && !discovery(&t.name))
        else {
            continue;
        };
        let why = if ty.resource().is_none() {
            format!("`{}` is not a kind served by a CRD", ty.name)
        } else if !pkg.attrs.crd || pkg.is_internal() {
            format!("package `{}` is not tagged `//! +k8s:crd-gen=true`", pkg.path)
        } else {
            continue;
        };
        diags.push(
            Diagnostic::error(&t.loc, format!("`+{}` does nothing here: {why}", t.name))
                .label("unused CRD tag")
                .help("CRD tags belong on the kinds of packages tagged `//! +k8s:crd-gen=true`"),
        );
    }
}

/// `+k8s:conversion-gen` names the hub a package converts through: another API package, never
/// the package itself.
fn check_conversion_peer(universe: &Universe, pkg: &Package, diags: &mut Diagnostics) {
    let Some(peer) = pkg.attrs.conversion_peers.first() else {
        return;
    };
    let why = if *peer == pkg.path {
        "a package cannot convert to itself"
    } else if universe.packages.get(peer).is_some_and(|p| p.group != pkg.group) {
        "the hub of a package is its own group's internal package"
    } else {
        return;
    };
    diags.push(
        Diagnostic::error(
            &pkg.tag_loc(tag::CONVERSION),
            format!("`+k8s:conversion-gen={peer}` on `{}`: {why}", pkg.path),
        )
        .label("not this package's hub")
        .help("name the group's internal package, such as `crate::apps` for `crate::apps::v1`"),
    );
}

/// The internal version is never served, so an OpenAPI switch there does nothing.
fn check_internal_openapi(pkg: &Package, diags: &mut Diagnostics) {
    if !pkg.is_internal() {
        return;
    }
    let on_types = pkg
        .types
        .values()
        .filter(|t| t.attrs.openapi.enabled == Some(true))
        .map(|t| t.tags.loc(tag::OPENAPI, &t.loc));
    let on_package = (pkg.attrs.openapi == Some(true)).then(|| pkg.tag_loc(tag::OPENAPI));
    for loc in on_package.into_iter().chain(on_types) {
        diags.push(
            Diagnostic::error(
                &loc,
                format!("`+k8s:openapi-gen=true` in the internal package `{}`", pkg.path),
            )
            .label("the internal version is never published")
            .help("OpenAPI definitions belong to the external versions; remove the tag here"),
        );
    }
}

/// Two groups with one name in identifiers would share the clientset's accessors (client-gen's
/// GroupGoName collision): `+groupGoName` tells them apart.
fn check_group_names(universe: &Universe, diags: &mut Diagnostics) {
    let mut seen: BTreeMap<&str, &Package> = BTreeMap::new();
    for pkg in universe.packages.values().filter(|p| !p.is_internal()) {
        match seen.get(pkg.group_go_name.as_str()) {
            Some(other) if other.group != pkg.group => diags.push(
                Diagnostic::error(
                    &pkg.tag_loc(tag::GROUP_NAME),
                    format!(
                        "groups `{}` and `{}` have the same name in generated code, `{}`",
                        other.group, pkg.group, pkg.group_go_name
                    ),
                )
                .label(format!("clientset accessors such as `{}` would collide", pkg.accessor))
                .related(&other.tag_loc(tag::GROUP_NAME), "the other group")
                .help("give one of them `//! +groupGoName=<UpperCamelName>`"),
            ),
            Some(_) => {}
            None => {
                seen.insert(&pkg.group_go_name, pkg);
            }
        }
    }
}

/// `+enum` names a type whose values are a fixed set of strings: in Rust, an enum of unit variants.
fn check_enum_tag(ty: &Type, diags: &mut Diagnostics) {
    if ty.attrs.is_enum && ty.unit_variants().is_none() {
        diags.push(
            Diagnostic::error(
                &ty.tags.loc(tag::ENUM, &ty.loc),
                format!("`+enum` is on `{}`, which is not an enum of unit variants", ty.name),
            )
            .label("not a string enum")
            .help("`+enum` marks an enum whose variants carry no data; each variant is one JSON string"),
        );
    }
}

/// `+k8s:zeroIsUnset` reads a zero as `None`, which needs an `Option` of a value with a zero: a
/// string or a number or bool (a string enum's empty string already reads as `None`).
fn check_zero_is_unset(ty: &Type, diags: &mut Diagnostics) {
    for f in ty.fields().iter().filter(|f| f.attrs.zero_is_unset) {
        let TypeRef::Option(inner) = &f.ty else {
            diags.push(
                Diagnostic::error(
                    &f.tags.loc(tag::ZERO_IS_UNSET, &f.loc),
                    format!("`+{}` is on `{}`, which is not an `Option`", tag::ZERO_IS_UNSET, f.name),
                )
                .label("not optional")
                .help("the tag says Go's zero value reads as unset; a plain field keeps its zero as it is, so remove the tag"),
            );
            continue;
        };
        if !matches!(inner.as_ref(), TypeRef::String | TypeRef::Primitive(_)) {
            diags.push(
                Diagnostic::error(
                    &f.tags.loc(tag::ZERO_IS_UNSET, &f.loc),
                    format!(
                        "`+{}` is on `{}`, whose value is not a string, number or bool",
                        tag::ZERO_IS_UNSET,
                        f.name
                    ),
                )
                .label("no zero value")
                .help("only scalars have Go's zero value that means unset; remove the tag"),
            );
        }
    }
}

fn check_kind(pkg: &Package, ty: &Type, diags: &mut Diagnostics) {
    let Some(kind) = &ty.kind else { return };
    let Some(tm) = ty.fields().iter().find(|f| f.name == kind.type_meta) else {
        return;
    };
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
    if kind.is_list {
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
