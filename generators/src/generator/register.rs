//! register: the package's GroupVersion, `add_known_types` for every kind (lists included), the
//! SchemeBuilder entry point, and for external kinds the k8s-openapi `Resource`,
//! `ListableResource` and `Metadata` impls that give them kube-rs's `kube::Resource`.

use proc_macro2::TokenStream;
use quote::quote;

use super::{Context, Generator, type_path};
use crate::diag::{Diagnostic, Diagnostics};
use crate::model::check::{is_list, object_meta_field, resource_name};
use crate::model::names;
use crate::model::tags::name as tag;
use crate::model::{Package, Type};

/// The register generator.
pub struct Register;

impl Generator for Register {
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
        pkg.tags.value(tag::REGISTER) != Some("false")
    }

    fn generate_package(&self, _cx: &Context<'_>, pkg: &Package, diags: &mut Diagnostics) -> Option<TokenStream> {
        let kinds: Vec<&Type> = pkg.kinds().collect();
        if kinds.is_empty() {
            diags.push(
                Diagnostic::error(
                    &pkg.tag_loc(tag::GROUP_NAME),
                    format!("package `{}` has `+groupName` but no kinds", pkg.path),
                )
                .label("nothing to register")
                .help("a kind is a struct with a TypeMeta field; add one, or write `//! +k8s:register-gen=false`"),
            );
            return None;
        }
        let mut failed = false;
        for k in &kinds {
            // An interface tag naming something else is reported by deepcopy already.
            if !super::deepcopy::wants_object(k) && !k.impls.contains("Object") && !k.tags.has(tag::DEEPCOPY_INTERFACES)
            {
                failed = true;
                diags.push(
                    Diagnostic::error(&k.loc, format!("kind `{}` does not implement runtime::Object", k.name))
                        .label("cannot be registered in a Scheme")
                        .help("add `/// +k8s:deepcopy-gen:interfaces=runtime::Object` to the kind"),
                );
            }
        }
        if failed {
            return None;
        }
        let (group, version) = (&pkg.group, &pkg.version);
        // The other in-package generators' registration functions join the package's builder, as
        // Go's generated files add theirs to localSchemeBuilder in init().
        let mut builders = vec![quote! { add_known_types }];
        if super::conversion::Conversion.applies(pkg) {
            builders.push(quote! { super::zz_generated_conversion::register_conversions });
        }
        if super::defaults::Defaults.applies(pkg) {
            builders.push(quote! { super::zz_generated_defaults::register_defaults });
        }
        // External kinds (with serde) also register their wire format, so the codec can decode and
        // encode them; internal kinds never go on the wire.
        let adds = kinds.iter().map(|k| {
            let path = type_path(&k.module, &k.name);
            let kind = &k.name;
            if k.serde {
                quote! { scheme.add_known_type_serde::<#path>(SCHEME_GROUP_VERSION.with_kind(#kind))?; }
            } else {
                quote! { scheme.add_known_type::<#path>(SCHEME_GROUP_VERSION.with_kind(#kind))?; }
            }
        });
        let resources = if pkg.is_internal() {
            Vec::new()
        } else {
            kinds.iter().filter_map(|k| resource_impls(pkg, k)).collect()
        };
        let doc = format!(
            " Scheme registration for `{}` ({}).",
            pkg.path,
            display_gv(group, version)
        );
        let gv_doc = format!(
            " `{}`: the group and version of this package.",
            display_gv(group, version)
        );
        Some(quote! {
            #![doc = #doc]

            /// The API group of this package.
            pub const GROUP_NAME: &str = #group;

            #[doc = #gv_doc]
            pub const SCHEME_GROUP_VERSION: ::runtime::GroupVersion = ::runtime::GroupVersion::from_static(#group, #version);

            /// Registration functions of this package, run in order by `add_to_scheme`.
            pub static SCHEME_BUILDER: ::runtime::SchemeBuilder = ::runtime::SchemeBuilder::from_fns(&[#(#builders),*]);

            /// Adds this package's kinds to a Scheme.
            pub fn add_to_scheme(scheme: &mut ::runtime::Scheme) -> ::core::result::Result<(), ::runtime::SchemeError> {
                SCHEME_BUILDER.add_to_scheme(scheme)
            }

            /// Registers every kind of this package, lists included, under `SCHEME_GROUP_VERSION`.
            pub fn add_known_types(scheme: &mut ::runtime::Scheme) -> ::core::result::Result<(), ::runtime::SchemeError> {
                #(#adds)*
                ::core::result::Result::Ok(())
            }

            /// A group-qualified resource of this package's group.
            pub fn resource(resource: &str) -> ::runtime::GroupResource {
                ::runtime::GroupResource::new(GROUP_NAME, resource)
            }

            /// A group-qualified kind of this package's group.
            pub fn kind(kind: &str) -> ::runtime::GroupKind {
                ::runtime::GroupKind::new(GROUP_NAME, kind)
            }

            #(#resources)*
        })
    }
}

fn display_gv(group: &str, version: &str) -> String {
    if group.is_empty() {
        version.to_string()
    } else {
        format!("{group}/{version}")
    }
}

/// k8s-openapi's Resource, ListableResource (when `<Kind>List` exists) and Metadata for one
/// external, non-list kind.
fn resource_impls(pkg: &Package, k: &Type) -> Option<TokenStream> {
    if is_list(k) {
        return None;
    }
    let meta = object_meta_field(k)?;
    let path = type_path(&k.module, &k.name);
    let (group, version, kind) = (&pkg.group, &pkg.version, &k.name);
    let api_version = display_gv(group, version);
    // A subresource kind (autoscaling/v1 Scale, `+k8s:isSubresource=/scale`) is served below
    // its parent: k8s-openapi names it by the subresource and scopes it SubResourceScope.
    let subresource = k
        .tags
        .value(tag::IS_SUBRESOURCE)
        .map(|p| p.trim_start_matches('/').to_string());
    let plural = subresource.clone().unwrap_or_else(|| resource_name(k));
    let scope = if subresource.is_some() {
        quote! { ::k8s_openapi::SubResourceScope }
    } else if k.tags.has(tag::NON_NAMESPACED) {
        quote! { ::k8s_openapi::ClusterResourceScope }
    } else {
        quote! { ::k8s_openapi::NamespaceResourceScope }
    };
    let list_name = format!("{kind}List");
    let listable = pkg
        .types
        .get(&list_name)
        .filter(|l| l.is_kind() && is_list(l))
        .map(|_| {
            quote! {
                impl ::k8s_openapi::ListableResource for #path {
                    const LIST_KIND: &'static str = #list_name;
                }
            }
        });
    let field = names::member(&meta.name);
    Some(quote! {
        impl ::k8s_openapi::Resource for #path {
            const API_VERSION: &'static str = #api_version;
            const GROUP: &'static str = #group;
            const KIND: &'static str = #kind;
            const VERSION: &'static str = #version;
            const URL_PATH_SEGMENT: &'static str = #plural;
            type Scope = #scope;
        }

        #listable

        impl ::k8s_openapi::Metadata for #path {
            type Ty = ::k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
            fn metadata(&self) -> &Self::Ty { &self.#field }
            fn metadata_mut(&mut self) -> &mut Self::Ty { &mut self.#field }
        }
    })
}
