//! Rules that reach into a value: `eachVal` and `eachKey` (every item or key), `item` (the list
//! item with given keys), `subfield` (one field of a struct), list uniqueness, and the nested
//! types' own validation. Each matches the old value's counterpart (a map list's item by its
//! keys, a set's by equality, a map's by key) so that unchanged items are not checked again.

use proc_macro2::TokenStream;
use quote::quote;
use serde_json::Map;

use super::emit::{Emitter, key_member};
use crate::diag::SourceLoc;
use crate::generator::type_path;
use crate::model::declarative::{Level, ListKind, Literal, Validation};
use crate::model::{TypeRef, names};

impl Emitter<'_, '_> {
    /// An expression true when list items `a` and `b` have the same map keys.
    fn same_keys(&self, item: &TypeRef, a: TokenStream, b: TokenStream) -> TokenStream {
        let conds: Vec<TokenStream> = self
            .meta
            .keys
            .iter()
            .filter_map(|k| key_member(self.tree.universe, item, k))
            .map(|(m, _)| quote! { #a.#m == #b.#m })
            .collect();
        quote! { #(#conds)&&* }
    }

    /// An expression of the old counterpart of list item `v` in `olist`, by the list metadata:
    /// by keys for a map list, by equality for a set, none otherwise.
    fn find_old(&self, item: &TypeRef) -> TokenStream {
        match self.meta.kind {
            Some(ListKind::Map) if !self.meta.keys.is_empty() => {
                let same = self.same_keys(item, quote! { x }, quote! { v });
                quote! { olist.and_then(|l| l.iter().find(|x| #same)) }
            }
            Some(ListKind::Set) => quote! { olist.and_then(|l| l.iter().find(|x| *x == v)) },
            _ => quote! { olist.and_then(|l| l.iter().find(|_| false)) },
        }
    }

    /// Whether an item with an old counterpart is unchanged: a map list compares the items, a
    /// set's counterpart is equal by construction.
    fn unchanged_item(&self) -> TokenStream {
        match self.meta.kind {
            Some(ListKind::Set) => quote! { o.is_some() },
            _ => quote! { o.is_some_and(|o| o == v) },
        }
    }

    /// `+k8s:update=NoAddItem|NoRemoveItem` on a list (items matched by the list metadata) or a
    /// map (by key): an added item is forbidden at its index, a removed one at the list (a map's
    /// at its key), as validation-gen reports them.
    pub(super) fn update_items(
        &mut self,
        rules: &[crate::model::declarative::UpdateRule],
        ty: &TypeRef,
        level: Option<Level>,
        loc: &SourceLoc,
    ) -> TokenStream {
        use crate::model::declarative::UpdateRule;
        let (add, remove) = (
            rules.contains(&UpdateRule::NoAddItem),
            rules.contains(&UpdateRule::NoRemoveItem),
        );
        if !add && !remove {
            return TokenStream::new();
        }
        let rt = self.rt.clone();
        let optional = matches!(ty, TypeRef::Option(_));
        let (new, old) = if optional {
            (
                quote! { v.iter().flatten() },
                quote! { o.into_iter().flatten().flatten() },
            )
        } else {
            (quote! { v.iter() }, quote! { o.into_iter().flatten() })
        };
        let mut checks = Vec::new();
        match ty.strip_option() {
            TypeRef::Vec(item) => {
                let same = match self.meta.kind {
                    Some(ListKind::Map) => self.same_keys(item, quote! { x }, quote! { y }),
                    Some(ListKind::Set) => quote! { x == y },
                    _ => {
                        self.fail(
                            loc,
                            "`+k8s:update=NoAddItem|NoRemoveItem` needs `+k8s:listType=set|map` to tell items apart"
                                .into(),
                        );
                        return TokenStream::new();
                    }
                };
                if add {
                    let push = self.push(
                        quote! { #rt::validation::FieldError::forbidden(&path.index(i), "item may not be added").with_origin("update") },
                        level,
                    );
                    checks.push(quote! {
                        for (i, x) in #new.enumerate() {
                            if !#old.any(|y| #same) { #push }
                        }
                    });
                }
                if remove {
                    let push = self.push(
                        quote! { #rt::validation::FieldError::forbidden(path, "item may not be removed").with_origin("update") },
                        level,
                    );
                    checks.push(quote! {
                        for y in #old {
                            if !#new.any(|x| #same) { #push }
                        }
                    });
                }
            }
            TypeRef::Map { .. } => {
                if add {
                    let push = self.push(
                        quote! { #rt::validation::FieldError::forbidden(&path.key(k), "item may not be added").with_origin("update") },
                        level,
                    );
                    checks.push(quote! {
                        for (k, _) in #new {
                            if !#old.any(|(j, _)| j == k) { #push }
                        }
                    });
                }
                if remove {
                    let push = self.push(
                        quote! { #rt::validation::FieldError::forbidden(&path.key(k), "item may not be removed").with_origin("update") },
                        level,
                    );
                    checks.push(quote! {
                        for (k, _) in #old {
                            if !#new.any(|(j, _)| j == k) { #push }
                        }
                    });
                }
            }
            other => {
                self.fail(
                    loc,
                    format!("`+k8s:update=NoAddItem|NoRemoveItem` can only be used on lists and maps, not `{other}`"),
                );
                return TokenStream::new();
            }
        }
        quote! { if op.is_update() && o.is_some() { #(#checks)* } }
    }

    /// `+k8s:eachVal`: the rule on every list item or map value.
    pub(super) fn each_val(
        &mut self,
        then: &Validation,
        ty: &TypeRef,
        level: Option<Level>,
        loc: &SourceLoc,
    ) -> TokenStream {
        let lab = self.label();
        match ty {
            TypeRef::Vec(item) => {
                let find = self.find_old(item);
                let unchanged = self.unchanged_item();
                let inner = self.apply(std::slice::from_ref(then), &Map::new(), item, &lab, false, loc, level);
                quote! {
                    let olist = o;
                    for (i, v) in v.iter().enumerate() {
                        #lab: {
                            let path = &path.index(i);
                            let o = #find;
                            if op.is_update() && #unchanged { break #lab; }
                            #inner
                        }
                    }
                }
            }
            TypeRef::Map { value, .. } => {
                let inner = self.apply(std::slice::from_ref(then), &Map::new(), value, &lab, false, loc, level);
                quote! {
                    let olist = o;
                    for (k, v) in v.iter() {
                        #lab: {
                            let path = &path.key(k);
                            let o = olist.and_then(|l| l.get(k));
                            if op.unchanged(v, o) { break #lab; }
                            #inner
                        }
                    }
                }
            }
            other => {
                self.fail(
                    loc,
                    format!("`+k8s:eachVal` can only be used on lists and maps, not `{other}`"),
                );
                TokenStream::new()
            }
        }
    }

    /// `+k8s:eachKey`: the rule on every key of a map, reported at the map's path.
    pub(super) fn each_key(
        &mut self,
        then: &Validation,
        ty: &TypeRef,
        level: Option<Level>,
        loc: &SourceLoc,
    ) -> TokenStream {
        let TypeRef::Map { key, .. } = ty else {
            self.fail(loc, format!("`+k8s:eachKey` can only be used on maps, not `{ty}`"));
            return TokenStream::new();
        };
        let lab = self.label();
        let inner = self.apply(std::slice::from_ref(then), &Map::new(), key, &lab, false, loc, level);
        quote! {
            let olist = o;
            for v in v.keys() {
                if op.is_update() && olist.is_some_and(|l| l.contains_key(v)) { continue; }
                #lab: {
                    let o = olist.and_then(|l| l.keys().find(|_| false));
                    #inner
                }
            }
        }
    }

    /// `+k8s:item(key: value, ...)`: the rule on the first list item with those keys.
    pub(super) fn item(
        &mut self,
        criteria: &[(String, Literal)],
        then: &Validation,
        ty: &TypeRef,
        level: Option<Level>,
        loc: &SourceLoc,
    ) -> TokenStream {
        let TypeRef::Vec(item) = ty else {
            self.fail(
                loc,
                format!("`+k8s:item` can only be used on lists of structs, not `{ty}`"),
            );
            return TokenStream::new();
        };
        let Some(matches) = self.criteria(item, criteria, loc) else {
            return TokenStream::new();
        };
        let lab = self.label();
        let inner = self.apply(std::slice::from_ref(then), &Map::new(), item, &lab, false, loc, level);
        if inner.is_empty() {
            // A union member (`+k8s:item(...)=+k8s:zeroOrOneOfMember`) is checked with its struct.
            return TokenStream::new();
        }
        quote! {
            let olist = o;
            if let ::core::option::Option::Some((i, v)) = v.iter().enumerate().find(|(_, x)| #matches) {
                #lab: {
                    let path = &path.index(i);
                    let o = olist.and_then(|l| l.iter().find(|x| #matches));
                    if op.unchanged(v, o) { break #lab; }
                    #inner
                }
            }
        }
    }

    /// An expression true for a list item `x` with the criteria's key values.
    pub(super) fn criteria(
        &mut self,
        item: &TypeRef,
        criteria: &[(String, Literal)],
        loc: &SourceLoc,
    ) -> Option<TokenStream> {
        let universe = self.tree.universe;
        let mut conds = Vec::new();
        for (key, lit) in criteria {
            let Some((member, key_ty)) = key_member(universe, item, key) else {
                self.fail(loc, format!("`+k8s:item`: the items `{item}` have no field `{key}`"));
                return None;
            };
            let cond = match (key_ty.strip_option(), lit) {
                (TypeRef::String, Literal::String(s)) if matches!(key_ty, TypeRef::Option(_)) => {
                    quote! { x.#member.as_deref() == ::core::option::Option::Some(#s) }
                }
                (TypeRef::String, Literal::String(s)) => quote! { x.#member == #s },
                (TypeRef::Named(id), Literal::String(s)) => {
                    let Some(variant) = universe
                        .get(id)
                        .and_then(|t| t.unit_variants())
                        .and_then(|vs| vs.iter().find(|v| v.json_name == *s))
                    else {
                        self.fail(loc, format!("`+k8s:item`: `{s}` is not a value of `{}`", id.name));
                        return None;
                    };
                    let path = type_path(&id.package, &id.name);
                    let var = names::ident(&variant.name);
                    let pat = quote! { #path::#var };
                    if matches!(key_ty, TypeRef::Option(_)) {
                        quote! { ::core::matches!(x.#member, ::core::option::Option::Some(#pat)) }
                    } else {
                        quote! { ::core::matches!(x.#member, #pat) }
                    }
                }
                (t, Literal::Int(n)) if super::value::is_integer(t) => quote! { x.#member as i64 == #n },
                (t, Literal::Bool(b)) if *t == TypeRef::Primitive(crate::model::Primitive::Bool) => {
                    quote! { x.#member == #b }
                }
                (t, lit) => {
                    self.fail(
                        loc,
                        format!("`+k8s:item`: key `{key}` is `{t}`, which {lit:?} cannot match"),
                    );
                    return None;
                }
            };
            conds.push(cond);
        }
        Some(quote! { #(#conds)&&* })
    }

    /// `+k8s:subfield(name)`: the rule on one field of the struct, by JSON name.
    pub(super) fn subfield(
        &mut self,
        name: &str,
        then: &Validation,
        ty: &TypeRef,
        level: Option<Level>,
        loc: &SourceLoc,
    ) -> TokenStream {
        let universe = self.tree.universe;
        let Some((member, field_ty)) = key_member(universe, ty, name) else {
            self.fail(loc, format!("`+k8s:subfield`: `{ty}` has no field `{name}`"));
            return TokenStream::new();
        };
        let lab = self.label();
        let inner = self.apply(
            std::slice::from_ref(then),
            &Map::new(),
            &field_ty,
            &lab,
            false,
            loc,
            level,
        );
        quote! {
            #lab: {
                let path = &path.child(#name);
                let v = &v.#member;
                let o = o.map(|o| &o.#member);
                if op.unchanged(v, o) { break #lab; }
                #inner
            }
        }
    }

    /// `Duplicate value` for the items of a set or map list (`+k8s:listType`, `+k8s:unique`).
    pub(super) fn unique(&mut self, ty: &TypeRef) -> TokenStream {
        let rt = self.rt.clone();
        let (true, TypeRef::Vec(item)) = (self.meta.check_unique, ty) else {
            return TokenStream::new();
        };
        let same = match self.meta.kind {
            Some(ListKind::Map) if !self.meta.keys.is_empty() => self.same_keys(item, quote! { a }, quote! { b }),
            Some(ListKind::Map) => return TokenStream::new(),
            _ => quote! { a == b },
        };
        quote! { errs.extend(#rt::validation::unique(path, v, |a, b| #same)); }
    }

    /// The validation of the value's own type: a named type's function, called on every item
    /// of a list or value of a map (unchanged ones skipped).
    pub(super) fn nested(&mut self, ty: &TypeRef) -> TokenStream {
        match ty {
            TypeRef::Named(id) if self.tree.validated(id) => {
                let f = type_path(&id.package, &names::validate_fn(&id.name));
                quote! { errs.extend(#f(op, path, v, o)); }
            }
            TypeRef::Box(inner) => {
                let call = self.nested(inner);
                if call.is_empty() {
                    return call;
                }
                quote! { { let v = &**v; let o = o.map(|o| &**o); #call } }
            }
            TypeRef::Vec(item) => {
                let call = self.nested(item);
                if call.is_empty() {
                    return call;
                }
                let find = self.find_old(item);
                let unchanged = self.unchanged_item();
                quote! {
                    {
                        let olist = o;
                        for (i, v) in v.iter().enumerate() {
                            let path = &path.index(i);
                            let o = #find;
                            if op.is_update() && #unchanged { continue; }
                            #call
                        }
                    }
                }
            }
            TypeRef::Map { value, .. } => {
                let call = self.nested(value);
                if call.is_empty() {
                    return call;
                }
                quote! {
                    {
                        let olist = o;
                        for (k, v) in v.iter() {
                            let path = &path.key(k);
                            let o = olist.and_then(|l| l.get(k));
                            if op.unchanged(v, o) { continue; }
                            #call
                        }
                    }
                }
            }
            _ => TokenStream::new(),
        }
    }
}
