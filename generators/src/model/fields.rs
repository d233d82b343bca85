//! One type of an API package built from its syn item: the contexts of a module and of an item,
//! the fields and variants with their serde settings and tags, the new `Type`, its insertion into
//! the package, and the reports of tags written where they do nothing. `build` and `items` both
//! build on this; it builds on neither.

use std::collections::BTreeSet;
use std::sync::Arc;

use super::attrs::{FieldAttrs, TypeAttrs};
use super::resolve::Scope;
use super::tags::{self, Place, Tags, name as tag};
use super::{Field, Package, Shape, Type, TypeRef, Variant};
use crate::diag::{Diagnostic, Diagnostics};
use crate::parse::tags::{DocBlock, RawTag, extract};
use crate::parse::tree::is_test_cfg;
use crate::parse::{SourceFile, serde_attrs, span_loc, span_loc_whole};

/// What the items of one module share.
pub struct FileCx<'a> {
    /// The module's file.
    pub file: &'a SourceFile,
    /// The module's path (`crate::apps::v1::types`).
    pub module: String,
    /// The names in scope in the module.
    pub scope: &'a Scope<'a>,
}

/// What the fields of one struct or enum share: the module, serde container settings and the
/// item's generic parameter names.
pub struct ItemCx<'a> {
    /// The module.
    pub file: &'a FileCx<'a>,
    /// serde's container attributes.
    pub container: serde_attrs::SerdeContainer,
    /// The rename rule of the fields at hand: the struct's `rename_all`, or for a struct variant
    /// its own `rename_all` or the enum's `rename_all_fields`.
    pub field_rule: serde_attrs::RenameRule,
    /// The names of the item's type parameters.
    pub generics: Vec<String>,
}

pub(super) fn item_cx<'a>(
    file: &'a FileCx<'a>,
    attrs: &[syn::Attribute],
    generics: &syn::Generics,
    is_enum: bool,
) -> ItemCx<'a> {
    let container = serde_attrs::container(attrs);
    let field_rule = if is_enum {
        container.rename_all_fields
    } else {
        container.rename_all
    };
    ItemCx {
        file,
        container,
        field_rule,
        generics: generics.type_params().map(|p| p.ident.to_string()).collect(),
    }
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

/// The fields of a struct or variant, and whether they are positional.
pub(super) fn build_fields(cx: &ItemCx<'_>, fields: &syn::Fields, diags: &mut Diagnostics) -> (Vec<Field>, bool) {
    let tuple = matches!(fields, syn::Fields::Unnamed(_));
    let built = fields
        .iter()
        .enumerate()
        .filter(|(_, f)| !is_test_cfg(&f.attrs))
        .map(|(i, field)| build_field(cx, i, field, diags))
        .collect();
    (built, tuple)
}

fn build_field(cx: &ItemCx<'_>, position: usize, field: &syn::Field, diags: &mut Diagnostics) -> Field {
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
pub(super) fn build_variant(cx: &ItemCx<'_>, v: &syn::Variant, diags: &mut Diagnostics) -> Variant {
    let file = &cx.file.file.display;
    let mut block = extract(file, &v.attrs, diags);
    // `+k8s:enumExclude` is the one tag of a variant (a Go constant's): the rest are refused.
    let (exclude, others): (Vec<RawTag>, Vec<RawTag>) = std::mem::take(&mut block.tags).into_iter().partition(excludes);
    block.tags = others;
    reject_raw(
        &block,
        "tags cannot be written on enum variants, but for `+k8s:enumExclude`",
        diags,
    );
    let excluded = exclude
        .iter()
        .filter_map(|t| super::declarative::parse(&super::tags::Tag::from_raw(t), diags))
        .collect();
    let serde = serde_attrs::field(&v.attrs);
    serde_errors(file, &serde.errors, diags);
    let variant_cx = ItemCx {
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
        excluded,
        loc,
    }
}

/// Whether a variant's tag is `+k8s:enumExclude`, alone or under gate wrappers.
fn excludes(t: &RawTag) -> bool {
    match t.name.as_str() {
        "k8s:enumExclude" => true,
        "k8s:ifEnabled" | "k8s:ifDisabled" => t.chained.as_deref().is_some_and(excludes),
        _ => false,
    }
}
