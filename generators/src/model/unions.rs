//! Unions as kube-openapi reads them (`+union`, `+unionDiscriminator`, `+unionDeprecated`) for the
//! `x-kubernetes-unions` extension: the type's own union (`+union` on the type: every field a
//! member, but the discriminator), then the unions of its inlined members, then the union of
//! members marked `+unionDeprecated` (with its discriminator), in that order. Each member maps
//! its JSON name to the discriminator value that selects it, the Go field name, which is the JSON
//! name with a capital initial (`limited` -> `Limited`). Misuse is reported with locations.

use std::collections::BTreeMap;

use super::tags::name as tag;
use super::{Field, Type, TypeRef, Universe};
use crate::diag::{Diagnostic, Diagnostics};

/// One union of a type's fields.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Union {
    /// The discriminator field's JSON name, if there is one.
    pub discriminator: Option<String>,
    /// Member JSON name -> the discriminator value that selects it.
    pub members: BTreeMap<String, String>,
}

impl Union {
    /// The `x-kubernetes-unions` entry.
    pub fn to_json(&self) -> serde_json::Value {
        let mut m = serde_json::Map::new();
        if let Some(d) = &self.discriminator {
            m.insert("discriminator".into(), d.clone().into());
        }
        m.insert("fields-to-discriminateBy".into(), serde_json::json!(self.members));
        serde_json::Value::Object(m)
    }
}

/// The discriminator value of a member: its Go field name.
fn go_name(json: &str) -> String {
    let mut c = json.chars();
    c.next()
        .map_or_else(String::new, |f| f.to_uppercase().chain(c).collect())
}

/// Fields that have a JSON property of their own (not skipped).
fn referable(ty: &Type) -> impl Iterator<Item = &Field> {
    ty.fields().iter().filter(|f| !f.skip && !f.json_name.is_empty())
}

/// Every union of `ty`, in kube-openapi's order. Errors go to `diags` when given (each type's
/// own problems are reported once, when that type is checked).
pub fn unions(universe: &Universe, ty: &Type, mut diags: Option<&mut Diagnostics>) -> Vec<Union> {
    let mut out = Vec::new();
    if let Some(u) = own_union(ty, diags.as_deref_mut()) {
        out.push(u);
    }
    for f in ty.fields().iter().filter(|f| f.flatten && !f.attrs.openapi_opt_out()) {
        if let TypeRef::Named(id) = f.ty.strip_option()
            && let Some(inner) = universe.get(id)
        {
            out.extend(unions(universe, inner, None));
        }
    }
    if let Some(u) = deprecated_union(ty, diags) {
        out.push(u);
    }
    out
}

fn error(diags: &mut Option<&mut Diagnostics>, d: Diagnostic) {
    if let Some(diags) = diags {
        diags.push(d);
    }
}

/// `+union` on the type: every field is a member, except the `+unionDiscriminator`.
fn own_union(ty: &Type, mut diags: Option<&mut Diagnostics>) -> Option<Union> {
    if !ty.attrs.union {
        return None;
    }
    let mut u = Union::default();
    let mut discriminator_at = None;
    for f in referable(ty) {
        if f.flatten {
            error(
                &mut diags,
                Diagnostic::error(&f.loc, format!("union `{}` has an inlined field `{}`", ty.name, f.name))
                    .label("union structs cannot inline fields")
                    .related(&ty.tags.loc(tag::UNION, &ty.loc), "the union"),
            );
            continue;
        }
        if f.attrs.union_deprecated {
            error(
                &mut diags,
                Diagnostic::error(
                    &f.tags.loc(tag::UNION_DEPRECATED, &f.loc),
                    format!("`+unionDeprecated` in union `{}`", ty.name),
                )
                .label("a `+union` struct has no deprecated members")
                .help("remove `+unionDeprecated`, or `+union` from the type"),
            );
            continue;
        }
        if f.attrs.union_discriminator {
            set_discriminator(&mut u, &mut discriminator_at, ty, f, &mut diags);
            continue;
        }
        add_member(&mut u, ty, f, &mut diags);
    }
    check(ty, &u, &mut diags);
    Some(u)
}

/// Fields tagged `+unionDeprecated` form a union with the `+unionDiscriminator`.
fn deprecated_union(ty: &Type, mut diags: Option<&mut Diagnostics>) -> Option<Union> {
    let mut u = Union::default();
    let mut discriminator_at = None;
    for f in referable(ty).filter(|f| !f.flatten) {
        // The type's own union has reported a second discriminator already.
        if f.attrs.union_discriminator {
            let own = if ty.attrs.union { None } else { diags.as_deref_mut() };
            set_discriminator(&mut u, &mut discriminator_at, ty, f, &mut own.map(|d| &mut *d));
        }
        if f.attrs.union_deprecated {
            add_member(&mut u, ty, f, &mut diags);
        }
    }
    if u.members.is_empty() {
        if let Some(f) = discriminator_at.filter(|_| !ty.attrs.union)
            && let Some(diags) = diags.as_deref_mut()
        {
            // Kubernetes' generators accept a discriminator with no members (admissionregistration's
            // `Mutation.patchType`): it describes no union, so it is a warning.
            diags.warn(
                Diagnostic::error(
                    &f.tags.loc(tag::UNION_DISCRIMINATOR, &f.loc),
                    format!("discriminator `{}` of `{}` selects no member", f.name, ty.name),
                )
                .label("a discriminator without union members")
                .help("tag the type `+union`, or its members `+unionDeprecated`"),
            );
        }
        return None;
    }
    check(ty, &u, &mut diags);
    Some(u)
}

/// A member of a union, which must be optional.
fn add_member(u: &mut Union, ty: &Type, f: &Field, diags: &mut Option<&mut Diagnostics>) {
    if !f.optional {
        error(
            diags,
            Diagnostic::error(
                &f.loc,
                format!("member `{}` of union `{}` is required", f.name, ty.name),
            )
            .label("union members must be optional")
            .help("make the field an `Option`, or tag it `+optional`"),
        );
    }
    u.members.insert(f.json_name.clone(), go_name(&f.json_name));
}

fn set_discriminator<'t>(
    u: &mut Union,
    at: &mut Option<&'t Field>,
    ty: &Type,
    f: &'t Field,
    diags: &mut Option<&mut Diagnostics>,
) {
    if let Some(first) = at {
        error(
            diags,
            Diagnostic::error(
                &f.tags.loc(tag::UNION_DISCRIMINATOR, &f.loc),
                format!("`{}` has two union discriminators", ty.name),
            )
            .label("second discriminator")
            .related(&first.loc, "first discriminator"),
        );
        return;
    }
    *at = Some(f);
    u.discriminator = Some(f.json_name.clone());
}

/// kube-openapi's `isValid`: no discriminator that is also a member, no value used twice.
fn check(ty: &Type, u: &Union, diags: &mut Option<&mut Diagnostics>) {
    if let Some(d) = &u.discriminator
        && u.members.contains_key(d)
    {
        error(
            diags,
            Diagnostic::error(
                &ty.loc,
                format!(
                    "`{d}` is both the discriminator and a member of a union of `{}`",
                    ty.name
                ),
            )
            .label("discriminator in its own union"),
        );
    }
    let mut seen = BTreeMap::new();
    for (member, value) in &u.members {
        if let Some(other) = seen.insert(value, member) {
            error(
                diags,
                Diagnostic::error(
                    &ty.loc,
                    format!(
                        "union members `{other}` and `{member}` of `{}` share the value `{value}`",
                        ty.name
                    ),
                )
                .label("discriminated value used twice"),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::universe_with_errors;
    use super::*;

    fn run(types: &str) -> (Vec<serde_json::Value>, Vec<String>) {
        let (u, errors) = universe_with_errors(&[
            ("lib.rs", "pub mod g;"),
            ("g/mod.rs", "pub mod v1;"),
            (
                "g/v1/mod.rs",
                "//! +groupName=g.example.dev\nmod types;\npub use types::*;",
            ),
            ("g/v1/types.rs", types),
        ]);
        let pkg = &u.packages["crate::g::v1"];
        let found = unions(&u, &pkg.types["A"], None).iter().map(Union::to_json).collect();
        let errors = errors
            .iter()
            .map(|e| e.split_once(": ").map_or(e.clone(), |(_, m)| m.to_string()))
            .collect();
        (found, errors)
    }

    #[test]
    fn unions_in_kube_openapi_order() {
        let (found, errors) = run(r#"
            #[derive(serde::Serialize)] #[serde(rename_all = "camelCase")]
            /// +union
            pub struct A {
                /// +unionDiscriminator
                pub r#type: String,
                pub limited: Option<String>,
                pub exempt: Option<String>,
                /// +unionDeprecated
                pub old: Option<String>,
            }"#);
        assert_eq!(errors, ["`+unionDeprecated` in union `A`"]);
        // As kube-openapi: the misplaced deprecated member still forms the member union.
        assert_eq!(
            found,
            [
                serde_json::json!({"discriminator": "type", "fields-to-discriminateBy": {"exempt": "Exempt", "limited": "Limited"}}),
                serde_json::json!({"discriminator": "type", "fields-to-discriminateBy": {"old": "Old"}}),
            ]
        );
        let (found, errors) = run(r#"
            #[derive(serde::Serialize)] #[serde(rename_all = "camelCase")]
            pub struct B { pub inner_a: Option<String>, pub inner_b: Option<String> }
            #[derive(serde::Serialize)] #[serde(rename_all = "camelCase")]
            pub struct A {
                #[serde(flatten)] pub b: BU,
                /// +unionDiscriminator
                pub kind: String,
                /// +unionDeprecated
                pub user: Option<String>,
                /// +unionDeprecated
                pub service_account: Option<String>,
            }
            #[derive(serde::Serialize)] #[serde(rename_all = "camelCase")]
            /// +union
            pub struct BU { pub x: Option<String> }"#);
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(
            found,
            [
                serde_json::json!({"fields-to-discriminateBy": {"x": "X"}}),
                serde_json::json!({"discriminator": "kind", "fields-to-discriminateBy": {"serviceAccount": "ServiceAccount", "user": "User"}}),
            ]
        );
    }

    #[test]
    fn misuse_is_reported() {
        let (_, errors) = run(r#"
            #[derive(serde::Serialize)] #[serde(rename_all = "camelCase")]
            /// +union
            pub struct A {
                /// +unionDiscriminator
                pub one: String,
                /// +unionDiscriminator
                pub two: String,
                pub member: String,
            }"#);
        assert_eq!(
            errors,
            [
                "`A` has two union discriminators",
                "member `member` of union `A` is required"
            ]
        );
    }
}
