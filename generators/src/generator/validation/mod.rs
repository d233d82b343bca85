//! validation: for a package tagged `+k8s:validation-gen=<meta type>` (validation-gen's
//! counterpart), one `validate_<type>(op, path, obj, old)` per type whose tree has any rule:
//! its validation-gen tags (`+k8s:minimum=0`, `+k8s:eachVal=...`), its kube-openapi value tags
//! (`+k8s:validation:maxLength=15`, checked as a CRD's schema checks them), its hand-written
//! `validate_custom_<type>`, and the validation of every nested type that has one.
//! `register_validations` registers the kinds, with the subresources their rules serve.

mod emit;
mod iterate;
mod schema_rules;
mod structs;
mod value;

use std::collections::BTreeSet;

use proc_macro2::TokenStream;
use quote::quote;

use super::{Context, PackageGenerator, check_reexported, type_path};
use crate::diag::{Diagnostic, Diagnostics};
use crate::model::attrs::DefaulterRoots;
use crate::model::declarative::Rule;
use crate::model::tags::name as tag;
use crate::model::{Package, Pass, Returns, Type, TypeId, TypeRef, Universe, names};

/// The validation generator.
pub struct Validation;

impl PackageGenerator for Validation {
    fn name(&self) -> &'static str {
        "validations"
    }

    fn tool(&self) -> &'static str {
        "validation-gen"
    }

    fn activation(&self) -> &'static str {
        "`//! +k8s:validation-gen=TypeMeta`"
    }

    fn applies(&self, pkg: &Package) -> bool {
        pkg.attrs.validation.is_some()
    }

    fn registers(&self) -> Option<&'static str> {
        Some("register_validations")
    }

    fn reexported(&self) -> bool {
        true
    }

    fn generate_package(&self, cx: &Context<'_>, pkg: &Package, diags: &mut Diagnostics) -> Option<TokenStream> {
        let rt = cx.rt();
        let tree = Tree::new(cx);
        let mut local = Diagnostics::new();
        let (mut items, mut registrations) = (Vec::new(), Vec::new());
        for ty in pkg.types.values() {
            let id = pkg.id(&ty.name);
            if !tree.validated(&id) {
                continue;
            }
            if let Some(f) = pkg.functions.get(&names::validate_custom_fn(&ty.name)) {
                let expected = format!(
                    "pub fn {}(op: &Operation, path: &Path<'_>, obj: &{}, old: Option<&{}>) -> ErrorList",
                    f.name, ty.name, ty.name
                );
                if check_custom(f, &id, &expected, &mut local) {
                    check_reexported(pkg, f, &mut local);
                }
            }
            items.push(emit::function(cx, &tree, pkg, ty, &mut local));
            if is_root(pkg, ty) {
                let path = type_path(&ty.module, &ty.name);
                let f = names::ident(&names::validate_fn(&ty.name));
                let subresources = subresources(ty);
                registrations.push(quote! {
                    scheme.add_validation_func::<#path>(&[#(#subresources),*], |op, obj, old| {
                        #f(op, &#rt::validation::Path::ROOT, obj, old)
                    });
                });
            }
        }
        let failed = local.has_errors();
        diags.extend(local);
        if failed {
            return None;
        }
        if items.is_empty() {
            diags.push(
                Diagnostic::error(
                    &pkg.tag_loc(tag::VALIDATION_GEN),
                    format!("package `{}` asks for validation but no type has a rule", pkg.path),
                )
                .label("nothing to generate")
                .help("add validation tags (`+k8s:minimum=0`, `+k8s:required`, ...) or `validate_custom_<type>` functions, or remove the tag"),
            );
            return None;
        }
        let doc = format!(" Validation functions for `{}`.", pkg.path);
        Some(quote! {
            #![doc = #doc]

            /// Registers the validation of every kind of this package.
            pub fn register_validations(scheme: &mut #rt::Scheme) -> ::core::result::Result<(), #rt::SchemeError> {
                #(#registrations)*
                ::core::result::Result::Ok(())
            }

            #(#items)*
        })
    }
}

/// The subresource paths a kind's rules serve: `/` and each `+k8s:supportsSubresource`, or only
/// its `+k8s:isSubresource` (validation-gen's switch on the request's subresource).
fn subresources(ty: &Type) -> Vec<String> {
    if let Some(of) = &ty.attrs.subresource_of {
        return vec![format!("/{of}")];
    }
    let mut out: BTreeSet<String> = ty.attrs.supports_subresources.iter().map(|s| format!("/{s}")).collect();
    out.insert("/".into());
    out.into_iter().collect()
}

/// Whether a type is registered: it has a field of the meta type the package tag names.
fn is_root(pkg: &Package, ty: &Type) -> bool {
    match &pkg.attrs.validation {
        None => false,
        Some(DefaulterRoots::Meta(m)) => ty.fields().iter().any(|f| f.ty.strip_option().is_external(*m)),
        Some(DefaulterRoots::Field(name)) => ty.fields().iter().any(|f| f.name == *name),
    }
}

/// Checks a hand-written `validate_custom_<type>`: the operation, the path, the object by
/// reference, the old one as an `Option`, and an `ErrorList` back.
fn check_custom(f: &crate::model::Function, id: &TypeId, expected: &str, diags: &mut Diagnostics) -> bool {
    let ok = f.params.len() == 4
        && f.params[2].pass == Pass::Ref
        && f.params[2].ty == Some(TypeRef::Named(id.clone()))
        && f.params[3].written.replace(' ', "").starts_with("Option<&")
        && matches!(&f.returns, Returns::Other(r) if r.ends_with("ErrorList"));
    if !ok {
        let params: Vec<&str> = f.params.iter().map(|p| p.written.as_str()).collect();
        diags.push(
            Diagnostic::error(
                &f.loc,
                format!("`{}` does not have the signature of a custom validation", f.name),
            )
            .label(format!("takes ({})", params.join(", ")))
            .help(format!("write it as `{expected}`")),
        );
    }
    ok
}

/// Which named types have anything to validate, over the whole universe, to a fixpoint (API
/// types can be recursive, like JSONSchemaProps). Only packages that generate validation count.
pub(super) struct Tree<'u> {
    pub universe: &'u Universe,
    validated: &'u BTreeSet<TypeId>,
}

impl<'u> Tree<'u> {
    fn new(cx: &'u Context<'u>) -> Self {
        Tree {
            universe: cx.universe,
            validated: cx.validated.get_or_init(|| validated(cx.universe)),
        }
    }

    /// Whether a type has a generated validation function.
    pub fn validated(&self, id: &TypeId) -> bool {
        self.validated.contains(id)
    }
}

/// The types of packages that generate validation with anything to validate: a rule of their
/// own, or a field whose type has one.
fn validated(universe: &Universe) -> BTreeSet<TypeId> {
    let all: Vec<(TypeId, &Package, &Type)> = universe
        .packages
        .values()
        .filter(|p| p.attrs.validation.is_some())
        .flat_map(|p| {
            p.types
                .values()
                .filter(|t| !t.generic)
                .map(move |t| (p.id(&t.name), p, t))
        })
        .collect();
    // A type's own rules do not change while the fixpoint runs: they are read once, and the
    // loop only follows the fields that can reach another validated type.
    let mut validated = BTreeSet::new();
    let mut pending: Vec<(&TypeId, Vec<&TypeRef>)> = Vec::new();
    for (id, pkg, ty) in &all {
        let own = ty.attrs.declarative.iter().any(|v| v.inner().rule != Rule::Enum)
            || emit::excludes_values(ty)
            || pkg.functions.contains_key(&names::validate_custom_fn(&ty.name))
            || ty.fields().iter().any(|f| value::has_rules(universe, f, pkg.attrs.crd));
        if own {
            validated.insert(id.clone());
        } else {
            let nested = ty
                .fields()
                .iter()
                .filter(|f| !value::opaque(f))
                .map(|f| &f.ty)
                .collect();
            pending.push((id, nested));
        }
    }
    loop {
        let before = validated.len();
        pending.retain(|(id, nested)| {
            let reached = nested.iter().any(|t| reaches(&validated, t));
            if reached {
                validated.insert((*id).clone());
            }
            !reached
        });
        if validated.len() == before {
            break;
        }
    }
    validated
}

/// Whether validating a value of this type reaches a validated named type.
fn reaches(validated: &BTreeSet<TypeId>, ty: &TypeRef) -> bool {
    match ty {
        TypeRef::Named(id) => validated.contains(id),
        TypeRef::Option(t) | TypeRef::Vec(t) | TypeRef::Box(t) => reaches(validated, t),
        TypeRef::Map { value, .. } => reaches(validated, value),
        _ => false,
    }
}
