//! Kinds and resources, decided once: a kind's list type, metadata, lifecycle and, when it is
//! served as a resource, its plural, singular, scope, subresources and the client verbs of
//! client-gen's `+genclient` family (with custom `:method=` verbs and their types resolved).

use std::collections::BTreeSet;

use super::attrs::{ClientTags, Release};
pub use super::verb::Verb;
use super::{External, Package, Type, TypeRef, names};
use crate::diag::{Diagnostic, Diagnostics, SourceLoc};

/// The autoscaling/v1 Scale kind, which a CRD's scale subresource serves (`+k8s:crd-gen:scale`).
const CRD_SCALE: (&str, &str, &str) = ("autoscaling", "v1", "Scale");

/// Where a resource lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// Below a namespace (`/namespaces/{ns}/<plural>`).
    Namespaced,
    /// Cluster-wide (`+genclient:nonNamespaced`).
    Cluster,
    /// Served only as a subresource of another kind (`+k8s:isSubresource=/scale`).
    Subresource,
}

/// A kind: a struct with TypeMeta, registered in the Scheme.
#[derive(Clone, Debug)]
pub struct Kind {
    /// The TypeMeta field's name.
    pub type_meta: String,
    /// The ObjectMeta field's name; kinds without one (AdmissionReview, the `*Options` kinds)
    /// are registered but are not k8s-openapi resources.
    pub object_meta: Option<String>,
    /// Whether the kind is a list (has ListMeta).
    pub is_list: bool,
    /// The name of this kind's list kind (`<Kind>List`), when the package has one whose items are
    /// this kind.
    pub list: Option<String>,
    /// Set when the kind is served as a resource: it has ObjectMeta and is not a list.
    pub resource: Option<Resource>,
    /// The API lifecycle, when the kind's package generates it.
    pub lifecycle: Option<Lifecycle>,
    /// The JSON keys its objects may have at the top level (`apiVersion`, `kind`, every field's
    /// name and aliases), which strict decoding checks an input's keys against; `None` when a
    /// field other than TypeMeta is flattened into it.
    pub wire_keys: Option<Vec<String>>,
}

/// What the API server serves for a kind.
#[derive(Clone, Debug)]
pub struct Resource {
    /// The resource name (`deployments`): `+resourceName`, else the plural of the kind.
    pub plural: String,
    /// The lower-case kind (`deployment`).
    pub singular: String,
    /// Namespaced, cluster-wide, or a subresource.
    pub scope: Scope,
    /// Short names (`+k8s:crd-gen:shortNames`).
    pub short_names: Vec<String>,
    /// Categories (`+k8s:crd-gen:categories`).
    pub categories: Vec<String>,
    /// Whether `metadata.generation` counts the changes of the object's desired state: always for
    /// custom resources, else when the kind has a `spec` or a `template`, as Kubernetes'
    /// strategies count them (a ConfigMap has none).
    pub generation: bool,
    /// The generated client, when the kind is tagged `+genclient`.
    pub client: Option<Client>,
    /// The version its group stores it in (`model/serving.rs` decides it across the group).
    pub storage_version: String,
    /// Its subresources with the kinds they serve. A custom resource has those its CRD tags name
    /// (`+k8s:crd-gen:subresource:status`, `:scale=`). A built-in kind has `status` when it has a
    /// `status` field and no `+genclient:noStatus`, and `scale` when a custom client method names
    /// it, serving the kind its `get` method answers (`model/serving.rs`), else autoscaling/v1
    /// Scale.
    pub subresources: Vec<Subresource>,
    /// The columns `kubectl get` shows besides the name (`+k8s:crd-gen:printcolumn`), in tag
    /// order; the CRD generator checks their values against the schema.
    pub printer_columns: Vec<PrinterColumn>,
}

/// One printer column: a CRD's `additionalPrinterColumns` entry, and a column of the API server's
/// Table for the kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PrinterColumn {
    /// The header (`Ready`).
    pub name: String,
    /// `integer`, `number`, `string`, `boolean` or `date`.
    pub type_: String,
    /// An OpenAPI format (`int32`, `date-time`...), if any.
    pub format: Option<String>,
    /// What the column shows, if said.
    pub description: Option<String>,
    /// 0 for `kubectl get`, higher for `-o wide` only.
    pub priority: u32,
    /// Where the value is (`.status.readyReplicas`).
    pub json_path: String,
}

/// A subresource a server serves below a resource, and the kind its requests and responses carry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Subresource {
    /// `status` or `scale`.
    pub name: String,
    /// The served kind's group.
    pub group: String,
    /// The served kind's version.
    pub version: String,
    /// The served kind (`Deployment` for status, `Scale` for scale).
    pub kind: String,
    /// For `scale`: where the object keeps its replicas and selector.
    pub scale: Option<ScalePaths>,
}

/// Where a scalable object keeps what its `/scale` shows: the CRD scale tag's paths, or
/// Kubernetes' for built-in kinds (`.spec.replicas`, `.status.replicas`, `.spec.selector`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScalePaths {
    /// The desired replicas (`.spec.replicas`).
    pub spec_replicas: String,
    /// The observed replicas (`.status.replicas`).
    pub status_replicas: String,
    /// The label selector, a string or a LabelSelector object (`.spec.selector`), if any.
    pub label_selector: Option<String>,
}

/// A typed client's methods.
#[derive(Clone, Debug, Default)]
pub struct Client {
    /// The group client's accessor of this kind's client (`deployments`, client-go's
    /// `Deployments(namespace)`).
    pub accessor: String,
    /// The typed client's name (`DeploymentClient`).
    pub client_type: String,
    /// The marker type whose trait impls are the client's verbs (`DeploymentVerbs`).
    pub verbs_marker: String,
    /// The trait of the custom methods (`DeploymentExt`), when the kind has any.
    pub extension: Option<String>,
    /// The module of the kind's lister and informer (`deployment`).
    pub module: String,
    /// The standard verbs the client has: what every `+genclient:*` option leaves, without the
    /// status verbs of a kind without status, and without `apply` and `applyStatus` unless the
    /// kind has an apply configuration (`apply_configurations::decide`).
    pub verbs: BTreeSet<Verb>,
    /// The kind's apply configuration, which `apply` and `applyStatus` send (`apply_configurations::decide`).
    pub apply_configuration: Option<ApplyConfigurationRef>,
    /// `+genclient:method=` methods, in tag order.
    pub methods: Vec<Method>,
    /// The lister and namespace lister, when the client can `list` and `get` (lister-gen's
    /// selection): `DeploymentLister`, `DeploymentNamespaceLister`.
    pub listers: Option<(String, String)>,
    /// The typed informer, when the client can `list` and `watch` (informer-gen's selection):
    /// `DeploymentInformer`.
    pub informer: Option<String>,
    /// How the client speaks protobuf, when the kind and its list are both messages
    /// (`protobuf::decide`); client-go's default content type for such kinds.
    pub protobuf: Option<super::protobuf::ProtobufClient>,
}

/// One custom client method (`+genclient:method=GetScale,verb=get,subresource=scale,result=...`).
#[derive(Clone, Debug)]
pub struct Method {
    /// The method's name as written (`GetScale`).
    pub name: String,
    /// The Rust method's name (`get_scale`).
    pub fn_name: String,
    /// Its verb.
    pub verb: Verb,
    /// The subresource it calls, if any.
    pub subresource: Option<String>,
    /// The request body's type (the kind itself unless `input=`).
    pub input: TypeRef,
    /// The response's type (the kind itself unless `result=`).
    pub result: TypeRef,
    /// For an apply method, the input's apply configuration, which it sends (`apply_configurations::decide`).
    pub apply_configuration: Option<ApplyConfigurationRef>,
    /// Where the tag is.
    pub loc: SourceLoc,
}

/// An apply configuration as the generated crate's `applyconfigurations` module holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApplyConfigurationRef {
    /// The module of its package (`apps_v1`, the package's accessor).
    pub module: String,
    /// Its name (`DeploymentApplyConfiguration`).
    pub name: String,
}

/// A kind's API lifecycle with upstream's defaults applied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lifecycle {
    /// The release that introduced this version of the kind.
    pub introduced: Release,
    /// The release that deprecates it: tagged, or for a pre-release version three minors after
    /// its introduction.
    pub deprecated: Option<Release>,
    /// The release that removes it: tagged, or for a pre-release version three minors after its
    /// deprecation.
    pub removed: Option<Release>,
    /// `(group, version, kind)` that replaces it.
    pub replacement: Option<(String, String, String)>,
}

impl Lifecycle {
    /// The warning the API server sends for a deprecated kind, worded as
    /// `runtime::ApiLifecycle::deprecation_warning` words it for built-in kinds.
    pub fn deprecation_warning(&self, api_version: &str, kind: &str) -> Option<String> {
        let (a, b) = self.deprecated?;
        let mut warning = format!("{api_version} {kind} is deprecated in v{a}.{b}+");
        if let Some((a, b)) = self.removed {
            warning.push_str(&format!(", unavailable in v{a}.{b}+"));
        }
        if let Some((g, v, k)) = &self.replacement {
            warning.push_str(&format!("; use {} {k}", names::api_version(g, v)));
        }
        Some(warning)
    }
}

/// Builds the kind of every type of `pkg` that has TypeMeta. Problems are reported; what was
/// decided for each resource is noted for `--verbose` output once `model/serving.rs` completes it.
pub fn build(pkg: &mut Package, diags: &mut Diagnostics) {
    let names: Vec<String> = pkg.types.keys().cloned().collect();
    for name in names {
        let Some(ty) = pkg.types.get(&name) else { continue };
        let kind = kind_of(pkg, ty, diags);
        if let Some(ty) = pkg.types.get_mut(&name) {
            ty.kind = kind;
        }
    }
}

impl Resource {
    /// The subresource of this name (`status`, `scale`), if the resource has it.
    pub fn subresource(&self, name: &str) -> Option<&Subresource> {
        self.subresources.iter().find(|s| s.name == name)
    }

    /// Whether the resource lives below a namespace (`/namespaces/{ns}/<plural>`).
    pub fn namespaced(&self) -> bool {
        self.scope == Scope::Namespaced
    }

    /// What was decided, in one line: `deployments (Namespaced), subresources status, scale;
    /// client verbs create, update, ...; methods GetScale(get scale: Deployment -> Scale)`.
    pub fn describe(&self) -> String {
        let scope = match self.scope {
            Scope::Namespaced => "Namespaced",
            Scope::Cluster => "Cluster",
            Scope::Subresource => "a subresource",
        };
        let mut out = format!("resource `{}`, singular `{}` ({scope})", self.plural, self.singular);
        let subresources: Vec<&str> = self.subresources.iter().map(|s| s.name.as_str()).collect();
        if !subresources.is_empty() {
            out.push_str(&format!(", subresources {}", subresources.join(", ")));
        }
        if !self.storage_version.is_empty() {
            out.push_str(&format!(", stored as {}", self.storage_version));
        }
        for (what, list) in [("short names", &self.short_names), ("categories", &self.categories)] {
            if !list.is_empty() {
                out.push_str(&format!(", {what} {}", list.join(", ")));
            }
        }
        match &self.client {
            None => out.push_str("; no client (`+genclient`)"),
            Some(c) => {
                let verbs: Vec<&str> = c.verbs.iter().map(|v| v.as_str()).collect();
                out.push_str(&format!(
                    "; client verbs {}",
                    if verbs.is_empty() {
                        "none".into()
                    } else {
                        verbs.join(", ")
                    }
                ));
                if let Some(a) = &c.apply_configuration {
                    out.push_str(&format!("; apply configuration {}::{}", a.module, a.name));
                }
                for m in &c.methods {
                    let sub = m.subresource.as_deref().map(|s| format!(" {s}")).unwrap_or_default();
                    out.push_str(&format!(
                        "; method {}({}{sub}: {} -> {}) at {}",
                        m.name,
                        m.verb.as_str(),
                        m.input,
                        m.result,
                        m.loc
                    ));
                }
                let lister = c
                    .listers
                    .as_ref()
                    .map_or("no lister (needs list and get)", |_| "a lister");
                let informer = c
                    .informer
                    .as_ref()
                    .map_or("no informer (needs list and watch)", |_| "an informer");
                out.push_str(&format!("; {lister}, {informer}"));
            }
        }
        out
    }
}

fn field_of(ty: &Type, which: External) -> Option<&super::Field> {
    ty.fields().iter().find(|f| f.ty.strip_option().is_external(which))
}

fn kind_of(pkg: &Package, ty: &Type, diags: &mut Diagnostics) -> Option<Kind> {
    let type_meta = field_of(ty, External::TypeMeta)?;
    let is_list = field_of(ty, External::ListMeta).is_some();
    let object_meta = field_of(ty, External::ObjectMeta).map(|f| f.name.clone());
    if let Some(meta) = field_of(ty, External::ObjectMeta)
        && matches!(meta.ty, TypeRef::Option(_))
    {
        diags.push(
            Diagnostic::error(
                &meta.ty_loc,
                format!("the ObjectMeta of kind `{}` is optional", ty.name),
            )
            .label("expected `ObjectMeta`")
            .help(format!(
                "every object has metadata (k8s-openapi's `Metadata` and the generated code read it): write `pub {}: ObjectMeta` with `#[serde(default)]`",
                meta.name
            )),
        );
    }
    let list_name = names::list_kind(&ty.name);
    let list = pkg
        .types
        .get(&list_name)
        .filter(|l| field_of(l, External::ListMeta).is_some() && field_of(l, External::TypeMeta).is_some())
        .filter(|l| list_items_are(pkg, l, ty, diags))
        .map(|_| list_name);
    let resource = (!is_list && object_meta.is_some()).then(|| resource(pkg, ty, diags));
    let lifecycle = pkg.attrs.lifecycle.then(|| lifecycle(pkg, ty, diags)).flatten();
    Some(Kind {
        type_meta: type_meta.name.clone(),
        object_meta,
        is_list,
        list,
        resource,
        lifecycle,
        wire_keys: wire_keys(ty, &type_meta.name),
    })
}

/// The top-level JSON keys of a kind whose TypeMeta field is `type_meta`.
fn wire_keys(ty: &Type, type_meta: &str) -> Option<Vec<String>> {
    let mut keys = vec!["apiVersion".to_string(), "kind".to_string()];
    for f in ty.fields().iter().filter(|f| f.name != type_meta && !f.skip) {
        if f.flatten {
            return None;
        }
        keys.push(f.json_name.clone());
        keys.extend(f.aliases.iter().cloned());
    }
    keys.sort();
    keys.dedup();
    Some(keys)
}

/// A list kind's `items` must be a `Vec` of the kind it lists.
fn list_items_are(pkg: &Package, list: &Type, kind: &Type, diags: &mut Diagnostics) -> bool {
    let items = list.fields().iter().find(|f| f.name == "items");
    let ok = matches!(
        items.map(|f| &f.ty),
        Some(TypeRef::Vec(inner)) if matches!(&**inner, TypeRef::Named(id) if id.package == pkg.path && id.name == kind.name)
    );
    if !ok && let Some(items) = items {
        diags.push(
            Diagnostic::error(
                &items.ty_loc,
                format!("list kind `{}` does not hold `{}` items", list.name, kind.name),
            )
            .label(format!("expected `Vec<{}>`", kind.name))
            .related(&kind.loc, "the kind it lists")
            .help(format!(
                "a `<Kind>List` holds its kind: write `pub items: Vec<{}>`, or rename the list",
                kind.name
            )),
        );
    }
    ok
}

fn resource(pkg: &Package, ty: &Type, diags: &mut Diagnostics) -> Resource {
    let a = &ty.attrs;
    let scope = if a.subresource_of.is_some() {
        Scope::Subresource
    } else if a.client.non_namespaced {
        Scope::Cluster
    } else {
        Scope::Namespaced
    };
    let plural = match (&a.subresource_of, &a.resource_name) {
        (Some(sub), _) => sub.clone(),
        (None, Some(name)) => name.clone(),
        (None, None) => names::plural(&ty.name),
    };
    // A derived name becomes a URL path segment, a file name and a CRD's name: it must be a DNS label.
    if a.resource_name.is_none() && !super::tags::is_dns_label(&plural) {
        diags.push(
            Diagnostic::error(
                &ty.loc,
                format!(
                    "kind `{}` has the resource name `{plural}`, which is not a DNS label",
                    ty.name
                ),
            )
            .label("lower-case ASCII letters, digits and `-`, at most 63 characters")
            .help("set `+resourceName=<plural>` to a DNS label, or rename the kind"),
        );
    }
    // A custom resource has the subresources its CRD names (apiextensions-apiserver serves no
    // others); a built-in kind has `/status` when it has a status field, unless `noStatus`.
    let status = if pkg.attrs.crd {
        a.crd.status.is_some()
    } else {
        ty.fields().iter().any(|f| f.name == "status") && !a.client.no_status
    };
    // Custom resources always count generations (Kubernetes' custom-resource strategy); other
    // kinds when they have desired state, a `spec` or a PodTemplate's `template`, unless their
    // strategy in Kubernetes counts none (namespaces).
    let generation = pkg.attrs.crd
        || (ty
            .fields()
            .iter()
            .any(|f| matches!(f.json_name.as_str(), "spec" | "template") && !f.skip)
            && !super::known::counts_no_generation(&pkg.group, &plural));
    // A kind served only as another kind's subresource (Scale) has no client of its own.
    let client = (a.client.genclient && scope != Scope::Subresource).then(|| client(pkg, ty, &a.client, status, diags));
    let scale = a.crd.scale.is_some()
        || (!pkg.attrs.crd
            && client
                .as_ref()
                .is_some_and(|c| c.methods.iter().any(|m| m.subresource.as_deref() == Some("scale"))));
    let mut subresources = Vec::new();
    if status {
        subresources.push(Subresource {
            name: "status".into(),
            group: pkg.group.clone(),
            version: pkg.version.as_str().to_string(),
            kind: ty.name.clone(),
            scale: None,
        });
    }
    if scale {
        let (group, version, kind) = CRD_SCALE;
        subresources.push(Subresource {
            name: "scale".into(),
            group: group.into(),
            version: version.into(),
            kind: kind.into(),
            scale: Some(scale_paths(ty)),
        });
    }
    Resource {
        generation,
        plural,
        singular: names::singular(&ty.name),
        scope,
        short_names: a.crd.short_names.as_ref().map(|l| l.value.clone()).unwrap_or_default(),
        categories: a.crd.categories.as_ref().map(|l| l.value.clone()).unwrap_or_default(),
        client,
        storage_version: pkg.version.as_str().to_string(),
        subresources,
        printer_columns: a
            .crd
            .print_columns
            .iter()
            .filter_map(|t| printer_column(&t.value))
            .collect(),
    }
}

/// The CRD scale tag's paths (`specpath`, `statuspath`, `selectorpath`), or the ones Kubernetes'
/// hand-written scale storage of Deployments, ReplicaSets and StatefulSets reads.
fn scale_paths(t: &Type) -> ScalePaths {
    let pairs = t.attrs.crd.scale.as_ref().map(|l| l.value.clone()).unwrap_or_default();
    let get = |k: &str| pairs.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone());
    match (get("specpath"), get("statuspath")) {
        (Some(spec), Some(status)) => ScalePaths {
            spec_replicas: spec,
            status_replicas: status,
            label_selector: get("selectorpath"),
        },
        _ => ScalePaths {
            spec_replicas: ".spec.replicas".into(),
            status_replicas: ".status.replicas".into(),
            label_selector: Some(".spec.selector".into()),
        },
    }
}

/// A printer column from its tag's pairs; `None` without a name, type and path or with a priority
/// that is not a number, which the CRD generator reports at the tag.
fn printer_column(pairs: &[(String, String)]) -> Option<PrinterColumn> {
    let get = |k: &str| pairs.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone());
    Some(PrinterColumn {
        name: get("name")?,
        type_: get("type")?,
        format: get("format"),
        description: get("description"),
        priority: match get("priority") {
            Some(p) => p.parse().ok()?,
            None => 0,
        },
        json_path: get("jsonPath")?,
    })
}

/// The verbs client-gen generates for a `+genclient` kind.
fn client(pkg: &Package, ty: &Type, tags: &ClientTags, status: bool, diags: &mut Diagnostics) -> Client {
    let skip = &tags.skip_verbs;
    if tags.only_verbs.is_some() && !tags.skip_verbs.is_empty() {
        // client-go ignores skipVerbs beside onlyVerbs; one list says what is meant.
        diags.push(
            Diagnostic::error(
                &ty.tags.loc(super::tags::name::SKIP_VERBS, &ty.loc),
                format!(
                    "`{}` has both `+genclient:onlyVerbs` and `+genclient:skipVerbs`",
                    ty.name
                ),
            )
            .label("a second list of the same verbs")
            .help("keep `onlyVerbs` with the verbs the client has, or `skipVerbs` with those it lacks"),
        );
    }
    let mut only = tags.only_verbs.clone();
    if tags.readonly {
        only.get_or_insert_with(BTreeSet::new).extend(Verb::READONLY);
    }
    let mut verbs: BTreeSet<Verb> = match &only {
        Some(only) => {
            // Both lists are reported above; with `:readonly` an overlap is the mistake.
            let both = tags.only_verbs.is_some() && !tags.skip_verbs.is_empty();
            for v in only.intersection(skip).filter(|_| !both) {
                diags.push(
                    Diagnostic::error(
                        &ty.tags.loc(super::tags::name::SKIP_VERBS, &ty.loc),
                        format!(
                            "verb `{}` is both skipped and the only verbs of `{}`",
                            v.as_str(),
                            ty.name
                        ),
                    )
                    .label("conflicts with `+genclient:onlyVerbs` or `:readonly`")
                    .help("keep the verb in one of the two lists"),
                );
            }
            only.difference(skip).copied().collect()
        }
        None => Verb::ALL.into_iter().filter(|v| !skip.contains(v)).collect(),
    };
    if tags.no_verbs {
        verbs.clear();
    }
    if !status {
        verbs.retain(|v| !v.is_status());
    }
    let own = TypeRef::Named(pkg.id(&ty.name));
    let list = names::list_kind(&ty.name);
    let own_list = pkg.types.contains_key(&list).then(|| TypeRef::Named(pkg.id(&list)));
    let methods: Vec<Method> = tags
        .methods
        .iter()
        // A method tag without a verb is reported by the tag check, which ends the run.
        .filter_map(|m| {
            let verb = m.verb?;
            // A list method answers with the kind's list, as client-gen's does.
            let default_result = match (verb, &own_list) {
                (Verb::List, Some(l)) => l.clone(),
                _ => own.clone(),
            };
            Some(Method {
                name: m.name.clone(),
                fn_name: names::method_fn(&m.name),
                verb,
                subresource: m.subresource.clone(),
                input: m.input_ty.clone().unwrap_or_else(|| own.clone()),
                result: m.result_ty.clone().unwrap_or(default_result),
                apply_configuration: None,
                loc: m.loc.clone(),
            })
        })
        .collect();
    let can = |a: Verb, b: Verb| verbs.contains(&a) && verbs.contains(&b);
    Client {
        accessor: names::client_accessor(&ty.name),
        client_type: names::typed_client(&ty.name),
        verbs_marker: names::client_verbs(&ty.name),
        extension: (!methods.is_empty()).then(|| names::client_extension(&ty.name)),
        module: names::client_module(&ty.name),
        apply_configuration: None,
        protobuf: None,
        listers: can(Verb::List, Verb::Get).then(|| names::listers(&ty.name)),
        informer: can(Verb::List, Verb::Watch).then(|| names::informer(&ty.name)),
        verbs,
        methods,
    }
}

/// The kind's lifecycle with upstream's defaults; its absence is an error in a lifecycle package.
fn lifecycle(pkg: &Package, ty: &Type, diags: &mut Diagnostics) -> Option<Lifecycle> {
    let tags = &ty.attrs.lifecycle;
    let Some(introduced) = tags.introduced else {
        diags.push(
            Diagnostic::error(&ty.loc, format!("kind `{}` has no `+k8s:prerelease-lifecycle-gen:introduced` tag", ty.name))
                .label("lifecycle unknown")
                .help("add `/// +k8s:prerelease-lifecycle-gen:introduced=<major>.<minor>`, the release that introduced this version"),
        );
        return None;
    };
    let pre = pkg.version.is_prerelease();
    let deprecated = tags.deprecated.or(pre.then_some((introduced.0, introduced.1 + 3)));
    let removed = tags
        .removed
        .or_else(|| deprecated.filter(|_| pre).map(|d| (d.0, d.1 + 3)));
    let replacement = match ty.tags.get(super::tags::name::LIFECYCLE_REPLACEMENT) {
        None => None,
        Some(t) => match tags.replacement.clone().filter(|(g, v, k)| valid_replacement(g, v, k)) {
            Some(r) => Some(r),
            None => {
                diags.push(
                    Diagnostic::error(
                        &t.loc,
                        format!("malformed replacement `{}`", t.value.as_deref().unwrap_or_default()),
                    )
                    .label("expected `group,version,Kind`")
                    .help("for example `+k8s:prerelease-lifecycle-gen:replacement=apps,v1,Deployment`"),
                );
                return None;
            }
        },
    };
    Some(Lifecycle {
        introduced,
        deprecated,
        removed,
        replacement,
    })
}

/// `group,version,Kind` as upstream checks it: a lower-case group, a lower-case version starting
/// with `v`, a kind starting with a capital.
fn valid_replacement(group: &str, version: &str, kind: &str) -> bool {
    group == group.to_lowercase()
        && version.starts_with('v')
        && version == version.to_lowercase()
        && kind.starts_with(|c: char| c.is_ascii_uppercase())
}
