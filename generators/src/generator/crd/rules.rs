//! The checks of a kind across its versions and of its per-CRD settings: groups, root keys with a
//! status subresource, versions that need a conversion webhook, settings that must agree across
//! versions, the webhook block, and the storage version.

use std::collections::BTreeSet;

use serde_json::{Map, Value, json};

use crate::diag::{Diagnostic, Diagnostics, SourceLoc};
use crate::model::attrs::Located;
use crate::model::tags::{is_dns_label, name as tag};
use crate::model::{Package, Type, Universe};

/// A CRD group must be a DNS subdomain with a dot: the API server rejects `apps` or the core group.
pub(super) fn check_group(pkg: &Package, diags: &mut Diagnostics) -> bool {
    if pkg.group.contains('.') {
        return true;
    }
    diags.push(
        Diagnostic::error(
            &pkg.tag_loc(tag::CRD),
            format!("group `{}` of `{}` cannot be served by a CRD", pkg.group, pkg.path),
        )
        .label("CRD groups need a dot")
        .related(&pkg.tag_loc(tag::GROUP_NAME), "the group")
        .help("custom resources live in a DNS-style group such as `widgets.example.dev` (`+groupName=`)"),
    );
    false
}

/// The keys the API server allows at the root of a schema whose kind has a status subresource
/// (apiextensions validation's `allowedFieldsAtRootSchema`, in their JSON names).
const ROOT_KEYS: &[&str] = &[
    "description",
    "type",
    "format",
    "title",
    "maximum",
    "exclusiveMaximum",
    "minimum",
    "exclusiveMinimum",
    "maxLength",
    "minLength",
    "pattern",
    "maxItems",
    "minItems",
    "uniqueItems",
    "multipleOf",
    "required",
    "items",
    "properties",
    "externalDocs",
    "example",
    "x-kubernetes-preserve-unknown-fields",
    "x-kubernetes-validations",
];

/// With a status subresource, the root schema (the kind's own tags) may only use [`ROOT_KEYS`].
pub(super) fn root_keys(k: &Type, status: &SourceLoc, schema: &Value, diags: &mut Diagnostics) {
    let extra: Vec<&str> = schema
        .as_object()
        .into_iter()
        .flat_map(|m| m.keys())
        .map(String::as_str)
        .filter(|key| !ROOT_KEYS.contains(key))
        .collect();
    if !extra.is_empty() {
        diags.push(
            Diagnostic::error(&k.loc, format!("the schema of `{}` has {} at its root", k.name, extra.join(", ")))
                .label("not allowed at the root with a status subresource")
                .related(status, "the status subresource")
                .help("move the tag to the `spec` field or its type; the API server allows only validations such as CEL rules at the root"),
        );
    }
}

/// Without a conversion webhook the API server converts by changing `apiVersion` and prunes what
/// the target version lacks, so versions whose fields differ would lose data on every read or
/// write through the other version: that needs a webhook, or the same fields everywhere.
pub(super) fn same_fields(versions: &[(&Package, &Type)], out: &[Value], diags: &mut Diagnostics) {
    let shapes: Vec<BTreeSet<String>> = out
        .iter()
        .map(|v| {
            let mut paths = BTreeSet::new();
            field_paths(&v["schema"]["openAPIV3Schema"], "", &mut paths);
            paths
        })
        .collect();
    for (i, shape) in shapes.iter().enumerate().skip(1) {
        if *shape == shapes[0] {
            continue;
        }
        let (a, b) = (versions[0], versions[i]);
        let only = |x: &BTreeSet<String>, y: &BTreeSet<String>| -> Vec<String> {
            x.difference(y).take(3).map(|p| format!("`{p}`")).collect()
        };
        let mut differences = Vec::new();
        for (only_in, list) in [
            (&a.0.version, only(&shapes[0], shape)),
            (&b.0.version, only(shape, &shapes[0])),
        ] {
            if !list.is_empty() {
                differences.push(format!("{} only in {only_in}", list.join(", ")));
            }
        }
        diags.push(
            Diagnostic::error(
                &b.1.loc,
                format!("versions {} and {} of `{}` hold different fields: {}", a.0.version, b.0.version, b.1.name, differences.join("; ")),
            )
            .label("converted by pruning, which loses the difference")
            .related(&a.1.loc, format!("the {} version", a.0.version))
            .help("convert through the hub with `+k8s:crd-gen:webhook=service=<namespace>/<name>` (the group needs an internal version), or give the versions the same fields"),
        );
    }
}

/// Every field path of a schema with its type: `.spec.replicas: integer`, `.spec.ports[].name: string`.
fn field_paths(schema: &Value, path: &str, out: &mut BTreeSet<String>) {
    let ty = schema["type"].as_str().unwrap_or("any");
    if !path.is_empty() {
        out.insert(format!("{path}: {ty}"));
    }
    for (name, sub) in schema["properties"].as_object().into_iter().flatten() {
        field_paths(sub, &format!("{path}.{name}"), out);
    }
    if let Some(items) = schema.get("items") {
        field_paths(items, &format!("{path}[]"), out);
    }
    if let Some(values) = schema.get("additionalProperties").filter(|v| v.is_object()) {
        field_paths(values, &format!("{path}.*"), out);
    }
}

/// Reports a per-CRD setting that differs between two versions of a kind: the values and where
/// each is decided (the tag, or the kind when the tag is absent).
pub(super) fn agree(kind: &str, what: &str, at: (SourceLoc, SourceLoc), (a, b): (&str, &str), diags: &mut Diagnostics) {
    if a != b {
        diags.push(
            Diagnostic::error(
                &at.1,
                format!("versions of `{kind}` disagree on the {what}: `{b}` here, `{a}` there"),
            )
            .label(format!("{what} `{b}`"))
            .related(&at.0, format!("{what} `{a}`"))
            .help(format!("a CRD has one {what} for all its versions; make them the same")),
        );
    }
}

/// A per-CRD tag (short names, categories, webhook): written on any version, the same wherever
/// written; the first one written. `what` names it in messages.
fn shared<'a, T: PartialEq + Shown>(
    versions: &[(&Package, &'a Type)],
    get: fn(&'a Type) -> Option<&'a Located<T>>,
    what: &str,
    diags: &mut Diagnostics,
) -> Option<&'a Located<T>> {
    let mut found: Option<&Located<T>> = None;
    for (_, k) in versions {
        let Some(t) = get(k) else { continue };
        match found {
            Some(first) if first.value != t.value => agree(
                &k.name,
                &format!("`+{what}`"),
                (first.loc.clone(), t.loc.clone()),
                (&first.value.shown(), &t.value.shown()),
                diags,
            ),
            Some(_) => {}
            None => found = Some(t),
        }
    }
    found
}

/// A shared tag's value as written, for messages.
trait Shown {
    fn shown(&self) -> String;
}

impl Shown for Vec<String> {
    fn shown(&self) -> String {
        self.join(",")
    }
}

impl Shown for Vec<(String, String)> {
    fn shown(&self) -> String {
        self.iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(",")
    }
}

/// Short names or categories, from the one shared tag.
pub(super) fn shared_list<'a>(
    versions: &[(&Package, &'a Type)],
    get: fn(&'a Type) -> Option<&'a Located<Vec<String>>>,
    what: &str,
    diags: &mut Diagnostics,
) -> Option<Vec<String>> {
    Some(shared(versions, get, what, diags)?.value.clone())
}

/// `spec.conversion` for `+k8s:crd-gen:webhook=service=<namespace>/<name>[,path=..][,port=..]`:
/// the API server sends ConversionReviews to that service, which answers them through the hub
/// (`runtime::codec::Codec::review`), so the group needs an internal version of the kind.
pub(super) fn conversion(
    universe: &Universe,
    group: &str,
    versions: &[(&Package, &Type)],
    diags: &mut Diagnostics,
) -> Option<Value> {
    let t = shared(
        versions,
        |k: &Type| k.attrs.crd.webhook.as_ref(),
        tag::CRD_WEBHOOK,
        diags,
    )?;
    let kind = &versions[0].1.name;
    let hub = universe
        .packages
        .values()
        .any(|p| p.group == group && p.is_internal() && p.types.contains_key(kind));
    if !hub {
        diags.push(
            Diagnostic::error(
                &t.loc,
                format!("webhook conversion of `{kind}` needs an internal (hub) version of it"),
            )
            .label("nothing to convert through")
            .help(format!(
                "add `{kind}` to the group's internal package and `+k8s:conversion-gen` to its versions"
            )),
        );
        return None;
    }
    let mut service = Map::new();
    let mut problems = Vec::new();
    for (key, value) in t.value.clone() {
        match key.as_str() {
            "service" => match value.split_once('/') {
                Some((ns, name)) if is_dns_label(ns) && is_dns_label(name) => {
                    service.insert("namespace".into(), json!(ns));
                    service.insert("name".into(), json!(name));
                }
                _ => problems.push(format!("service `{value}` is not `<namespace>/<name>`")),
            },
            "port" => match value.parse::<u16>() {
                Ok(p) if p > 0 => {
                    service.insert("port".into(), json!(p));
                }
                _ => problems.push(format!("port `{value}` is not a port number")),
            },
            _ if value.starts_with('/') && !value[1..].split('/').any(str::is_empty) || value == "/" => {
                service.insert("path".into(), json!(value));
            }
            _ => problems.push(format!("path `{value}` is not an absolute path without empty segments")),
        }
    }
    for p in &problems {
        diags.push(
            Diagnostic::error(&t.loc, p.clone())
                .label("invalid webhook service")
                .help("write `service=<namespace>/<name>[,path=/convert][,port=443]`"),
        );
    }
    if !problems.is_empty() {
        return None;
    }
    Some(json!({
        "strategy": "Webhook",
        "webhook": {
            "clientConfig": { "service": service },
            // The review version `runtime::codec::Codec::review` answers.
            "conversionReviewVersions": ["v1"],
        },
    }))
}

/// The one version tagged `+k8s:crd-gen:storageversion`, or the only version.
pub(super) fn storage_version(versions: &[(&Package, &Type)], diags: &mut Diagnostics) -> Option<String> {
    let tagged: Vec<_> = versions
        .iter()
        .filter_map(|(p, k)| Some((p.version.as_str(), k.attrs.crd.storage_version.as_ref()?)))
        .collect();
    // The model decides the version (`model/serving.rs`); a CRD only adds that it must be explicit.
    let decided = || Some(versions.first()?.1.resource()?.storage_version.clone());
    match (tagged.as_slice(), versions) {
        ([_], _) | ([], [_]) => decided(),
        ([], [(_, k), ..]) => {
            let served: Vec<&str> = versions.iter().map(|(p, _)| p.version.as_str()).collect();
            diags.push(
                Diagnostic::error(&k.loc, format!("no version of `{}` is its storage version", k.name))
                    .label(format!("served in {}", served.join(", ")))
                    .help("tag the kind in the version etcd stores with `+k8s:crd-gen:storageversion`"),
            );
            None
        }
        ([(_, first), (_, second), ..], _) => {
            diags.push(
                Diagnostic::error(&second.loc, "a second storage version")
                    .label("`+k8s:crd-gen:storageversion` again")
                    .related(&first.loc, "first storage version")
                    .help("a CRD stores exactly one version; keep one tag"),
            );
            None
        }
        ([], []) => None,
    }
}
