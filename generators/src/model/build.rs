//! Builds the Universe from parsed files: finds the API packages, checks tags, resolves field
//! types and indexes hand-written functions and trait impls. Every problem becomes a diagnostic.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use super::resolve::{Index, Scope, display_type};
use super::tags::{self, Place, Tags, name as tag};
use super::{Field, Function, INTERNAL_VERSION, ModDecl, Package, Shape, Type, TypeRef, Universe, Variant};
use crate::diag::{Diagnostic, Diagnostics};
use crate::parse::tags::{DocBlock, extract};
use crate::parse::{SourceFile, serde_attrs, span_loc, span_loc_whole};

/// Builds the model of `files`. Errors are pushed into `diags`; the model is still returned so
/// that later checks can report more errors in the same run.
pub fn build(files: &[SourceFile], diags: &mut Diagnostics) -> Universe {
    let mut universe = Universe::default();
    let mut packages = find_packages(files, diags);
    let index = index(files, &packages);
    for f in files {
        let dir = dir_of(f);
        let Some(pkg) = packages.values_mut().find(|p| p.dir == dir) else {
            continue;
        };
        let scope = Scope::new(&index, &f.module, &pkg.path, &f.syntax.items);
        if !f.is_mod_rs {
            let block = extract(&f.display, &f.syntax.attrs, diags);
            pkg.written_tags.extend(block.written().map(str::to_string));
            reject_raw(
                &block,
                "package tags belong in the package's mod.rs: move this line to the top of that file",
                diags,
            );
        }
        let module = module_string(&f.module);
        for item in &f.syntax.items {
            add_item(pkg, f, &module, &scope, item, diags);
        }
    }
    // Trait impls may precede their type or sit in another file, so they are applied last.
    for f in files {
        let dir = dir_of(f);
        let Some(pkg) = packages.get_mut(dir) else { continue };
        for item in &f.syntax.items {
            if let Some((ty, tr)) = trait_impl(item)
                && let Some(t) = pkg.types.get_mut(&ty)
            {
                t.impls.insert(tr);
            }
        }
    }
    universe.packages = packages.into_values().map(|p| (p.path.clone(), p)).collect();
    universe
}

/// Finds API packages: a directory whose `mod.rs` carries `+groupName` is a group's internal
/// package, or an external one if its name is a version; a version directory below a tagged group
/// directory is an external package of that group.
fn find_packages(files: &[SourceFile], diags: &mut Diagnostics) -> BTreeMap<String, Package> {
    let mut groups: BTreeMap<String, String> = BTreeMap::new();
    // Directories whose `+groupName` is written but invalid: already reported, so neither they nor
    // their versions are reported again as "not an API package".
    let mut broken: BTreeSet<String> = BTreeSet::new();
    let mut tagged: BTreeMap<&str, (&SourceFile, DocBlock, Tags)> = BTreeMap::new();
    for f in files.iter().filter(|f| f.is_mod_rs && !f.module.is_empty()) {
        let block = extract(&f.display, &f.syntax.attrs, diags);
        let checked = tags::check(&block.tags, Place::Package, diags);
        if let Some(g) = checked.value(tag::GROUP_NAME) {
            groups.insert(dir_of(f).to_string(), g.to_string());
        } else if block.written().any(|n| n == tag::GROUP_NAME) {
            broken.insert(dir_of(f).to_string());
        }
        tagged.insert(f.rel.as_str(), (f, block, checked));
    }
    let mut packages = BTreeMap::new();
    for (f, block, checked) in tagged.into_values() {
        let dir = dir_of(f).to_string();
        let name = f.module.last().cloned().unwrap_or_default();
        let parent = dir.rsplit_once('/').map_or("", |(p, _)| p).to_string();
        if broken.contains(&dir) || broken.contains(&parent) {
            continue;
        }
        let (group, version) = match (groups.get(&dir), is_version(&name)) {
            (Some(g), true) => (g.clone(), name.clone()),
            (Some(g), false) => (g.clone(), INTERNAL_VERSION.to_string()),
            (None, true) => match groups.get(&parent) {
                Some(g) => (g.clone(), name.clone()),
                None => {
                    reject_checked(
                        &checked,
                        "this directory is not an API package: no `+groupName` here or in its parent",
                        diags,
                    );
                    continue;
                }
            },
            (None, false) => {
                reject_checked(
                    &checked,
                    "this directory is not an API package: add `//! +groupName=<group>` to this mod.rs (or to its parent's, for a version directory)",
                    diags,
                );
                continue;
            }
        };
        let module_decls = f.syntax.items.iter().filter_map(|i| mod_decl(&f.display, i)).collect();
        packages.insert(
            dir.clone(),
            Package {
                path: module_string(&f.module),
                dir,
                mod_file: f.display.clone(),
                group,
                version,
                tags: checked,
                written_tags: block.written().map(str::to_string).collect(),
                docs: block.prose,
                types: BTreeMap::new(),
                functions: BTreeMap::new(),
                module_decls,
                reexports: f.syntax.items.iter().filter_map(glob_reexport).collect(),
            },
        );
    }
    packages
}

/// Module paths and type names of every package, for type resolution.
fn index(files: &[SourceFile], packages: &BTreeMap<String, Package>) -> Index {
    let mut module_package = BTreeMap::new();
    let mut package_types: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for f in files {
        let dir = dir_of(f);
        let Some(pkg) = packages.get(dir) else { continue };
        module_package.insert(module_string(&f.module), pkg.path.clone());
        let names = package_types.entry(pkg.path.clone()).or_default();
        for item in &f.syntax.items {
            match item {
                syn::Item::Struct(s) => names.insert(s.ident.to_string()),
                syn::Item::Enum(e) => names.insert(e.ident.to_string()),
                _ => false,
            };
        }
    }
    Index {
        module_package,
        package_types,
    }
}

fn add_item(
    pkg: &mut Package,
    f: &SourceFile,
    module: &str,
    scope: &Scope<'_>,
    item: &syn::Item,
    diags: &mut Diagnostics,
) {
    match item {
        syn::Item::Struct(s) => {
            let cx = item_cx(f, scope, &s.attrs, &s.generics);
            let (fields, tuple) = build_fields(&cx, &s.fields, diags);
            let shape = Shape::Struct { fields, tuple };
            insert_type(
                pkg,
                f,
                module,
                &s.ident,
                &s.attrs,
                &s.generics,
                cx.container.present,
                shape,
                diags,
            );
        }
        syn::Item::Enum(e) => {
            let cx = item_cx(f, scope, &e.attrs, &e.generics);
            let variants = e
                .variants
                .iter()
                .map(|v| {
                    let block = extract(&f.display, &v.attrs, diags);
                    reject_raw(&block, "tags cannot be written on enum variants", diags);
                    let (fields, tuple) = build_fields(&cx, &v.fields, diags);
                    let loc = span_loc_whole(&f.display, v.ident.span());
                    let rename = serde_attrs::field(&v.attrs).rename;
                    let name = v.ident.to_string();
                    Variant {
                        json_name: rename.unwrap_or_else(|| {
                            serde_attrs::apply_rename_all(cx.container.rename_all.as_deref(), &name)
                        }),
                        name,
                        fields,
                        tuple,
                        docs: block.prose,
                        loc,
                    }
                })
                .collect();
            insert_type(
                pkg,
                f,
                module,
                &e.ident,
                &e.attrs,
                &e.generics,
                cx.container.present,
                Shape::Enum { variants },
                diags,
            );
        }
        syn::Item::Fn(func) => {
            reject_tags(&f.display, &func.attrs, "tags cannot be written on functions", diags);
            let sig = &func.sig;
            let inputs = sig.inputs.iter().map(|a| match a {
                syn::FnArg::Typed(t) => display_type(&t.ty),
                syn::FnArg::Receiver(_) => "self".into(),
            });
            let output = match &sig.output {
                syn::ReturnType::Default => String::new(),
                syn::ReturnType::Type(_, t) => display_type(t),
            };
            let function = Function {
                name: sig.ident.to_string(),
                module: module.to_string(),
                inputs: inputs.collect(),
                output,
                loc: span_loc_whole(&f.display, sig.ident.span()),
            };
            pkg.functions.insert(function.name.clone(), function);
        }
        syn::Item::Const(c) => reject_tags(&f.display, &c.attrs, "tags cannot be written on constants", diags),
        syn::Item::Static(s) => reject_tags(&f.display, &s.attrs, "tags cannot be written on statics", diags),
        syn::Item::Type(t) => reject_tags(
            &f.display,
            &t.attrs,
            "tags cannot be written on type aliases; use a newtype struct",
            diags,
        ),
        syn::Item::Mod(m) => reject_tags(
            &f.display,
            &m.attrs,
            "package tags are `//!` lines inside the package's mod.rs, not `///` on `mod`",
            diags,
        ),
        _ => {}
    }
}

#[allow(clippy::too_many_arguments)]
fn insert_type(
    pkg: &mut Package,
    f: &SourceFile,
    module: &str,
    ident: &syn::Ident,
    attrs: &[syn::Attribute],
    generics: &syn::Generics,
    serde: bool,
    shape: Shape,
    diags: &mut Diagnostics,
) {
    let block = extract(&f.display, attrs, diags);
    let tags = tags::check(&block.tags, Place::Type, diags);
    let loc = span_loc_whole(&f.display, ident.span());
    let name = ident.to_string();
    if let Some(existing) = pkg.types.get(&name) {
        diags.push(
            Diagnostic::error(
                &loc,
                format!("type `{name}` is defined twice in package `{}`", pkg.path),
            )
            .label("second definition")
            .related(&existing.loc, "first defined here")
            .help("the files of a package share one namespace, as a Go package does; rename one of them"),
        );
        return;
    }
    let derives = attrs
        .iter()
        .filter(|a| a.path().is_ident("derive"))
        .flat_map(|a| {
            a.parse_args_with(syn::punctuated::Punctuated::<syn::Path, syn::Token![,]>::parse_terminated)
                .map(|p| {
                    p.into_iter()
                        .filter_map(|p| p.segments.last().map(|s| s.ident.to_string()))
                        .collect::<Vec<_>>()
                })
                .unwrap_or_default()
        })
        .collect();
    let ty = Type {
        name: name.clone(),
        module: module.to_string(),
        docs: block.prose,
        tags,
        loc,
        shape,
        derives,
        impls: BTreeSet::new(),
        generic: !generics.params.is_empty(),
        serde,
    };
    pkg.types.insert(name, ty);
}

fn item_cx<'a>(
    f: &'a SourceFile,
    scope: &'a Scope<'a>,
    attrs: &[syn::Attribute],
    generics: &syn::Generics,
) -> ItemCx<'a> {
    let generics = generics.type_params().map(|p| p.ident.to_string()).collect();
    ItemCx {
        f,
        scope,
        container: serde_attrs::container(attrs),
        generics,
    }
}

/// What fields of one struct or enum share: the file, names in scope, serde container settings
/// and the item's generic parameter names.
struct ItemCx<'a> {
    f: &'a SourceFile,
    scope: &'a Scope<'a>,
    container: serde_attrs::SerdeContainer,
    generics: Vec<String>,
}

/// The fields of a struct or variant, and whether they are positional.
fn build_fields(cx: &ItemCx<'_>, fields: &syn::Fields, diags: &mut Diagnostics) -> (Vec<Field>, bool) {
    let tuple = matches!(fields, syn::Fields::Unnamed(_));
    (
        fields
            .iter()
            .enumerate()
            .map(|(i, field)| build_field(cx, i, field, diags))
            .collect(),
        tuple,
    )
}

fn build_field(cx: &ItemCx<'_>, position: usize, field: &syn::Field, diags: &mut Diagnostics) -> Field {
    let ItemCx {
        f,
        scope,
        container,
        generics,
    } = cx;
    let block = extract(&f.display, &field.attrs, diags);
    let tags = tags::check(&block.tags, Place::Field, diags);
    let serde = serde_attrs::field(&field.attrs);
    let (name, loc) = match &field.ident {
        Some(id) => (
            id.to_string().trim_start_matches("r#").to_string(),
            span_loc_whole(&f.display, id.span()),
        ),
        None => (
            position.to_string(),
            span_loc(&f.display, syn::spanned::Spanned::span(&field.ty), 1),
        ),
    };
    let ty_loc = span_loc_whole(&f.display, syn::spanned::Spanned::span(&field.ty));
    let ty = match scope.resolve(&field.ty) {
        Ok(t) => t,
        // Generic types are reported once, where the type is; their parameters are not errors.
        Err(path) if generics.contains(&path) => TypeRef::Unresolved(path),
        Err(path) => {
            diags.push(
                Diagnostic::error(&ty_loc, format!("cannot resolve type `{path}` of field `{name}`"))
                    .label("unknown type")
                    .help("import it with `use`, or write its `crate::` path; types from other crates must come from k8s-openapi, kube-core or serde_json"),
            );
            TypeRef::Unresolved(path)
        }
    };
    let json_name = serde
        .rename
        .clone()
        .unwrap_or_else(|| serde_attrs::apply_rename_all(container.rename_all.as_deref(), &name));
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
        (None, None) => matches!(ty, TypeRef::Option(_)) || serde.default || container.default,
    };
    Field {
        name,
        json_name,
        ty,
        optional,
        flatten: serde.flatten,
        skip: serde.skip,
        docs: block.prose,
        tags,
        loc,
        ty_loc,
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
    let path_attr = m
        .attrs
        .iter()
        .find(|a| a.path().is_ident("path"))
        .and_then(|a| match &a.meta {
            syn::Meta::NameValue(nv) => match &nv.value {
                syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(s), ..
                }) => Some(s.value()),
                _ => None,
            },
            _ => None,
        });
    Some(ModDecl {
        name: m.ident.to_string(),
        path_attr,
        loc: span_loc_whole(file, m.ident.span()),
    })
}

/// Reports every tag of our namespaces in `attrs` as misplaced, with `why`.
fn reject_tags(file: &Arc<str>, attrs: &[syn::Attribute], why: &str, diags: &mut Diagnostics) {
    let block = extract(file, attrs, diags);
    reject_raw(&block, why, diags);
}

fn reject_raw(block: &DocBlock, why: &str, diags: &mut Diagnostics) {
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

/// The directory of a file relative to the apis root (`apps/v1`; empty for the root).
fn dir_of(f: &SourceFile) -> &str {
    f.rel.rsplit_once('/').map_or("", |(d, _)| d)
}

fn module_string(module: &[String]) -> String {
    std::iter::once("crate")
        .chain(module.iter().map(String::as_str))
        .collect::<Vec<_>>()
        .join("::")
}

/// Kubernetes version names: `v1`, `v1beta2`, `v2alpha1`.
pub fn is_version(name: &str) -> bool {
    let Some(rest) = name.strip_prefix('v') else {
        return false;
    };
    let digits = rest.chars().take_while(char::is_ascii_digit).count();
    if digits == 0 || rest.starts_with('0') {
        return false;
    }
    let tail = &rest[digits..];
    if tail.is_empty() {
        return true;
    }
    ["alpha", "beta"].iter().any(|p| {
        tail.strip_prefix(p)
            .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()) && !n.starts_with('0'))
    })
}
