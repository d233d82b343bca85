//! openapi: definitions for every type of the packages tagged `+k8s:openapi-gen=true` (and types
//! tagged `=true`), keyed by model name (`io.k8s.api.apps.v1.Deployment`), written as JSON
//! documents a server can serve: one swagger 2.0 document with every definition, and one
//! OpenAPI 3.0 document per group-version with the schemas it needs. The meta and special types
//! (ObjectMeta, Time, IntOrString, Quantity, ...) come as Kubernetes publishes them, from the
//! definitions vendored under `generators/data/` (`model::known`); the schemas of our types are
//! the model's (`model::schema`).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde_json::{Map, Value, json};

use super::{Context, CrateGenerator};
use crate::diag::{Diagnostic, Diagnostics};
use crate::model::schema::{self, Defaults, Schemas};
use crate::model::{External, Package, known, names};

/// The openapi generator.
pub struct OpenApi;

impl CrateGenerator for OpenApi {
    fn name(&self) -> &'static str {
        "openapi"
    }

    fn tool(&self) -> &'static str {
        "openapi-gen"
    }

    fn crate_module(&self) -> Option<super::crate_root::CrateModule> {
        Some(super::crate_root::CrateModule {
            name: "openapi",
            summary: "the OpenAPI definitions of the API types",
            reexports: &["get_openapi_definitions", "openapi_v3_documents"],
            dependencies: &["runtime"],
            features: &[],
        })
    }

    fn generate(&self, cx: &Context<'_>, root: &Path, diags: &mut Diagnostics) -> Vec<(PathBuf, String)> {
        let c = collect(cx, diags);
        if c.ours.is_empty() {
            return Vec::new();
        }
        let meta = known::openapi_meta_definitions();
        let all_names: BTreeSet<String> = c.ours.keys().cloned().collect();
        let (swagger_defs, missing) = closure(&all_names, &c.ours_v2, meta);
        let (all_defs, _) = closure(&all_names, &c.ours, meta);
        report_missing(missing, &c, diags);
        let mut docs = vec![
            (root.join("swagger.json"), pretty(&swagger(&swagger_defs))),
            (
                root.join("definitions.json"),
                pretty(&json!({ "definitions": all_defs, "x-generated-by": MARKER })),
            ),
        ];
        // The API-rule report is checked in beside the documents, so a new violation shows in
        // review (openapi-gen's --report-filename with kube_codegen's diff).
        let report: String = std::iter::once(format!("# {MARKER}\n"))
            .chain(c.violations.iter().map(|v| format!("{v}\n")))
            .collect();
        docs.push((root.join("api-rule-violations.list"), report));
        let v3 = v3_documents(root, &c, meta);
        let index: Vec<(String, PathBuf)> = v3.iter().map(|(key, path, _)| (key.clone(), path.clone())).collect();
        docs.extend(v3.into_iter().map(|(_, path, doc)| (path, doc)));
        if let (Some(_), Some(crate_dir)) = (cx.crate_name, root.parent()) {
            docs.extend(crate_module(
                crate_dir,
                &root.join("definitions.json"),
                &index,
                &cx.rt(),
                cx.boilerplate,
                diags,
            ));
        }
        docs
    }
}

/// The definitions of every selected type, as openapi-gen's definitions and the v3 documents
/// carry them and as Kubernetes' swagger 2.0 document does, with what is needed to report on them.
#[derive(Default)]
struct Collected {
    /// By model name, with defaults (zero values included).
    ours: BTreeMap<String, Value>,
    /// By model name, without defaults: Kubernetes prunes them from its swagger 2.0 document.
    ours_v2: BTreeMap<String, Value>,
    /// Where each definition's type is.
    locs: BTreeMap<String, crate::diag::SourceLoc>,
    /// The API-rule report's lines.
    violations: BTreeSet<String>,
    /// Types left out, and whether that was already reported as an error.
    excluded: BTreeMap<String, bool>,
    /// The definitions of each (group, version).
    by_gv: BTreeMap<(String, String), BTreeSet<String>>,
}

fn collect(cx: &Context<'_>, diags: &mut Diagnostics) -> Collected {
    let v2 = Schemas {
        universe: cx.universe,
        defaults: Defaults::None,
    };
    let full = Schemas {
        universe: cx.universe,
        defaults: Defaults::TaggedAndZero,
    };
    let mut c = Collected::default();
    for pkg in cx.universe.packages.values().filter(|p| p.has_openapi()) {
        for ty in pkg.types.values() {
            let name = names::model_name(&pkg.model_package, &ty.name);
            // A string enum is inlined where it is used, as openapi-gen inlines string types.
            if ty.string_enum().is_some() {
                continue;
            }
            if !ty.selection.openapi {
                c.excluded.insert(name, false);
                continue;
            }
            if let Some(why) = schema::no_schema(ty) {
                c.excluded.insert(name, true);
                diags.push(
                    Diagnostic::error(&ty.loc, format!("`{}` has no OpenAPI form: {why}", ty.name))
                        .label("cannot be described")
                        .help("opt it out with `+k8s:openapi-gen=false` (and the fields that use it), or change its shape"),
                );
                continue;
            }
            c.violations.extend(rule_violations(pkg, ty));
            c.ours.insert(name.clone(), full.definition(pkg, ty));
            c.ours_v2.insert(name.clone(), v2.definition(pkg, ty));
            c.locs.insert(name.clone(), ty.loc.clone());
            c.by_gv
                .entry((pkg.group.clone(), pkg.version.as_str().to_string()))
                .or_default()
                .insert(name);
        }
    }
    c
}

/// Reports each reference (from, to) that no definition resolves, at the referring type; one to
/// a type whose own error was reported is left out.
fn report_missing(missing: impl IntoIterator<Item = (String, String)>, c: &Collected, diags: &mut Diagnostics) {
    for (from, to) in missing {
        let (Some(loc), reported) = (c.locs.get(&from), c.excluded.get(&to)) else {
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
}

/// One OpenAPI v3 document per group-version: its key (the discovery path, `apis/apps/v1`), its
/// file below `root/v3`, and its text.
fn v3_documents(root: &Path, c: &Collected, meta: &BTreeMap<String, Value>) -> Vec<(String, PathBuf, String)> {
    let mut out = Vec::new();
    for ((group, version), names) in &c.by_gv {
        let (defs, _) = closure(names, &c.ours, meta);
        let (key, file) = if group.is_empty() {
            (format!("api/{version}"), format!("api__{version}_openapi.json"))
        } else {
            (
                format!("apis/{group}/{version}"),
                format!("apis__{group}__{version}_openapi.json"),
            )
        };
        out.push((
            key,
            root.join("v3").join(file),
            pretty(&openapi_v3(group, version, &defs)),
        ));
    }
    out
}

/// openapi-gen's API rules, as report lines `API rule violation: <rule>,<package>,<Type>,<field>`:
/// `list_type_missing` (a list without `+listType`) and `names_match` (a JSON name that does not
/// follow the field's name, see [`names_match`]).
fn rule_violations(pkg: &Package, ty: &crate::model::Type) -> Vec<String> {
    let model = &pkg.model_package;
    let mut out = Vec::new();
    for f in ty
        .fields()
        .iter()
        .filter(|f| !f.skip && !f.flatten && !f.attrs.openapi_opt_out())
    {
        if matches!(f.ty.strip_option(), crate::model::TypeRef::Vec(_)) && f.attrs.list_type.is_none() {
            out.push(format!(
                "API rule violation: list_type_missing,{model},{},{}",
                ty.name, f.name
            ));
        }
        let meta = f.ty.is_external(External::ObjectMeta) || f.ty.is_external(External::ListMeta);
        let ok = if meta {
            f.json_name == "metadata"
        } else {
            names_match(&f.name, &f.json_name)
        };
        if !ok {
            out.push(format!(
                "API rule violation: names_match,{model},{},{}",
                ty.name, f.name
            ));
        }
    }
    out
}

/// kube-openapi's `names_match` for a snake-case Rust field: apart from the capitals of words
/// (acronyms may be all capitals, `hostIP`), the JSON name is the field's name in camelCase,
/// case-sensitively: it starts lower-case, each later word of the Rust name starts upper-case,
/// and there is no `_` or `-` (a keyword's trailing `_`, `type_`, is not part of the name).
fn names_match(field: &str, json: &str) -> bool {
    let field = field.strip_suffix('_').unwrap_or(field);
    let words: Vec<&str> = field.split('_').collect();
    if json.contains(['_', '-']) || words.iter().any(|w| w.is_empty()) {
        return false;
    }
    let compact: String = words.concat();
    if !compact.eq_ignore_ascii_case(json) || json.len() != compact.len() {
        return false;
    }
    let bytes = json.as_bytes();
    let mut at = 0;
    for (i, w) in words.iter().enumerate() {
        let first = bytes[at];
        if (i == 0) == first.is_ascii_uppercase() && first.is_ascii_alphabetic() {
            return false;
        }
        at += w.len();
    }
    true
}

/// The generated crate's `openapi` module, which exposes the documents to Rust:
/// `get_openapi_definitions()`, which reads the swagger document compiled into it, and
/// `openapi_v3_documents()` with the v3 document of each group-version.
fn crate_module(
    dir: &Path,
    definitions: &Path,
    v3: &[(String, PathBuf)],
    rt: &syn::Path,
    boilerplate: &str,
    diags: &mut Diagnostics,
) -> Vec<(PathBuf, String)> {
    let include = crate::relative(&dir.join("src"), definitions);
    let v3 = v3.iter().map(|(key, path)| {
        let file = crate::relative(&dir.join("src"), path);
        quote::quote! { (#key, ::core::include_str!(#file)) }
    });
    let tokens = quote::quote! {
        #![doc = " The OpenAPI documents of the API types, compiled into the crate."]

        /// Every OpenAPI definition of the served API types and of the meta types they use, keyed
        /// by model name (`io.k8s.api.apps.v1.Deployment`), each with the definitions it references,
        /// as openapi-gen's `GetOpenAPIDefinitions` gives them (zero-value defaults included).
        pub fn get_openapi_definitions() -> ::std::collections::BTreeMap<::std::string::String, #rt::openapi::OpenApiDefinition> {
            #rt::openapi::definitions_from_swagger(::core::include_str!(#include))
                .expect("the definitions document generated beside this crate is valid JSON")
        }

        /// The OpenAPI v3 document of each group-version with served kinds, keyed by its path below
        /// `/openapi/v3/` (`apis/apps/v1`, `api/v1`). They hold the schemas (`components`); a server
        /// adds the `paths` of the routes it installs.
        pub fn openapi_v3_documents() -> ::std::collections::BTreeMap<&'static str, &'static str> {
            ::std::collections::BTreeMap::from([#(#v3),*])
        }
    };
    match crate::render::format::render("openapi-gen", boilerplate, tokens) {
        Ok(module) => vec![(dir.join("src").join("openapi.rs"), module)],
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

/// What marks the documents as the generator's own (their `x-generated-by`, the report's first
/// line): a file without it is never overwritten or removed.
const MARKER: &str = "Code generated by openapi-gen. DO NOT EDIT.";

fn swagger(defs: &BTreeMap<String, Value>) -> Value {
    json!({
        "swagger": "2.0",
        "info": { "title": "Kubernetes-style APIs", "version": "unversioned" },
        "paths": {},
        "definitions": defs,
        "x-generated-by": MARKER,
    })
}

/// An OpenAPI 3.0 document for one group-version: the same schemas under `components.schemas`,
/// references rewritten to point there.
fn openapi_v3(group: &str, version: &str, defs: &BTreeMap<String, Value>) -> Value {
    let schemas: Map<String, Value> = defs.iter().map(|(k, v)| (k.clone(), v3_refs(v))).collect();
    let gv = names::api_version(group, version);
    json!({
        "openapi": "3.0.0",
        "info": { "title": format!("Kubernetes-style APIs: {gv}"), "version": "unversioned" },
        "paths": {},
        "components": { "schemas": schemas },
        "x-generated-by": MARKER,
    })
}

/// A schema in OpenAPI 3 form: references point to `components/schemas`, and a reference with
/// siblings (a description, a default), which OpenAPI 3.0 would ignore, is wrapped in `allOf`, as
/// Kubernetes' v3 documents write it. Only schema positions are rewritten: a property may itself be
/// named `$ref` or `allOf` (JSONSchemaProps has both).
fn v3_refs(v: &Value) -> Value {
    let Value::Object(m) = v else { return v.clone() };
    let schemas = |x: &Value| match x {
        Value::Object(props) => Value::Object(props.iter().map(|(k, s)| (k.clone(), v3_refs(s))).collect()),
        other => other.clone(),
    };
    let mut out: Map<String, Value> = m
        .iter()
        .map(|(k, x)| {
            let x = match (k.as_str(), x) {
                ("$ref", Value::String(r)) => json!(r.replace("#/definitions/", "#/components/schemas/")),
                ("properties" | "patternProperties", _) => schemas(x),
                ("items" | "additionalProperties" | "not", _) => v3_refs(x),
                ("allOf" | "anyOf" | "oneOf", Value::Array(a)) => Value::Array(a.iter().map(v3_refs).collect()),
                _ => x.clone(),
            };
            (k.clone(), x)
        })
        .collect();
    if out.len() > 1
        && let Some(r) = out.remove("$ref")
    {
        out.insert("allOf".into(), json!([{ "$ref": r }]));
    }
    Value::Object(out)
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
    fn names_match_is_case_sensitive() {
        for (field, json, ok) in [
            ("host_ip", "hostIP", true),
            ("pod_ips", "podIPs", true),
            ("replicas", "replicas", true),
            ("type_", "type", true),
            ("field", "Field", false),
            ("host_ip", "hostip", false),
            ("spec", "podSpec", false),
            ("x_list_type", "x-list-type", false),
            ("capacity", "Capacity", false),
        ] {
            assert_eq!(names_match(field, json), ok, "{field} / {json}");
        }
    }

    #[test]
    fn vendored_meta_definitions_are_complete() {
        let meta = known::openapi_meta_definitions();
        let names: BTreeSet<String> = meta.keys().cloned().collect();
        let (_, missing) = closure(&names, &BTreeMap::new(), meta);
        assert!(missing.is_empty(), "{missing:?}");
        assert!(meta.contains_key("io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"));
    }
}
