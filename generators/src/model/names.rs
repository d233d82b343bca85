//! Names derived from the model in one place: resource plurals (Kubernetes' rules plus an
//! exceptions table), generated file and module names, and Rust identifiers.

use heck::ToSnakeCase;

/// Kinds whose plural the rules get wrong, and what Kubernetes actually serves.
const PLURAL_EXCEPTIONS: &[(&str, &str)] = &[
    ("Endpoints", "endpoints"),
    ("SecurityContextConstraints", "securitycontextconstraints"),
    ("PodSecurityPolicy", "podsecuritypolicies"),
    ("EndpointSlice", "endpointslices"),
    ("Chaos", "chaos"),
];

/// The resource name (lower-case plural) of a kind, as client-gen and the API server name it:
/// an exception if listed, otherwise `-es` after s/x/z/ch/sh, `-ies` after a consonant + y,
/// else `-s`.
pub fn plural(kind: &str) -> String {
    if let Some((_, p)) = PLURAL_EXCEPTIONS.iter().find(|(k, _)| *k == kind) {
        return (*p).to_string();
    }
    let lower = kind.to_lowercase();
    let bytes = lower.as_bytes();
    if bytes.len() < 2 {
        return lower;
    }
    let last = bytes[bytes.len() - 1];
    let before = bytes[bytes.len() - 2];
    match last {
        b's' | b'x' | b'z' => format!("{lower}es"),
        b'h' if before == b'c' || before == b's' => format!("{lower}es"),
        b'y' if !b"aeiou".contains(&before) => format!("{}ies", &lower[..lower.len() - 1]),
        _ => format!("{lower}s"),
    }
}

/// The file a generator writes into a package: `zz_generated_<name>.rs`.
pub fn generated_file(generator: &str) -> String {
    format!("zz_generated_{}.rs", generator.to_snake_case())
}

/// The module name that includes a generated file.
pub fn generated_module(generator: &str) -> String {
    format!("zz_generated_{}", generator.to_snake_case())
}

/// A Rust identifier for `name`: raw for keywords, `_` suffix where raw is not allowed, `_` prefix
/// for names that start with a digit.
pub fn ident(name: &str) -> proc_macro2::Ident {
    let span = proc_macro2::Span::call_site();
    match name {
        "self" | "super" | "crate" | "Self" => quote::format_ident!("{}_", name),
        _ if name.starts_with(|c: char| c.is_ascii_digit()) => quote::format_ident!("_{}", name),
        _ if syn::parse_str::<syn::Ident>(name).is_err() => proc_macro2::Ident::new_raw(name, span),
        _ => proc_macro2::Ident::new(name, span),
    }
}

/// How generated code names a field: `self.name`, or `self.0` for a tuple field.
pub fn member(name: &str) -> syn::Member {
    match name.parse::<u32>() {
        Ok(i) => syn::Member::Unnamed(syn::Index::from(i as usize)),
        Err(_) => syn::Member::Named(ident(name)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plurals_follow_kubernetes() {
        let cases = [
            ("Pod", "pods"),
            ("Deployment", "deployments"),
            ("ReplicaSet", "replicasets"),
            ("StatefulSet", "statefulsets"),
            ("ConfigMap", "configmaps"),
            ("Namespace", "namespaces"),
            ("Ingress", "ingresses"),
            ("NetworkPolicy", "networkpolicies"),
            ("Gateway", "gateways"),
            ("Match", "matches"),
            ("Mesh", "meshes"),
            ("Box", "boxes"),
            ("Endpoints", "endpoints"),
            ("FabricGateway", "fabricgateways"),
            ("BackupRepo", "backuprepos"),
            ("A", "a"),
        ];
        for (kind, want) in cases {
            assert_eq!(plural(kind), want, "{kind}");
        }
    }

    #[test]
    fn idents() {
        assert_eq!(ident("type").to_string(), "r#type");
        assert_eq!(ident("self").to_string(), "self_");
        assert_eq!(ident("replicas").to_string(), "replicas");
        assert_eq!(ident("0").to_string(), "_0");
        assert!(matches!(member("0"), syn::Member::Unnamed(_)));
        assert_eq!(generated_file("deepcopy"), "zz_generated_deepcopy.rs");
    }
}
