//! The field rules of conversion: how a value of one type becomes a value of its counterpart.
//! Same types copy; `Option<T>` and `T` convert both ways (absent is the zero value); `Vec`, maps
//! and `Box` convert element-wise; named types call their pair's conversion function, wherever it
//! lives; a string and a string enum (`+enum`: unit variants only) convert through the enum's JSON
//! values, since one version of a group declares as an enum what another keeps as a plain string
//! (apps/v1's `DeploymentStrategyType` against v1beta1's) and Go converts both as strings. Anything
//! else is a mismatch that needs a hand-written function.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::pairs;
use crate::model::{TypeId, TypeRef, Universe};

/// Why a value cannot be converted automatically.
pub type Mismatch = String;

/// Builds conversion expressions over one universe.
pub struct Rules<'u> {
    /// The model, to find the conversion functions of nested types.
    pub universe: &'u Universe,
    /// The runtime crate's path.
    pub rt: syn::Path,
}

impl Rules<'_> {
    /// An expression of type `dst` from `src`, an expression of type `&src`. It may use `?`, so it
    /// sits in a function returning `Result<_, ConversionError>`. `depth` keeps bindings of
    /// nested closures and matches apart.
    pub fn value(
        &self,
        src: &TypeRef,
        dst: &TypeRef,
        expr: TokenStream,
        depth: usize,
    ) -> Result<TokenStream, Mismatch> {
        let v = format_ident!("v{}", depth);
        let k = format_ident!("k{}", depth);
        let rt = &self.rt;
        if let (TypeRef::String, TypeRef::Named(id)) = (src, dst)
            && let Some(variants) = self.string_enum(id)
        {
            let path = super::type_path(&id.package, &id.name);
            let arms = variants.iter().map(|(name, json)| {
                let name = format_ident!("{}", name);
                quote! { #json => #path::#name, }
            });
            let message = format!("unsupported value {{:?}}: {} has {}", id.name, quoted(&variants));
            let text = receiver(expr);
            return Ok(quote! {
                match #text.as_str() {
                    #(#arms)*
                    other => {
                        return ::core::result::Result::Err(#rt::ConversionError::Custom(::std::format!(#message, other)));
                    }
                }
            });
        }
        if let (TypeRef::Named(id), TypeRef::String) = (src, dst)
            && let Some(variants) = self.string_enum(id)
        {
            let path = super::type_path(&id.package, &id.name);
            let arms = variants.iter().map(|(name, json)| {
                let name = format_ident!("{}", name);
                quote! { #path::#name => #json, }
            });
            return Ok(quote! { ::std::string::String::from(match #expr { #(#arms)* }) });
        }
        match (src, dst) {
            (TypeRef::Primitive(_), _) if src == dst => Ok(copy_of(expr)),
            // The same type on both sides (a shared k8s-openapi type, String, ...) copies.
            _ if src == dst => Ok(quote! { ::core::clone::Clone::clone(#expr) }),
            (TypeRef::Option(a), TypeRef::Option(b)) => {
                let inner = self.value(a, b, quote! { #v }, depth + 1)?;
                Ok(quote! {
                    match #expr {
                        ::core::option::Option::Some(#v) => ::core::option::Option::Some(#inner),
                        ::core::option::Option::None => ::core::option::Option::None,
                    }
                })
            }
            // An absent optional value becomes the zero value.
            (TypeRef::Option(a), b) => {
                let inner = self.value(a, b, quote! { #v }, depth + 1)?;
                Ok(quote! {
                    match #expr {
                        ::core::option::Option::Some(#v) => #inner,
                        ::core::option::Option::None => ::core::default::Default::default(),
                    }
                })
            }
            (a, TypeRef::Option(b)) => self.wrapped(a, b, expr, depth),
            (TypeRef::Vec(a), TypeRef::Vec(b)) => {
                let inner = ok_wrap(self.value(a, b, quote! { #v }, depth + 1)?);
                let items = receiver(expr);
                Ok(quote! {
                    #items
                        .iter()
                        .map(|#v| -> ::core::result::Result<_, #rt::ConversionError> { #inner })
                        .collect::<::core::result::Result<_, _>>()?
                })
            }
            (TypeRef::Map { key: ka, value: va, .. }, TypeRef::Map { key: kb, value: vb, .. }) if ka == kb => {
                let inner = self.value(va, vb, quote! { #v }, depth + 1)?;
                let entries = receiver(expr);
                Ok(quote! {
                    #entries
                        .iter()
                        .map(|(#k, #v)| -> ::core::result::Result<_, #rt::ConversionError> {
                            ::core::result::Result::Ok((::core::clone::Clone::clone(#k), #inner))
                        })
                        .collect::<::core::result::Result<_, _>>()?
                })
            }
            (TypeRef::Box(a), TypeRef::Box(b)) => {
                let inner = self.value(a, b, quote! { &**#expr }, depth + 1)?;
                Ok(quote! { ::std::boxed::Box::new(#inner) })
            }
            (TypeRef::Box(a), b) => self.value(a, b, quote! { &**#expr }, depth + 1),
            (a, TypeRef::Box(b)) => {
                let inner = self.value(a, b, expr, depth + 1)?;
                Ok(quote! { ::std::boxed::Box::new(#inner) })
            }
            (TypeRef::Named(x), TypeRef::Named(y)) => self.named(x, y, expr),
            _ => Err(format!("`{src}` does not convert to `{dst}`")),
        }
    }

    /// The variants of `id` (name, JSON value) when it is an enum of unit variants only.
    fn string_enum(&self, id: &TypeId) -> Option<Vec<(String, String)>> {
        let crate::model::Shape::Enum { variants } = &self.universe.get(id)?.shape else {
            return None;
        };
        variants
            .iter()
            .map(|v| v.fields.is_empty().then(|| (v.name.clone(), v.json_name.clone())))
            .collect()
    }

    /// A present value into an `Option`. Numbers, bools and int-or-strings are pointers in
    /// Kubernetes' external types exactly so that zero and unset differ (`replicas: 0`,
    /// `maxUnavailable: 0`): they are always present. Other zero values are omitted, as Go's
    /// omitempty omits them, which compares with the type's default.
    fn wrapped(&self, a: &TypeRef, b: &TypeRef, expr: TokenStream, depth: usize) -> Result<TokenStream, Mismatch> {
        let rt = &self.rt;
        if let TypeRef::Named(id) = a
            && let Some(t) = self.universe.get(id)
            && !always_present(a)
            && !(t.implements("PartialEq") && t.implements("Default"))
        {
            return Err(format!(
                "`{}` does not implement both PartialEq and Default, which telling its zero value from a set one needs (derive them)",
                t.name
            ));
        }
        let inner = self.value(a, b, expr.clone(), depth + 1)?;
        if always_present(a) {
            Ok(quote! { ::core::option::Option::Some(#inner) })
        } else {
            Ok(quote! {
                if #rt::conversion::is_zero(#expr) {
                    ::core::option::Option::None
                } else {
                    ::core::option::Option::Some(#inner)
                }
            })
        }
    }

    /// One named type into another, through their conversion function; a new value is converted
    /// into a default one, as Go converts into a zero value.
    fn named(&self, x: &TypeId, y: &TypeId, expr: TokenStream) -> Result<TokenStream, Mismatch> {
        let rt = &self.rt;
        match pairs::direction(self.universe, x, y) {
            Some(d) if !has_default(d.to.1) => Err(format!(
                "`{}` does not implement Default, which converting into a new value needs (derive it)",
                d.to.1.name
            )),
            Some(d) => {
                let path = d.path();
                Ok(quote! { #rt::conversion::convert_with(#expr, #path)? })
            }
            None => Err(format!(
                "no conversion exists between `{}` and `{}`",
                TypeRef::Named(x.clone()),
                TypeRef::Named(y.clone())
            )),
        }
    }

    /// A statement that converts the field `member` of `input` into the same-named or given
    /// member of `out`. Named types convert in place, reusing the allocations `out` holds. A
    /// destination that Go holds as a value (`zero_is_unset`) is unset by a zero, which a
    /// pointer's number or bool would keep.
    pub fn field(
        &self,
        src: &TypeRef,
        dst: &TypeRef,
        from: &syn::Member,
        to: &syn::Member,
        zero_is_unset: bool,
    ) -> Result<TokenStream, Mismatch> {
        if zero_is_unset
            && let TypeRef::Option(b) = dst
            && !matches!(src, TypeRef::Option(_))
        {
            let rt = &self.rt;
            let inner = self.value(src, b, quote! { &input.#from }, 1)?;
            return Ok(quote! {
                out.#to = if #rt::conversion::is_zero(&input.#from) {
                    ::core::option::Option::None
                } else {
                    ::core::option::Option::Some(#inner)
                };
            });
        }
        if let (TypeRef::Named(x), TypeRef::Named(y)) = (src, dst)
            && let Some(d) = pairs::direction(self.universe, x, y)
        {
            let path = d.path();
            return Ok(quote! { #path(&input.#from, &mut out.#to)?; });
        }
        let value = self.value(src, dst, quote! { &input.#from }, 0)?;
        Ok(quote! { out.#to = #value; })
    }
}

/// A copy of a `Copy` value behind the reference expression `expr`: `input.x` for `&input.x`,
/// `*v` for a binding.
fn copy_of(expr: TokenStream) -> TokenStream {
    let place = receiver(expr.clone());
    if place.to_string() == expr.to_string() {
        quote! { *#expr }
    } else {
        place
    }
}

/// The JSON values of an enum for a message: `"A", "B"`.
fn quoted(variants: &[(String, String)]) -> String {
    variants
        .iter()
        .map(|(_, json)| format!("{json:?}"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn has_default(ty: &crate::model::Type) -> bool {
    ty.implements("Default")
}

/// The receiver of a method call on the value behind `expr`: `input.items` for `&input.items`
/// (method calls borrow by themselves), the binding itself otherwise.
fn receiver(expr: TokenStream) -> TokenStream {
    let mut tokens = expr.clone().into_iter();
    match tokens.next() {
        Some(proc_macro2::TokenTree::Punct(p)) if p.as_char() == '&' => tokens.collect(),
        _ => expr,
    }
}

/// The body of a closure returning `Result`: an expression that ends in `?` is already a
/// `Result` without it; anything else is wrapped in `Ok`.
fn ok_wrap(inner: TokenStream) -> TokenStream {
    let tokens: Vec<_> = inner.clone().into_iter().collect();
    match tokens.last() {
        Some(proc_macro2::TokenTree::Punct(p)) if p.as_char() == '?' => {
            tokens[..tokens.len() - 1].iter().cloned().collect()
        }
        _ => quote! { ::core::result::Result::Ok(#inner) },
    }
}

/// Whether an internal value converts to a present external `Option` even when it is zero.
fn always_present(t: &TypeRef) -> bool {
    matches!(t, TypeRef::Primitive(_)) || t.is_external(crate::model::External::IntOrString)
}
