//! Every name derived from the model, computed in one place: resource plurals (gengo's rules plus
//! an exceptions table), singulars, list kinds, apiVersion strings, conversion and defaulting
//! function names, generated file and module names, the clientset's group accessors, OpenAPI model
//! names, and Rust identifiers.

use heck::{ToSnakeCase, ToUpperCamelCase};

/// Kinds whose plural the rules get wrong, and what Kubernetes actually serves.
const PLURAL_EXCEPTIONS: &[(&str, &str)] = &[
    ("Endpoints", "endpoints"),
    ("SecurityContextConstraints", "securitycontextconstraints"),
    ("PodSecurityPolicy", "podsecuritypolicies"),
    ("EndpointSlice", "endpointslices"),
    ("Chaos", "chaos"),
    ("ResourceClaimParameters", "resourceclaimparameters"),
    ("ResourceClassParameters", "resourceclassparameters"),
];

/// The resource name (lower-case plural) of a kind, as client-gen names it (gengo's plural
/// namer): an exception if listed, otherwise `-es` after s/x/z/ch/sh, `-ies` after a consonant +
/// y, `-ves` for f and fe, else `-s`.
pub fn plural(kind: &str) -> String {
    if let Some((_, p)) = PLURAL_EXCEPTIONS.iter().find(|(k, _)| *k == kind) {
        return (*p).to_string();
    }
    let lower = kind.to_lowercase();
    let bytes = lower.as_bytes();
    if bytes.len() < 2 {
        return lower;
    }
    let (last, before) = (bytes[bytes.len() - 1], bytes[bytes.len() - 2]);
    let stem = |n: usize| &lower[..lower.len() - n];
    match last {
        b's' | b'x' | b'z' => format!("{lower}es"),
        b'h' if before == b'c' || before == b's' => format!("{lower}es"),
        b'y' if !b"aeiou".contains(&before) => format!("{}ies", stem(1)),
        b'e' if before == b'f' => format!("{}ves", stem(2)),
        b'f' => format!("{}ves", stem(1)),
        _ => format!("{lower}s"),
    }
}

/// A kind's plural with the kind's capitals kept (`PodTemplates`, `Endpoints`,
/// `PodSecurityPolicies`), as client-gen's public plural namer names getters: the same rules and
/// exceptions as `plural`.
pub fn plural_cased(kind: &str) -> String {
    let lower = plural(kind);
    // The plural extends or rewrites the kind's tail; the shared head keeps the kind's case.
    let shared = kind
        .chars()
        .zip(lower.chars())
        .take_while(|(a, b)| a.to_ascii_lowercase() == *b)
        .count();
    let head: String = kind.chars().take(shared).collect();
    let tail: String = lower.chars().skip(shared).collect();
    format!("{head}{tail}")
}

/// The group client's accessor of a kind's typed client: `deployments`, `pod_templates`
/// (client-go's `Deployments()`, `PodTemplates()`).
pub fn client_accessor(kind: &str) -> String {
    plural_cased(kind).to_snake_case()
}

/// A kind's typed client: `DeploymentClient`.
pub fn typed_client(kind: &str) -> String {
    format!("{kind}Client")
}

/// The marker type whose trait impls are a kind's client verbs: `DeploymentVerbs`.
pub fn client_verbs(kind: &str) -> String {
    format!("{kind}Verbs")
}

/// The trait of a kind's custom `+genclient:method=` methods: `DeploymentExt`.
pub fn client_extension(kind: &str) -> String {
    format!("{kind}Ext")
}

/// The runtime's trait of a client verb: `UpdateStatus` for `updateStatus`.
pub fn verb_trait(verb: super::verb::Verb) -> String {
    verb.as_str().to_upper_camel_case()
}

/// The module of a kind's lister and informer: `deployment`, `custom_resource_definition`.
pub fn client_module(kind: &str) -> String {
    kind.to_snake_case()
}

/// A custom client method (`+genclient:method=GetScale`) in Rust: `get_scale`.
pub fn method_fn(name: &str) -> String {
    name.to_snake_case()
}

/// A group-version's client: `AppsV1Client` (client-go's `AppsV1Client`).
pub fn group_client(group_go_name: &str, version: &str) -> String {
    format!("{group_go_name}{}Client", version.to_upper_camel_case())
}

/// A kind's lister and its namespace lister: `DeploymentLister`, `DeploymentNamespaceLister`
/// (lister-gen's names).
pub fn listers(kind: &str) -> (String, String) {
    (format!("{kind}Lister"), format!("{kind}NamespaceLister"))
}

/// A kind's typed informer: `DeploymentInformer` (informer-gen's name).
pub fn informer(kind: &str) -> String {
    format!("{kind}Informer")
}

/// The informer factory's accessor of a group and the group's informers: `apps`,
/// `AppsInformers` (client-go's `factory.Apps()` returning `apps.Interface`).
pub fn informer_group(group_go_name: &str) -> (String, String) {
    (group_go_name.to_snake_case(), format!("{group_go_name}Informers"))
}

/// A group's accessor of one version's informers and their type: `v1`, `AppsV1Informers`
/// (client-go's `Apps().V1()` returning `v1.Interface`).
pub fn informer_version(group_go_name: &str, version: &str) -> (String, String) {
    (
        version.to_snake_case(),
        format!("{group_go_name}{}Informers", version.to_upper_camel_case()),
    )
}

/// A type's apply configuration: `DeploymentApplyConfiguration`, as applyconfiguration-gen
/// names it.
pub fn apply_configuration(type_name: &str) -> String {
    format!("{type_name}ApplyConfiguration")
}

/// The constructor of a kind's apply configuration: `deployment`, `custom_resource_definition`
/// (client-go's `appsv1.Deployment(name, namespace)`).
pub fn apply_constructor(kind: &str) -> String {
    kind.to_snake_case()
}

/// The extractor of a kind's apply configuration from an object's managed fields:
/// `extract_deployment` (client-go's `ExtractDeployment`).
pub fn apply_extractor(kind: &str) -> String {
    format!("extract_{}", kind.to_snake_case())
}

/// The setter of a field in an apply configuration: `with_replicas`, `with_type` for `type_`.
pub fn apply_setter(field: &str) -> String {
    let bare = field.trim_start_matches("r#").trim_end_matches('_');
    format!("with_{bare}")
}

/// The singular resource name: the lower-case kind (`deployment`).
pub fn singular(kind: &str) -> String {
    kind.to_lowercase()
}

/// The list kind of a kind: `DeploymentList`.
pub fn list_kind(kind: &str) -> String {
    format!("{kind}List")
}

/// An apiVersion string: `apps/v1`, or `v1` for the core group.
pub fn api_version(group: &str, version: &str) -> String {
    if group.is_empty() {
        version.to_string()
    } else {
        format!("{group}/{version}")
    }
}

/// The last segment of a module path (`crate::apps::v1` -> `v1`), which names a package in
/// function names, as Go's package name does.
pub fn package_short(path: &str) -> &str {
    path.rsplit("::").next().unwrap_or(path)
}

/// `convert_v1_deployment_to_apps_deployment`: the snake-case form of code-generator's
/// `Convert_v1_Deployment_To_apps_Deployment`, between the packages named `from` and `to`.
pub fn conversion_fn(from: &str, to: &str, type_name: &str) -> String {
    let t = type_name.to_snake_case();
    format!("convert_{}_{t}_to_{}_{t}", package_short(from), package_short(to))
}

/// The generated half of a conversion that the public function calls: `auto_<conversion_fn>`.
pub fn auto_conversion_fn(from: &str, to: &str, type_name: &str) -> String {
    format!("auto_{}", conversion_fn(from, to, type_name))
}

/// `convert_url_values_to_v1_pod_log_options`: Go's `Convert_url_Values_To_v1_PodLogOptions`,
/// the decoding of a `+k8s:conversion-gen:explicit-from=net/url.Values` kind from query parameters.
pub fn query_conversion_fn(package: &str, type_name: &str) -> String {
    format!(
        "convert_url_values_to_{}_{}",
        package_short(package),
        type_name.to_snake_case()
    )
}

/// The hand-written defaulter of a type: `set_defaults_deployment` (Go's `SetDefaults_Deployment`).
pub fn defaults_fn(type_name: &str) -> String {
    format!("set_defaults_{}", type_name.to_snake_case())
}

/// The generated validation of a type: `validate_deployment`.
pub fn validate_fn(type_name: &str) -> String {
    format!("validate_{}", type_name.to_snake_case())
}

/// The hand-written validation of a type the generated one calls: `validate_custom_deployment`
/// (validation-gen's `ValidateCustom_<Type>`).
pub fn validate_custom_fn(type_name: &str) -> String {
    format!("validate_custom_{}", type_name.to_snake_case())
}

/// The generated defaulter of a type: `set_object_defaults_deployment`.
pub fn object_defaults_fn(type_name: &str) -> String {
    format!("set_object_defaults_{}", type_name.to_snake_case())
}

/// The file a generator writes into a package: `zz_generated_<name>.rs`.
pub fn generated_file(generator: &str) -> String {
    format!("{}.rs", generated_module(generator))
}

/// The module name that includes a generated file.
pub fn generated_module(generator: &str) -> String {
    format!("{GENERATED_PREFIX}{}", generator.to_snake_case())
}

use crate::parse::GENERATED_PREFIX;

/// A group's name in identifiers, as client-gen's GroupGoName: `+groupGoName`, else the group's
/// first DNS label (`core` for the core group), upper camel case (`Apps`, `Flowcontrol`,
/// `ExampleGroup` for `example-group.io`).
pub fn group_go_name(group: &str, tag: Option<&str>) -> String {
    let source = match tag {
        Some(t) => t,
        None if group.is_empty() => "core",
        None => group.split('.').next().unwrap_or(group),
    };
    source.to_upper_camel_case()
}

/// The clientset's accessor of a group-version: `apps_v1`, `core_v1`, `second_example_v1`
/// (client-go's `AppsV1()`).
pub fn group_accessor(group_go_name: &str, version: &str) -> String {
    format!("{}_{version}", group_go_name.to_snake_case())
}

/// The OpenAPI model-name prefix of a package: `+k8s:openapi-model-package` when written; for
/// Kubernetes' own groups (the core group, groups without a dot, `*.k8s.io`) the package's module
/// path under `io.k8s.api`, as openapi-gen follows the Go import path
/// (`crate::rbac::v1` -> `io.k8s.api.rbac.v1`); for other groups the group's DNS name reversed,
/// then the version (`widgets.example.dev` -> `dev.example.widgets.v1`).
pub fn model_package(tag: Option<&str>, group: &str, version: &str, module_path: &str) -> String {
    if let Some(p) = tag {
        return p.to_string();
    }
    if group.is_empty() || !group.contains('.') || group.ends_with(".k8s.io") {
        let below: Vec<&str> = module_path.split("::").skip(1).collect();
        return format!("io.k8s.api.{}", below.join("."));
    }
    let reversed: Vec<&str> = group.split('.').rev().collect();
    format!("{}.{version}", reversed.join("."))
}

/// A model name: `io.k8s.api.apps.v1.Deployment`.
pub fn model_name(model_package: &str, type_name: &str) -> String {
    format!("{model_package}.{type_name}")
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
    use crate::parse::is_generated_file;

    #[test]
    fn plurals_follow_client_gen() {
        let cases = [
            ("Pod", "pods"),
            ("Deployment", "deployments"),
            ("ReplicaSet", "replicasets"),
            ("Namespace", "namespaces"),
            ("Ingress", "ingresses"),
            ("NetworkPolicy", "networkpolicies"),
            ("Gateway", "gateways"),
            ("Match", "matches"),
            ("Mesh", "meshes"),
            ("Box", "boxes"),
            ("Quiz", "quizes"),
            ("Leaf", "leaves"),
            ("Knife", "knives"),
            ("Endpoints", "endpoints"),
            ("PodSecurityPolicy", "podsecuritypolicies"),
            ("FabricGateway", "fabricgateways"),
            ("BackupRepo", "backuprepos"),
            ("ComponentStatus", "componentstatuses"),
            ("A", "a"),
        ];
        for (kind, want) in cases {
            assert_eq!(plural(kind), want, "{kind}");
        }
    }

    #[test]
    fn derived_names() {
        assert_eq!(singular("StatefulSet"), "statefulset");
        assert_eq!(list_kind("Pod"), "PodList");
        assert_eq!(api_version("", "v1"), "v1");
        assert_eq!(api_version("apps", "v1beta2"), "apps/v1beta2");
        assert_eq!(
            conversion_fn("crate::apps::v1", "crate::apps", "DeploymentSpec"),
            "convert_v1_deployment_spec_to_apps_deployment_spec"
        );
        assert_eq!(
            auto_conversion_fn("crate::apps", "crate::apps::v1", "Scale"),
            "auto_convert_apps_scale_to_v1_scale"
        );
        assert_eq!(
            query_conversion_fn("crate::core::v1", "PodLogOptions"),
            "convert_url_values_to_v1_pod_log_options"
        );
        assert_eq!(defaults_fn("PodSpec"), "set_defaults_pod_spec");
        assert_eq!(object_defaults_fn("Pod"), "set_object_defaults_pod");
        assert_eq!(
            generated_file("prerelease-lifecycle"),
            "zz_generated_prerelease_lifecycle.rs"
        );
        assert_eq!(generated_module("deepcopy"), "zz_generated_deepcopy");
        assert!(is_generated_file("zz_generated_deepcopy.rs") && !is_generated_file("types.rs"));
    }

    #[test]
    fn client_names_keep_the_kind_s_words() {
        assert_eq!(plural_cased("PodTemplate"), "PodTemplates");
        assert_eq!(plural_cased("Endpoints"), "Endpoints");
        assert_eq!(plural_cased("PodSecurityPolicy"), "PodSecurityPolicies");
        assert_eq!(plural_cased("Ingress"), "Ingresses");
        assert_eq!(
            client_accessor("CustomResourceDefinition"),
            "custom_resource_definitions"
        );
        assert_eq!(client_accessor("Endpoints"), "endpoints");
        assert_eq!(client_module("CustomResourceDefinition"), "custom_resource_definition");
        assert_eq!(typed_client("Deployment"), "DeploymentClient");
        assert_eq!(client_verbs("Deployment"), "DeploymentVerbs");
        assert_eq!(client_extension("Deployment"), "DeploymentExt");
        assert_eq!(method_fn("GetScale"), "get_scale");
        assert_eq!(group_client("Apiextensions", "v1beta1"), "ApiextensionsV1beta1Client");
    }

    #[test]
    fn apply_configuration_names() {
        assert_eq!(
            apply_configuration("DeploymentSpec"),
            "DeploymentSpecApplyConfiguration"
        );
        assert_eq!(
            apply_constructor("CustomResourceDefinition"),
            "custom_resource_definition"
        );
        assert_eq!(apply_extractor("Deployment"), "extract_deployment");
        assert_eq!(apply_setter("type_"), "with_type");
        assert_eq!(apply_setter("min_ready_seconds"), "with_min_ready_seconds");
    }

    #[test]
    fn group_accessors() {
        let accessor = |g: &str, tag: Option<&str>, v: &str| group_accessor(&group_go_name(g, tag), v);
        assert_eq!(accessor("apps", None, "v1"), "apps_v1");
        assert_eq!(accessor("", None, "v1"), "core_v1");
        assert_eq!(accessor("rbac.authorization.k8s.io", None, "v1"), "rbac_v1");
        assert_eq!(
            accessor("flowcontrol.apiserver.k8s.io", None, "v1beta2"),
            "flowcontrol_v1beta2"
        );
        assert_eq!(
            accessor("example-group.hyphens.example.dev", None, "v1"),
            "example_group_v1"
        );
        assert_eq!(
            accessor("example.dev", Some("SecondExample"), "v1"),
            "second_example_v1"
        );
        assert_eq!(group_go_name("apps", None), "Apps");
    }

    #[test]
    fn model_names_follow_openapi_gen() {
        assert_eq!(
            model_package(None, "rbac.authorization.k8s.io", "v1", "crate::rbac::v1"),
            "io.k8s.api.rbac.v1"
        );
        assert_eq!(model_package(None, "", "v1", "crate::core::v1"), "io.k8s.api.core.v1");
        assert_eq!(
            model_package(None, "apps", "v1", "crate::apps::v1"),
            "io.k8s.api.apps.v1"
        );
        assert_eq!(
            model_package(None, "widgets.example.dev", "v1", "crate::widgets::v1"),
            "dev.example.widgets.v1"
        );
        assert_eq!(
            model_package(Some("io.x.v1"), "apps", "v1", "crate::apps::v1"),
            "io.x.v1"
        );
        assert_eq!(
            model_name("io.k8s.api.apps.v1", "Deployment"),
            "io.k8s.api.apps.v1.Deployment"
        );
    }

    #[test]
    fn idents() {
        assert_eq!(ident("type").to_string(), "r#type");
        assert_eq!(ident("self").to_string(), "self_");
        assert_eq!(ident("replicas").to_string(), "replicas");
        assert_eq!(ident("0").to_string(), "_0");
        assert!(matches!(member("0"), syn::Member::Unnamed(_)));
    }
}
