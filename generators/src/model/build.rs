//! Builds the Universe from the loaded modules: finds the API packages, checks and types their
//! tags, resolves field types and indexes hand-written functions and trait impls; `finish` then
//! decides the facts that need the whole package (kinds, selections, names). Every problem
//! becomes a diagnostic.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use super::attrs::{FieldAttrs, PackageAttrs, TypeAttrs};
use super::resolve::{Index, Scope};
use super::tags::{self, Place, Tags, name as tag};
use super::{Field, ModDecl, Package, Shape, Type, TypeRef, Universe, Variant, Version, finish, items, names};
use crate::diag::{Diagnostic, Diagnostics};
use crate::parse::tags::{DocBlock, extract};
use crate::parse::tree::{is_test_cfg, path_attr};
use crate::parse::{SourceFile, serde_attrs, span_loc, span_loc_whole};

/// Builds the model of `files`. Errors are pushed into `diags`; the model is still returned so
/// that later checks can report more errors in the same run.
pub fn build(files: &[SourceFile], diags: &mut Diagnostics) -> Universe {
    let mut packages = find_packages(files, diags);
    let mut index = index(files, &packages);
    resolve_aliases(files, &packages, &mut index);
    let mut gated: BTreeSet<String> = BTreeSet::new();
    for f in files {
        let Some(path) = package_of(&packages, &f.module) else {
            continue;
        };
        let Some(pkg) = packages.get_mut(&path) else { continue };
        if let Some(cfg) = &f.cfg
            && gated.insert(cfg.to_string())
        {
            diags.push(
                Diagnostic::error(
                    cfg,
                    format!(
                        "module `{}` of API package `{path}` is compiled conditionally",
                        f.module.join("::")
                    ),
                )
                .label("`#[cfg]` on a module of an API package")
                .help("generated code cannot follow a `cfg`; compile the package's types unconditionally"),
            );
        }
        let scope = Scope::new(&index, &f.module, &pkg.path, &f.syntax.items);
        if module_string(&f.module) != pkg.path {
            let block = extract(&f.display, &f.syntax.attrs, diags);
            pkg.written_tags.extend(block.written().map(str::to_string));
            reject_raw(
                &block,
                "package tags belong in the package's mod.rs: move this line to the top of that file",
                diags,
            );
        }
        let cx = items::FileCx {
            file: f,
            module: module_string(&f.module),
            scope: &scope,
        };
        for item in &f.syntax.items {
            items::add_item(pkg, &cx, item, diags);
        }
    }
    // Trait impls may precede their type or sit in another file, so they are applied last.
    for f in files {
        let Some(pkg) = package_of(&packages, &f.module).and_then(|p| packages.get_mut(&p)) else {
            continue;
        };
        for item in f.syntax.items.iter().filter(|i| !is_test_cfg(item_attrs(i))) {
            if let Some((ty, tr)) = trait_impl(item)
                && let Some(t) = pkg.types.get_mut(&ty)
            {
                t.impls.insert(tr);
            }
        }
    }
    let mut universe = Universe { packages };
    finish::finish(&mut universe, diags);
    universe
}

/// The attributes of an item, for the `cfg` checks.
pub(super) fn item_attrs(item: &syn::Item) -> &[syn::Attribute] {
    match item {
        syn::Item::Struct(s) => &s.attrs,
        syn::Item::Enum(e) => &e.attrs,
        syn::Item::Fn(f) => &f.attrs,
        syn::Item::Impl(i) => &i.attrs,
        syn::Item::Type(t) => &t.attrs,
        syn::Item::Use(u) => &u.attrs,
        syn::Item::Const(c) => &c.attrs,
        syn::Item::Static(s) => &s.attrs,
        syn::Item::Mod(m) => &m.attrs,
        _ => &[],
    }
}

/// The package a module belongs to: the nearest enclosing module that is a package.
fn package_of(packages: &BTreeMap<String, Package>, module: &[String]) -> Option<String> {
    (0..=module.len())
        .rev()
        .map(|n| module_string(&module[..n]))
        .find(|p| packages.contains_key(p))
}

/// Finds API packages: a module whose file carries `+groupName` is a group's internal package,
/// or an external one if its name is a version; a version-named module below a tagged group
/// module is an external package of that group.
fn find_packages(files: &[SourceFile], diags: &mut Diagnostics) -> BTreeMap<String, Package> {
    let mut groups: BTreeMap<Vec<String>, String> = BTreeMap::new();
    // Modules whose `+groupName` is written but invalid: already reported, so neither they nor
    // their versions are reported again as "not an API package".
    let mut broken: BTreeSet<Vec<String>> = BTreeSet::new();
    let mut tagged: Vec<(&SourceFile, DocBlock, Tags)> = Vec::new();
    // Inline modules share their parent's file, whose inner doc lines are the parent's.
    let roots = files.iter().filter(|f| !f.module.is_empty() && !f.inline);
    for f in roots {
        let block = extract(&f.display, &f.syntax.attrs, diags);
        let checked = tags::check(&block.tags, Place::Package, diags);
        if let Some(g) = checked.value(tag::GROUP_NAME) {
            groups.insert(f.module.clone(), g.to_string());
        } else if block.written().any(|n| n == tag::GROUP_NAME) {
            broken.insert(f.module.clone());
        }
        tagged.push((f, block, checked));
    }
    let mut packages = BTreeMap::new();
    for (f, block, checked) in tagged {
        let name = f.module.last().cloned().unwrap_or_default();
        let parent = f.module[..f.module.len() - 1].to_vec();
        if broken.contains(&f.module) || broken.contains(&parent) {
            continue;
        }
        let version = Version::parse(&name);
        let versionish = version.is_none() && looks_like_version(&name);
        if versionish && (groups.contains_key(&f.module) || groups.contains_key(&parent)) {
            let at = checked.loc(
                tag::GROUP_NAME,
                &crate::diag::SourceLoc {
                    file: f.display.clone(),
                    line: 1,
                    col: 1,
                    len: 1,
                },
            );
            diags.push(
                Diagnostic::error(&at, format!("module `{name}` looks like an API version, but is not one"))
                    .label("taken neither as a version nor as the group's internal package")
                    .help("Kubernetes versions are `v<N>`, `v<N>beta<N>` or `v<N>alpha<N>`, lower case, without leading zeros (`v1beta1`)"),
            );
            continue;
        }
        if let (Some(own), Some(of_parent)) = (groups.get(&f.module), groups.get(&parent))
            && own != of_parent
        {
            diags.push(
                Diagnostic::error(
                    &checked.loc(tag::GROUP_NAME, &crate::diag::SourceLoc::default()),
                    format!("version `{name}` says `+groupName={own}`, its group `{of_parent}`"),
                )
                .label("a version belongs to its group")
                .help("write the group's name, or remove the tag here: a version inherits its group's"),
            );
        }
        let (group, version) = match (groups.get(&f.module), version) {
            (Some(g), Some(v)) => (g.clone(), v),
            (Some(g), None) => (g.clone(), Version::internal()),
            (None, Some(v)) => match groups.get(&parent) {
                Some(g) => (g.clone(), v),
                None => {
                    reject_checked(
                        &checked,
                        "this directory is not an API package: no `+groupName` here or in its parent",
                        diags,
                    );
                    continue;
                }
            },
            (None, None) => {
                // Tags in a file of a package's module tree belong to the package's mod.rs; that
                // is reported when the package's files are read.
                if !groups.keys().any(|g| f.module.starts_with(g)) {
                    reject_checked(
                        &checked,
                        "this directory is not an API package: add `//! +groupName=<group>` to this mod.rs (or to its parent's, for a version directory)",
                        diags,
                    );
                }
                continue;
            }
        };
        let path = module_string(&f.module);
        let attrs = PackageAttrs::from_tags(&checked);
        let go_name = names::group_go_name(&group, attrs.group_go_name.as_deref());
        let model_package =
            names::model_package(attrs.openapi_model_package.as_deref(), &group, version.as_str(), &path);
        packages.insert(
            path.clone(),
            Package {
                dir: f.module.join("/"),
                mod_dir: f.rel.rsplit_once('/').map_or("", |(d, _)| d).to_string(),
                mod_file: f.display.clone(),
                api_version: names::api_version(&group, version.as_str()),
                accessor: names::group_accessor(&go_name, version.as_str()),
                group_client: names::group_client(&go_name, version.as_str()),
                informer_group: names::informer_group(&go_name),
                informer_version: names::informer_version(&go_name, version.as_str()),
                group_go_name: go_name,
                model_package,
                group,
                version,
                tags: checked,
                attrs,
                written_tags: block.written().map(str::to_string).collect(),
                types: BTreeMap::new(),
                aliases: BTreeMap::new(),
                functions: BTreeMap::new(),
                module_decls: f.syntax.items.iter().filter_map(|i| mod_decl(&f.display, i)).collect(),
                reexports: f.syntax.items.iter().filter_map(glob_reexport).collect(),
                path,
            },
        );
    }
    one_directory_per_group_version(&packages, diags);
    packages
}

/// Whether a module name reads as an attempt at a version (`v1Beta1`, `v01`, `V2`).
fn looks_like_version(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    lower
        .strip_prefix('v')
        .is_some_and(|r| r.starts_with(|c: char| c.is_ascii_digit()))
}

/// Two modules serving one group-version would write one output twice: an error at the second.
fn one_directory_per_group_version(packages: &BTreeMap<String, Package>, diags: &mut Diagnostics) {
    let mut seen: BTreeMap<(&str, &str), &Package> = BTreeMap::new();
    for pkg in packages.values() {
        if let Some(first) = seen.insert((&pkg.group, pkg.version.as_str()), pkg) {
            diags.push(
                Diagnostic::error(
                    &pkg.tag_loc(tag::GROUP_NAME),
                    format!("`{}` and `{}` are both {}", first.path, pkg.path, pkg.api_version),
                )
                .label("a second package for one group-version")
                .related(&first.tag_loc(tag::GROUP_NAME), "the first")
                .help("one group-version has one package; merge them, or give one another version"),
            );
        }
    }
}

/// Module paths, type names and type aliases of every package, for type resolution.
fn index(files: &[SourceFile], packages: &BTreeMap<String, Package>) -> Index {
    let mut index = Index::default();
    for f in files {
        let Some(pkg) = package_of(packages, &f.module) else {
            continue;
        };
        index.module_package.insert(module_string(&f.module), pkg.clone());
        let names = index.package_types.entry(pkg.clone()).or_default();
        for item in f.syntax.items.iter().filter(|i| !is_test_cfg(item_attrs(i))) {
            match item {
                syn::Item::Struct(s) => names.insert(s.ident.to_string()),
                syn::Item::Enum(e) => names.insert(e.ident.to_string()),
                _ => false,
            };
        }
    }
    index
}

/// Resolves every type alias of the packages in its own module (aliases of aliases too, to a
/// fixpoint bounded by the nesting limit); an alias that does not resolve is reported where it is
/// used, and at the alias when it is added to its package.
fn resolve_aliases(files: &[SourceFile], packages: &BTreeMap<String, Package>, index: &mut Index) {
    for _ in 0..crate::parse::tree::MAX_DEPTH {
        let mut found = BTreeMap::new();
        for f in files {
            let Some(pkg) = package_of(packages, &f.module) else {
                continue;
            };
            let scope = Scope::new(index, &f.module, &pkg, &f.syntax.items);
            for item in f.syntax.items.iter().filter(|i| !is_test_cfg(item_attrs(i))) {
                if let syn::Item::Type(t) = item
                    && t.generics.params.is_empty()
                    && let Ok(target) = scope.resolve(&t.ty)
                {
                    found.insert(
                        super::TypeId {
                            package: pkg.clone(),
                            name: t.ident.to_string(),
                        },
                        target,
                    );
                }
            }
        }
        if found == index.aliases {
            return;
        }
        index.aliases = found;
    }
}

/// `pub use name::*;` as `name`.
fn glob_reexport(item: &syn::Item) -> Option<String> {
    let syn::Item::Use(u) = item else { return None };
    if !matches!(u.vis, syn::Visibility::Public(_)) {
        return None;
    }
    match &u.tree {
        syn::UseTree::Path(p) if matches!(*p.tree, syn::UseTree::Glob(_)) => Some(p.ident.to_string()),
        _ => None,
    }
}

/// `impl Trait for Type` as (type name, trait name).
fn trait_impl(item: &syn::Item) -> Option<(String, String)> {
    let syn::Item::Impl(i) = item else { return None };
    let (_, trait_path, _) = i.trait_.as_ref()?;
    let syn::Type::Path(self_ty) = &*i.self_ty else {
        return None;
    };
    Some((
        self_ty.path.segments.last()?.ident.to_string(),
        trait_path.segments.last()?.ident.to_string(),
    ))
}

fn mod_decl(file: &Arc<str>, item: &syn::Item) -> Option<ModDecl> {
    let syn::Item::Mod(m) = item else { return None };
    if m.content.is_some() {
        return None;
    }
    Some(ModDecl {
        name: m.ident.to_string(),
        path_attr: path_attr(&m.attrs),
        loc: span_loc_whole(file, m.ident.span()),
    })
}

/// Reports every tag of our namespaces in `attrs` as misplaced, with `why`.
pub(super) fn reject_tags(file: &Arc<str>, attrs: &[syn::Attribute], why: &str, diags: &mut Diagnostics) {
    let block = extract(file, attrs, diags);
    reject_raw(&block, why, diags);
}

pub(super) fn reject_raw(block: &DocBlock, why: &str, diags: &mut Diagnostics) {
    for t in block.tags.iter().filter(|t| tags::in_our_namespace(&t.name)) {
        diags.push(
            Diagnostic::error(&t.loc, format!("tag `{}` is on the wrong item", t.display()))
                .label(why.to_string())
                .help("tags go on packages (`//!` in mod.rs), types and fields"),
        );
    }
}

fn reject_checked(tags: &Tags, why: &str, diags: &mut Diagnostics) {
    for t in &tags.0 {
        diags.push(
            Diagnostic::error(&t.loc, format!("package tag `+{}` outside an API package", t.name))
                .label(why.to_string()),
        );
    }
}

/// A module path as the model writes it: `crate::apps::v1`.
pub(super) fn module_string(module: &[String]) -> String {
    std::iter::once("crate")
        .chain(module.iter().map(String::as_str))
        .collect::<Vec<_>>()
        .join("::")
}

/// The fields of a struct or variant, and whether they are positional.
pub(super) fn build_fields(
    cx: &items::ItemCx<'_>,
    fields: &syn::Fields,
    diags: &mut Diagnostics,
) -> (Vec<Field>, bool) {
    let tuple = matches!(fields, syn::Fields::Unnamed(_));
    let built = fields
        .iter()
        .enumerate()
        .filter(|(_, f)| !is_test_cfg(&f.attrs))
        .map(|(i, field)| build_field(cx, i, field, diags))
        .collect();
    (built, tuple)
}

fn build_field(cx: &items::ItemCx<'_>, position: usize, field: &syn::Field, diags: &mut Diagnostics) -> Field {
    let file = &cx.file.file.display;
    let block = extract(file, &field.attrs, diags);
    let tags = tags::check(&block.tags, Place::Field, diags);
    let serde = serde_attrs::field(&field.attrs);
    let (name, loc) = match &field.ident {
        Some(id) => (
            id.to_string().trim_start_matches("r#").to_string(),
            span_loc_whole(file, id.span()),
        ),
        None => (
            position.to_string(),
            span_loc(file, syn::spanned::Spanned::span(&field.ty), 1),
        ),
    };
    if field.attrs.iter().any(|a| a.path().is_ident("cfg")) {
        diags.push(
            Diagnostic::error(&loc, format!("field `{name}` is compiled conditionally"))
                .label("`#[cfg]` on a field of an API type")
                .help("generated code cannot follow a `cfg`; every field of an API type is always there"),
        );
    }
    let ty_loc = span_loc_whole(file, syn::spanned::Spanned::span(&field.ty));
    let alias = cx.file.scope.alias_named(&field.ty);
    let ty = match cx.file.scope.resolve(&field.ty) {
        Ok(t) => t,
        // Generic types are reported once, where the type is; their parameters are not errors.
        Err(path) if cx.generics.contains(&path) => TypeRef::Unresolved(path),
        Err(path) => {
            diags.push(
                Diagnostic::error(&ty_loc, format!("cannot resolve type `{path}` of field `{name}`"))
                    .label("unknown type")
                    .help("import it with `use`, or write its `crate::` path; types from other crates must come from k8s-openapi, kube-core or serde_json"),
            );
            TypeRef::Unresolved(path)
        }
    };
    if let Some(missing) = missing_meta(&ty) {
        diags.push(
            Diagnostic::error(&ty_loc, format!("k8s-openapi has no `meta::v1::{missing}`"))
                .label("no such type")
                .help(format!(
                    "Kubernetes publishes no definition of `{missing}`, so k8s-openapi lacks it; the runtime crate has its wire form: `runtime::meta::v1::{missing}`"
                )),
        );
    }
    serde_errors(file, &serde.errors, diags);
    let json_name = serde
        .rename
        .clone()
        .unwrap_or_else(|| cx.field_rule.apply_to_field(&name));
    let optional = match (tags.get(tag::OPTIONAL), tags.get(tag::REQUIRED)) {
        (Some(o), Some(r)) => {
            diags.push(
                Diagnostic::error(
                    &r.loc,
                    format!("field `{name}` is tagged both `+optional` and `+required`"),
                )
                .label("conflicts with `+optional`")
                .related(&o.loc, "`+optional` here")
                .help("keep one of them"),
            );
            true
        }
        (Some(_), None) => true,
        (None, Some(_)) => false,
        (None, None) => matches!(ty, TypeRef::Option(_)) || serde.default || cx.container.default,
    };
    Field {
        name,
        json_name,
        ty,
        optional,
        aliases: serde.aliases.clone(),
        alias,
        flatten: serde.flatten,
        omitempty: serde.skip_serializing_if.is_some(),
        skip: serde.skip,
        docs: block.prose,
        attrs: FieldAttrs::from_tags(&tags),
        tags,
        loc,
        ty_loc,
    }
}

/// Reports the serde attribute values serde itself would refuse.
pub(super) fn serde_errors(file: &Arc<str>, errors: &[serde_attrs::SerdeError], diags: &mut Diagnostics) {
    for e in errors {
        diags.push(
            Diagnostic::error(&span_loc_whole(file, e.span), e.message.clone())
                .label("serde rejects this")
                .help("write one of serde's rename rules; serde_derive would not compile it"),
        );
    }
}

/// A meta/v1 type of k8s-openapi that k8s-openapi does not have, anywhere in a field's type.
fn missing_meta(t: &TypeRef) -> Option<String> {
    match t {
        TypeRef::External(_, path) => super::known::missing_meta_type(path).map(str::to_string),
        TypeRef::Option(x) | TypeRef::Vec(x) | TypeRef::Box(x) => missing_meta(x),
        TypeRef::Map { key, value, .. } => missing_meta(key).or_else(|| missing_meta(value)),
        _ => None,
    }
}

/// A struct or enum's entry in its package; a second definition of one name is an error.
pub(super) fn insert_type(pkg: &mut Package, ty: Type, diags: &mut Diagnostics) {
    if let Some(existing) = pkg.types.get(&ty.name) {
        diags.push(
            Diagnostic::error(
                &ty.loc,
                format!("type `{}` is defined twice in package `{}`", ty.name, pkg.path),
            )
            .label("second definition")
            .related(&existing.loc, "first defined here")
            .help("the files of a package share one namespace, as a Go package does; rename one of them"),
        );
        return;
    }
    pkg.types.insert(ty.name.clone(), ty);
}

/// A new type with its checked tags; kinds, selections and object access are decided by `finish`.
#[allow(clippy::too_many_arguments)]
pub(super) fn new_type(
    name: String,
    module: String,
    block: DocBlock,
    tags: Tags,
    loc: crate::diag::SourceLoc,
    shape: Shape,
    derives: BTreeSet<String>,
    generic: bool,
    serde: bool,
) -> Type {
    Type {
        name,
        module,
        docs: block.prose,
        attrs: TypeAttrs::from_tags(&tags),
        tags,
        loc,
        shape,
        derives,
        impls: BTreeSet::new(),
        generic,
        serde,
        kind: None,
        object: None,
        selection: Default::default(),
        apply_configuration: None,
        transparent: false,
        protobuf: None,
    }
}

/// One enum variant.
pub(super) fn build_variant(cx: &items::ItemCx<'_>, v: &syn::Variant, diags: &mut Diagnostics) -> Variant {
    let file = &cx.file.file.display;
    let block = extract(file, &v.attrs, diags);
    reject_raw(&block, "tags cannot be written on enum variants", diags);
    let serde = serde_attrs::field(&v.attrs);
    serde_errors(file, &serde.errors, diags);
    let variant_cx = items::ItemCx {
        file: cx.file,
        container: cx.container.clone(),
        field_rule: serde.rename_all.unwrap_or(cx.field_rule),
        generics: cx.generics.clone(),
    };
    let (fields, tuple) = build_fields(&variant_cx, &v.fields, diags);
    let loc = span_loc_whole(file, v.ident.span());
    let name = v.ident.to_string();
    Variant {
        json_name: serde
            .rename
            .unwrap_or_else(|| cx.container.rename_all.apply_to_variant(&name)),
        name,
        fields,
        tuple,
        docs: block.prose,
        loc,
    }
}
