//! The decoding of options kinds from URL query parameters
//! (`+k8s:conversion-gen:explicit-from=net/url.Values`), which Go's conversion-gen writes as
//! `Convert_url_Values_To_v1_PodLogOptions`: one function per kind that reads every field by its
//! JSON name, and the `FromQuery` impl the Scheme's query decoder calls. It lives with the kind's
//! registration because it is what the package registers into the Scheme for the kind.

use proc_macro2::TokenStream;
use quote::quote;

use super::super::{Context, type_path};
use crate::diag::{Diagnostic, Diagnostics};
use crate::model::{External, Package, Primitive, Type, TypeRef, Universe, names};

/// The decoding function and `FromQuery` impl of one options kind; `None` with errors reported
/// for fields no query parameter can hold.
pub fn decoder(cx: &Context<'_>, pkg: &Package, ty: &Type, diags: &mut Diagnostics) -> Option<TokenStream> {
    let rt = cx.rt();
    let path = type_path(&ty.module, &ty.name);
    let mut reads = Vec::new();
    let mut failed = false;
    for f in ty.fields().iter().filter(|f| !f.skip && !f.flatten) {
        let member = names::member(&f.name);
        let key = &f.json_name;
        match how(cx.universe, &f.ty) {
            Some(How::Parameter) => reads.push(quote! { out.#member = #rt::query::parameter(input, #key)?; }),
            Some(How::Json) => reads.push(quote! { out.#member = #rt::query::parameter_json(input, #key)?; }),
            None => {
                failed = true;
                diags.push(
                    Diagnostic::error(
                        &f.ty_loc,
                        format!("field `{}` of `{}` cannot be read from a query parameter", f.name, ty.name),
                    )
                    .label(format!("`{}` has no query form", f.ty))
                    .related(&ty.tags.loc(crate::model::tags::name::CONVERSION_EXPLICIT_FROM, &ty.loc), "decoded from query parameters here")
                    .help("query parameters hold strings, numbers, booleans, times, string enums, lists of strings or integers, and `Option`s of these"),
                );
            }
        }
    }
    if failed {
        return None;
    }
    let name = names::ident(&names::query_conversion_fn(&pkg.path, &ty.name));
    let doc = format!(
        " Reads `{}` from URL query parameters, each field by its JSON name (Go's `Convert_url_Values_To_{}_{}`).",
        ty.name,
        names::package_short(&pkg.path),
        ty.name
    );
    Some(quote! {
        #[doc = #doc]
        pub fn #name(input: &#rt::query::Values, out: &mut #path) -> ::core::result::Result<(), #rt::query::QueryError> {
            #(#reads)*
            ::core::result::Result::Ok(())
        }

        impl #rt::query::FromQuery for #path {
            fn from_query(values: &#rt::query::Values) -> ::core::result::Result<Self, #rt::query::QueryError> {
                let mut out = <Self as ::core::default::Default>::default();
                #name(values, &mut out)?;
                ::core::result::Result::Ok(out)
            }
        }
    })
}

/// How a field is read.
enum How {
    /// Through `runtime::query::Parameter`: strings, numbers, booleans, lists of strings.
    Parameter,
    /// As the JSON string of the first value: string enums, times.
    Json,
}

fn how(universe: &Universe, t: &TypeRef) -> Option<How> {
    match t {
        TypeRef::Option(inner) | TypeRef::Box(inner) => how(universe, inner),
        TypeRef::String => Some(How::Parameter),
        TypeRef::Primitive(p) if p.is_number() || *p == Primitive::Bool => Some(How::Parameter),
        TypeRef::Vec(inner) if **inner == TypeRef::String => Some(How::Parameter),
        // Go's `Convert_Slice_string_To_Slice_int32` (port forwarding's `ports=80,443`).
        TypeRef::Vec(inner) if matches!(**inner, TypeRef::Primitive(p) if matches!(p, Primitive::I32 | Primitive::I64 | Primitive::U16 | Primitive::U32)) => {
            Some(How::Parameter)
        }
        TypeRef::External(External::Time | External::MicroTime, _) => Some(How::Json),
        TypeRef::Named(id) if universe.get(id).is_some_and(|t| t.string_enum().is_some()) => Some(How::Json),
        _ => None,
    }
}
