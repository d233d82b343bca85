//! The items of one module of an API package, added to the package: structs and enums with their
//! serde settings and tags, hand-written functions with their signatures, and tags written where
//! they do nothing (functions, constants, modules) reported.

use std::collections::BTreeSet;

use super::fields::{FileCx, ItemCx, build_fields, build_variant, insert_type, item_cx, new_type, reject_tags};
use super::resolve::{Scope, display_type};
use super::tags::{self, Place};
use super::{Function, Package, Param, Pass, Returns, Shape, TypeRef};
use crate::diag::{Diagnostic, Diagnostics};
use crate::parse::span_loc_whole;
use crate::parse::tags::extract;
use crate::parse::tree::is_test_cfg;

/// Adds one item of a package's module to the package.
pub fn add_item(pkg: &mut Package, cx: &FileCx<'_>, item: &syn::Item, diags: &mut Diagnostics) {
    let display = &cx.file.display;
    if is_test_cfg(super::fields::item_attrs(item)) {
        return;
    }
    match item {
        syn::Item::Struct(s) => {
            let icx = item_cx(cx, &s.attrs, &s.generics, false);
            let (fields, tuple) = build_fields(&icx, &s.fields, diags);
            add_type(
                pkg,
                &icx,
                &s.ident,
                &s.attrs,
                &s.generics,
                Shape::Struct { fields, tuple },
                diags,
            );
        }
        syn::Item::Enum(e) => {
            let icx = item_cx(cx, &e.attrs, &e.generics, true);
            let variants = e.variants.iter().map(|v| build_variant(&icx, v, diags)).collect();
            add_type(
                pkg,
                &icx,
                &e.ident,
                &e.attrs,
                &e.generics,
                Shape::Enum { variants },
                diags,
            );
        }
        syn::Item::Fn(func) => {
            reject_tags(display, &func.attrs, "tags cannot be written on functions", diags);
            let sig = &func.sig;
            let params = sig.inputs.iter().map(|a| param(cx.scope, a)).collect();
            let function = Function {
                name: sig.ident.to_string(),
                module: cx.module.clone(),
                params,
                returns: returns(&sig.output),
                loc: span_loc_whole(display, sig.ident.span()),
            };
            pkg.functions.insert(function.name.clone(), function);
        }
        syn::Item::Const(c) => reject_tags(display, &c.attrs, "tags cannot be written on constants", diags),
        syn::Item::Static(s) => reject_tags(display, &s.attrs, "tags cannot be written on statics", diags),
        syn::Item::Type(t) => add_alias(pkg, cx, t, diags),
        syn::Item::Mod(m) => reject_tags(
            display,
            &m.attrs,
            "package tags are `//!` lines inside the package's mod.rs, not `///` on `mod`",
            diags,
        ),
        _ => {}
    }
}

fn add_type(
    pkg: &mut Package,
    cx: &ItemCx<'_>,
    ident: &syn::Ident,
    attrs: &[syn::Attribute],
    generics: &syn::Generics,
    shape: Shape,
    diags: &mut Diagnostics,
) {
    let display = &cx.file.file.display;
    let block = extract(display, attrs, diags);
    let checked = tags::check(&block.tags, Place::Type, diags);
    let loc = span_loc_whole(display, ident.span());
    super::fields::serde_errors(display, &cx.container.errors, diags);
    if attrs.iter().any(|a| a.path().is_ident("cfg")) {
        diags.push(
            Diagnostic::error(&loc, format!("type `{ident}` is compiled conditionally"))
                .label("`#[cfg]` on a type of an API package")
                .help("generated code cannot follow a `cfg`; compile the package's types unconditionally"),
        );
    }
    let derives: BTreeSet<String> = attrs
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
    let mut ty = new_type(
        ident.to_string(),
        cx.file.module.clone(),
        block,
        checked,
        loc,
        shape,
        derives,
        !generics.params.is_empty(),
        cx.container.present,
    );
    ty.transparent = cx.container.transparent;
    resolve_methods(cx.file.scope, &mut ty.attrs.client.methods, diags);
    insert_type(pkg, ty, diags);
}

/// A parameter of a hand-written function, its type resolved in the function's module.
fn param(scope: &Scope<'_>, arg: &syn::FnArg) -> Param {
    let syn::FnArg::Typed(t) = arg else {
        return Param {
            written: "self".into(),
            pass: Pass::Value,
            ty: None,
        };
    };
    let (pass, inner) = match &*t.ty {
        syn::Type::Reference(r) if r.mutability.is_some() => (Pass::RefMut, &*r.elem),
        syn::Type::Reference(r) => (Pass::Ref, &*r.elem),
        other => (Pass::Value, other),
    };
    Param {
        written: display_type(&t.ty),
        pass,
        ty: scope.resolve(inner).ok(),
    }
}

/// A hand-written function's return type: nothing, the conversion result, or something else.
fn returns(output: &syn::ReturnType) -> Returns {
    let syn::ReturnType::Type(_, ty) = output else {
        return Returns::Unit;
    };
    let written = display_type(ty);
    let syn::Type::Path(p) = &**ty else {
        return if matches!(&**ty, syn::Type::Tuple(t) if t.elems.is_empty()) {
            Returns::Unit
        } else {
            Returns::Other(written)
        };
    };
    let Some(last) = p.path.segments.last().filter(|s| s.ident == "Result") else {
        return Returns::Other(written);
    };
    let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
        return Returns::Other(written);
    };
    let args: Vec<&syn::GenericArgument> = args.args.iter().collect();
    let unit = matches!(args.first(), Some(syn::GenericArgument::Type(syn::Type::Tuple(t))) if t.elems.is_empty());
    let error = matches!(args.get(1), Some(syn::GenericArgument::Type(syn::Type::Path(e)))
        if e.path.segments.last().is_some_and(|s| s.ident == "ConversionError"));
    if args.len() == 2 && unit && error {
        Returns::ConversionResult
    } else {
        Returns::Other(written)
    }
}

/// A type alias: its tags are a type's; what it stands for is resolved in its module.
fn add_alias(pkg: &mut Package, cx: &FileCx<'_>, t: &syn::ItemType, diags: &mut Diagnostics) {
    let display = &cx.file.display;
    let block = extract(display, &t.attrs, diags);
    let tags = tags::check(&block.tags, Place::Type, diags);
    let target = match cx.scope.resolve(&t.ty) {
        Ok(target) if t.generics.params.is_empty() => target,
        Ok(_) => return,
        Err(path) => {
            let ty_loc = span_loc_whole(display, syn::spanned::Spanned::span(&*t.ty));
            diags.push(
                Diagnostic::error(&ty_loc, format!("cannot resolve type `{path}` of alias `{}`", t.ident))
                    .label("unknown type")
                    .help("import it with `use`, or write its `crate::` path; types from other crates must come from k8s-openapi, kube-core or serde_json"),
            );
            TypeRef::Unresolved(path)
        }
    };
    let alias = super::Alias {
        name: t.ident.to_string(),
        attrs: super::TypeAttrs::from_tags(&tags),
        tags,
        target,
    };
    pkg.aliases.insert(alias.name.clone(), alias);
}

/// Resolves the `input=` and `result=` paths of `+genclient:method` tags in the module's scope:
/// a type of this crate or of k8s-openapi; anything else is an error at the tag.
fn resolve_methods(scope: &Scope<'_>, methods: &mut [super::attrs::MethodTag], diags: &mut Diagnostics) {
    for m in methods {
        for (key, path, out) in [
            ("input", m.input.clone(), &mut m.input_ty),
            ("result", m.result.clone(), &mut m.result_ty),
        ] {
            let Some(path) = path else { continue };
            let resolved = syn::parse_str::<syn::Type>(&path)
                .ok()
                .and_then(|t| scope.resolve(&t).ok())
                .filter(|t| matches!(t, TypeRef::Named(_) | TypeRef::External(..)));
            match resolved {
                Some(t) => *out = Some(t),
                None => diags.push(
                    Diagnostic::error(&m.loc, format!("`{key}={path}` of method `{}` names no type", m.name))
                        .label("unknown type")
                        .help("name a type of this crate (`Scale`, `crate::autoscaling::v1::Scale`) or of k8s-openapi"),
                ),
            }
        }
    }
}
