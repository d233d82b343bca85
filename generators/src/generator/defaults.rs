//! defaults: for a package tagged `+k8s:defaulter-gen=<meta type>` (or `=true` types), one
//! `set_object_defaults_<type>` per type whose tree has anything to default: it calls the
//! hand-written `set_defaults_<type>` of the type's package, applies `+default=` field markers,
//! and walks every nested field, through `Option`, `Vec`, maps and `Box`, whose type has defaults
//! (in any package; the model knows them all). `register_defaults` registers the object roots.

use std::collections::BTreeSet;

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use serde_json::Value;

use super::{Context, PackageGenerator, check_reexported, check_signature, type_path};
use crate::diag::{Diagnostic, Diagnostics};
use crate::model::attrs::DefaulterRoots;
use crate::model::tags::name as tag;
use crate::model::{Field, Package, Pass, Primitive, Returns, Type, TypeId, TypeRef, Universe, json_fit, names};

/// The defaults generator.
pub struct Defaults;

impl PackageGenerator for Defaults {
    fn name(&self) -> &'static str {
        "defaults"
    }

    fn tool(&self) -> &'static str {
        "defaulter-gen"
    }

    fn activation(&self) -> &'static str {
        "`//! +k8s:defaulter-gen=TypeMeta`, or `+k8s:defaulter-gen=true` on a type"
    }

    fn applies(&self, pkg: &Package) -> bool {
        enabled(pkg)
    }

    fn registers(&self) -> Option<&'static str> {
        Some("register_defaults")
    }

    fn reexported(&self) -> bool {
        true
    }

    fn generate_package(&self, cx: &Context<'_>, pkg: &Package, diags: &mut Diagnostics) -> Option<TokenStream> {
        let rt = cx.rt();
        let tree = Tree::new(cx.universe, rt.clone());
        let mut local = Diagnostics::new();
        let (mut items, mut registrations) = (Vec::new(), Vec::new());
        for ty in pkg.types.values().filter(|t| t.selection.defaults) {
            if !tree.non_empty(&pkg.id(&ty.name)) {
                local.note(format!("{}: defaults: `{}` has nothing to default", ty.loc, ty.name));
                continue;
            }
            if let Some(f) = hand_written(pkg, ty) {
                let expected = format!("pub fn {}(obj: &mut {}::{})", f.name, pkg.path, ty.name);
                let id = pkg.id(&ty.name);
                if check_signature(f, &[(Pass::RefMut, &id)], &Returns::Unit, &expected, &mut local) {
                    check_reexported(pkg, f, &mut local);
                }
            }
            items.push(object_defaulter(&tree, pkg, ty, &mut local));
            if is_root(pkg, ty) && ty.is_kind() {
                let (path, f) = (type_path(&ty.module, &ty.name), object_fn(&ty.name));
                registrations.push(quote! { scheme.add_type_defaulting_func::<#path>(#f); });
            }
        }
        let failed = local.has_errors();
        diags.extend(local);
        if failed {
            return None;
        }
        if registrations.is_empty() {
            diags.push(
                Diagnostic::error(&pkg.tag_loc(tag::DEFAULTER), format!("package `{}` asks for defaulting but no kind has anything to default", pkg.path))
                    .label("nothing to generate")
                    .help("write `pub fn set_defaults_<type>(obj: &mut <Type>)` in the package, add `+default=` markers, or remove the tag"),
            );
            return None;
        }
        let doc = format!(" Defaulting functions for `{}`.", pkg.path);
        Some(quote! {
            #![doc = #doc]

            /// Registers the defaulting function of every kind of this package.
            pub fn register_defaults(scheme: &mut #rt::Scheme) -> ::core::result::Result<(), #rt::SchemeError> {
                #(#registrations)*
                ::core::result::Result::Ok(())
            }

            #(#items)*
        })
    }
}

/// Whether the package generates defaulters at all.
fn enabled(pkg: &Package) -> bool {
    pkg.attrs.defaulter.is_some() || pkg.types.values().any(|t| t.attrs.defaulter == Some(true))
}

/// Whether a type is an object root: it has a field of the meta type the package tag names
/// (`+k8s:defaulter-gen=TypeMeta`: kinds), or it opted in with `=true`.
fn is_root(pkg: &Package, ty: &Type) -> bool {
    if ty.attrs.defaulter == Some(true) {
        return true;
    }
    match &pkg.attrs.defaulter {
        None => false,
        Some(DefaulterRoots::Meta(m)) => ty.fields().iter().any(|f| f.ty.strip_option().is_external(*m)),
        Some(DefaulterRoots::Field(name)) => ty.fields().iter().any(|f| f.name == *name),
    }
}

fn object_fn(type_name: &str) -> proc_macro2::Ident {
    names::ident(&names::object_defaults_fn(type_name))
}

/// Which named types have anything to default, computed once over the whole universe (to a
/// fixpoint, since API types can be recursive, like JSONSchemaProps).
struct Tree<'u> {
    universe: &'u Universe,
    rt: syn::Path,
    non_empty: BTreeSet<TypeId>,
}

impl<'u> Tree<'u> {
    fn new(universe: &'u Universe, rt: syn::Path) -> Self {
        let mut non_empty = BTreeSet::new();
        let all: Vec<(TypeId, &Package, &Type)> = universe
            .packages
            .values()
            .filter(|p| enabled(p))
            .flat_map(|p| {
                p.types
                    .values()
                    .filter(|t| t.selection.defaults)
                    .map(move |t| (p.id(&t.name), p, t))
            })
            .collect();
        loop {
            let before = non_empty.len();
            for (id, pkg, ty) in &all {
                if !non_empty.contains(id)
                    && (hand_written(pkg, ty).is_some()
                        || ty.fields().iter().any(|f| has_marker(f) || walks(&non_empty, &f.ty)))
                {
                    non_empty.insert(id.clone());
                }
            }
            if non_empty.len() == before {
                break;
            }
        }
        Tree {
            universe,
            rt,
            non_empty,
        }
    }

    fn non_empty(&self, id: &TypeId) -> bool {
        self.non_empty.contains(id)
    }

    /// Statements that default the value at `place`, or nothing when its type has no defaults.
    fn walk(&self, ty: &TypeRef, place: &Place, depth: usize) -> Option<TokenStream> {
        let v = format_ident!("v{}", depth);
        let bound = Place::Ref(v.clone());
        match ty {
            TypeRef::Named(id) if self.non_empty(id) => {
                let pkg = self.universe.packages.get(&id.package)?;
                let f = type_path(&pkg.path, &names::object_defaults_fn(&id.name));
                let arg = place.by_mut_ref();
                Some(quote! { #f(#arg); })
            }
            TypeRef::Option(inner) => {
                let body = self.walk(inner, &bound, depth + 1)?;
                let scrutinee = place.by_mut_ref();
                Some(quote! { if let ::core::option::Option::Some(#v) = #scrutinee { #body } })
            }
            TypeRef::Vec(inner) => {
                let body = self.walk(inner, &bound, depth + 1)?;
                let receiver = place.receiver();
                Some(quote! { for #v in #receiver.iter_mut() { #body } })
            }
            TypeRef::Map { value, .. } => {
                let body = self.walk(value, &bound, depth + 1)?;
                let receiver = place.receiver();
                Some(quote! { for #v in #receiver.values_mut() { #body } })
            }
            TypeRef::Box(inner) => {
                let receiver = place.receiver();
                self.walk(inner, &Place::Expr(quote! { *#receiver }), depth)
            }
            _ => None,
        }
    }
}

/// Where a value to default is: a place expression of the value itself (`obj.spec`), or a
/// binding holding `&mut` to it.
enum Place {
    Expr(TokenStream),
    Ref(proc_macro2::Ident),
}

impl Place {
    /// An expression of type `&mut T`.
    fn by_mut_ref(&self) -> TokenStream {
        match self {
            Place::Expr(e) => quote! { &mut #e },
            Place::Ref(v) => quote! { #v },
        }
    }

    /// An expression to call `&mut self` methods on; a dereference needs parentheses.
    fn receiver(&self) -> TokenStream {
        match self {
            Place::Expr(e) if e.to_string().starts_with('*') => quote! { (#e) },
            Place::Expr(e) => e.clone(),
            Place::Ref(v) => quote! { #v },
        }
    }
}

/// Whether defaulting a value of this type reaches a non-empty named type.
fn walks(non_empty: &BTreeSet<TypeId>, ty: &TypeRef) -> bool {
    match ty {
        TypeRef::Named(id) => non_empty.contains(id),
        TypeRef::Option(t) | TypeRef::Vec(t) | TypeRef::Box(t) => walks(non_empty, t),
        TypeRef::Map { value, .. } => walks(non_empty, value),
        _ => false,
    }
}

fn hand_written<'p>(pkg: &'p Package, ty: &Type) -> Option<&'p crate::model::Function> {
    pkg.functions.get(&names::defaults_fn(&ty.name))
}

fn has_marker(f: &Field) -> bool {
    f.attrs.default_text.is_some()
}

/// `set_object_defaults_<type>`: the hand-written defaulter, then markers, then nested fields.
fn object_defaulter(tree: &Tree<'_>, pkg: &Package, ty: &Type, diags: &mut Diagnostics) -> TokenStream {
    let path = type_path(&ty.module, &ty.name);
    let f = object_fn(&ty.name);
    let mut stmts = Vec::new();
    if let Some(f) = hand_written(pkg, ty) {
        let hand = type_path(&pkg.path, &f.name);
        stmts.push(quote! { #hand(obj); });
    }
    for field in ty.fields() {
        let member = names::member(&field.name);
        if has_marker(field) {
            let written = field.attrs.default_text.clone().unwrap_or_default();
            let loc = field.tags.loc(tag::DEFAULT, &field.loc);
            let stmt = match &field.attrs.default {
                Some(value) => marker_stmt(tree, field, value, &member),
                None => Err("`ref(...)` defaults are not supported".to_string()),
            };
            match stmt {
                Ok(Some(s)) => stmts.push(s),
                Ok(None) => {}
                Err(why) => diags.push(
                    Diagnostic::error(&loc, format!("cannot apply `+default={written}` to field `{}`: {why}", field.name))
                        .label("invalid default")
                        .help("a default is JSON that decodes as the field's type (a string for an `Option` of a string enum); anything that depends on other fields belongs in a hand-written set_defaults_* function"),
                ),
            }
        }
        if let Some(s) = tree.walk(&field.ty, &Place::Expr(quote! { obj.#member }), 0) {
            stmts.push(s);
        }
    }
    let doc = format!(
        " Applies every default of `{}`: its hand-written `set_defaults_*`, `+default` markers, and nested fields.",
        ty.name
    );
    // Every marker may be a zero value, which does nothing on a plain field: the function stays
    // (callers and peers name it) with nothing to do.
    let obj = if stmts.is_empty() {
        quote! { _obj }
    } else {
        quote! { obj }
    };
    quote! {
        #[doc = #doc]
        pub fn #f(#obj: &mut #path) {
            #(#stmts)*
        }
    }
}

/// The statement for one `+default=<json>` marker: `Option` fields are set when absent, plain
/// fields when they hold the zero value; a default equal to the zero value does nothing.
fn marker_stmt(
    tree: &Tree<'_>,
    field: &Field,
    value: &Value,
    member: &syn::Member,
) -> Result<Option<TokenStream>, String> {
    let (universe, rt) = (tree.universe, &tree.rt);
    let (optional, inner) = match &field.ty {
        TypeRef::Option(t) => (true, &**t),
        t => (false, t),
    };
    let string_enum = |id| universe.get(id).and_then(Type::unit_variants).is_some();
    let (literal, decoded) = match (inner, value) {
        (TypeRef::Named(id), Value::String(v)) if optional && string_enum(id) => {
            (enum_variant(universe, id, v)?, false)
        }
        (TypeRef::Named(id), _) if !optional && string_enum(id) => {
            return Err("an enum field always holds a variant; make it an `Option` to default it".into());
        }
        (TypeRef::String | TypeRef::Primitive(_), _) => {
            // The exact range of the field's type: `300` is no `u8`, `1.5` no `i32`.
            json_fit::check(universe, inner, value)?;
            (literal(inner, value)?, false)
        }
        // Anything else is decoded from its JSON when applied, as Go's defaulter-gen
        // unmarshals it; checked here so that the decode cannot fail.
        _ => {
            json_fit::check(universe, inner, value)?;
            let text = value.to_string();
            (quote! { #rt::defaulting::from_json(#text) }, true)
        }
    };
    if optional {
        return Ok(Some(quote! {
            if obj.#member.is_none() {
                obj.#member = ::core::option::Option::Some(#literal);
            }
        }));
    }
    let zero = matches!(value, Value::Bool(false) | Value::Null)
        || value.as_f64() == Some(0.0)
        || value.as_str() == Some("")
        || value.as_array().is_some_and(Vec::is_empty)
        || value.as_object().is_some_and(serde_json::Map::is_empty);
    if zero {
        return Ok(None);
    }
    // Lists and maps are unset when empty, as Go's nil slices and maps are.
    if decoded && matches!(inner, TypeRef::Vec(_) | TypeRef::Map { .. }) {
        return Ok(Some(quote! {
            if obj.#member.is_empty() {
                obj.#member = #literal;
            }
        }));
    }
    if decoded
        && let TypeRef::Named(id) = inner
        && let Some(t) = universe.get(id)
        && !(t.implements("Default") && t.implements("PartialEq"))
    {
        return Err(format!(
            "`{}` does not derive both `Default` and `PartialEq`, so an unset value cannot be told apart; make the field an `Option`",
            t.name
        ));
    }
    Ok(Some(quote! {
        if #rt::conversion::is_zero(&obj.#member) {
            obj.#member = #literal;
        }
    }))
}

/// The variant of a string enum whose JSON value is `value`.
fn enum_variant(universe: &Universe, id: &TypeId, value: &str) -> Result<TokenStream, String> {
    let ty = universe
        .get(id)
        .ok_or_else(|| format!("`{}` is not a type of this crate", id.name))?;
    let variants = ty
        .unit_variants()
        .ok_or_else(|| format!("`{}` is not an enum of unit variants", ty.name))?;
    let Some(v) = variants.iter().find(|v| v.json_name == value) else {
        let values: Vec<&str> = variants.iter().map(|v| v.json_name.as_str()).collect();
        return Err(format!(
            "`{value}` is not a value of `{}` (one of: {})",
            ty.name,
            values.join(", ")
        ));
    };
    let path = type_path(&ty.module, &ty.name);
    let variant = names::ident(&v.name);
    Ok(quote! { #path::#variant })
}

/// A Rust literal of type `ty` for a JSON scalar.
fn literal(ty: &TypeRef, value: &Value) -> Result<TokenStream, String> {
    match (ty, value) {
        (TypeRef::String, Value::String(s)) => Ok(quote! { ::std::string::String::from(#s) }),
        (TypeRef::Primitive(Primitive::Bool), Value::Bool(b)) => Ok(quote! { #b }),
        (TypeRef::Primitive(p), Value::Number(n)) if p.is_number() => {
            let point = if p.is_float() && !n.to_string().contains('.') {
                ".0"
            } else {
                ""
            };
            let lit: syn::Lit = syn::parse_str(&format!("{n}{point}")).map_err(|e| e.to_string())?;
            if p.is_float() {
                let ty = names::ident(p.as_str());
                Ok(quote! { #lit as #ty })
            } else {
                Ok(quote! { #lit })
            }
        }
        _ => Err(format!("`{value}` is not a value of type `{ty}`")),
    }
}
