//! applyconfiguration-gen: the generated crate's `applyconfigurations` module, rendered from
//! `templates/applyconfigurations/`: per package a module with an all-optional builder for every
//! type the model gave one (`Type::apply_configuration`), constructors that set apiVersion and kind for the
//! client kinds, and extractors that rebuild a manager's configuration from managedFields.

use std::path::{Path, PathBuf};

use serde::Serialize;

use super::{Context, CrateGenerator, Templates, crate_root::CrateModule};
use crate::diag::Diagnostics;
use crate::model::attrs::{ListType, MapType};
use crate::model::{External, Field, Package, Type, TypeRef, Universe, names};

/// The apply configuration generator.
pub struct ApplyConfigurations;

const TOOL: &str = "applyconfiguration-gen";

impl CrateGenerator for ApplyConfigurations {
    fn name(&self) -> &'static str {
        "applyconfigurations"
    }

    fn tool(&self) -> &'static str {
        TOOL
    }

    fn crate_module(&self) -> Option<CrateModule> {
        Some(CrateModule {
            name: "applyconfigurations",
            summary: "apply configurations",
            reexports: &[],
            dependencies: &["apis", "runtime/client", "k8s-openapi", "serde", "serde_json"],
            features: &[],
        })
    }

    fn generate(&self, cx: &Context<'_>, root: &Path, diags: &mut Diagnostics) -> Vec<(PathBuf, String)> {
        let Some(dir) = cx.crate_module_dir(root, "applyconfigurations") else {
            return Vec::new();
        };
        let mut templates = Templates::new(cx, TOOL, diags);
        let mut modules = Vec::new();
        for pkg in cx.universe.packages.values().filter(|p| self.applies(p)) {
            let context = PackageCx {
                api_version: pkg.api_version.clone(),
                module: pkg.accessor.clone(),
                types: pkg
                    .types
                    .values()
                    .filter(|t| t.apply_configuration.is_some())
                    .map(|t| type_cx(cx, pkg, t))
                    .collect(),
            };
            let path = dir.join(format!("{}.rs", context.module));
            templates.render("applyconfigurations/package.rs.tera", &context, path, &pkg.mod_file);
            modules.push(ModuleCx {
                module: context.module,
                api_version: context.api_version,
            });
        }
        if let Some(first) = cx.universe.packages.values().next().filter(|_| !modules.is_empty()) {
            let context = TopCx { modules };
            let path = dir.join("mod.rs");
            templates.render("applyconfigurations/mod.rs.tera", &context, path, &first.mod_file);
        }
        templates.finish()
    }
}

impl ApplyConfigurations {
    /// Whether the package's tags ask for this generator.
    fn applies(&self, pkg: &Package) -> bool {
        pkg.types.values().any(|t| t.apply_configuration.is_some())
    }
}

#[derive(Serialize)]
struct TopCx {
    modules: Vec<ModuleCx>,
}

#[derive(Serialize)]
struct ModuleCx {
    module: String,
    api_version: String,
}

/// One package's apply configurations.
#[derive(Serialize)]
struct PackageCx {
    api_version: String,
    module: String,
    types: Vec<TypeCx>,
}

/// One type's apply configuration.
#[derive(Serialize)]
struct TypeCx {
    name: String,
    config: String,
    source: String,
    /// apiVersion and kind fields (the type flattens TypeMeta).
    type_meta: bool,
    root: Option<RootCx>,
    fields: Vec<FieldCx>,
}

/// What a client kind's configuration adds: its constructor, extractors and metadata setters.
#[derive(Serialize)]
struct RootCx {
    constructor: String,
    extractor: String,
    kind: String,
    namespaced: bool,
    metadata: String,
    /// The metadata setters no field setter shadows.
    metadata_setters: Vec<&'static str>,
    /// Whether the configuration has fields besides metadata, which its constructor leaves unset.
    more_fields: bool,
}

/// One field.
#[derive(Serialize)]
struct FieldCx {
    name: String,
    json: String,
    setter: String,
    /// `value`, `string`, `list`, `map` or `flatten`.
    shape: &'static str,
    /// The field's type inside its `Option`.
    ty: String,
    /// A list's item type, a map's value type.
    item: String,
    /// A map's key type.
    key: String,
    /// How applying merges it, for lists and maps.
    merge: Option<String>,
}

const METADATA_SETTERS: [&str; 6] = [
    "with_name",
    "with_namespace",
    "with_labels",
    "with_annotations",
    "with_finalizers",
    "with_owner_references",
];

fn type_cx(cx: &Context<'_>, pkg: &Package, t: &Type) -> TypeCx {
    let wire: Vec<&Field> = t.fields().iter().filter(|f| !f.skip).collect();
    let type_meta = wire
        .iter()
        .any(|f| f.flatten && f.ty.strip_option().is_external(External::TypeMeta));
    let fields: Vec<FieldCx> = wire
        .iter()
        .filter(|f| !(f.flatten && f.ty.strip_option().is_external(External::TypeMeta)))
        .map(|f| field_cx(cx, f))
        .collect();
    let root = t.kind.as_ref().and_then(|k| {
        t.client()?;
        let r = t.resource()?;
        let metadata = k.object_meta.clone()?;
        Some(RootCx {
            constructor: names::apply_constructor(&t.name),
            extractor: names::apply_extractor(&t.name),
            kind: t.name.clone(),
            namespaced: r.namespaced(),
            metadata,
            metadata_setters: METADATA_SETTERS
                .into_iter()
                .filter(|s| r.namespaced() || *s != "with_namespace")
                .filter(|s| !fields.iter().any(|f| f.setter == *s))
                .collect(),
            more_fields: fields.len() > 1,
        })
    });
    TypeCx {
        name: t.name.clone(),
        config: t.apply_configuration.clone().unwrap_or_default(),
        source: cx.apis_path(&pkg.path, &t.name),
        type_meta,
        root,
        fields,
    }
}

fn field_cx(cx: &Context<'_>, f: &Field) -> FieldCx {
    let u = cx.universe;
    let inner = f.ty.strip_option();
    let (shape, item, key) = match inner {
        _ if f.flatten => ("flatten", String::new(), String::new()),
        TypeRef::String => ("string", String::new(), String::new()),
        TypeRef::Vec(i) => ("list", rust_type(cx, u, i), String::new()),
        TypeRef::Map { key, value, .. } => ("map", rust_type(cx, u, value), rust_type(cx, u, key)),
        _ => ("value", String::new(), String::new()),
    };
    let merge = match inner {
        TypeRef::Vec(_) => Some(match (f.attrs.list_type, f.attrs.list_map_keys.as_slice()) {
            (Some(ListType::Map), keys) if !keys.is_empty() => {
                let keys: Vec<String> = keys.iter().map(|k| format!("`{k}`")).collect();
                format!(
                    "A list-map keyed by {}: applying sets the items with these keys and leaves the others to their managers.",
                    keys.join(", ")
                )
            }
            (Some(ListType::Set), _) => {
                "A set: applying adds these values and leaves the others to their managers.".into()
            }
            _ => "Atomic: applying replaces the whole list.".into(),
        }),
        TypeRef::Map { .. } => Some(match f.attrs.map_type {
            Some(MapType::Atomic) => "Atomic: applying replaces the whole map.".into(),
            _ => "Merged key by key: applying sets these keys and leaves the others to their managers.".into(),
        }),
        _ => None,
    };
    FieldCx {
        name: names::ident(&f.name).to_string(),
        json: f.json_name.clone(),
        setter: names::apply_setter(&f.name),
        shape,
        ty: rust_type(cx, u, inner),
        item,
        key,
        merge,
    }
}

/// A field type in an apply configuration: named types with a configuration of their own are
/// replaced by it, the rest is the type itself.
fn rust_type(cx: &Context<'_>, u: &Universe, t: &TypeRef) -> String {
    cx.rust_type(t, &|id| match (
        u.get(id).and_then(|t| t.apply_configuration.as_deref()),
        u.packages.get(&id.package),
    ) {
        (Some(config), Some(p)) => format!("super::{}::{config}", p.accessor),
        _ => cx.apis_path(&id.package, &id.name),
    })
}
