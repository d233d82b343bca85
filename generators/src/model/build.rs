//! Builds the Universe from the loaded modules: finds the API packages, checks and types their
//! tags, resolves field types and indexes hand-written functions and trait impls; `finish` then
//! decides the facts that need the whole package (kinds, selections, names). Every problem
//! becomes a diagnostic.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use super::attrs::PackageAttrs;
use super::fields::{FileCx, item_attrs, reject_raw};
use super::resolve::{Index, Scope};
use super::tags::{self, Place, Tags, name as tag};
use super::{ModDecl, Package, Universe, Version, finish, items, names};
use crate::diag::{Diagnostic, Diagnostics};
use crate::parse::tags::{DocBlock, extract};
use crate::parse::tree::{is_test_cfg, path_attr};
use crate::parse::{SourceFile, span_loc_whole};

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
        let cx = FileCx {
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
        let parent = &f.module[..f.module.len() - 1];
        if broken.contains(&f.module) || broken.contains(parent) {
            continue;
        }
        if let Some((group, version)) = group_version(f, &checked, &groups, diags) {
            let package = package(f, block, checked, group, version);
            packages.insert(package.path.clone(), package);
        }
    }
    one_directory_per_group_version(&packages, diags);
    packages
}

/// The group and version of the module `f`, whose package tags are `checked`: a version module
/// (`v1`) below a group's module, or the group's own module as its internal version; `None`, with
/// what is wrong reported, for a module that is neither.
fn group_version(
    f: &SourceFile,
    checked: &Tags,
    groups: &BTreeMap<Vec<String>, String>,
    diags: &mut Diagnostics,
) -> Option<(String, Version)> {
    let name = f.module.last().cloned().unwrap_or_default();
    let parent = f.module[..f.module.len() - 1].to_vec();
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
        return None;
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
    match (groups.get(&f.module), version) {
        (Some(g), Some(v)) => Some((g.clone(), v)),
        (Some(g), None) => Some((g.clone(), Version::internal())),
        (None, Some(v)) => match groups.get(&parent) {
            Some(g) => Some((g.clone(), v)),
            None => {
                reject_checked(
                    checked,
                    "this directory is not an API package: no `+groupName` here or in its parent",
                    diags,
                );
                None
            }
        },
        (None, None) => {
            // Tags in a file of a package's module tree belong to the package's mod.rs; that
            // is reported when the package's files are read.
            if !groups.keys().any(|g| f.module.starts_with(g)) {
                reject_checked(
                    checked,
                    "this directory is not an API package: add `//! +groupName=<group>` to this mod.rs (or to its parent's, for a version directory)",
                    diags,
                );
            }
            None
        }
    }
}

/// The package of module `f` in `group` and `version`, with every name the model derives from
/// them; its types, aliases and functions are added when its files are read.
fn package(f: &SourceFile, block: DocBlock, checked: Tags, group: String, version: Version) -> Package {
    let path = module_string(&f.module);
    let attrs = PackageAttrs::from_tags(&checked);
    let go_name = names::group_go_name(&group, attrs.group_go_name.as_deref());
    let model_package = names::model_package(attrs.openapi_model_package.as_deref(), &group, version.as_str(), &path);
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
    }
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
