//! Tag lines as the Rust side reads them: values that name Go packages or types name Rust paths
//! (`+k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object` is
//! `runtime::Object`; `+genclient:method=...,result=k8s.io/api/autoscaling/v1.Scale` names the
//! Rust Scale), kubebuilder's object markers become the deepcopy tags they mean, and a default
//! given as `ref(Constant)` becomes the constant's value.

use super::go::{is_tag_line, tag_name};
use super::resolve::Index;
use crate::diag::{Diagnostic, SourceLoc};

/// The runtime.Object interface, as Go and our tags name it.
const GO_OBJECT: &str = "k8s.io/apimachinery/pkg/runtime.Object";
const RUST_OBJECT: &str = "runtime::Object";

/// Rewrites the tag lines of `lines` (others pass through) for package `import_path`; `loc` is
/// the declaration they document, where an untranslatable value is reported.
pub fn convert(
    index: &Index<'_>,
    import_path: &str,
    lines: &[String],
    loc: &SourceLoc,
) -> Result<Vec<String>, Diagnostic> {
    let mut out = Vec::with_capacity(lines.len());
    for line in lines {
        if !is_tag_line(line) {
            out.push(line.clone());
            continue;
        }
        let lead = &line[..line.len() - line.trim_start().len()];
        let name = tag_name(line);
        let value = line.trim().split_once('=').map(|(_, v)| v);
        let rewritten = match (name, value) {
            ("kubebuilder:object:generate", Some("true")) => Some("+k8s:deepcopy-gen=package".to_string()),
            ("kubebuilder:object:generate", Some("false")) => Some("+k8s:deepcopy-gen=false".to_string()),
            ("kubebuilder:object:root", Some("true")) => Some(format!("+k8s:deepcopy-gen:interfaces={RUST_OBJECT}")),
            ("k8s:deepcopy-gen:interfaces", Some(v)) => {
                let items: Result<Vec<String>, Diagnostic> = v
                    .split(',')
                    .map(|item| type_path(index, import_path, item.trim(), name, loc))
                    .collect();
                Some(format!("+{name}={}", items?.join(",")))
            }
            ("genclient:method", Some(v)) => {
                let mut parts = Vec::new();
                for part in v.split(',') {
                    match part.split_once('=') {
                        Some((k @ ("input" | "result"), t)) if t.contains('/') => {
                            parts.push(format!("{k}={}", type_path(index, import_path, t.trim(), name, loc)?));
                        }
                        _ => parts.push(part.to_string()),
                    }
                }
                Some(format!("+{name}={}", parts.join(",")))
            }
            ("k8s:conversion-gen" | "k8s:conversion-gen-external-types" | "k8s:defaulter-gen-input", Some(v))
                if v.contains('/') =>
            {
                let module = index
                    .rust_module(v.trim())
                    .ok_or_else(|| unmapped(v.trim(), name, loc))?;
                Some(format!("+{name}={module}"))
            }
            // defaulter-gen's `ref(Name)` names a Go constant; its value is the default, and a
            // Rust reader has no Go constant to look up, so the tag carries the value itself.
            ("default", Some(v)) if v.trim().starts_with("ref(") && v.trim().ends_with(')') => {
                let name = v.trim()["ref(".len()..v.trim().len() - 1].trim();
                let value = index
                    .constant(import_path, name, 0)
                    .ok_or_else(|| unresolved_default(name, loc))?;
                Some(format!("+default={}", serde_json::Value::String(value)))
            }
            _ => None,
        };
        match rewritten {
            Some(r) => out.push(format!("{lead}{r}")),
            None => out.push(line.clone()),
        }
    }
    Ok(out)
}

/// The Rust path of a Go `import/path.Type` in a tag value (`Type` alone when it is in the
/// package itself).
fn type_path(index: &Index<'_>, import_path: &str, go: &str, tag: &str, loc: &SourceLoc) -> Result<String, Diagnostic> {
    if go == GO_OBJECT || go == RUST_OBJECT {
        return Ok(RUST_OBJECT.into());
    }
    let slash = go.rfind('/').unwrap_or(0);
    let Some(dot) = go[slash..].rfind('.').map(|d| slash + d) else {
        return Ok(go.to_string());
    };
    let (path, name) = (&go[..dot], &go[dot + 1..]);
    if path == import_path {
        return Ok(name.to_string());
    }
    match index.rust_module(path) {
        Some(module) => Ok(format!("{module}::{name}")),
        None => Err(unmapped(path, tag, loc)),
    }
}

fn unresolved_default(name: &str, loc: &SourceLoc) -> Diagnostic {
    Diagnostic::error(
        loc,
        format!("`+default=ref({name})` names no string constant of this package"),
    )
    .label("in a tag of this declaration")
    .help("name a string constant declared in the package, or write the default as JSON (`+default=\"value\"`)")
}

fn unmapped(path: &str, tag: &str, loc: &SourceLoc) -> Diagnostic {
    Diagnostic::error(
        loc,
        format!("`+{tag}` names Go package `{path}`, which has no Rust path"),
    )
    .label("in a tag of this declaration")
    .help(format!(
        "import `{path}` in the same run, or name its Rust module with `--extern {path}=<rust path>`"
    ))
}
