//! Rules on a struct that several fields state together, emitted after the fields: unions
//! (`+k8s:unionMember`, `+k8s:unionDiscriminator`, `+k8s:zeroOrOneOfMember`, list items as
//! members through `+k8s:item`), modes (`+k8s:discriminator` with `+k8s:member(value)=...`) and
//! dependencies (`+k8s:dependentRequired`). Each is skipped on an update that changes none of the
//! fields it reads.

use std::collections::BTreeMap;

use heck::ToUpperCamelCase;
use proc_macro2::TokenStream;
use quote::quote;
use serde_json::Map;

use super::emit::Emitter;
use super::value::{self, ListMeta};
use crate::generator::type_path;
use crate::model::declarative::{Level, Rule, Validation};
use crate::model::{Field, Type, TypeRef, names};

/// One union member: its name in errors, its value in the discriminator, and an expression
/// (of `s`, the struct) saying whether it is set.
struct Member {
    name: String,
    value: String,
    set: TokenStream,
}

#[derive(Default)]
struct Union {
    members: Vec<Member>,
    discriminator: Option<(String, TokenStream)>,
    at_most_one: bool,
    level: Option<Level>,
}

/// A rule with its stability level, under its wrappers.
fn unwrap_level(v: &Validation) -> (Option<Level>, &Validation) {
    match &v.rule {
        Rule::Stability { level, then, .. } => (Some(*level), unwrap_level(then).1),
        _ => (None, v),
    }
}

impl Emitter<'_, '_> {
    /// An expression of `s.<field>` that says whether it is set.
    fn set_expr(&self, f: &Field) -> TokenStream {
        let m = names::member(&f.name);
        self.is_set(&f.ty, quote! { &s.#m })
    }

    /// An expression of `s.<field>` as the `&str` a discriminator compares: a string, or a
    /// string enum's JSON value; `""` when absent.
    fn discriminator_expr(&self, f: &Field) -> Option<TokenStream> {
        let m = names::member(&f.name);
        let as_str = |inner: &TypeRef, value: TokenStream| -> Option<TokenStream> {
            match inner {
                TypeRef::String => Some(quote! { #value.as_str() }),
                TypeRef::Named(id) => {
                    let ty = self.tree.universe.get(id)?;
                    let path = type_path(&id.package, &id.name);
                    let arms = ty.unit_variants()?.iter().map(|v| {
                        let var = names::ident(&v.name);
                        let json = &v.json_name;
                        quote! { #path::#var => #json }
                    });
                    Some(quote! { match #value { #(#arms,)* } })
                }
                _ => None,
            }
        };
        match &f.ty {
            TypeRef::Option(inner) => {
                let each = as_str(inner, quote! { d })?;
                Some(quote! { s.#m.as_ref().map_or("", |d| #each) })
            }
            other => as_str(other, quote! { (&s.#m) }),
        }
    }

    /// The struct-level rules of a type.
    pub(super) fn struct_rules(&mut self, ty: &Type) -> Vec<TokenStream> {
        let mut out = Vec::new();
        out.extend(self.unions(ty));
        out.extend(self.modes(ty));
        out.extend(self.dependencies(ty));
        out
    }

    fn unions(&mut self, ty: &Type) -> Vec<TokenStream> {
        let rt = self.rt.clone();
        let universe = self.tree.universe;
        let mut unions: BTreeMap<String, Union> = BTreeMap::new();
        for f in ty.fields().iter().filter(|f| !f.skip) {
            for r in value::rules(universe, f) {
                let (mut level, v) = unwrap_level(&r);
                let (union, member_name, at_most_one, set, name) = match &v.rule {
                    Rule::UnionMember { union, member } => {
                        (union, member.clone(), false, self.set_expr(f), f.json_name.clone())
                    }
                    Rule::ZeroOrOneOfMember { union } => (union, None, true, self.set_expr(f), f.json_name.clone()),
                    Rule::UnionDiscriminator { union } => {
                        let Some(expr) = self.discriminator_expr(f) else {
                            self.fail(
                                &r.loc,
                                format!("`+k8s:unionDiscriminator` on `{}`, which is not a string", f.name),
                            );
                            continue;
                        };
                        unions.entry(union.clone()).or_default().discriminator = Some((f.json_name.clone(), expr));
                        continue;
                    }
                    Rule::Item { criteria, then } => {
                        let (inner_level, inner) = unwrap_level(then);
                        let (union, at_most_one) = match &inner.rule {
                            Rule::UnionMember { union, .. } => (union, false),
                            Rule::ZeroOrOneOfMember { union } => (union, true),
                            _ => continue,
                        };
                        let TypeRef::Vec(item) = f.ty.strip_option() else {
                            continue;
                        };
                        let Some(matches) = self.criteria(item, criteria, &r.loc) else {
                            continue;
                        };
                        let m = names::member(&f.name);
                        let list = if matches!(f.ty, TypeRef::Option(_)) {
                            quote! { s.#m.as_deref().unwrap_or_default() }
                        } else {
                            quote! { s.#m.as_slice() }
                        };
                        let shown: Vec<String> = criteria
                            .iter()
                            .map(|(k, l)| match l {
                                crate::model::declarative::Literal::String(s) => format!("\"{k}\": \"{s}\""),
                                crate::model::declarative::Literal::Int(i) => format!("\"{k}\": {i}"),
                                crate::model::declarative::Literal::Bool(b) => format!("\"{k}\": {b}"),
                            })
                            .collect();
                        let name = format!("{}[{{{}}}]", f.json_name, shown.join(", "));
                        let set = quote! { #list.iter().any(|x| #matches) };
                        level = level.or(inner_level);
                        (union, Some(String::new()), at_most_one, set, name)
                    }
                    _ => continue,
                };
                let u = unions.entry(union.clone()).or_default();
                u.at_most_one |= at_most_one;
                u.level = u.level.or(level);
                u.members.push(Member {
                    value: member_name.unwrap_or_else(|| f.name.to_upper_camel_case()),
                    name,
                    set,
                });
            }
        }
        let mut out = Vec::new();
        for u in unions.into_values().filter(|u| !u.members.is_empty()) {
            let sets: Vec<&TokenStream> = u.members.iter().map(|m| &m.set).collect();
            let names: Vec<&String> = u.members.iter().map(|m| &m.name).collect();
            let values: Vec<&String> = u.members.iter().map(|m| &m.value).collect();
            let idx: Vec<usize> = (0..u.members.len()).collect();
            let (disc_now, check) = match &u.discriminator {
                Some((json, expr)) => (
                    quote! { { let s = obj; #expr } },
                    quote! {
                        errs.extend(#rt::validation::discriminated_union(path, (#json, d), &[#((#names, #values, now[#idx])),*]))
                    },
                ),
                None => (quote! { "" }, {
                    let at_most_one = u.at_most_one;
                    quote! {
                        if let ::core::option::Option::Some(e) = #rt::validation::union(path, &[#((#names, now[#idx])),*], #at_most_one) {
                            errs.push(e);
                        }
                    }
                }),
            };
            let disc_old = match &u.discriminator {
                Some((_, expr)) => quote! { old.map(|s| #expr) },
                None => quote! { old.map(|_| "") },
            };
            let mark = match u.level {
                None => quote! {},
                Some(l) => {
                    let l = level_tokens(l);
                    quote! { for e in &mut errs[start..] { e.stability = ::core::option::Option::Some(#rt::validation::Stability::#l); } }
                }
            };
            out.push(quote! {
                {
                    let now = { let s = obj; [#(#sets),*] };
                    let before = old.map(|s| [#(#sets),*]);
                    let d: &str = #disc_now;
                    if !(op.is_update() && before == ::core::option::Option::Some(now) && #disc_old == ::core::option::Option::Some(d)) {
                        let start = errs.len();
                        #check;
                        #mark
                    }
                }
            });
        }
        out
    }

    /// `+k8s:discriminator` and `+k8s:member(value)=<rule>`: per member field, the rules of the
    /// discriminator's current value; a member no rule names for that value is forbidden.
    fn modes(&mut self, ty: &Type) -> Vec<TokenStream> {
        let rt = self.rt.clone();
        let universe = self.tree.universe;
        let Some(disc) = ty.fields().iter().find(|f| {
            value::rules(universe, f)
                .iter()
                .any(|r| matches!(unwrap_level(r).1.rule, Rule::Discriminator { .. }))
        }) else {
            return Vec::new();
        };
        let Some(disc_expr) = self.discriminator_expr(disc) else {
            self.fail(
                &disc.loc,
                format!("`+k8s:discriminator` on `{}`, which is not a string", disc.name),
            );
            return Vec::new();
        };
        let mut out = Vec::new();
        for f in ty.fields().iter().filter(|f| !f.skip) {
            let mut by_value: BTreeMap<String, Vec<Validation>> = BTreeMap::new();
            for r in value::rules(universe, f) {
                let (level, v) = unwrap_level(&r);
                if let Rule::Member { value, then, .. } = &v.rule {
                    let then = match level {
                        Some(l) => Validation {
                            rule: Rule::Stability {
                                level: l,
                                since: None,
                                then: then.clone(),
                            },
                            loc: r.loc.clone(),
                        },
                        None => (**then).clone(),
                    };
                    by_value.entry(value.clone()).or_default().push(then);
                }
            }
            if by_value.is_empty() {
                continue;
            }
            let label = self.label();
            self.meta = ListMeta::default();
            let mut arms = Vec::new();
            for (value, rules) in &by_value {
                let body = self.apply(rules, &Map::new(), &f.ty, &label, false, &f.loc, None);
                arms.push(quote! { #value => { #body } });
            }
            let m = names::member(&f.name);
            let json = &f.json_name;
            let present = self.is_set(&f.ty, quote! { v });
            out.push(quote! {
                #label: {
                    let path = &path.child(#json);
                    let d: &str = { let s = obj; #disc_expr };
                    let od = old.map(|s| #disc_expr);
                    let v = &obj.#m;
                    let o = old.map(|o| &o.#m);
                    if op.is_update() && od == ::core::option::Option::Some(d) && o == ::core::option::Option::Some(v) { break #label; }
                    match d {
                        #(#arms)*
                        _ => if #present { errs.push(#rt::validation::forbidden(path)); }
                    }
                }
            });
        }
        out
    }

    /// `+k8s:dependentRequired` and `+k8s:dependentForbidden` on a trigger field.
    fn dependencies(&mut self, ty: &Type) -> Vec<TokenStream> {
        let rt = self.rt.clone();
        let universe = self.tree.universe;
        let mut out = Vec::new();
        for f in ty.fields().iter().filter(|f| !f.skip) {
            for r in value::rules(universe, f) {
                let (required, deps) = match &unwrap_level(&r).1.rule {
                    Rule::DependentRequired(d) => (true, d.clone()),
                    Rule::DependentForbidden(d) => (false, d.clone()),
                    _ => continue,
                };
                for dep in deps {
                    let Some(dep_field) = crate::model::check::wire_field(universe, ty, &dep) else {
                        self.fail(&r.loc, format!("`{}` has no field `{dep}`", ty.name));
                        continue;
                    };
                    let (trigger_set, dep_set) = (self.set_expr(f), self.set_expr(dep_field));
                    let trigger = &f.json_name;
                    let check = if required {
                        quote! { #rt::validation::dependent_required }
                    } else {
                        quote! { #rt::validation::dependent_forbidden }
                    };
                    out.push(quote! {
                        {
                            let now = { let s = obj; (#trigger_set, #dep_set) };
                            let before = old.map(|s| (#trigger_set, #dep_set));
                            if !(op.is_update() && before == ::core::option::Option::Some(now))
                                && let ::core::option::Option::Some(e) = #check(path, (#trigger, now.0), (#dep, now.1))
                            {
                                errs.push(e);
                            }
                        }
                    });
                }
            }
        }
        out
    }
}

fn level_tokens(l: Level) -> TokenStream {
    match l {
        Level::Alpha => quote! { Alpha },
        Level::Beta => quote! { Beta },
    }
}
