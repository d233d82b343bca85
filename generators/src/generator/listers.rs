//! lister-gen: typed listers in the generated crate's `listers` module, rendered from
//! `templates/listers/`: per kind whose client can `list` and `get` (the model decides which),
//! a lister over an informer's cache, with a namespace lister for namespaced kinds.

use std::path::{Path, PathBuf};

use serde::Serialize;

use super::{Context, CrateGenerator, Templates, crate_root::CrateModule};
use crate::diag::Diagnostics;
use crate::model::Package;

/// The listers generator.
pub struct Listers;

/// The tool name in the files' marker.
const TOOL: &str = "lister-gen";

impl CrateGenerator for Listers {
    fn name(&self) -> &'static str {
        "listers"
    }

    fn tool(&self) -> &'static str {
        TOOL
    }

    fn crate_module(&self) -> Option<CrateModule> {
        Some(CrateModule {
            name: "listers",
            summary: "listers",
            reexports: &[],
            dependencies: &["apis", "runtime/client", "kube"],
            features: &[],
        })
    }

    fn generate(&self, cx: &Context<'_>, root: &Path, diags: &mut Diagnostics) -> Vec<(PathBuf, String)> {
        let Some(dir) = cx.crate_module_dir(root, "listers") else {
            return Vec::new();
        };
        let mut templates = Templates::new(cx, TOOL, diags);
        let mut groups = Vec::new();
        for pkg in cx.universe.packages.values().filter(|p| self.applies(p)) {
            let kinds: Vec<ListerCx> = pkg
                .kinds()
                .filter_map(|(t, _)| {
                    let client = t.client()?;
                    let (lister, namespace_lister) = client.listers.clone()?;
                    Some(ListerCx {
                        kind: t.name.clone(),
                        api_version: pkg.api_version.clone(),
                        type_path: cx.apis_path(&pkg.path, &t.name),
                        module: client.module.clone(),
                        accessor: client.accessor.clone(),
                        namespaced: t.resource().is_some_and(|r| r.namespaced()),
                        lister,
                        namespace_lister,
                    })
                })
                .collect();
            let group = GroupCx {
                module: pkg.accessor.clone(),
                api_version: pkg.api_version.clone(),
                kinds,
            };
            let gdir = dir.join(&group.module);
            for k in &group.kinds {
                let path = gdir.join(format!("{}.rs", k.module));
                templates.render("listers/lister.rs.tera", k, path, &pkg.mod_file);
            }
            let path = gdir.join("mod.rs");
            templates.render("listers/group.rs.tera", &group, path, &pkg.mod_file);
            groups.push(group);
        }
        if let Some(first) = cx.universe.packages.values().next().filter(|_| !groups.is_empty()) {
            let path = dir.join("mod.rs");
            let top = ListersCx { groups };
            templates.render("listers/listers.rs.tera", &top, path, &first.mod_file);
        }
        templates.finish()
    }
}

impl Listers {
    /// Whether the package's tags ask for this generator.
    fn applies(&self, pkg: &Package) -> bool {
        !pkg.is_internal()
            && pkg
                .kinds()
                .any(|(t, _)| t.client().is_some_and(|c| c.listers.is_some()))
    }
}

/// The listers' root: its group-versions in module-path order.
#[derive(Serialize)]
struct ListersCx {
    groups: Vec<GroupCx>,
}

/// One group-version's listers.
#[derive(Serialize)]
struct GroupCx {
    module: String,
    api_version: String,
    kinds: Vec<ListerCx>,
}

/// One kind's lister.
#[derive(Serialize)]
struct ListerCx {
    kind: String,
    api_version: String,
    type_path: String,
    module: String,
    /// The namespace lister's accessor: the clientset's (`deployments`).
    accessor: String,
    namespaced: bool,
    lister: String,
    namespace_lister: String,
}
