//! The generic crates' string literals against the names of the Kubernetes API: the groups
//! kube-apiserver serves, and the kinds (with the resource Kubernetes guesses for each) of the
//! OpenAPI document this repository generates. A generic crate reads what a kind needs from its
//! REST mapping or is told it by the crate that serves the kind; a literal naming one is policy
//! in the wrong crate.

use std::collections::BTreeSet;
use std::path::Path;

use syn::visit::Visit;

use super::modules::Crate;

/// The groups kube-apiserver 1.36 serves (core's is the empty name, which no check can tell
/// from an empty string).
const GROUPS: &[&str] = &[
    "admissionregistration.k8s.io",
    "apiextensions.k8s.io",
    "apiregistration.k8s.io",
    "apps",
    "authentication.k8s.io",
    "authorization.k8s.io",
    "autoscaling",
    "batch",
    "certificates.k8s.io",
    "coordination.k8s.io",
    "discovery.k8s.io",
    "events.k8s.io",
    "flowcontrol.apiserver.k8s.io",
    "internal.apiserver.k8s.io",
    "networking.k8s.io",
    "node.k8s.io",
    "policy",
    "rbac.authorization.k8s.io",
    "resource.k8s.io",
    "scheduling.k8s.io",
    "storage.k8s.io",
    "storagemigration.k8s.io",
];

/// Literals a generic crate may write although a served kind bears the same name, each with why:
/// k8s.io/apiserver's own kinds and the names its filters are specified with.
const ALLOWED: &[(&str, &str, &str)] = &[
    (
        "audit",
        "Event",
        "audit.k8s.io/v1 Event is k8s.io/apiserver's own kind, written by its audit backend",
    ),
    (
        "request",
        "namespaces",
        "the `/namespaces/{namespace}/` segment of every namespaced path, which RequestInfoFactory reads",
    ),
    (
        "endpoints::filters::impersonation",
        "serviceaccounts",
        "impersonating a service account is authorized on `serviceaccounts`, as k8s.io/apiserver's filter asks",
    ),
    (
        "endpoints::filters::impersonation",
        "authentication.k8s.io",
        "impersonated uids and extras are authorized in `authentication.k8s.io`, as k8s.io/apiserver's filter asks",
    ),
    (
        "endpoints::delete",
        "List",
        "apimachinery's untyped `List` (which core/v1 also declares), what k8s.io/apiserver answers a deletecollection of a resource without a list kind with",
    ),
    (
        "endpoints::discovery",
        "APIGroupDiscoveryList",
        "aggregated discovery's document, which k8s.io/apiserver's discovery endpoint writes (apidiscovery.k8s.io is imported with k8s.io/api)",
    ),
];

/// The names no generic crate may write in a literal.
fn forbidden(root: &Path) -> Result<BTreeSet<String>, String> {
    let mut names: BTreeSet<String> = GROUPS.iter().map(|g| g.to_string()).collect();
    let swagger = root.join("generated/openapi/swagger.json");
    let text = std::fs::read_to_string(&swagger).map_err(|e| format!("{}: {e}", swagger.display()))?;
    let doc: serde_json::Value = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", swagger.display()))?;
    for (name, schema) in doc["definitions"].as_object().into_iter().flatten() {
        // apimachinery's meta kinds (Status, WatchEvent, DeleteOptions) are the generic
        // server's own.
        if name.starts_with("io.k8s.apimachinery.") {
            continue;
        }
        for gvk in schema["x-kubernetes-group-version-kind"]
            .as_array()
            .into_iter()
            .flatten()
        {
            if let Some(group) = gvk["group"].as_str().filter(|g| !g.is_empty()) {
                names.insert(group.to_string());
            }
            if let Some(kind) = gvk["kind"].as_str() {
                names.insert(kind.to_string());
                names.insert(guess_resource(kind));
            }
        }
    }
    Ok(names)
}

/// The plural Kubernetes guesses for a kind (apimachinery's `UnsafeGuessKindToResource`).
fn guess_resource(kind: &str) -> String {
    let lower = kind.to_ascii_lowercase();
    if lower.ends_with('s') || lower.ends_with("ch") || lower.ends_with("sh") || lower.ends_with('x') {
        return format!("{lower}es");
    }
    if let Some(stem) = lower.strip_suffix('y')
        && !stem.ends_with(['a', 'e', 'i', 'o', 'u'])
    {
        return format!("{stem}ies");
    }
    format!("{lower}s")
}

/// Every literal of the crate rooted at `crate_root` that names a group, kind or resource.
pub fn problems(root: &Path, crate_root: &Path, krate: &Crate) -> Vec<String> {
    let names = match forbidden(root) {
        Ok(names) => names,
        Err(e) => return vec![e],
    };
    let dir = crate_root.parent().unwrap_or(Path::new("."));
    let mut problems = Vec::new();
    for file in files(krate, dir) {
        let Ok(text) = std::fs::read_to_string(&file) else {
            continue;
        };
        let Ok(parsed) = syn::parse_file(&text) else { continue };
        let module = file
            .strip_prefix(dir)
            .unwrap_or(&file)
            .with_extension("")
            .to_string_lossy()
            .replace(std::path::MAIN_SEPARATOR, "::");
        let mut finder = Finder::default();
        finder.visit_file(&parsed);
        for (literal, line) in finder.found {
            if !names.contains(&literal) {
                continue;
            }
            let allowed = ALLOWED
                .iter()
                .any(|(m, l, _)| *l == literal && (module == *m || module.starts_with(&format!("{m}::"))));
            if !allowed {
                problems.push(format!(
                    "{}:{line}: {literal:?} names a Kubernetes group, kind or resource in a generic crate; take it from the REST mapping or move the policy to the crate that serves the kind",
                    file.display()
                ));
            }
        }
    }
    problems
}

/// The source files of `krate`'s modules (test modules are not modules of it).
fn files(krate: &Crate, dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for entry in walk(dir) {
        let rel = entry.strip_prefix(dir).unwrap_or(&entry).with_extension("");
        let mut module: Vec<String> = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        if module.last().is_some_and(|m| m == "mod" || m == "lib" || m == "main") {
            module.pop();
        }
        if krate.modules.contains(&module) {
            out.push(entry);
        }
    }
    out.sort();
    out
}

fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(walk(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    out
}

/// The string literals of a file outside `#[cfg(test)]` items.
#[derive(Default)]
struct Finder {
    found: Vec<(String, usize)>,
}

impl<'ast> Visit<'ast> for Finder {
    fn visit_lit_str(&mut self, lit: &'ast syn::LitStr) {
        self.found.push((lit.value(), lit.span().start().line));
    }

    fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
        if !is_test(&m.attrs) {
            syn::visit::visit_item_mod(self, m);
        }
    }

    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        if !is_test(&f.attrs) {
            syn::visit::visit_item_fn(self, f);
        }
    }

    fn visit_attribute(&mut self, _: &'ast syn::Attribute) {
        // Docs and attributes are not code.
    }

    fn visit_macro(&mut self, m: &'ast syn::Macro) {
        // Literals inside macros (`format!`, `json!`) count too: parse their tokens as
        // expressions where they are.
        if let Ok(args) = m.parse_body_with(syn::punctuated::Punctuated::<syn::Expr, syn::Token![,]>::parse_terminated)
        {
            for arg in &args {
                self.visit_expr(arg);
            }
        } else {
            self.tokens(m.tokens.clone());
        }
    }
}

impl Finder {
    /// The string literals among `tokens`, at any depth (`json!({"kind": "Scale"})`).
    fn tokens(&mut self, tokens: proc_macro2::TokenStream) {
        for token in tokens {
            match token {
                proc_macro2::TokenTree::Literal(l) => {
                    if let Ok(s) = syn::parse_str::<syn::LitStr>(&l.to_string()) {
                        self.found.push((s.value(), l.span().start().line));
                    }
                }
                proc_macro2::TokenTree::Group(g) => self.tokens(g.stream()),
                _ => {}
            }
        }
    }
}

fn is_test(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("test")
            || (a.path().is_ident("cfg") && a.parse_args::<syn::Ident>().is_ok_and(|i| i == "test"))
    })
}
