//! deepcopy: `impl Clone` with a field-wise `clone_from` that reuses allocations (Go's
//! DeepCopyInto) for every type of a `+k8s:deepcopy-gen=package` package or `=true` type, and
//! `runtime::Object` for types tagged `+k8s:deepcopy-gen:interfaces=runtime::Object`.

use proc_macro2::TokenStream;
use quote::quote;

use super::{Context, PackageGenerator, type_path};
use crate::diag::{Diagnostic, Diagnostics};
use crate::model::names::{self, ident};
use crate::model::tags::name as tag;
use crate::model::{Field, ObjectAccess, Package, Shape, Type, TypeRef, Universe, Variant};

/// The deepcopy generator.
pub struct Deepcopy;

impl PackageGenerator for Deepcopy {
    fn name(&self) -> &'static str {
        "deepcopy"
    }

    fn tool(&self) -> &'static str {
        "deepcopy-gen"
    }

    fn activation(&self) -> &'static str {
        "`//! +k8s:deepcopy-gen=package`, or `+k8s:deepcopy-gen=true` on a type"
    }

    fn applies(&self, pkg: &Package) -> bool {
        pkg.attrs.deepcopy == Some(true)
            || pkg
                .types
                .values()
                .any(|t| t.attrs.deepcopy == Some(true) || t.attrs.interfaces)
    }

    fn generate_package(&self, cx: &Context<'_>, pkg: &Package, diags: &mut Diagnostics) -> Option<TokenStream> {
        let mut items = Vec::new();
        let mut local = Diagnostics::new();
        for ty in pkg.types.values() {
            match (ty.selection.deepcopy, ty.has_clone()) {
                (false, _) => local.note(format!(
                    "{}: deepcopy: `{}` is not selected (`+k8s:deepcopy-gen`)",
                    ty.loc, ty.name
                )),
                (true, true) => local.note(format!(
                    "{}: deepcopy: `{}` implements Clone itself; not generated",
                    ty.loc, ty.name
                )),
                (true, false) => {
                    check_copyable(cx.universe, ty, &mut local);
                    items.push(clone_impl(ty));
                }
            }
            if let Some(obj) = object_impl(cx, pkg, ty, &mut local) {
                items.push(obj);
            }
        }
        let failed = local.has_errors();
        diags.extend(local);
        if failed {
            return None;
        }
        // Only a package-wide request that yields nothing is a mistake worth reporting; type-level
        // requests that yield nothing were rejected above with their own errors.
        if items.is_empty() && pkg.attrs.deepcopy != Some(true) {
            return None;
        }
        if items.is_empty() {
            diags.push(
                Diagnostic::error(
                    &pkg.tag_loc(tag::DEEPCOPY),
                    format!(
                        "package `{}` asks for deep copies but every type already implements Clone",
                        pkg.path
                    ),
                )
                .label("nothing to generate")
                .help(
                    "remove `+k8s:deepcopy-gen=package`, or drop the hand-written Clone so the generator can write one",
                ),
            );
            return None;
        }
        let doc = format!(" Deep copies (`Clone`) and `runtime::Object` impls for `{}`.", pkg.path);
        Some(quote! { #![doc = #doc] #(#items)* })
    }
}

/// Whether values of a named type can be cloned once generation is done.
fn cloneable(universe: &Universe, id: &crate::model::TypeId) -> bool {
    universe.get(id).is_some_and(|t| t.has_clone() || t.selection.deepcopy)
}

/// Reports every field whose type cannot be deep-copied.
fn check_copyable(universe: &Universe, ty: &Type, diags: &mut Diagnostics) {
    let fields: Vec<&Field> = match &ty.shape {
        Shape::Struct { fields, .. } => fields.iter().collect(),
        Shape::Enum { variants } => variants.iter().flat_map(|v| &v.fields).collect(),
    };
    for f in fields {
        if let Some((why, help)) = uncopyable(universe, &f.ty) {
            diags.push(
                Diagnostic::error(
                    &f.ty_loc,
                    format!("cannot deep-copy field `{}` of `{}`: {why}", f.name, ty.name),
                )
                .label("not deep-copyable")
                .help(help),
            );
        }
    }
}

/// Why a field type cannot be deep-copied, and what to do about it.
fn uncopyable(universe: &Universe, r: &TypeRef) -> Option<(String, String)> {
    match r {
        TypeRef::Primitive(_) | TypeRef::String | TypeRef::External(..) | TypeRef::Unresolved(_) => None,
        TypeRef::Option(t) | TypeRef::Vec(t) | TypeRef::Box(t) => uncopyable(universe, t),
        TypeRef::Map { key, value, .. } => uncopyable(universe, key).or_else(|| uncopyable(universe, value)),
        TypeRef::Named(id) if cloneable(universe, id) => None,
        TypeRef::Named(id) => {
            let opted_out = universe.get(id).is_some_and(|t| t.attrs.deepcopy == Some(false));
            Some(if opted_out {
                (
                    format!("`{}` has no Clone and opts out of generation", id.name),
                    format!(
                        "derive or implement Clone for `{}`, or remove its `+k8s:deepcopy-gen=false`",
                        id.name
                    ),
                )
            } else {
                (
                    format!(
                        "`{}` has no Clone and its package `{}` does not generate deep copies",
                        id.name, id.package
                    ),
                    format!(
                        "tag that package `//! +k8s:deepcopy-gen=package`, or `{}` with `+k8s:deepcopy-gen=true`, or derive Clone",
                        id.name
                    ),
                )
            })
        }
        TypeRef::Unsupported(written, why) => Some((
            format!("`{written}`: {why}"),
            "use an owned type API objects are made of: String, Vec, BTreeMap, Option, Box, or a struct".into(),
        )),
    }
}

fn clone_impl(ty: &Type) -> TokenStream {
    let path = type_path(&ty.module, &ty.name);
    let (clone, clone_from) = match &ty.shape {
        Shape::Struct { fields, tuple } => struct_bodies(fields, *tuple),
        Shape::Enum { variants } => enum_bodies(variants),
    };
    quote! {
        impl ::core::clone::Clone for #path {
            #[inline]
            fn clone(&self) -> Self { #clone }
            #clone_from
        }
    }
}

/// Clone of one field value; `reference` is an expression of type `&T`. Primitives are copied.
fn clone_value(f: &Field, reference: TokenStream) -> TokenStream {
    match f.ty {
        TypeRef::Primitive(_) => quote! { *#reference },
        _ => quote! { ::core::clone::Clone::clone(#reference) },
    }
}

fn struct_bodies(fields: &[Field], tuple: bool) -> (TokenStream, TokenStream) {
    if fields.is_empty() {
        return (
            if tuple {
                quote! { Self() }
            } else {
                quote! { Self {} }
            },
            TokenStream::new(),
        );
    }
    let members: Vec<syn::Member> = fields.iter().map(member).collect();
    let clones = fields.iter().zip(&members).map(|(f, m)| match f.ty {
        TypeRef::Primitive(_) => quote! { self.#m },
        _ => clone_value(f, quote! { &self.#m }),
    });
    let clone = if tuple {
        quote! { Self( #(#clones),* ) }
    } else {
        quote! { Self { #(#members: #clones),* } }
    };
    let assigns = fields.iter().zip(&members).map(|(f, m)| match f.ty {
        TypeRef::Primitive(_) => quote! { self.#m = source.#m; },
        _ => quote! { ::core::clone::Clone::clone_from(&mut self.#m, &source.#m); },
    });
    let clone_from = quote! {
        #[inline]
        fn clone_from(&mut self, source: &Self) { #(#assigns)* }
    };
    (clone, clone_from)
}

fn enum_bodies(variants: &[Variant]) -> (TokenStream, TokenStream) {
    if variants.is_empty() {
        return (quote! { match *self {} }, TokenStream::new());
    }
    let arms = variants.iter().map(|v| {
        let name = ident(&v.name);
        let binds = bindings(v, "a");
        let clones = v.fields.iter().zip(&binds).map(|(f, b)| clone_value(f, quote! { #b }));
        pattern(v, &name, &binds, quote! { Self::#name }, clones.collect())
    });
    let clone = quote! { match self { #(#arms)* } };
    if variants.iter().all(|v| v.fields.is_empty()) {
        return (clone, TokenStream::new());
    }
    let same = variants.iter().filter(|v| !v.fields.is_empty()).map(|v| {
        let name = ident(&v.name);
        let (a, b) = (bindings(v, "a"), bindings(v, "b"));
        let pa = destructure(v, &name, &a);
        let pb = destructure(v, &name, &b);
        let body = v.fields.iter().zip(a.iter().zip(&b)).map(|(f, (x, y))| match f.ty {
            TypeRef::Primitive(_) => quote! { *#x = *#y; },
            _ => quote! { ::core::clone::Clone::clone_from(#x, #y); },
        });
        quote! { (#pa, #pb) => { #(#body)* } }
    });
    let clone_from = quote! {
        #[inline]
        fn clone_from(&mut self, source: &Self) {
            match (self, source) {
                #(#same)*
                (this, source) => *this = ::core::clone::Clone::clone(source),
            }
        }
    };
    (clone, clone_from)
}

fn bindings(v: &Variant, prefix: &str) -> Vec<proc_macro2::Ident> {
    (0..v.fields.len())
        .map(|i| quote::format_ident!("{}{}", prefix, i))
        .collect()
}

fn destructure(v: &Variant, name: &proc_macro2::Ident, binds: &[proc_macro2::Ident]) -> TokenStream {
    if v.tuple {
        quote! { Self::#name(#(#binds),*) }
    } else {
        let members = v.fields.iter().map(member);
        quote! { Self::#name { #(#members: #binds),* } }
    }
}

/// One `match self` arm of `clone`.
fn pattern(
    v: &Variant,
    name: &proc_macro2::Ident,
    binds: &[proc_macro2::Ident],
    ctor: TokenStream,
    clones: Vec<TokenStream>,
) -> TokenStream {
    if v.fields.is_empty() {
        return quote! { Self::#name => #ctor, };
    }
    let pat = destructure(v, name, binds);
    if v.tuple {
        quote! { #pat => #ctor(#(#clones),*), }
    } else {
        let members = v.fields.iter().map(member);
        quote! { #pat => #ctor { #(#members: #clones),* }, }
    }
}

fn member(f: &Field) -> syn::Member {
    names::member(&f.name)
}

/// `impl runtime::Object` for a type tagged with the runtime.Object interface.
fn object_impl(cx: &Context<'_>, pkg: &Package, ty: &Type, diags: &mut Diagnostics) -> Option<TokenStream> {
    if !ty.attrs.object {
        return None;
    }
    if !ty.has_clone() && !ty.selection.deepcopy {
        // A package deepcopy tag that was written but rejected is reported already.
        if pkg.tag_rejected(tag::DEEPCOPY) {
            return None;
        }
        let t = ty.tags.get(tag::DEEPCOPY_INTERFACES)?;
        diags.push(
            Diagnostic::error(&t.loc, format!("`{}` asks for runtime::Object but gets no Clone", ty.name))
                .label("runtime::Object deep-copies through Clone")
                .help("add `+k8s:deepcopy-gen=true` to the type (or `//! +k8s:deepcopy-gen=package` to the package), or derive Clone"),
        );
        return None;
    }
    // A type without TypeMeta or apiVersion and kind fields is reported by the model.
    let access = ty.object.as_ref()?;
    let rt = cx.rt();
    let path = type_path(&ty.module, &ty.name);
    let gvk = match access {
        ObjectAccess::TypeMeta(field) => {
            let field = names::member(field);
            quote! { type_meta = #field }
        }
        ObjectAccess::Fields { api_version, kind } => {
            let (a, k) = (names::member(api_version), names::member(kind));
            quote! { fields = (#a, #k) }
        }
    };
    // Kinds with ObjectMeta give the server its accessor (Go's meta.Accessor).
    let meta = ty.kind.as_ref().and_then(|k| k.object_meta.as_deref()).map(|field| {
        let field = names::member(field);
        quote! { , object_meta = #field }
    });
    // Every method is the same delegation for every kind: the runtime's macro writes them.
    Some(quote! {
        #rt::impl_object!(#path, #gvk #meta);
    })
}
