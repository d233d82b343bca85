//! client-gen: the typed clientset in the generated crate's `clientset` module, rendered from
//! `templates/clientset/`: `Clientset` with one client per external group-version that has
//! `+genclient` kinds, and per kind a trait of exactly the verbs the model decided and a client
//! over `kube::Api`.

use std::path::{Path, PathBuf};

use serde::Serialize;

use super::{Context, Generator, crate_root::CrateModule, render_template};
use crate::diag::Diagnostics;
use crate::model::kind::{Client, Verb};
use crate::model::{Package, Scope, Type, TypeRef, names};

/// The clientset generator.
pub struct Clientset;

/// The tool name in the files' marker.
const TOOL: &str = "client-gen";

impl Generator for Clientset {
    fn name(&self) -> &'static str {
        "clientset"
    }

    fn tool(&self) -> &'static str {
        TOOL
    }

    fn activation(&self) -> &'static str {
        "`+genclient` on a kind of an external version"
    }

    fn applies(&self, pkg: &Package) -> bool {
        !pkg.is_internal() && pkg.kinds().any(|(t, _)| t.client().is_some())
    }

    fn per_package(&self) -> bool {
        false
    }

    fn crate_module(&self) -> Option<CrateModule> {
        Some(CrateModule {
            name: "clientset",
            summary: "the typed clientset",
            reexports: &[],
            dependencies: &[
                "apis",
                "runtime/client",
                "kube",
                "serde_json",
                "futures",
                "either",
                "async-trait",
            ],
            // The fake clientset runs on the API server in process.
            features: &[("fake", "apiserver/local")],
        })
    }

    fn generate_documents(&self, cx: &Context<'_>, root: &Path, diags: &mut Diagnostics) -> Vec<(PathBuf, String)> {
        let Some(dir) = cx.crate_module_dir(root, "clientset") else {
            return Vec::new();
        };
        let mut files = Vec::new();
        let mut groups = Vec::new();
        for pkg in cx.universe.packages.values().filter(|p| self.applies(p)) {
            let kinds: Vec<KindCx> = pkg
                .kinds()
                .filter_map(|(t, _)| Some(kind_cx(cx, pkg, t, t.client()?)))
                .collect();
            let group = GroupCx {
                module: pkg.accessor.clone(),
                accessor: pkg.accessor.clone(),
                api_version: pkg.api_version.clone(),
                group_client: pkg.group_client.0.clone(),
                group_interface: pkg.group_client.1.clone(),
                kinds,
            };
            let gdir = dir.join(&group.module);
            for k in &group.kinds {
                let path = gdir.join(format!("{}.rs", k.module));
                render_template(
                    cx,
                    TOOL,
                    "clientset/typed.rs.tera",
                    k,
                    path,
                    &pkg.mod_file,
                    &mut files,
                    diags,
                );
            }
            render_template(
                cx,
                TOOL,
                "clientset/group.rs.tera",
                &group,
                gdir.join("mod.rs"),
                &pkg.mod_file,
                &mut files,
                diags,
            );
            groups.push(group);
        }
        if !groups.is_empty() {
            let top = ClientsetCx {
                groups,
                openapi: cx.universe.packages.values().any(|p| p.has_openapi()),
            };
            let at = cx
                .universe
                .packages
                .values()
                .next()
                .map(|p| p.mod_file.clone())
                .unwrap_or_else(|| "apis".into());
            render_template(
                cx,
                TOOL,
                "clientset/clientset.rs.tera",
                &top,
                dir.join("mod.rs"),
                &at,
                &mut files,
                diags,
            );
            render_template(
                cx,
                TOOL,
                "clientset/fake.rs.tera",
                &top,
                dir.join("fake.rs"),
                &at,
                &mut files,
                diags,
            );
        }
        files
    }
}

/// The clientset's context: its group-versions in module-path order.
#[derive(Serialize)]
struct ClientsetCx {
    groups: Vec<GroupCx>,
    /// Whether the crate has the OpenAPI documents, which the fake's server reads schemas from.
    openapi: bool,
}

/// One group-version's client.
#[derive(Serialize)]
struct GroupCx {
    module: String,
    accessor: String,
    api_version: String,
    group_client: String,
    group_interface: String,
    kinds: Vec<KindCx>,
}

/// One kind's typed client.
#[derive(Serialize)]
struct KindCx {
    kind: String,
    api_version: String,
    type_path: String,
    module: String,
    accessor: String,
    client: String,
    interface: String,
    namespaced: bool,
    status: bool,
    verbs: Verbs,
    /// The kind's apply configuration, which `apply` and `apply_status` send.
    apply_configuration: Option<String>,
    methods: Vec<MethodCx>,
}

/// Which standard verbs the client has.
#[derive(Serialize)]
struct Verbs {
    create: bool,
    update: bool,
    update_status: bool,
    delete: bool,
    delete_collection: bool,
    get: bool,
    list: bool,
    watch: bool,
    patch: bool,
    apply: bool,
    apply_status: bool,
}

/// One `+genclient:method=` method.
#[derive(Serialize)]
struct MethodCx {
    name: String,
    fn_name: String,
    verb: &'static str,
    subresource: Option<String>,
    input: String,
    result: String,
}

fn kind_cx(cx: &Context<'_>, pkg: &Package, t: &Type, client: &Client) -> KindCx {
    let has = |v: Verb| client.verbs.contains(&v);
    let resource = t.resource();
    KindCx {
        kind: t.name.clone(),
        api_version: pkg.api_version.clone(),
        type_path: cx.apis_path(&pkg.path, &t.name),
        module: client.module.clone(),
        accessor: client.accessor.clone(),
        client: client.client_type.clone(),
        interface: client.trait_name.clone(),
        namespaced: resource.is_some_and(|r| r.scope == Scope::Namespaced),
        status: resource.is_some_and(|r| r.status),
        verbs: Verbs {
            create: has(Verb::Create),
            update: has(Verb::Update),
            update_status: has(Verb::UpdateStatus),
            delete: has(Verb::Delete),
            delete_collection: has(Verb::DeleteCollection),
            get: has(Verb::Get),
            list: has(Verb::List),
            watch: has(Verb::Watch),
            patch: has(Verb::Patch),
            // Apply sends an apply configuration: the kind has one unless it lacks ObjectMeta.
            apply: has(Verb::Apply) && t.selection.apply,
            apply_status: has(Verb::ApplyStatus) && t.selection.apply,
        },
        apply_configuration: apply_configuration(cx, &TypeRef::Named(pkg.id(&t.name))),
        methods: client
            .methods
            .iter()
            .filter_map(|m| {
                // An apply method sends its input's apply configuration.
                let input = match m.verb {
                    Verb::Apply | Verb::ApplyStatus => apply_configuration(cx, &m.input)?,
                    _ => type_path(cx, &m.input),
                };
                Some(MethodCx {
                    name: m.name.clone(),
                    fn_name: m.fn_name.clone(),
                    verb: m.verb.as_str(),
                    subresource: m.subresource.clone(),
                    input,
                    result: type_path(cx, &m.result),
                })
            })
            .collect(),
    }
}

fn type_path(cx: &Context<'_>, t: &TypeRef) -> String {
    match t {
        TypeRef::Named(id) => cx.apis_path(&id.package, &id.name),
        TypeRef::External(_, path) => format!("::{path}"),
        other => other.to_string(),
    }
}

/// The apply configuration of a named type, when the model gave it one.
fn apply_configuration(cx: &Context<'_>, t: &TypeRef) -> Option<String> {
    let TypeRef::Named(id) = t else { return None };
    let ty = cx.universe.get(id).filter(|ty| ty.selection.apply)?;
    let pkg = cx.universe.packages.get(&id.package)?;
    Some(format!(
        "crate::applyconfigurations::{}::{}",
        pkg.accessor,
        names::apply_configuration(&ty.name)
    ))
}
