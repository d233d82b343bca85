//! openapi: definitions for every type of the packages tagged `+k8s:openapi-gen=true` (and types
//! tagged `=true`), keyed by model name (`io.k8s.api.apps.v1.Deployment`), written as JSON
//! documents a server can serve: one swagger 2.0 document with every definition, and one
//! OpenAPI 3.0 document per group-version with the schemas it needs. The meta and special types
//! (ObjectMeta, Time, IntOrString, Quantity, ...) come as Kubernetes publishes them, from the
//! definitions vendored under `generators/data/`.

pub mod schema;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use proc_macro2::TokenStream;
use serde_json::{Map, Value, json};

use super::{Context, Generator};
use crate::diag::{Diagnostic, Diagnostics};
use crate::model::Package;
use crate::model::tags::name as tag;
use schema::Schemas;

/// Kubernetes' definitions of the meta and special types, in swagger 2.0 form (see
/// `generators/data/README.md` for their origin).
const META_DEFINITIONS: &str = include_str!("../../../data/k8s-1.37-meta-definitions.json");

/// The openapi generator.
pub struct OpenApi;

impl Generator for OpenApi {
    fn name(&self) -> &'static str {
        "openapi"
    }

    fn tool(&self) -> &'static str {
        "openapi-gen"
    }

    fn activation(&self) -> &'static str {
        "`//! +k8s:openapi-gen=true`, or `+k8s:openapi-gen=true` on a type"
    }

    fn applies(&self, pkg: &Package) -> bool {
        !pkg.is_internal()
            && (pkg.tags.value(tag::OPENAPI) == Some("true")
                || pkg.types.values().any(|t| t.tags.value(tag::OPENAPI) == Some("true")))
    }

    fn per_package(&self) -> bool {
        false
    }

    fn generate_package(&self, _cx: &Context<'_>, _pkg: &Package, _diags: &mut Diagnostics) -> Option<TokenStream> {
        None
    }

    fn generate_documents(&self, cx: &Context<'_>, root: &Path, diags: &mut Diagnostics) -> Vec<(PathBuf, String)> {
        let schemas = Schemas { universe: cx.universe };
        let mut ours: BTreeMap<String, Value> = BTreeMap::new();
        let mut locs = BTreeMap::new();
        let mut violations = BTreeSet::new();
        // Types left out, and whether that was already reported as an error.
        let mut excluded: BTreeMap<String, bool> = BTreeMap::new();
        let mut by_gv: BTreeMap<(String, String), BTreeSet<String>> = BTreeMap::new();
        for pkg in cx.universe.packages.values().filter(|p| self.applies(p)) {
            let package_wide = pkg.tags.value(tag::OPENAPI) == Some("true");
            for ty in pkg.types.values() {
                let wanted = match ty.tags.value(tag::OPENAPI) {
                    Some("false") => false,
                    Some("true") => true,
                    _ => package_wide,
                };
                let name = format!("{}.{}", schema::model_package(pkg), ty.name);
                // A string enum is inlined where it is used, as openapi-gen inlines string types.
                if ty.unit_variants().is_some() && ty.serde {
                    continue;
                }
                if !wanted || ty.generic {
                    excluded.insert(name, false);
                    continue;
                }
                if let Some(why) = no_schema(ty) {
                    excluded.insert(name, true);
                    diags.push(
                        Diagnostic::error(&ty.loc, format!("`{}` has no OpenAPI form: {why}", ty.name))
                            .label("cannot be described")
                            .help("opt it out with `+k8s:openapi-gen=false` (and the fields that use it), or change its shape"),
                    );
                    continue;
                }
                violations.extend(rule_violations(pkg, ty));
                ours.insert(name.clone(), schemas.definition(pkg, ty));
                locs.insert(name.clone(), ty.loc.clone());
                by_gv
                    .entry((pkg.group.clone(), pkg.version.clone()))
                    .or_default()
                    .insert(name);
            }
        }
        if ours.is_empty() {
            return Vec::new();
        }
        let meta = meta_definitions();
        let all_names: BTreeSet<String> = ours.keys().cloned().collect();
        let (swagger_defs, missing) = closure(&all_names, &ours, meta);
        for (from, to) in missing {
            let (Some(loc), reported) = (locs.get(&from), excluded.get(&to)) else {
                continue;
            };
            let diag = match reported {
                Some(true) => continue,
                Some(false) => Diagnostic::error(
                    loc,
                    format!("definition `{from}` refers to `{to}`, which is opted out of OpenAPI"),
                )
                .label("unresolved OpenAPI reference")
                .help("opt the fields that use it out too (`+k8s:openapi-gen=false`)"),
                None => Diagnostic::error(
                    loc,
                    format!("definition `{from}` refers to `{to}`, which no package defines"),
                )
                .label("unresolved OpenAPI reference")
                .help(format!("tag the package of `{to}` with `+k8s:openapi-gen=true`")),
            };
            diags.push(diag);
        }
        let mut docs = vec![(root.join("swagger.json"), pretty(&swagger(&swagger_defs)))];
        // The API-rule report is checked in beside the documents, so a new violation shows in
        // review (openapi-gen's --report-filename with kube_codegen's diff).
        let report: String = violations.iter().map(|v| format!("{v}\n")).collect();
        docs.push((root.join("api-rule-violations.list"), report));
        if let (Some(name), Some(crate_dir)) = (cx.crate_name, root.parent()) {
            docs.extend(crate_files(
                name,
                crate_dir,
                &root.join("swagger.json"),
                cx.boilerplate,
                diags,
            ));
        }
        for ((group, version), names) in &by_gv {
            let (defs, _) = closure(names, &ours, meta);
            let file = if group.is_empty() {
                format!("api__{version}_openapi.json")
            } else {
                format!("apis__{group}__{version}_openapi.json")
            };
            docs.push((root.join("v3").join(file), pretty(&openapi_v3(group, version, &defs))));
        }
        docs
    }
}

/// Kubernetes' definitions of the meta and special types, by model name, parsed once per process
/// (the OpenAPI and CRD generators and every `+default` check read them).
pub fn meta_definitions() -> &'static BTreeMap<String, Value> {
    static META: std::sync::LazyLock<BTreeMap<String, Value>> = std::sync::LazyLock::new(|| {
        match serde_json::from_str(META_DEFINITIONS) {
            Ok(m) => m,
            // The file is compiled in and checked by a unit test: not user input.
            Err(e) => panic!("the vendored meta definitions are not valid JSON: {e}"),
        }
    });
    &META
}

/// openapi-gen's API rules, as report lines `API rule violation: <rule>,<package>,<Type>,<field>`:
/// `list_type_missing` (a list without `+listType`) and `names_match` (a JSON name that is not the
/// field name in another case: Kubernetes' JSON names follow the field names).
fn rule_violations(pkg: &Package, ty: &crate::model::Type) -> Vec<String> {
    let model = schema::model_package(pkg);
    let mut out = Vec::new();
    for f in ty
        .fields()
        .iter()
        .filter(|f| !f.skip && !f.flatten && f.tags.value(tag::OPENAPI) != Some("false"))
    {
        if matches!(f.ty.strip_option(), crate::model::TypeRef::Vec(_)) && !f.tags.has(tag::LIST_TYPE) {
            out.push(format!(
                "API rule violation: list_type_missing,{model},{},{}",
                ty.name, f.name
            ));
        }
        let simple = |s: &str| {
            s.chars()
                .filter(char::is_ascii_alphanumeric)
                .collect::<String>()
                .to_ascii_lowercase()
        };
        if !f.json_name.is_empty() && simple(&f.json_name) != simple(&f.name) {
            out.push(format!(
                "API rule violation: names_match,{model},{},{}",
                ty.name, f.name
            ));
        }
    }
    out
}

/// Why a type cannot be described, if it cannot: enums with data (Kubernetes has no such JSON
/// form) and tuple structs of several fields.
pub fn no_schema(ty: &crate::model::Type) -> Option<&'static str> {
    match &ty.shape {
        crate::model::Shape::Enum { variants } if variants.iter().any(|v| !v.fields.is_empty()) => {
            Some("an enum with data variants")
        }
        crate::model::Shape::Struct { fields, tuple: true } if fields.len() != 1 => {
            Some("a tuple struct of several fields")
        }
        _ => None,
    }
}

/// The crate that exposes the documents to Rust: `Cargo.toml` and `src/lib.rs` with
/// `get_openapi_definitions()`, which reads the swagger document compiled into it.
fn crate_files(
    name: &str,
    dir: &Path,
    swagger: &Path,
    boilerplate: &str,
    diags: &mut Diagnostics,
) -> Vec<(PathBuf, String)> {
    let manifest = format!(
        "# Code generated by openapi-gen. DO NOT EDIT.\n\n[package]\nname = \"{name}\"\nversion = \"0.1.0\"\n\
         description = \"Cross-package outputs of the generators: the OpenAPI definitions of the API types.\"\n\
         edition.workspace = true\npublish = false\n\n[dependencies]\nruntime.workspace = true\n"
    );
    let include = crate::relative(&dir.join("src"), swagger);
    let tokens = quote::quote! {
        #![doc = " Cross-package outputs of the generators: the OpenAPI definitions of the API types."]
        #![deny(missing_docs)]
        // prettyplease formats this file identically on every machine; cargo fmt leaves it be.
        #![cfg_attr(rustfmt, rustfmt::skip)]

        /// Every OpenAPI definition of the served API types and of the meta types they use, keyed
        /// by model name (`io.k8s.api.apps.v1.Deployment`), each with the definitions it references.
        pub fn get_openapi_definitions() -> ::std::collections::BTreeMap<::std::string::String, ::runtime::openapi::OpenApiDefinition> {
            ::runtime::openapi::definitions_from_swagger(::core::include_str!(#include))
                .expect("the swagger document generated beside this crate is valid JSON")
        }
    };
    match crate::render::format::render("openapi-gen", boilerplate, tokens) {
        Ok(lib) => vec![
            (dir.join("Cargo.toml"), manifest),
            (dir.join("src").join("lib.rs"), lib),
        ],
        Err(e) => {
            let loc = crate::diag::SourceLoc {
                file: "generated".into(),
                line: 1,
                col: 1,
                len: 1,
            };
            diags.push(Diagnostic::error(&loc, e));
            Vec::new()
        }
    }
}

/// `names` and every definition they reference, transitively; and the references nothing defines.
fn closure(
    names: &BTreeSet<String>,
    ours: &BTreeMap<String, Value>,
    meta: &BTreeMap<String, Value>,
) -> (BTreeMap<String, Value>, Vec<(String, String)>) {
    let mut out = BTreeMap::new();
    let mut missing = Vec::new();
    let mut queue: Vec<String> = names.iter().cloned().collect();
    while let Some(name) = queue.pop() {
        if out.contains_key(&name) {
            continue;
        }
        let Some(def) = ours.get(&name).or_else(|| meta.get(&name)) else {
            continue;
        };
        let mut refs = BTreeSet::new();
        collect_refs(def, &mut refs);
        for r in refs {
            if ours.contains_key(&r) || meta.contains_key(&r) {
                queue.push(r);
            } else {
                missing.push((name.clone(), r));
            }
        }
        out.insert(name, def.clone());
    }
    (out, missing)
}

fn collect_refs(v: &Value, refs: &mut BTreeSet<String>) {
    match v {
        Value::Object(m) => {
            if let Some(Value::String(r)) = m.get("$ref") {
                refs.insert(r.trim_start_matches("#/definitions/").to_string());
            }
            m.values().for_each(|x| collect_refs(x, refs));
        }
        Value::Array(a) => a.iter().for_each(|x| collect_refs(x, refs)),
        _ => {}
    }
}

fn swagger(defs: &BTreeMap<String, Value>) -> Value {
    json!({
        "swagger": "2.0",
        "info": { "title": "Kubernetes-style APIs", "version": "unversioned" },
        "paths": {},
        "definitions": defs,
    })
}

/// An OpenAPI 3.0 document for one group-version: the same schemas under `components.schemas`,
/// references rewritten to point there.
fn openapi_v3(group: &str, version: &str, defs: &BTreeMap<String, Value>) -> Value {
    let schemas: Map<String, Value> = defs.iter().map(|(k, v)| (k.clone(), v3_refs(v))).collect();
    let gv = if group.is_empty() {
        version.to_string()
    } else {
        format!("{group}/{version}")
    };
    json!({
        "openapi": "3.0.0",
        "info": { "title": format!("Kubernetes-style APIs: {gv}"), "version": "unversioned" },
        "paths": {},
        "components": { "schemas": schemas },
    })
}

fn v3_refs(v: &Value) -> Value {
    match v {
        Value::Object(m) => Value::Object(
            m.iter()
                .map(|(k, x)| match (k.as_str(), x) {
                    ("$ref", Value::String(r)) => {
                        (k.clone(), json!(r.replace("#/definitions/", "#/components/schemas/")))
                    }
                    _ => (k.clone(), v3_refs(x)),
                })
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.iter().map(v3_refs).collect()),
        other => other.clone(),
    }
}

fn pretty(v: &Value) -> String {
    let mut s = serde_json::to_string_pretty(v).unwrap_or_default();
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vendored_meta_definitions_are_complete() {
        let meta: BTreeMap<String, Value> = serde_json::from_str(META_DEFINITIONS).unwrap();
        let names: BTreeSet<String> = meta.keys().cloned().collect();
        let (_, missing) = closure(&names, &BTreeMap::new(), &meta);
        assert!(missing.is_empty(), "{missing:?}");
        assert!(meta.contains_key("io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"));
    }
}
