//! informer-gen: shared informers in the generated crate's `informers` module, rendered from
//! `templates/informers/`: `SharedInformerFactory` with an accessor per group and version, per
//! kind whose client can `list` and `watch` (the model decides which) a typed informer over the
//! clientset, and `for_resource` by group, version and resource.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::{Context, CrateGenerator, Templates, crate_root::CrateModule};
use crate::diag::Diagnostics;
use crate::model::Package;

/// The informers generator.
pub struct Informers;

/// The tool name in the files' marker.
const TOOL: &str = "informer-gen";

impl CrateGenerator for Informers {
    fn name(&self) -> &'static str {
        "informers"
    }

    fn tool(&self) -> &'static str {
        TOOL
    }

    fn crate_module(&self) -> Option<CrateModule> {
        Some(CrateModule {
            name: "informers",
            summary: "shared informers",
            reexports: &[],
            dependencies: &["apis", "runtime/client", "kube"],
            features: &[],
        })
    }

    fn generate(&self, cx: &Context<'_>, root: &Path, diags: &mut Diagnostics) -> Vec<(PathBuf, String)> {
        let Some(dir) = cx.crate_module_dir(root, "informers") else {
            return Vec::new();
        };
        let mut templates = Templates::new(cx, TOOL, diags);
        let mut versions = Vec::new();
        let mut groups: BTreeMap<String, GroupCx> = BTreeMap::new();
        for pkg in cx.universe.packages.values().filter(|p| self.applies(p)) {
            let version = version_cx(cx, pkg);
            let vdir = dir.join(&version.module);
            for k in &version.kinds {
                let path = vdir.join(format!("{}.rs", k.module));
                templates.render("informers/informer.rs.tera", k, path, &pkg.mod_file);
            }
            let path = vdir.join("mod.rs");
            templates.render("informers/group.rs.tera", &version, path, &pkg.mod_file);
            let (accessor, group_type) = pkg.informer_group.clone();
            let group = groups.entry(accessor.clone()).or_insert_with(|| GroupCx {
                accessor,
                group_type,
                group_name: if pkg.group.is_empty() {
                    "core".into()
                } else {
                    pkg.group.clone()
                },
                versions: Vec::new(),
            });
            group.versions.push(VersionRef {
                module: version.module.clone(),
                accessor: version.version_accessor.clone(),
                version_type: version.version_type.clone(),
                api_version: version.api_version.clone(),
            });
            versions.push(version);
        }
        if let Some(first) = cx.universe.packages.values().next().filter(|_| !versions.is_empty()) {
            let top = FactoryCx {
                versions,
                groups: groups.into_values().collect(),
            };
            let path = dir.join("mod.rs");
            templates.render("informers/factory.rs.tera", &top, path, &first.mod_file);
        }
        templates.finish()
    }
}

impl Informers {
    /// Whether the package's tags ask for this generator.
    fn applies(&self, pkg: &Package) -> bool {
        !pkg.is_internal()
            && pkg
                .kinds()
                .any(|(t, _)| t.client().is_some_and(|c| c.informer.is_some()))
    }
}

fn version_cx(cx: &Context<'_>, pkg: &Package) -> VersionCx {
    let kinds = pkg
        .kinds()
        .filter_map(|(t, _)| {
            let client = t.client()?;
            let resource = t.resource()?;
            Some(InformerCx {
                kind: t.name.clone(),
                api_version: pkg.api_version.clone(),
                type_path: cx.apis_path(&pkg.path, &t.name),
                module: client.module.clone(),
                accessor: client.accessor.clone(),
                plural: resource.plural.clone(),
                namespaced: resource.namespaced(),
                informer: client.informer.clone()?,
                lister: client.listers.as_ref().map(|(lister, _)| lister.clone()),
                group: pkg.accessor.clone(),
            })
        })
        .collect();
    VersionCx {
        module: pkg.accessor.clone(),
        api_version: pkg.api_version.clone(),
        group: pkg.group.clone(),
        version: pkg.version.as_str().to_string(),
        group_accessor: pkg.informer_group.0.clone(),
        version_accessor: pkg.informer_version.0.clone(),
        version_type: pkg.informer_version.1.clone(),
        kinds,
    }
}

/// The factory: every group-version with informers, and the groups that reach them.
#[derive(Serialize)]
struct FactoryCx {
    versions: Vec<VersionCx>,
    groups: Vec<GroupCx>,
}

/// One group: its accessor on the factory and its versions.
#[derive(Serialize)]
struct GroupCx {
    accessor: String,
    group_type: String,
    /// The group as documentation names it (`core` for the core group).
    group_name: String,
    versions: Vec<VersionRef>,
}

/// A version as its group's accessor reaches it.
#[derive(Serialize)]
struct VersionRef {
    module: String,
    accessor: String,
    version_type: String,
    api_version: String,
}

/// One group-version's informers.
#[derive(Serialize)]
struct VersionCx {
    /// Its module (`apps_v1`), as the clientset's and the listers'.
    module: String,
    api_version: String,
    group: String,
    version: String,
    group_accessor: String,
    version_accessor: String,
    version_type: String,
    kinds: Vec<InformerCx>,
}

/// One kind's informer.
#[derive(Serialize)]
struct InformerCx {
    kind: String,
    api_version: String,
    type_path: String,
    module: String,
    /// The accessor on the group-version's informers and on its clientset client
    /// (`deployments`).
    accessor: String,
    plural: String,
    namespaced: bool,
    informer: String,
    lister: Option<String>,
    /// Its group-version as the clientset's accessor and the listers' module name it, one name
    /// (`apps_v1`).
    group: String,
}
