//! protobuf: Kubernetes' protobuf wire format for the messages the model decided
//! (`model::protobuf`), go-to-protobuf's counterpart. Each struct gets `runtime::protobuf::Message`
//! (its fields by number, written in number order) and `Field` (length-delimited inside another
//! message); each string enum a `Field` that writes its JSON string. The field values' own impls
//! live in the runtime, so a field is one call whatever its type. With a documents directory it
//! also writes each package's `generated.proto` (`idl.rs`).

mod idl;

use std::path::{Path, PathBuf};

use proc_macro2::TokenStream;
use quote::quote;

use super::{Context, CrateGenerator, PackageGenerator, type_path};
use crate::diag::{Diagnostic, Diagnostics};
use crate::model::names::ident;
use crate::model::protobuf::{Message, MessageField};
use crate::model::tags::name as tag;
use crate::model::{Package, Shape, Type};

/// The protobuf generator.
pub struct Protobuf;

impl PackageGenerator for Protobuf {
    fn name(&self) -> &'static str {
        "protobuf"
    }

    fn tool(&self) -> &'static str {
        "go-to-protobuf"
    }

    fn activation(&self) -> &'static str {
        "`//! +k8s:protobuf-gen=package` on an external version, or `+protobuf=true` on a type"
    }

    fn applies(&self, pkg: &Package) -> bool {
        !pkg.is_internal() && (pkg.attrs.protobuf || pkg.types.values().any(|t| t.attrs.protobuf == Some(true)))
    }

    fn generate_package(&self, cx: &Context<'_>, pkg: &Package, diags: &mut Diagnostics) -> Option<TokenStream> {
        let rt = cx.rt();
        let mut items = Vec::new();
        let mut failed = false;
        for ty in pkg.types.values() {
            let Some(message) = &ty.protobuf else { continue };
            match message {
                Message::Struct(fields) => {
                    if !ty.implements("Default") {
                        failed = true;
                        diags.push(
                            Diagnostic::error(
                                &ty.loc,
                                format!("protobuf message `{}` does not implement Default", ty.name),
                            )
                            .label("decoding starts from its default")
                            .help("derive Default, or leave the type out with `/// +protobuf=false`"),
                        );
                        continue;
                    }
                    items.push(message_impl(&rt, ty, fields));
                }
                Message::StringEnum => items.push(string_enum_impl(&rt, ty)),
            }
        }
        if failed {
            return None;
        }
        if items.is_empty() {
            diags.push(
                Diagnostic::error(
                    &pkg.tag_loc(tag::PROTOBUF_GEN),
                    format!(
                        "package `{}` asks for protobuf but none of its types is a message",
                        pkg.path
                    ),
                )
                .label("nothing to generate")
                .help("remove the tag, or give the package a struct"),
            );
            return None;
        }
        Some(quote! { #(#items)* })
    }
}

impl CrateGenerator for Protobuf {
    fn name(&self) -> &'static str {
        "protobuf"
    }

    fn tool(&self) -> &'static str {
        "go-to-protobuf"
    }

    fn generate(&self, cx: &Context<'_>, root: &Path, _diags: &mut Diagnostics) -> Vec<(PathBuf, String)> {
        let dir = proto_dir(root);
        cx.universe
            .packages
            .values()
            .filter(|p| self.applies(p))
            .filter(|p| p.types.values().any(|t| matches!(t.protobuf, Some(Message::Struct(_)))))
            .map(|p| {
                let path = dir.join(idl::import_path(p));
                (path, idl::render(cx.universe, p, cx.boilerplate))
            })
            .collect()
    }
}

/// Where `.proto` files go: `proto/` beside the documents directory.
pub fn proto_dir(documents: &Path) -> PathBuf {
    documents.parent().unwrap_or(documents).join("proto")
}

/// `Message` and `Field` for one struct: a call of the runtime's macro listing each field's
/// number, where the runtime writes the impls (the same shape for every message).
fn message_impl(rt: &syn::Path, ty: &Type, fields: &[MessageField]) -> TokenStream {
    let path = type_path(&ty.module, &ty.name);
    let tuple = matches!(ty.shape, Shape::Struct { tuple: true, .. });
    let entries = fields.iter().map(|f| {
        let number = proc_macro2::Literal::u32_unsuffixed(f.number);
        let field = if tuple {
            let index = syn::Index::from(f.index);
            quote! { #index }
        } else {
            let id = ident(&ty.fields()[f.index].name);
            quote! { #id }
        };
        // Maps of lists are written through ListMap, which wraps each value as Go's named slices,
        // and Go's value fields through GoValue, which reads their zero as unset.
        let how = if f.list_map {
            Some(quote! { as ListMap })
        } else {
            f.zero_is_unset.then(|| quote! { as GoValue })
        };
        quote! { #number => #field #how }
    });
    quote! {
        #rt::protobuf_message!(#path { #( #entries ),* });
    }
}

/// `Field` for a string enum: its JSON string, as Go's string types are written.
fn string_enum_impl(rt: &syn::Path, ty: &Type) -> TokenStream {
    let path = type_path(&ty.module, &ty.name);
    let variants = ty.string_enum().unwrap_or_default();
    let names: Vec<_> = variants.iter().map(|v| ident(&v.name)).collect();
    let wire: Vec<&str> = variants.iter().map(|v| v.json_name.as_str()).collect();
    let type_name = &ty.name;
    let first = &names[0];
    let empty = if ty.implements("Default") {
        quote! { ::core::default::Default::default() }
    } else {
        quote! { #path::#first }
    };
    // Go writes an unset string field as "": the default, unless a variant is written so; an
    // `Option` of the enum reads it as unset.
    let unset = (!wire.contains(&"")).then(|| quote! { "" => <Self as #rt::protobuf::Field>::empty(), });
    let unset_option = (!wire.contains(&"")).then(|| {
        quote! {
            fn merge_option(
                slot: &mut ::core::option::Option<Self>,
                wire_type: #rt::protobuf::WireType,
                buf: &mut &[u8],
                depth: u32,
            ) -> ::core::result::Result<(), #rt::protobuf::DecodeError> {
                #rt::protobuf::merge_string_enum_option(slot, wire_type, buf, depth)
            }
        }
    });
    let as_str = quote::format_ident!("{}_protobuf_str", heck::ToSnakeCase::to_snake_case(ty.name.as_str()));
    quote! {
        /// The value's protobuf string: its JSON string.
        fn #as_str(value: &#path) -> &'static str {
            match value {
                #( #path::#names => #wire, )*
            }
        }

        impl #rt::protobuf::Field for #path {
            const WIRE_TYPE: #rt::protobuf::WireType = #rt::protobuf::WireType::LengthDelimited;

            fn encode_field(&self, number: u32, buf: &mut ::std::vec::Vec<u8>) {
                #rt::protobuf::encode_str(#as_str(self), number, buf)
            }

            fn field_len(&self, number: u32) -> usize {
                #rt::protobuf::str_len(#as_str(self), number)
            }

            fn merge(
                &mut self,
                wire_type: #rt::protobuf::WireType,
                buf: &mut &[u8],
                _depth: u32,
            ) -> ::core::result::Result<(), #rt::protobuf::DecodeError> {
                *self = match #rt::protobuf::take_str(wire_type, buf)? {
                    #( #wire => #path::#names, )*
                    #unset
                    other => {
                        return ::core::result::Result::Err(#rt::protobuf::DecodeError::new(::std::format!(
                            "unknown {} value {:?}", #type_name, other
                        )))
                    }
                };
                ::core::result::Result::Ok(())
            }

            fn empty() -> Self {
                #empty
            }

            #unset_option
        }
    }
}
