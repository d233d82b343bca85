//! defaults: for a package tagged `+k8s:defaulter-gen=<meta type>` (or `=true` types), one
//! `set_object_defaults_<type>` per type whose tree has anything to default: it calls the
//! hand-written `set_defaults_<type>` of the type's package, applies `+default=` field markers,
//! and walks every nested field, through `Option`, `Vec`, maps and `Box`, whose type has defaults
//! (in any package; the model knows them all). `register_defaults` registers the object roots.

use std::collections::BTreeSet;

use heck::ToSnakeCase;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::{Context, Generator, check_reexported, type_path};
use crate::diag::{Diagnostic, Diagnostics};
use crate::model::names;
use crate::model::tags::name as tag;
use crate::model::{External, Field, Package, Type, TypeId, TypeRef, Universe};

/// The defaults generator.
pub struct Defaults;

impl Generator for Defaults {
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

    fn generate_package(&self, cx: &Context<'_>, pkg: &Package, diags: &mut Diagnostics) -> Option<TokenStream> {
        let tree = Tree::new(cx.universe);
        let mut local = Diagnostics::new();
        let (mut items, mut registrations) = (Vec::new(), Vec::new());
        for ty in pkg.types.values().filter(|t| selected(pkg, t)) {
            let id = TypeId {
                package: pkg.path.clone(),
                name: ty.name.clone(),
            };
            if !tree.non_empty(&id) {
                local.note(format!("{}: defaults: `{}` has nothing to default", ty.loc, ty.name));
                continue;
            }
            if let Some(f) = pkg.functions.get(&format!("set_defaults_{}", ty.name.to_snake_case())) {
                check_reexported(pkg, f, &mut local);
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
            pub fn register_defaults(scheme: &mut ::runtime::Scheme) -> ::core::result::Result<(), ::runtime::SchemeError> {
                #(#registrations)*
                ::core::result::Result::Ok(())
            }

            #(#items)*
        })
    }
}

/// Whether the package generates defaulters at all.
fn enabled(pkg: &Package) -> bool {
    pkg.tags.value(tag::DEFAULTER).is_some_and(|v| v != "false")
        || pkg.types.values().any(|t| t.tags.value(tag::DEFAULTER) == Some("true"))
}

/// Whether a type of an enabled package gets a defaulter: package-wide unless opted out.
fn selected(pkg: &Package, ty: &Type) -> bool {
    match ty.tags.value(tag::DEFAULTER) {
        Some("false") => false,
        Some("true") => true,
        _ => pkg.tags.value(tag::DEFAULTER).is_some_and(|v| v != "false") && !ty.generic,
    }
}

/// Whether a type is an object root: it has a field of the meta type the package tag names
/// (`+k8s:defaulter-gen=TypeMeta`: kinds), or it opted in with `=true`.
fn is_root(pkg: &Package, ty: &Type) -> bool {
    if ty.tags.value(tag::DEFAULTER) == Some("true") {
        return true;
    }
    let Some(filter) = pkg.tags.value(tag::DEFAULTER) else {
        return false;
    };
    let meta = match filter {
        "TypeMeta" => Some(External::TypeMeta),
        "ObjectMeta" => Some(External::ObjectMeta),
        "ListMeta" => Some(External::ListMeta),
        _ => None,
    };
    ty.fields().iter().any(|f| match meta {
        Some(m) => f.ty.strip_option().is_external(m),
        None => f.name == filter.to_snake_case(),
    })
}

fn object_fn(type_name: &str) -> proc_macro2::Ident {
    format_ident!("set_object_defaults_{}", type_name.to_snake_case())
}

/// Which named types have anything to default, computed once over the whole universe (to a
/// fixpoint, since API types can be recursive, like JSONSchemaProps).
struct Tree<'u> {
    universe: &'u Universe,
    non_empty: BTreeSet<TypeId>,
}

impl<'u> Tree<'u> {
    fn new(universe: &'u Universe) -> Self {
        let mut non_empty = BTreeSet::new();
        let all: Vec<(TypeId, &Package, &Type)> = universe
            .packages
            .values()
            .filter(|p| enabled(p))
            .flat_map(|p| {
                p.types.values().filter(move |t| selected(p, t)).map(move |t| {
                    (
                        TypeId {
                            package: p.path.clone(),
                            name: t.name.clone(),
                        },
                        p,
                        t,
                    )
                })
            })
            .collect();
        loop {
            let before = non_empty.len();
            for (id, pkg, ty) in &all {
                if !non_empty.contains(id)
                    && (hand_written(pkg, ty).is_some()
                        || ty
                            .fields()
                            .iter()
                            .any(|f| marker(f).is_some() || walks(&non_empty, &f.ty)))
                {
                    non_empty.insert(id.clone());
                }
            }
            if non_empty.len() == before {
                break;
            }
        }
        Tree { universe, non_empty }
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
                let f = type_path(&pkg.path, &object_fn(&id.name).to_string());
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
    pkg.functions.get(&format!("set_defaults_{}", ty.name.to_snake_case()))
}

fn marker(f: &Field) -> Option<&crate::model::tags::Tag> {
    f.tags.get(tag::DEFAULT)
}

/// `set_object_defaults_<type>`: the hand-written defaulter, then markers, then nested fields.
fn object_defaulter(tree: &Tree<'_>, pkg: &Package, ty: &Type, diags: &mut Diagnostics) -> TokenStream {
    let path = type_path(&ty.module, &ty.name);
    let f = object_fn(&ty.name);
    let mut stmts = Vec::new();
    if hand_written(pkg, ty).is_some() {
        let hand = type_path(&pkg.path, &format!("set_defaults_{}", ty.name.to_snake_case()));
        stmts.push(quote! { #hand(obj); });
    }
    for field in ty.fields() {
        let member = names::member(&field.name);
        if let Some(m) = marker(field) {
            match marker_stmt(tree.universe, field, m.value.as_deref().unwrap_or_default(), &member) {
                Ok(Some(s)) => stmts.push(s),
                Ok(None) => {}
                Err(why) => diags.push(
                    Diagnostic::error(&m.loc, format!("cannot apply `+default={}` to field `{}`: {why}", m.value.as_deref().unwrap_or_default(), field.name))
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
    quote! {
        #[doc = #doc]
        pub fn #f(obj: &mut #path) {
            #(#stmts)*
        }
    }
}

/// The statement for one `+default=<json>` marker: `Option` fields are set when absent, plain
/// fields when they hold the zero value; a default equal to the zero value does nothing.
fn marker_stmt(
    universe: &Universe,
    field: &Field,
    json: &str,
    member: &syn::Member,
) -> Result<Option<TokenStream>, String> {
    let value: serde_json::Value =
        serde_json::from_str(json).map_err(|_| "`ref(...)` defaults are not supported".to_string())?;
    let (optional, inner) = match &field.ty {
        TypeRef::Option(t) => (true, &**t),
        t => (false, t),
    };
    let string_enum = |id| universe.get(id).and_then(Type::unit_variants).is_some();
    let (literal, decoded) = match (inner, &value) {
        (TypeRef::Named(id), serde_json::Value::String(v)) if optional && string_enum(id) => {
            (enum_variant(universe, id, v)?, false)
        }
        (TypeRef::Named(id), _) if !optional && string_enum(id) => {
            return Err("an enum field always holds a variant; make it an `Option` to default it".into());
        }
        (TypeRef::String | TypeRef::Primitive(_), _) => (literal(inner, &value)?, false),
        // Anything else is decoded from its JSON when applied, as Go's defaulter-gen
        // unmarshals it; checked here so that the decode cannot fail.
        _ => {
            super::json_fit::check(universe, inner, &value)?;
            let text = value.to_string();
            (quote! { ::runtime::defaulting::from_json(#text) }, true)
        }
    };
    if optional {
        return Ok(Some(quote! {
            if obj.#member.is_none() {
                obj.#member = ::core::option::Option::Some(#literal);
            }
        }));
    }
    let zero = matches!(&value, serde_json::Value::Bool(false) | serde_json::Value::Null)
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
        && !(t.derives.contains("Default") && t.derives.contains("PartialEq"))
    {
        return Err(format!(
            "`{}` does not derive both `Default` and `PartialEq`, so an unset value cannot be told apart; make the field an `Option`",
            t.name
        ));
    }
    Ok(Some(quote! {
        if ::runtime::conversion::is_zero(&obj.#member) {
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
fn literal(ty: &TypeRef, value: &serde_json::Value) -> Result<TokenStream, String> {
    match (ty, value) {
        (TypeRef::String, serde_json::Value::String(s)) => Ok(quote! { ::std::string::String::from(#s) }),
        (TypeRef::Primitive(p), serde_json::Value::Bool(b)) if p == "bool" => Ok(quote! { #b }),
        (TypeRef::Primitive(p), serde_json::Value::Number(n)) if p != "bool" && p != "char" => {
            let lit: syn::Lit = syn::parse_str(&format!(
                "{n}{}",
                if p.starts_with('f') && !n.to_string().contains('.') {
                    ".0"
                } else {
                    ""
                }
            ))
            .map_err(|e| e.to_string())?;
            let ty: syn::Type = syn::parse_str(p).map_err(|e| e.to_string())?;
            if p.starts_with('f') {
                Ok(quote! { #lit as #ty })
            } else {
                Ok(quote! { #lit })
            }
        }
        _ => Err(format!("`{value}` is not a value of type `{ty}`")),
    }
}
