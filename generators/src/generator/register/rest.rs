//! The REST mappings of a package: one `runtime::RestMapping` per served resource, with every fact
//! the model decided (plural, singular, scope, short names, categories, subresources and their
//! kinds, storage version), so an API server and a RESTMapper need no table per kind.

use proc_macro2::TokenStream;
use quote::quote;

use crate::model::{Kind, Package, Scope, Type};

/// `add_rest_mappings` for the package's resources, or `None` when it serves none (the internal
/// version, or a package of subresource kinds and options only).
pub fn add_rest_mappings(rt: &syn::Path, pkg: &Package, kinds: &[(&Type, &Kind)]) -> Option<TokenStream> {
    if pkg.is_internal() {
        return None;
    }
    let mappings: Vec<TokenStream> = kinds.iter().filter_map(|(t, k)| mapping(rt, pkg, t, k)).collect();
    if mappings.is_empty() {
        return None;
    }
    Some(quote! {
        /// Records how each resource of this package is served.
        pub fn add_rest_mappings(scheme: &mut #rt::Scheme) -> ::core::result::Result<(), #rt::SchemeError> {
            #(scheme.add_rest_mapping(#mappings)?;)*
            ::core::result::Result::Ok(())
        }
    })
}

fn mapping(rt: &syn::Path, pkg: &Package, t: &Type, k: &Kind) -> Option<TokenStream> {
    let r = k.resource.as_ref()?;
    let scope = match r.scope {
        Scope::Subresource => return None,
        Scope::Namespaced => quote! { #rt::RestScope::Namespaced },
        Scope::Cluster => quote! { #rt::RestScope::Cluster },
    };
    let (group, version, kind) = (&pkg.group, pkg.version.as_str(), &t.name);
    let (resource, singular, storage) = (&r.plural, &r.singular, &r.storage_version);
    let list_kind = match &k.list {
        Some(l) => quote! { ::core::option::Option::Some(#l) },
        None => quote! { ::core::option::Option::None },
    };
    let (short, categories, generation) = (&r.short_names, &r.categories, r.generation);
    let subresources = r.subresources.iter().map(|s| {
        let (name, g, v, kind) = (&s.name, &s.group, &s.version, &s.kind);
        let scale = match &s.scale {
            None => quote! { ::core::option::Option::None },
            Some(p) => {
                let (spec, status) = (&p.spec_replicas, &p.status_replicas);
                let selector = match &p.label_selector {
                    Some(l) => quote! { ::core::option::Option::Some(#l) },
                    None => quote! { ::core::option::Option::None },
                };
                quote! {
                    ::core::option::Option::Some(#rt::ScalePaths {
                        spec_replicas: #spec,
                        status_replicas: #status,
                        label_selector: #selector,
                    })
                }
            }
        };
        quote! { #rt::SubresourceMapping { name: #name, group: #g, version: #v, kind: #kind, scale: #scale } }
    });
    let columns = r.printer_columns.iter().map(|c| {
        let (name, ty, path, priority) = (&c.name, &c.type_, &c.json_path, c.priority);
        let format = c.format.as_deref().unwrap_or("");
        let description = c.description.as_deref().unwrap_or("");
        quote! {
            #rt::PrinterColumn {
                name: #name,
                type_: #ty,
                format: #format,
                description: #description,
                priority: #priority,
                json_path: #path,
            }
        }
    });
    Some(quote! {
        #rt::RestMapping {
            group: #group,
            version: #version,
            resource: #resource,
            kind: #kind,
            list_kind: #list_kind,
            singular: #singular,
            scope: #scope,
            short_names: &[#(#short),*],
            categories: &[#(#categories),*],
            subresources: &[#(#subresources),*],
            storage_version: #storage,
            printer_columns: &[#(#columns),*],
            generation: #generation,
        }
    })
}
