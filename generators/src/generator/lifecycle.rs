//! prerelease-lifecycle: for a package tagged `+k8s:prerelease-lifecycle-gen=true`, an
//! `impl runtime::ApiLifecycle` per kind from its `:introduced`, `:deprecated`, `:removed` and
//! `:replacement` tags, as the model decides them (`model::kind::Lifecycle`: as upstream, a
//! pre-release version is deprecated three minors after its introduction and removed three after
//! that unless tagged; a GA version only when tagged).

use proc_macro2::TokenStream;
use quote::quote;

use super::{Context, PackageGenerator, type_path};
use crate::diag::{Diagnostic, Diagnostics};
use crate::model::kind::Lifecycle as Kinds;
use crate::model::tags::name as tag;
use crate::model::{Package, Type};

/// The prerelease-lifecycle generator.
pub struct Lifecycle;

impl PackageGenerator for Lifecycle {
    fn name(&self) -> &'static str {
        "prerelease-lifecycle"
    }

    fn tool(&self) -> &'static str {
        "prerelease-lifecycle-gen"
    }

    fn activation(&self) -> &'static str {
        "`//! +k8s:prerelease-lifecycle-gen=true`"
    }

    fn applies(&self, pkg: &Package) -> bool {
        pkg.attrs.lifecycle
    }

    fn registers(&self) -> Option<&'static str> {
        Some("register_lifecycles")
    }

    fn generate_package(&self, cx: &Context<'_>, pkg: &Package, diags: &mut Diagnostics) -> Option<TokenStream> {
        let kinds: Vec<(&Type, Option<&Kinds>)> = pkg.kinds().map(|(t, k)| (t, k.lifecycle.as_ref())).collect();
        // A kind without a lifecycle has been reported by the model.
        if kinds.iter().any(|(_, l)| l.is_none()) {
            return None;
        }
        if kinds.is_empty() {
            diags.push(
                Diagnostic::error(
                    &pkg.tag_loc(tag::LIFECYCLE),
                    format!("package `{}` asks for lifecycle methods but has no kinds", pkg.path),
                )
                .label("nothing to generate")
                .help("remove the tag"),
            );
            return None;
        }
        let impls = kinds.iter().filter_map(|(t, l)| Some(lifecycle_impl(cx, t, (*l)?)));
        let doc = format!(" API lifecycle of the kinds of `{}`.", pkg.path);
        let rt = cx.rt();
        let (group, version) = (&pkg.group, pkg.version.as_str());
        let adds = kinds.iter().map(|(t, _)| {
            let path = type_path(&t.module, &t.name);
            let kind = &t.name;
            quote! { scheme.add_api_lifecycle::<#path>(#rt::GroupVersionKind::from_static(#group, #version, #kind)); }
        });
        Some(quote! {
            #![doc = #doc]
            #(#impls)*

            /// Records the lifecycle of every kind of this package, for deprecation warnings by GVK.
            pub fn register_lifecycles(scheme: &mut #rt::Scheme) -> ::core::result::Result<(), #rt::SchemeError> {
                #(#adds)*
                ::core::result::Result::Ok(())
            }
        })
    }
}

fn lifecycle_impl(cx: &Context<'_>, k: &Type, l: &Kinds) -> TokenStream {
    let rt = cx.rt();
    let path = type_path(&k.module, &k.name);
    let lit = proc_macro2::Literal::u32_unsuffixed;
    let (im, in_) = (lit(l.introduced.0), lit(l.introduced.1));
    let option = |r: Option<(u32, u32)>| match r {
        Some((a, b)) => {
            let (a, b) = (lit(a), lit(b));
            quote! { ::core::option::Option::Some((#a, #b)) }
        }
        None => quote! { ::core::option::Option::None },
    };
    let (deprecated, removed) = (option(l.deprecated), option(l.removed));
    let replacement = match &l.replacement {
        Some((g, v, kind)) => {
            quote! { ::core::option::Option::Some(#rt::GroupVersionKind::from_static(#g, #v, #kind)) }
        }
        None => quote! { ::core::option::Option::None },
    };
    quote! {
        impl #rt::ApiLifecycle for #path {
            fn api_lifecycle_introduced() -> #rt::Release { (#im, #in_) }
            fn api_lifecycle_deprecated() -> ::core::option::Option<#rt::Release> { #deprecated }
            fn api_lifecycle_removed() -> ::core::option::Option<#rt::Release> { #removed }
            fn api_lifecycle_replacement() -> ::core::option::Option<#rt::GroupVersionKind> { #replacement }
        }
    }
}
