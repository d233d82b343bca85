//! conversion: for a package tagged `+k8s:conversion-gen=<internal package>`, the functions that
//! convert every type present by name on both sides, both ways (external <-> internal hub, never
//! external <-> external): `auto_convert_*` field by field, a public `convert_*` wrapper unless the
//! package has a hand-written function of that name, and `register_conversions`.
//!
//! Where a field cannot be converted by the rules and no hand-written function covers the pair,
//! codegen stops with an error naming the field, both locations and the function to write
//! (Go's conversion-gen exits 0 and leaves a compile error instead).

pub mod pairs;
mod value;

use proc_macro2::TokenStream;
use quote::quote;

use super::{Context, PackageGenerator, check_reexported, check_signature, type_path};
use crate::diag::{Diagnostic, Diagnostics, SourceLoc};
use crate::model::names::{self, ident};
use crate::model::tags::name as tag;
use crate::model::{External, Field, Package, Pass, Returns, Shape, Type, Variant};
use pairs::Direction;
use value::Rules;

/// The conversion generator.
pub struct Conversion;

impl PackageGenerator for Conversion {
    fn name(&self) -> &'static str {
        "conversion"
    }

    fn tool(&self) -> &'static str {
        "conversion-gen"
    }

    fn activation(&self) -> &'static str {
        "`//! +k8s:conversion-gen=<internal package path>`"
    }

    fn applies(&self, pkg: &Package) -> bool {
        !pkg.attrs.conversion_peers.is_empty()
    }

    fn registers(&self) -> Option<&'static str> {
        Some("register_conversions")
    }

    fn reexported(&self) -> bool {
        true
    }

    fn generate_package(&self, cx: &Context<'_>, pkg: &Package, diags: &mut Diagnostics) -> Option<TokenStream> {
        let universe = cx.universe;
        let Some(peer) = pairs::peer(universe, pkg) else {
            let value = pkg.attrs.conversion_peers.join(",");
            diags.push(
                Diagnostic::error(
                    &pkg.tag_loc(tag::CONVERSION),
                    format!("`{value}` is not an API package"),
                )
                .label("unknown conversion peer")
                .help("name the group's internal package by its module path, such as `crate::apps`"),
            );
            return None;
        };
        // A package naming itself or another group is reported by the model.
        if peer.path == pkg.path || peer.group != pkg.group {
            return None;
        }
        if pairs::types_package(universe, pkg).path != pkg.path {
            diags.push(
                Diagnostic::error(
                    &pkg.tag_loc(tag::CONVERSION_EXTERNAL_TYPES),
                    "external types in another package are not supported yet",
                )
                .label("must name this package")
                .help("keep the external types and their conversions in one package"),
            );
            return None;
        }
        let rules = Rules { universe, rt: cx.rt() };
        let rt = &rules.rt;
        let mut local = Diagnostics::new();
        let (mut items, mut registrations) = (Vec::new(), Vec::new());
        for ty in pkg.types.values() {
            let Some(peer_ty) = peer.types.get(&ty.name) else {
                local.note(format!(
                    "{}: conversion: `{}` has no counterpart in `{}`",
                    ty.loc, ty.name, peer.path
                ));
                continue;
            };
            if pairs::opted_out(ty) || pairs::opted_out(peer_ty) {
                local.note(format!(
                    "{}: conversion: `{}` opted out (`+k8s:conversion-gen=false`)",
                    ty.loc, ty.name
                ));
                continue;
            }
            for d in [
                Direction {
                    home: pkg,
                    from: (pkg, ty),
                    to: (peer, peer_ty),
                },
                Direction {
                    home: pkg,
                    from: (peer, peer_ty),
                    to: (pkg, ty),
                },
            ] {
                items.extend(direction_items(&rules, &d, &mut local));
                if ty.is_kind() && peer_ty.is_kind() {
                    let (a, b, f) = (path_of(universe, d.from.1), path_of(universe, d.to.1), d.path());
                    registrations.push(quote! { scheme.add_conversion_func::<#a, #b>(#f); });
                }
            }
        }
        let failed = local.has_errors();
        diags.extend(local);
        if failed {
            return None;
        }
        let doc = format!(
            " Conversions between `{}` and its internal version `{}`.",
            pkg.path, peer.path
        );
        Some(quote! {
            #![doc = #doc]

            /// Registers the conversion of every kind of this package to and from the internal version.
            pub fn register_conversions(scheme: &mut #rt::Scheme) -> ::core::result::Result<(), #rt::SchemeError> {
                #(#registrations)*
                ::core::result::Result::Ok(())
            }

            #(#items)*
        })
    }
}

/// The path generated code names `ty` by: its package's, where the package re-exports the module
/// that defines it (a peer package's private `types` module is out of reach of this one, as when
/// apps/v1beta1 converts to apps/v1), else the defining module's.
fn path_of(universe: &crate::model::Universe, ty: &Type) -> syn::Path {
    if let Some((package, module)) = ty.module.rsplit_once("::")
        && universe
            .packages
            .get(package)
            .is_some_and(|p| p.reexports.iter().any(|r| r == module))
    {
        return type_path(package, &ty.name);
    }
    type_path(&ty.module, &ty.name)
}

/// A field (or variant) the rules could not convert, with why.
struct Manual<'a> {
    what: String,
    loc: &'a SourceLoc,
    counterpart: Option<&'a SourceLoc>,
    why: String,
}

/// The `auto_` function and the public wrapper of one direction, or errors when fields need a
/// hand-written function that does not exist.
fn direction_items(rules: &Rules<'_>, d: &Direction<'_>, diags: &mut Diagnostics) -> Vec<TokenStream> {
    let (src, dst) = (d.from.1, d.to.1);
    let name = d.name();
    let rt = &rules.rt;
    let auto = ident(&d.auto_name());
    let public = ident(&name);
    let (a, b) = (path_of(rules.universe, src), path_of(rules.universe, dst));
    let (body, manual) = body(rules, src, dst);
    let mut items = Vec::new();
    if let Some(body) = &body {
        let doc = format!(
            " Converts `{}` to `{}` field by field. Generated; the public `{name}` calls it unless the package writes its own.",
            display(d.from.0, src),
            display(d.to.0, dst)
        );
        items.push(quote! {
            #[doc = #doc]
            pub fn #auto(input: &#a, out: &mut #b) -> ::core::result::Result<(), #rt::ConversionError> {
                #body
                ::core::result::Result::Ok(())
            }
        });
    }
    let signature = format!(
        "pub fn {name}(input: &{}, out: &mut {}) -> Result<(), runtime::ConversionError>",
        display(d.from.0, src),
        display(d.to.0, dst)
    );
    if let Some(hand) = d.home.functions.get(&name) {
        let (from, to) = (d.from.0.id(&src.name), d.to.0.id(&dst.name));
        let params = [(Pass::Ref, &from), (Pass::RefMut, &to)];
        if check_signature(hand, &params, &Returns::ConversionResult, &signature, diags) {
            check_reexported(d.home, hand, diags);
        }
        return items;
    }
    if body.is_some() && manual.is_empty() {
        let doc = format!(" Converts `{}` to `{}`.", display(d.from.0, src), display(d.to.0, dst));
        items.push(quote! {
            #[doc = #doc]
            pub fn #public(input: &#a, out: &mut #b) -> ::core::result::Result<(), #rt::ConversionError> {
                #auto(input, out)
            }
        });
        return items;
    }
    let calls = if body.is_some() {
        format!("; it may call `auto_{name}(input, out)?` first and then convert the rest")
    } else {
        String::new()
    };
    for m in manual {
        let mut diag = Diagnostic::error(
            m.loc,
            format!(
                "cannot convert {} of `{}` to `{}`: {}",
                m.what,
                display(d.from.0, src),
                display(d.to.0, dst),
                m.why
            ),
        )
        .label("needs a hand-written conversion")
        .help(format!("write in package `{}`: `{signature}`{calls}", d.home.path));
        if let Some(c) = m.counterpart {
            diag = diag.related(c, "the counterpart");
        }
        diags.push(diag);
    }
    items
}

/// `crate::apps::v1::Deployment`: the type as the package exposes it.
fn display(pkg: &Package, ty: &Type) -> String {
    format!("{}::{}", pkg.path, ty.name)
}

/// The statements of an `auto_` function, and what they could not convert. `None` when the
/// shapes differ so much that nothing can be generated.
fn body<'a>(rules: &Rules<'_>, src: &'a Type, dst: &'a Type) -> (Option<TokenStream>, Vec<Manual<'a>>) {
    let mut manual = Vec::new();
    match (&src.shape, &dst.shape) {
        (Shape::Struct { fields: sf, .. }, Shape::Struct { fields: df, .. }) => {
            let mut stmts = Vec::new();
            for f in sf.iter().filter(|f| converts(f)) {
                let Some(g) = df.iter().find(|g| g.name == f.name) else {
                    manual.push(Manual {
                        what: format!("field `{}`", f.name),
                        loc: &f.loc,
                        counterpart: Some(&dst.loc),
                        why: format!("`{}` has no field `{}`", dst.name, f.name),
                    });
                    continue;
                };
                if !converts(g) {
                    continue;
                }
                match rules.field(
                    &f.ty,
                    &g.ty,
                    &names::member(&f.name),
                    &names::member(&g.name),
                    g.attrs.zero_is_unset,
                ) {
                    Ok(s) => stmts.push(s),
                    Err(why) => manual.push(Manual {
                        what: format!("field `{}`", f.name),
                        loc: &f.ty_loc,
                        counterpart: Some(&g.ty_loc),
                        why,
                    }),
                }
            }
            if stmts.is_empty() {
                stmts.push(quote! { let _ = (input, out); });
            }
            (Some(quote! { #(#stmts)* }), manual)
        }
        (Shape::Enum { variants: sv }, Shape::Enum { variants: dv }) => {
            let mut arms = Vec::new();
            for v in sv {
                let matching = dv
                    .iter()
                    .find(|w| w.name == v.name && w.tuple == v.tuple && w.fields.len() == v.fields.len());
                let Some(w) = matching else {
                    manual.push(Manual {
                        what: format!("variant `{}`", v.name),
                        loc: &v.loc,
                        counterpart: Some(&dst.loc),
                        why: format!("`{}` has no variant `{}` of the same shape", dst.name, v.name),
                    });
                    continue;
                };
                match variant_arm(
                    rules,
                    (&path_of(rules.universe, src), v),
                    (&path_of(rules.universe, dst), w),
                ) {
                    Ok(arm) => arms.push(arm),
                    Err(why) => manual.push(Manual {
                        what: format!("variant `{}`", v.name),
                        loc: &v.loc,
                        counterpart: Some(&w.loc),
                        why,
                    }),
                }
            }
            if !manual.is_empty() {
                return (None, manual);
            }
            let body = if arms.is_empty() {
                quote! { match *input {} }
            } else {
                quote! { *out = match input { #(#arms)* }; }
            };
            (Some(body), manual)
        }
        _ => {
            manual.push(Manual {
                what: "the whole type".into(),
                loc: &src.loc,
                counterpart: Some(&dst.loc),
                why: "one side is a struct and the other an enum".into(),
            });
            (None, manual)
        }
    }
}

/// Whether a field takes part in conversion: TypeMeta is set by the Scheme after converting, and
/// `+k8s:conversion-gen=false` opts a field out.
fn converts(f: &Field) -> bool {
    !f.ty.strip_option().is_external(External::TypeMeta) && !f.attrs.conversion_opt_out
}

/// One `match` arm from a source variant to the same-named destination variant.
fn variant_arm(
    rules: &Rules<'_>,
    (sp, v): (&syn::Path, &Variant),
    (dp, w): (&syn::Path, &Variant),
) -> Result<TokenStream, String> {
    let (vn, wn) = (ident(&v.name), ident(&w.name));
    let binds: Vec<_> = (0..v.fields.len()).map(|i| quote::format_ident!("f{}", i)).collect();
    let values = v
        .fields
        .iter()
        .zip(&w.fields)
        .zip(&binds)
        .map(|((a, b), x)| rules.value(&a.ty, &b.ty, quote! { #x }, 1))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(if v.fields.is_empty() {
        quote! { #sp::#vn => #dp::#wn, }
    } else if v.tuple {
        quote! { #sp::#vn(#(#binds),*) => #dp::#wn(#(#values),*), }
    } else {
        let (sm, dm): (Vec<_>, Vec<_>) = v
            .fields
            .iter()
            .zip(&w.fields)
            .map(|(a, b)| (names::member(&a.name), names::member(&b.name)))
            .unzip();
        quote! { #sp::#vn { #(#sm: #binds),* } => #dp::#wn { #(#dm: #values),* }, }
    })
}
