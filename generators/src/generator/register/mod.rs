//! register: the package's GroupVersion, `add_known_types` for every kind (lists included), the
//! SchemeBuilder entry point, the REST mapping of every served resource (`rest.rs`), and for external kinds the k8s-openapi `Resource`,
//! `ListableResource` and `Metadata` impls that give them kube-rs's `kube::Resource`.

mod query;
mod rest;

use proc_macro2::TokenStream;
use quote::quote;

use super::{Context, PackageGenerator, type_path};
use crate::diag::{Diagnostic, Diagnostics};
use crate::model::names;
use crate::model::tags::name as tag;
use crate::model::{Kind, Package, Scope, Type};

/// The register generator.
pub struct Register;

impl PackageGenerator for Register {
    fn name(&self) -> &'static str {
        "register"
    }

    fn tool(&self) -> &'static str {
        "register-gen"
    }

    fn activation(&self) -> &'static str {
        "`+groupName` without `//! +k8s:register-gen=false`"
    }

    fn applies(&self, pkg: &Package) -> bool {
        pkg.attrs.register
    }

    fn reexported(&self) -> bool {
        true
    }

    fn generate_package(&self, cx: &Context<'_>, pkg: &Package, diags: &mut Diagnostics) -> Option<TokenStream> {
        let rt = cx.rt();
        let kinds: Vec<(&Type, &Kind)> = pkg.kinds().collect();
        if !registrable(pkg, &kinds, diags) {
            return None;
        }
        let (group, version) = (&pkg.group, pkg.version.as_str());
        // Every generated file's registration joins the package's builder.
        let rest_mappings = rest::add_rest_mappings(&rt, pkg, &kinds);
        let mut builders: Vec<syn::Path> = vec![syn::parse_quote!(add_known_types)];
        if rest_mappings.is_some() {
            builders.push(syn::parse_quote!(add_rest_mappings));
        }
        builders.extend(cx.scheme_registrations(pkg));
        let adds = kinds.iter().map(|(k, meta)| add_known_type(k, meta));
        let resources = if pkg.is_internal() {
            Vec::new()
        } else {
            kinds
                .iter()
                .filter_map(|(t, k)| resource_impls(cx, pkg, t, k))
                .collect()
        };
        let mut local = Diagnostics::new();
        let decoders: Vec<TokenStream> = kinds
            .iter()
            .filter(|(t, _)| t.attrs.from_query)
            .filter_map(|(t, _)| query::decoder(cx, pkg, t, &mut local))
            .collect();
        let failed = local.has_errors();
        diags.extend(local);
        if failed {
            return None;
        }
        let doc = format!(" Scheme registration for `{}` ({}).", pkg.path, pkg.api_version);
        let gv_doc = format!(" `{}`: the group and version of this package.", pkg.api_version);
        Some(quote! {
            #![doc = #doc]

            /// The API group of this package.
            pub const GROUP_NAME: &str = #group;

            #[doc = #gv_doc]
            pub const SCHEME_GROUP_VERSION: #rt::GroupVersion = #rt::GroupVersion::from_static(#group, #version);

            /// Registration functions of this package, run in order by `add_to_scheme`.
            pub static SCHEME_BUILDER: #rt::SchemeBuilder = #rt::SchemeBuilder::from_fns(&[#(#builders),*]);

            /// Adds this package's kinds to a Scheme.
            pub fn add_to_scheme(scheme: &mut #rt::Scheme) -> ::core::result::Result<(), #rt::SchemeError> {
                SCHEME_BUILDER.add_to_scheme(scheme)
            }

            /// Registers every kind of this package, lists included, under `SCHEME_GROUP_VERSION`.
            pub fn add_known_types(scheme: &mut #rt::Scheme) -> ::core::result::Result<(), #rt::SchemeError> {
                #(#adds)*
                ::core::result::Result::Ok(())
            }

            /// A group-qualified resource of this package's group.
            pub fn resource(resource: &str) -> #rt::GroupResource {
                #rt::GroupResource::new(GROUP_NAME, resource)
            }

            /// A group-qualified kind of this package's group.
            pub fn kind(kind: &str) -> #rt::GroupKind {
                #rt::GroupKind::new(GROUP_NAME, kind)
            }

            #rest_mappings

            #(#resources)*

            #(#decoders)*
        })
    }
}

/// Whether the package's kinds can be registered: it has some, and each implements
/// runtime::Object (what a Scheme holds); what is missing is reported.
fn registrable(pkg: &Package, kinds: &[(&Type, &Kind)], diags: &mut Diagnostics) -> bool {
    if kinds.is_empty() {
        diags.push(
            Diagnostic::error(
                &pkg.tag_loc(tag::GROUP_NAME),
                format!("package `{}` has `+groupName` but no kinds", pkg.path),
            )
            .label("nothing to register")
            .help("a kind is a struct with a TypeMeta field; add one, or write `//! +k8s:register-gen=false`"),
        );
        return false;
    }
    let mut ok = true;
    for (k, _) in kinds {
        // An interface tag naming something else is reported by the model already.
        if !k.attrs.object && !k.impls.contains("Object") && !k.attrs.interfaces {
            ok = false;
            diags.push(
                Diagnostic::error(&k.loc, format!("kind `{}` does not implement runtime::Object", k.name))
                    .label("cannot be registered in a Scheme")
                    .help("add `/// +k8s:deepcopy-gen:interfaces=runtime::Object` to the kind"),
            );
        }
    }
    ok
}

/// One kind's registration in `add_known_types`. External kinds (with serde) also register their
/// wire format, so the codec can decode and encode them, with their top-level keys when the model
/// could list them (strict decoding then reports an unknown key even when its value is empty);
/// internal kinds never go on the wire. Protobuf messages register their protobuf form, and kinds
/// decoded from query parameters (`+k8s:conversion-gen:explicit-from=net/url.Values`) that
/// decoding.
fn add_known_type(k: &Type, meta: &Kind) -> TokenStream {
    let path = type_path(&k.module, &k.name);
    let kind = &k.name;
    let mut add = if k.serde
        && let Some(keys) = &meta.wire_keys
    {
        quote! { scheme.add_known_type_serde_keys::<#path>(SCHEME_GROUP_VERSION.with_kind(#kind), &[#(#keys),*])?; }
    } else if k.serde {
        quote! { scheme.add_known_type_serde::<#path>(SCHEME_GROUP_VERSION.with_kind(#kind))?; }
    } else {
        quote! { scheme.add_known_type::<#path>(SCHEME_GROUP_VERSION.with_kind(#kind))?; }
    };
    if k.serde && k.protobuf.is_some() {
        add = quote! { #add scheme.add_protobuf::<#path>(); };
    }
    if k.attrs.from_query {
        add = quote! { #add scheme.add_query_decoder::<#path>(SCHEME_GROUP_VERSION.with_kind(#kind)); };
    }
    add
}

/// k8s-openapi's Resource, ListableResource (when the kind has a list) and Metadata for one
/// external kind served as a resource; kinds without ObjectMeta (AdmissionReview, the `*Options`
/// kinds) are registered but are not resources.
fn resource_impls(cx: &Context<'_>, pkg: &Package, t: &Type, k: &Kind) -> Option<TokenStream> {
    let k8s = cx.k8s();
    let resource = k.resource.as_ref()?;
    let meta = k.object_meta.as_deref()?;
    let path = type_path(&t.module, &t.name);
    let (group, version, kind) = (&pkg.group, pkg.version.as_str(), &t.name);
    let api_version = &pkg.api_version;
    let plural = &resource.plural;
    // A subresource kind (autoscaling/v1 Scale, `+k8s:isSubresource=/scale`) is served below its
    // parent: k8s-openapi names it by the subresource and scopes it SubResourceScope.
    let scope = match resource.scope {
        Scope::Subresource => quote! { #k8s::SubResourceScope },
        Scope::Cluster => quote! { #k8s::ClusterResourceScope },
        Scope::Namespaced => quote! { #k8s::NamespaceResourceScope },
    };
    let listable = k.list.as_ref().map(|list_name| {
        quote! {
            impl #k8s::ListableResource for #path {
                const LIST_KIND: &'static str = #list_name;
            }
        }
    });
    let field = names::member(meta);
    Some(quote! {
        impl #k8s::Resource for #path {
            const API_VERSION: &'static str = #api_version;
            const GROUP: &'static str = #group;
            const KIND: &'static str = #kind;
            const VERSION: &'static str = #version;
            const URL_PATH_SEGMENT: &'static str = #plural;
            type Scope = #scope;
        }

        #listable

        impl #k8s::Metadata for #path {
            type Ty = #k8s::apimachinery::pkg::apis::meta::v1::ObjectMeta;
            fn metadata(&self) -> &Self::Ty { &self.#field }
            fn metadata_mut(&mut self) -> &mut Self::Ty { &mut self.#field }
        }
    })
}
