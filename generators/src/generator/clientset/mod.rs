//! client-gen: the typed clientset in the generated crate's `clientset` module, rendered from
//! `templates/clientset/`: `Clientset` with one client per external group-version that has
//! `+genclient` kinds, and per kind the runtime's generic typed client with the verbs the model
//! decided, said as trait impls on a marker type, plus the kind's custom methods.

mod methods;

use std::path::{Path, PathBuf};

use serde::Serialize;

use super::{Context, CrateGenerator, Templates, crate_root::CrateModule};
use crate::diag::Diagnostics;
use crate::model::kind::{ApplyConfigurationRef, Client};
use crate::model::{Package, Type, names};

/// The clientset generator.
pub struct Clientset;

/// The tool name in the files' marker.
const TOOL: &str = "client-gen";

impl CrateGenerator for Clientset {
    fn name(&self) -> &'static str {
        "clientset"
    }

    fn tool(&self) -> &'static str {
        TOOL
    }

    fn crate_module(&self) -> Option<CrateModule> {
        Some(CrateModule {
            name: "clientset",
            summary: "the typed clientset",
            reexports: &[],
            dependencies: &["apis", "runtime/client", "kube", "serde_json"],
            // The fake clientset runs on the API server in process.
            features: &[("fake", "kube-apiserver/local")],
        })
    }

    fn generate(&self, cx: &Context<'_>, root: &Path, diags: &mut Diagnostics) -> Vec<(PathBuf, String)> {
        let Some(dir) = cx.crate_module_dir(root, "clientset") else {
            return Vec::new();
        };
        let mut templates = Templates::new(cx, TOOL, diags);
        let mut groups = Vec::new();
        for pkg in cx.universe.packages.values().filter(|p| self.applies(p)) {
            let group = GroupCx {
                module: pkg.accessor.clone(),
                api_version: pkg.api_version.clone(),
                group_client: pkg.group_client.clone(),
                kinds: pkg
                    .kinds()
                    .filter_map(|(t, _)| Some(kind_cx(cx, pkg, t, t.client()?)))
                    .collect(),
            };
            let path = dir.join(format!("{}.rs", group.module));
            templates.render("clientset/group.rs.tera", &group, path, &pkg.mod_file);
            groups.push(group);
        }
        if let Some(first) = cx.universe.packages.values().next().filter(|_| !groups.is_empty()) {
            let top = ClientsetCx {
                extensions: groups
                    .iter()
                    .flat_map(|g| {
                        g.kinds
                            .iter()
                            .filter_map(|k| Some(format!("{}::{}", g.module, k.extension.as_ref()?.name)))
                    })
                    .collect(),
                groups,
                openapi: cx.universe.packages.values().any(|p| p.has_openapi()),
            };
            let at = &first.mod_file;
            for (template, file) in [
                ("clientset/clientset.rs.tera", "mod.rs"),
                ("clientset/fake.rs.tera", "fake.rs"),
            ] {
                templates.render(template, &top, dir.join(file), at);
            }
        }
        templates.finish()
    }
}

impl Clientset {
    /// Whether the package's tags ask for this generator.
    fn applies(&self, pkg: &Package) -> bool {
        !pkg.is_internal() && pkg.kinds().any(|(t, _)| t.client().is_some())
    }
}

/// The clientset's context: its group-versions in module-path order.
#[derive(Serialize)]
struct ClientsetCx {
    groups: Vec<GroupCx>,
    /// The custom-method traits by their path below the clientset (`apps_v1::DeploymentExt`),
    /// which its prelude imports.
    extensions: Vec<String>,
    /// Whether the crate has the OpenAPI documents, which the fake's server reads schemas from.
    openapi: bool,
}

/// One group-version's client.
#[derive(Serialize)]
struct GroupCx {
    module: String,
    api_version: String,
    group_client: String,
    kinds: Vec<KindCx>,
}

/// One kind's typed client.
#[derive(Serialize)]
struct KindCx {
    kind: String,
    type_path: String,
    accessor: String,
    client: String,
    marker: String,
    namespaced: bool,
    /// The runtime's verb traits the marker implements, in client-gen's order.
    verbs: Vec<VerbCx>,
    extension: Option<ExtensionCx>,
    /// The list kind's path and how its ListMeta is taken out, when the kind speaks protobuf.
    protobuf: Option<ProtobufCx>,
}

/// A kind's protobuf form: its list type, and its ListMeta field (`metadata`, `metadata?` when
/// it is an `Option`), as `protobuf_form!` takes them.
#[derive(Serialize)]
struct ProtobufCx {
    list_path: String,
    list_meta: String,
}

/// One verb trait impl: `Create`, or `Apply` with the configuration it sends.
#[derive(Serialize)]
struct VerbCx {
    name: String,
    configuration: Option<String>,
}

/// The trait of a kind's custom methods.
#[derive(Serialize)]
struct ExtensionCx {
    name: String,
    methods: Vec<methods::MethodCx>,
}

fn kind_cx(cx: &Context<'_>, pkg: &Package, t: &Type, client: &Client) -> KindCx {
    let type_path = cx.apis_path(&pkg.path, &t.name);
    let configuration = client.apply_configuration.as_ref().map(apply_configuration_path);
    KindCx {
        kind: t.name.clone(),
        accessor: client.accessor.clone(),
        client: client.client_type.clone(),
        marker: client.verbs_marker.clone(),
        namespaced: t.resource().is_some_and(|r| r.namespaced()),
        verbs: client
            .verbs
            .iter()
            .map(|v| VerbCx {
                name: names::verb_trait(*v),
                configuration: v.is_apply().then(|| configuration.clone()).flatten(),
            })
            .collect(),
        protobuf: client.protobuf.as_ref().map(|p| ProtobufCx {
            list_path: cx.apis_path(&pkg.path, &p.list),
            list_meta: format!("{}{}", p.list_meta, if p.list_meta_optional { "?" } else { "" }),
        }),
        extension: client.extension.as_ref().map(|name| ExtensionCx {
            name: name.clone(),
            methods: client.methods.iter().map(|m| methods::method_cx(cx, m)).collect(),
        }),
        type_path,
    }
}

/// An apply configuration as the clientset names it.
fn apply_configuration_path(r: &ApplyConfigurationRef) -> String {
    format!("crate::applyconfigurations::{}::{}", r.module, r.name)
}
