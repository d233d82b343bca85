//! The body of one `validate_<type>`: per field, in validation-gen's order, ratcheting (an
//! unchanged value is not checked again), the short-circuiting rules on the whole value
//! (`optional`, `required`, `forbidden`, `immutable`, `update`), then the rules on the value
//! itself, list uniqueness, `eachVal`/`eachKey`/`item`/`subfield`, and the nested types' own
//! validation; then the struct's unions, modes and dependencies, then the hand-written rules.
//! A short-circuit leaves the field's labelled block.

use proc_macro2::{Span, TokenStream};
use quote::quote;
use serde_json::{Map, Value};

use super::Tree;
use super::value::{self, ListMeta};
use crate::diag::{Diagnostic, Diagnostics, SourceLoc};
use crate::generator::{Context, type_path};
use crate::model::check::wire_field;
use crate::model::declarative::{Level, Literal, Rule, UpdateRule, Validation};
use crate::model::{Package, Type, TypeRef, names};

/// `validate_<type>` of one type.
pub fn function(cx: &Context<'_>, tree: &Tree<'_>, pkg: &Package, ty: &Type, diags: &mut Diagnostics) -> TokenStream {
    let rt = cx.rt();
    let mut e = Emitter {
        tree,
        rt: rt.clone(),
        label: 0,
        diags,
        meta: ListMeta::default(),
        crd: pkg.attrs.crd,
        schema_list: None,
    };
    let path_ty = type_path(&ty.module, &ty.name);
    let f = names::ident(&names::validate_fn(&ty.name));
    let mut body = Vec::new();
    if !ty.attrs.declarative.is_empty() {
        let label = e.label();
        let whole = TypeRef::Named(pkg.id(&ty.name));
        let rules = e.apply(&ty.attrs.declarative, &Map::new(), &whole, &label, false, &ty.loc, None);
        body.push(quote! { #label: { let v = obj; let o = old; let _ = (v, o); #rules } });
    }
    if excludes_values(ty) {
        body.push(e.enum_exclusions(ty));
    }
    for field in ty.fields().iter().filter(|f| !f.skip) {
        body.push(e.field(field));
    }
    body.extend(e.struct_rules(ty));
    if pkg.functions.contains_key(&names::validate_custom_fn(&ty.name)) {
        let custom = type_path(&pkg.path, &names::validate_custom_fn(&ty.name));
        body.push(quote! { errs.extend(#custom(op, path, obj, old)); });
    }
    let doc = format!(
        " Validates `{}` against its declarative rules and those of every nested type.",
        ty.name
    );
    // One shape of code serves every field: `op` or `old` may go unread, a count is cast to
    // `i64` whatever its integer type, a union check nests where a rule has a condition.
    quote! {
        #[doc = #doc]
        #[allow(
            unused_variables,
            unused_mut,
            unused_labels,
            clippy::needless_borrow,
            clippy::nonminimal_bool,
            clippy::unnecessary_cast,
            clippy::collapsible_if
        )]
        pub fn #f(
            op: &#rt::validation::Operation,
            path: &#rt::validation::Path<'_>,
            obj: &#path_ty,
            old: ::core::option::Option<&#path_ty>,
        ) -> #rt::validation::ErrorList {
            let mut errs = #rt::validation::ErrorList::new();
            #(#body)*
            errs
        }
    }
}

/// Whether a type is a `+k8s:enum` string enum with `+k8s:enumExclude` variants, whose values
/// its validation refuses.
pub(super) fn excludes_values(ty: &Type) -> bool {
    ty.attrs.declarative.iter().any(|v| v.inner().rule == Rule::Enum)
        && ty
            .string_enum()
            .is_some_and(|vs| vs.iter().any(|v| !v.excluded.is_empty()))
}

pub(super) struct Emitter<'a, 'u> {
    pub tree: &'a Tree<'u>,
    pub rt: syn::Path,
    label: usize,
    pub diags: &'a mut Diagnostics,
    /// The list metadata of the field being emitted, which `eachVal` and nested validation
    /// match old items by.
    pub meta: ListMeta,
    /// Whether the package's kinds are custom resources (`+k8s:crd-gen=true`), whose list types
    /// (`+listType=map|set`) the API server checks as their schema states them.
    pub crd: bool,
    /// The custom resource list type of the field being emitted, checked once on its value.
    schema_list: Option<(crate::model::declarative::ListKind, Vec<String>)>,
}

/// Where a rule is evaluated: on the whole value (`Option` and all), or on the value inside.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Phase {
    Whole,
    Value,
}

fn phase(rule: &Rule) -> Option<Phase> {
    match rule {
        Rule::Optional | Rule::Required | Rule::Forbidden | Rule::Immutable | Rule::Update(_) => Some(Phase::Whole),
        // Struct-level rules, metadata, and rules with nothing to check in Rust (a Rust enum
        // holds only its variants) are not evaluated on a value.
        Rule::UnionMember { .. }
        | Rule::UnionDiscriminator { .. }
        | Rule::ZeroOrOneOfMember { .. }
        | Rule::Discriminator { .. }
        | Rule::Member { .. }
        | Rule::DependentRequired(_)
        | Rule::DependentForbidden(_)
        | Rule::ListType(_)
        | Rule::ListMapKey(_)
        | Rule::Unique(_)
        | Rule::CustomUnique
        | Rule::OpaqueType
        | Rule::Enum
        | Rule::EnumExclude => None,
        _ => Some(Phase::Value),
    }
}

impl Emitter<'_, '_> {
    pub(super) fn label(&mut self) -> syn::Lifetime {
        self.label += 1;
        syn::Lifetime::new(&format!("'v{}", self.label), Span::call_site())
    }

    fn error(&mut self, loc: &SourceLoc, message: String, help: &str) {
        self.diags.push(
            Diagnostic::error(loc, message)
                .label("cannot be validated")
                .help(help.to_string()),
        );
    }

    /// A rule that does not fit the value it is written on.
    pub(super) fn fail(&mut self, loc: &SourceLoc, message: String) {
        self.error(
            loc,
            message,
            "see validation-gen's tags in README.md, section \"Declarative validation\"",
        );
    }

    /// A string enum's excluded values (`+k8s:enumExclude`, maybe under a gate): `Unsupported
    /// value` with the values accepted now, sorted.
    fn enum_exclusions(&mut self, ty: &Type) -> TokenStream {
        let rt = self.rt.clone();
        let path = type_path(&ty.module, &ty.name);
        let mut arms = Vec::new();
        let mut table = Vec::new();
        for v in ty.string_enum().unwrap_or_default() {
            let var = names::ident(&v.name);
            let json = &v.json_name;
            arms.push(quote! { #path::#var => #json });
            let conditions: Vec<TokenStream> = v
                .excluded
                .iter()
                .map(|x| match &x.rule {
                    Rule::IfEnabled { gate, .. } | Rule::IfDisabled { gate, .. } => {
                        let want = if matches!(x.rule, Rule::IfEnabled { .. }) {
                            quote! { on }
                        } else {
                            quote! { !on }
                        };
                        quote! {
                            match op.option(#gate) {
                                ::core::option::Option::None => {
                                    errs.push(#rt::validation::undefined_option(path, #gate));
                                    false
                                }
                                ::core::option::Option::Some(on) => #want,
                            }
                        }
                    }
                    _ => quote! { true },
                })
                .collect();
            let excluded = if conditions.is_empty() {
                quote! { false }
            } else {
                quote! { #(#conditions)||* }
            };
            table.push(quote! { (#json, #excluded) });
        }
        quote! {
            {
                let table = [#(#table),*];
                let value = match obj { #(#arms,)* };
                if table.iter().any(|(v, excluded)| *v == value && *excluded) {
                    let supported: ::std::vec::Vec<&str> = table.iter().filter(|(_, x)| !x).map(|(v, _)| *v).collect();
                    errs.push(#rt::validation::not_supported(path, value, &supported));
                }
            }
        }
    }

    /// One field's block.
    fn field(&mut self, f: &crate::model::Field) -> TokenStream {
        let universe = self.tree.universe;
        let rules = value::rules(universe, f);
        let schema = value::schema(f);
        let opaque = value::opaque(f);
        let label = self.label();
        let member = names::member(&f.name);
        self.meta = ListMeta::of(&rules);
        self.schema_list = value::schema_list(f)
            .filter(|_| self.crd)
            .map(|(kind, keys)| (kind, keys.to_vec()));
        let body = self.apply(&rules, &schema, &f.ty, &label, !opaque, &f.loc, None);
        if body.is_empty() {
            return TokenStream::new();
        }
        let json = &f.json_name;
        // A flattened field's checks are at its parent's path, bound already.
        let path = if f.flatten || f.json_name.is_empty() {
            TokenStream::new()
        } else {
            quote! { let path = &path.child(#json); }
        };
        quote! {
            #label: {
                #path
                let v = &obj.#member;
                let o = old.map(|o| &o.#member);
                if op.unchanged(v, o) { break #label; }
                #body
            }
        }
    }

    /// The checks of a value of type `ty` bound to `v` (a reference), the old one to `o` (an
    /// `Option` of a reference) and its path to `path` (a reference): whole-value rules, then
    /// the value inside an `Option`, then (when `nested`) the validation of its type.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn apply(
        &mut self,
        rules: &[Validation],
        schema: &Map<String, Value>,
        ty: &TypeRef,
        label: &syn::Lifetime,
        nested: bool,
        loc: &SourceLoc,
        level: Option<Level>,
    ) -> TokenStream {
        let mut out = Vec::new();
        // validation-gen runs a field's tags in name order: `immutable` before `optional`, so
        // clearing an immutable field is an error too.
        let mut whole: Vec<&Validation> = rules
            .iter()
            .filter(|r| phase(&r.inner().rule) == Some(Phase::Whole))
            .collect();
        whole.sort_by_key(|r| rule_name(&r.inner().rule));
        for r in whole {
            out.push(self.rule(r, ty, label, level));
        }
        let (inner, unwrap) = self.unwrap(ty, label);
        let mut after = Vec::new();
        // Short-circuiting size limits first, as validation-gen orders them.
        let (sc, rest): (Vec<&Validation>, Vec<&Validation>) = rules
            .iter()
            .filter(|r| phase(&r.inner().rule) == Some(Phase::Value))
            .partition(|r| matches!(r.inner().rule, Rule::MaxItems(_) | Rule::MaxProperties(_)));
        for r in sc.into_iter().chain(rest) {
            after.push(self.rule(r, inner, label, level));
        }
        after.push(self.schema_rules(schema, inner, loc));
        after.push(self.schema_list_check(inner));
        after.push(self.unique(inner));
        if nested {
            after.push(self.nested(inner));
        }
        if after.iter().all(TokenStream::is_empty) {
            return quote! { #(#out)* };
        }
        quote! { #(#out)* #unwrap #(#after)* }
    }

    /// A custom resource's list type, checked on the list as the API server checks its schema's
    /// `x-kubernetes-list-type`: duplicate keys of a map, duplicate items of a set.
    fn schema_list_check(&mut self, ty: &TypeRef) -> TokenStream {
        let rt = self.rt.clone();
        let (Some((kind, keys)), TypeRef::Vec(_)) = (self.schema_list.take(), ty) else {
            return TokenStream::new();
        };
        match kind {
            crate::model::declarative::ListKind::Map => {
                quote! { errs.extend(#rt::validation::schema::list_map_keys(path, v, &[#(#keys),*])); }
            }
            _ => quote! { errs.extend(#rt::validation::schema::list_set(path, v)); },
        }
    }

    /// Statements that rebind `v` and `o` to the value inside an `Option` or `Box`, leaving the
    /// block when there is none; and the type inside.
    fn unwrap<'t>(&self, ty: &'t TypeRef, label: &syn::Lifetime) -> (&'t TypeRef, TokenStream) {
        match ty {
            TypeRef::Option(inner) => {
                let (deeper, more) = self.unwrap(inner, label);
                (
                    deeper,
                    quote! {
                        let ::core::option::Option::Some(v) = v.as_ref() else { break #label; };
                        let o = o.and_then(|o| o.as_ref());
                        #more
                    },
                )
            }
            TypeRef::Box(inner) => {
                let (deeper, more) = self.unwrap(inner, label);
                (deeper, quote! { let v = &**v; let o = o.map(|o| &**o); #more })
            }
            other => (other, TokenStream::new()),
        }
    }

    /// One rule, with its conditions and stability level.
    fn rule(&mut self, r: &Validation, ty: &TypeRef, label: &syn::Lifetime, level: Option<Level>) -> TokenStream {
        let rt = self.rt.clone();
        match &r.rule {
            Rule::IfEnabled { gate, then } | Rule::IfDisabled { gate, then } => {
                let on = matches!(r.rule, Rule::IfEnabled { .. });
                let inner = self.rule(then, ty, label, level);
                quote! {
                    match op.option(#gate) {
                        ::core::option::Option::None => errs.push(#rt::validation::undefined_option(path, #gate)),
                        ::core::option::Option::Some(#on) => { #inner }
                        ::core::option::Option::Some(_) => {}
                    }
                }
            }
            Rule::Stability { level: l, then, .. } => self.rule(then, ty, label, Some(*l)),
            rule => self.check(rule, ty, label, level, &r.loc),
        }
    }

    /// An expression saying whether `value` (a reference to a `ty`) is set: the runtime's
    /// `Presence` for options, strings, lists, maps and numbers; `true` for anything else, as a
    /// Go struct value is always set.
    pub(super) fn is_set(&self, ty: &TypeRef, value: TokenStream) -> TokenStream {
        let rt = &self.rt;
        if value::has_presence(ty) {
            quote! { #rt::validation::Presence::is_set(#value) }
        } else {
            quote! { true }
        }
    }

    /// `errs.push(e)` for an error expression, marked with the rule's stability level.
    pub(super) fn push(&self, e: TokenStream, level: Option<Level>) -> TokenStream {
        let rt = &self.rt;
        match level {
            None => quote! { errs.push(#e); },
            Some(Level::Alpha) => quote! { errs.push((#e).at_level(#rt::validation::Stability::Alpha)); },
            Some(Level::Beta) => quote! { errs.push((#e).at_level(#rt::validation::Stability::Beta)); },
        }
    }

    /// Pushes the error an `Option<FieldError>` expression holds; with `stop`, leaves the block.
    fn push_some(&self, e: TokenStream, level: Option<Level>, stop: Option<&syn::Lifetime>) -> TokenStream {
        let push = self.push(quote! { e }, level);
        let stop = stop.map(|l| quote! { break #l; });
        quote! { if let ::core::option::Option::Some(e) = #e { #push #stop } }
    }

    /// Extends the errors with an `ErrorList` expression, marked.
    fn extend(&self, list: TokenStream, level: Option<Level>) -> TokenStream {
        let rt = &self.rt;
        match level {
            None => quote! { errs.extend(#list); },
            Some(l) => {
                let l = match l {
                    Level::Alpha => quote! { Alpha },
                    Level::Beta => quote! { Beta },
                };
                quote! { errs.extend(#rt::validation::mark(#list, #rt::validation::Stability::#l)); }
            }
        }
    }

    /// The check of one plain rule on a value of type `ty`.
    fn check(
        &mut self,
        rule: &Rule,
        ty: &TypeRef,
        label: &syn::Lifetime,
        level: Option<Level>,
        loc: &SourceLoc,
    ) -> TokenStream {
        let rt = self.rt.clone();
        let v = quote! { #rt::validation };
        let present = self.is_set(ty, quote! { v });
        let wrong = |what: &str| format!("`{}` can only be used on {what}, not `{ty}`", rule_name(rule));
        match rule {
            Rule::Optional => quote! { if !#present { break #label; } },
            Rule::Required => {
                let push = self.push(quote! { #v::required(path) }, level);
                quote! { if !#present { #push break #label; } }
            }
            Rule::Forbidden => {
                let push = self.push(quote! { #v::forbidden(path) }, level);
                quote! { if #present { #push } break #label; }
            }
            Rule::Immutable => self.push_some(quote! { #v::immutable(op, path) }, level, Some(label)),
            Rule::Update(rules) => {
                let (ns, nu, nm) = (
                    rules.contains(&UpdateRule::NoSet),
                    rules.contains(&UpdateRule::NoUnset),
                    rules.contains(&UpdateRule::NoModify),
                );
                let old_present = if value::has_presence(ty) {
                    quote! { o.map(#v::Presence::is_set) }
                } else {
                    quote! { o.map(|_| true) }
                };
                let transitions = if ns || nu || nm {
                    self.push_some(
                        quote! { #v::update(op, path, #present, #old_present, #ns, #nu, #nm) },
                        level,
                        Some(label),
                    )
                } else {
                    TokenStream::new()
                };
                let items = self.update_items(rules, ty, level, loc);
                quote! { #transitions #items }
            }
            Rule::Minimum(_) | Rule::Maximum(_) | Rule::Monotonic | Rule::Neq(Literal::Int(_))
                if !value::is_integer(ty) =>
            {
                self.error(
                    loc,
                    wrong("integer fields"),
                    "put it on an integer field, or use `+k8s:validation:minimum` for a float",
                );
                TokenStream::new()
            }
            Rule::Minimum(n) => self.push_some(quote! { #v::minimum(path, *v as i64, #n) }, level, None),
            Rule::Maximum(n) => self.push_some(quote! { #v::maximum(path, *v as i64, #n) }, level, None),
            Rule::Monotonic => self.push_some(
                quote! { #v::monotonic(op, path, *v as i64, o.map(|o| *o as i64)) },
                level,
                None,
            ),
            Rule::Neq(Literal::Int(n)) => self.push_some(quote! { #v::neq_int(path, *v as i64, #n) }, level, None),
            Rule::Neq(Literal::String(s)) if *ty == TypeRef::String => {
                self.push_some(quote! { #v::neq_str(path, v, #s) }, level, None)
            }
            Rule::Neq(Literal::Bool(b)) if *ty == TypeRef::Primitive(crate::model::Primitive::Bool) => {
                self.push_some(quote! { #v::neq_bool(path, *v, #b) }, level, None)
            }
            Rule::Neq(_) => {
                self.error(
                    loc,
                    wrong("a field of the value's type"),
                    "write the value in the field's type: `\"text\"`, a number, `true`",
                );
                TokenStream::new()
            }
            Rule::MinLength(_) | Rule::MaxLength(_) | Rule::MaxBytes(_) | Rule::Format(_) if *ty != TypeRef::String => {
                self.error(loc, wrong("string fields"), "put it on a `String` field");
                TokenStream::new()
            }
            Rule::MinLength(n) => self.push_some(quote! { #v::min_length(path, v, #n) }, level, None),
            Rule::MaxLength(n) => self.push_some(quote! { #v::max_length(path, v, #n) }, level, None),
            Rule::MaxBytes(n) => self.push_some(quote! { #v::max_bytes(path, v, #n) }, level, None),
            Rule::Format(name) => self.extend(quote! { #v::format(path, v, #name) }, level),
            Rule::MinItems(_) | Rule::MaxItems(_) if !matches!(ty, TypeRef::Vec(_)) => {
                self.error(loc, wrong("list fields"), "put it on a `Vec` field");
                TokenStream::new()
            }
            Rule::MinItems(n) => self.push_some(quote! { #v::min_items(path, v.len(), #n) }, level, None),
            Rule::MaxItems(n) => self.push_some(quote! { #v::max_items(path, v.len(), #n) }, level, Some(label)),
            Rule::MinProperties(_) | Rule::MaxProperties(_) if !matches!(ty, TypeRef::Map { .. }) => {
                self.error(loc, wrong("map fields"), "put it on a map field");
                TokenStream::new()
            }
            Rule::MinProperties(n) => self.push_some(quote! { #v::min_properties(path, v.len(), #n) }, level, None),
            Rule::MaxProperties(n) => {
                self.push_some(quote! { #v::max_properties(path, v.len(), #n) }, level, Some(label))
            }
            Rule::EachVal(then) => self.each_val(then, ty, level, loc),
            Rule::EachKey(then) => self.each_key(then, ty, level, loc),
            Rule::Item { criteria, then } => self.item(criteria, then, ty, level, loc),
            Rule::Subfield { name, then } => self.subfield(name, then, ty, level, loc),
            Rule::Enum | Rule::EnumExclude if !matches!(ty, TypeRef::Named(_)) => TokenStream::new(),
            _ => TokenStream::new(),
        }
    }
}

/// A rule's tag name, for messages.
fn rule_name(rule: &Rule) -> String {
    let debug = format!("{rule:?}");
    let name = debug.split(['(', ' ', '{']).next().unwrap_or_default();
    let mut chars = name.chars();
    let lower: String = chars
        .next()
        .map(|c| c.to_ascii_lowercase())
        .into_iter()
        .chain(chars)
        .collect();
    format!("+k8s:{lower}")
}

/// The struct field of a list item (or any struct) with a JSON name, for key comparisons and
/// `+k8s:subfield`: a field of our struct, or of a k8s-openapi type by its published schema
/// (k8s-openapi names fields in snake case and makes the optional ones `Option`s).
pub(super) fn key_member(
    universe: &crate::model::Universe,
    item: &TypeRef,
    key: &str,
) -> Option<(syn::Member, TypeRef)> {
    match item {
        TypeRef::Named(id) => {
            let ty = universe.get(id)?;
            let f = wire_field(universe, ty, key)?;
            Some((names::member(&f.name), f.ty.clone()))
        }
        TypeRef::External(_, path) => {
            let def = crate::model::known::meta_definitions().get(&crate::model::known::external_model(path))?;
            let prop = def.get("properties")?.get(key)?;
            let scalar = match prop.get("type").and_then(Value::as_str)? {
                "string" => TypeRef::String,
                "integer" => TypeRef::Primitive(crate::model::Primitive::I64),
                "boolean" => TypeRef::Primitive(crate::model::Primitive::Bool),
                _ => return None,
            };
            let required = def
                .get("required")
                .and_then(Value::as_array)
                .is_some_and(|r| r.iter().any(|k| k == key));
            let ty = if required {
                scalar
            } else {
                TypeRef::Option(Box::new(scalar))
            };
            // k8s-openapi's field names: snake case, a keyword with `_` appended (`type_`).
            let mut name = heck::ToSnakeCase::to_snake_case(key);
            if syn::parse_str::<syn::Ident>(&name).is_err() {
                name.push('_');
            }
            Some((names::member(&name), ty))
        }
        _ => None,
    }
}
