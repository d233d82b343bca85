//! prerelease-lifecycle: for a package tagged `+k8s:prerelease-lifecycle-gen=true`, an
//! `impl runtime::ApiLifecycle` per kind from its `:introduced`, `:deprecated`, `:removed` and
//! `:replacement` tags. As upstream, a pre-release version (`v1beta1`) is deprecated three minors
//! after its introduction and removed three after that unless tagged; a GA version (`v1`) only
//! when tagged.

use proc_macro2::TokenStream;
use quote::quote;

use super::{Context, Generator, type_path};
use crate::diag::{Diagnostic, Diagnostics};
use crate::model::tags::{Tag, name as tag};
use crate::model::{Package, Type};

/// The prerelease-lifecycle generator.
pub struct Lifecycle;

impl Generator for Lifecycle {
    fn name(&self) -> &'static str {
        "prerelease-lifecycle"
    }

    fn tool(&self) -> &'static str {
        "prerelease-lifecycle-gen"
    }

    fn activation(&self) -> &'static str {
        "`//! +k8s:prerelease-lifecycle-gen=true`"
    }

    fn applies(&self, pkg: &Package) -> bool {
        pkg.tags.value(tag::LIFECYCLE) == Some("true")
    }

    fn generate_package(&self, _cx: &Context<'_>, pkg: &Package, diags: &mut Diagnostics) -> Option<TokenStream> {
        let mut local = Diagnostics::new();
        let ga = is_ga(&pkg.version);
        let impls: Vec<TokenStream> = pkg.kinds().filter_map(|k| lifecycle_impl(k, ga, &mut local)).collect();
        let failed = local.has_errors();
        diags.extend(local);
        if failed {
            return None;
        }
        if impls.is_empty() {
            diags.push(
                Diagnostic::error(
                    &pkg.tag_loc(tag::LIFECYCLE),
                    format!("package `{}` asks for lifecycle methods but has no kinds", pkg.path),
                )
                .label("nothing to generate")
                .help("remove the tag"),
            );
            return None;
        }
        let doc = format!(" API lifecycle of the kinds of `{}`.", pkg.path);
        Some(quote! { #![doc = #doc] #(#impls)* })
    }
}

/// A GA version: `v` and digits only.
fn is_ga(version: &str) -> bool {
    version
        .strip_prefix('v')
        .is_some_and(|d| !d.is_empty() && d.chars().all(|c| c.is_ascii_digit()))
}

fn lifecycle_impl(k: &Type, ga: bool, diags: &mut Diagnostics) -> Option<TokenStream> {
    let Some(introduced) = release(k.tags.get(tag::LIFECYCLE_INTRODUCED)) else {
        diags.push(
            Diagnostic::error(&k.loc, format!("kind `{}` has no `+k8s:prerelease-lifecycle-gen:introduced` tag", k.name))
                .label("lifecycle unknown")
                .help("add `/// +k8s:prerelease-lifecycle-gen:introduced=<major>.<minor>`, the release that introduced this version"),
        );
        return None;
    };
    let deprecated = release(k.tags.get(tag::LIFECYCLE_DEPRECATED)).or((!ga).then(|| (introduced.0, introduced.1 + 3)));
    let removed = removal(k, deprecated, ga);
    let replacement = match k.tags.get(tag::LIFECYCLE_REPLACEMENT) {
        Some(t) => Some(replacement(t, diags)?),
        None => None,
    };
    let path = type_path(&k.module, &k.name);
    let lit = proc_macro2::Literal::u32_unsuffixed;
    let (im, in_) = (lit(introduced.0), lit(introduced.1));
    let option = |r: Option<(u32, u32)>| match r {
        Some((a, b)) => {
            let (a, b) = (lit(a), lit(b));
            quote! { ::core::option::Option::Some((#a, #b)) }
        }
        None => quote! { ::core::option::Option::None },
    };
    let (deprecated, removed) = (option(deprecated), option(removed));
    let replacement = match replacement {
        Some((g, v, kind)) => {
            quote! { ::core::option::Option::Some(::runtime::GroupVersionKind::from_static(#g, #v, #kind)) }
        }
        None => quote! { ::core::option::Option::None },
    };
    Some(quote! {
        impl ::runtime::ApiLifecycle for #path {
            fn api_lifecycle_introduced() -> ::runtime::Release { (#im, #in_) }
            fn api_lifecycle_deprecated() -> ::core::option::Option<::runtime::Release> { #deprecated }
            fn api_lifecycle_removed() -> ::core::option::Option<::runtime::Release> { #removed }
            fn api_lifecycle_replacement() -> ::core::option::Option<::runtime::GroupVersionKind> { #replacement }
        }
    })
}

/// For a kind tagged `+k8s:prerelease-lifecycle-gen:deprecated`, the warning the API server sends,
/// worded as `runtime::ApiLifecycle::deprecation_warning` words it for built-in kinds:
/// `<group>/<version> <Kind> is deprecated in v1.30+, unavailable in v1.33+; use <group>/<v> <Kind>`.
/// A malformed replacement tag is reported, and gives no warning.
pub fn deprecation_warning(group: &str, version: &str, k: &Type, diags: &mut Diagnostics) -> Option<String> {
    let deprecated = release(k.tags.get(tag::LIFECYCLE_DEPRECATED))?;
    let removed = removal(k, Some(deprecated), is_ga(version));
    let gv = |g: &str, v: &str| {
        if g.is_empty() {
            v.to_string()
        } else {
            format!("{g}/{v}")
        }
    };
    let mut warning = format!(
        "{} {} is deprecated in v{}.{}+",
        gv(group, version),
        k.name,
        deprecated.0,
        deprecated.1
    );
    if let Some((a, b)) = removed {
        warning.push_str(&format!(", unavailable in v{a}.{b}+"));
    }
    if let Some(t) = k.tags.get(tag::LIFECYCLE_REPLACEMENT) {
        let (g, v, kind) = replacement(t, diags)?;
        warning.push_str(&format!("; use {} {kind}", gv(&g, &v)));
    }
    Some(warning)
}

/// The release that removes a kind: its `:removed` tag, else, for a pre-release version, three
/// minors after its deprecation.
fn removal(k: &Type, deprecated: Option<(u32, u32)>, ga: bool) -> Option<(u32, u32)> {
    release(k.tags.get(tag::LIFECYCLE_REMOVED)).or_else(|| deprecated.filter(|_| !ga).map(|d| (d.0, d.1 + 3)))
}

/// `major.minor` of a checked version tag (the tag table has validated its form).
fn release(t: Option<&Tag>) -> Option<(u32, u32)> {
    let (a, b) = t?.value.as_deref()?.split_once('.')?;
    Some((a.parse().ok()?, b.parse().ok()?))
}

/// `group,version,Kind`, checked as upstream checks it: a lower-case group, a lower-case version
/// starting with `v`, a kind starting with a capital.
fn replacement(t: &Tag, diags: &mut Diagnostics) -> Option<(String, String, String)> {
    let value = t.value.as_deref().unwrap_or_default();
    let parts: Vec<&str> = value.split(',').map(str::trim).collect();
    let ok = parts.len() == 3
        && parts[0] == parts[0].to_lowercase()
        && parts[1].starts_with('v')
        && parts[1] == parts[1].to_lowercase()
        && parts[2].starts_with(|c: char| c.is_ascii_uppercase());
    if !ok {
        diags.push(
            Diagnostic::error(&t.loc, format!("malformed replacement `{value}`"))
                .label("expected `group,version,Kind`")
                .help("for example `+k8s:prerelease-lifecycle-gen:replacement=apps,v1,Deployment`"),
        );
        return None;
    }
    Some((parts[0].to_string(), parts[1].to_string(), parts[2].to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ga_versions() {
        assert!(is_ga("v1") && is_ga("v2"));
        assert!(!is_ga("v1beta1") && !is_ga("__internal") && !is_ga("v"));
    }
}
