//! `cargo xtask layers`: the dependency rules of DESIGN.md, checked so that a wrong import is a
//! failed build, not a review comment.
//! - Crates: only the dependency edges in [`ALLOWED`] between this workspace's crates (normal and
//!   build dependencies; tests may use anything).
//! - Modules: each crate's `lib.rs` (or `main.rs`) lists its top-level modules in layers, top to
//!   bottom (a `# Layers` section of numbered lines naming modules in backticks); a module uses
//!   only modules of the layers below its own. Below the top level, sibling modules form no
//!   circle.
//! - Generic crates name no group, kind or resource of the Kubernetes API in a string literal:
//!   what a kind needs comes from its REST mapping or from the crate that serves it.

mod literals;
mod modules;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use modules::{Crate, ModPath, Reference};

/// Every crate whose modules are checked, by package name, with its root file.
pub const CRATES: &[(&str, &str)] = &[
    ("kube-apimachinery", "runtime/src/lib.rs"),
    ("kube-code-generator", "generators/src/lib.rs"),
    ("kube-apiserver-storage", "storage/src/lib.rs"),
    ("kube-generic-apiserver", "apiserver/src/lib.rs"),
    ("kube-apiextensions-apiserver", "apiextensions-apiserver/src/lib.rs"),
    ("kube-apiserver", "kube-apiserver/src/lib.rs"),
    ("kube-sample-apiserver", "sample-apiserver/src/main.rs"),
    ("xtask", "xtask/src/main.rs"),
];

/// The dependency edges allowed between this workspace's crates: (crate, the crates it may
/// depend on). DESIGN.md: storage depends on none of ours but the runtime; the generic server on
/// the runtime and storage; apiextensions on the generic server, never on kube-apiserver;
/// kube-apiserver on all three; binaries and the generated crate on top.
pub const ALLOWED: &[(&str, &[&str])] = &[
    ("kube-apimachinery", &[]),
    ("kube-code-generator", &[]),
    ("kube-apiserver-storage", &["kube-apimachinery"]),
    (
        "kube-generic-apiserver",
        &["kube-apimachinery", "kube-apiserver-storage"],
    ),
    (
        "kube-apiextensions-apiserver",
        &["kube-apimachinery", "kube-apiserver-storage", "kube-generic-apiserver"],
    ),
    (
        "kube-apiserver",
        &[
            "kube-apimachinery",
            "kube-apiserver-storage",
            "kube-generic-apiserver",
            "kube-apiextensions-apiserver",
        ],
    ),
    ("apis", &["kube-apimachinery"]),
    (
        "generated",
        &["apis", "kube-apimachinery", "kube-apiserver", "kube-generic-apiserver"],
    ),
    (
        "kube-sample-apiserver",
        &[
            "apis",
            "generated",
            "kube-apimachinery",
            "kube-apiserver-storage",
            "kube-generic-apiserver",
            "kube-apiextensions-apiserver",
            "kube-apiserver",
        ],
    ),
    ("xtask", &["kube-code-generator"]),
];

/// The crates that may name no Kubernetes group, kind or resource.
pub const GENERIC: &[&str] = &["kube-apiserver-storage", "kube-generic-apiserver"];

/// Runs every check from the workspace root; the problems found, one per line.
pub fn problems(root: &Path) -> Vec<String> {
    let mut problems = Vec::new();
    problems.extend(crate_edges(root));
    for (name, file) in CRATES {
        let path = root.join(file);
        if !path.is_file() {
            problems.push(format!(
                "{file}: the root of crate {name} is missing (xtask/src/layers/mod.rs lists it)"
            ));
            continue;
        }
        let krate = Crate::read(&path);
        problems.extend(krate.errors.iter().cloned());
        problems.extend(layer_problems(&path, &krate));
        problems.extend(circles(&krate).into_iter().map(|c| format!("{name}: {c}")));
        if GENERIC.contains(name) {
            problems.extend(literals::problems(root, &path, &krate));
        }
    }
    problems
}

/// `cargo xtask layers`.
pub fn run(root: &Path) -> std::process::ExitCode {
    let problems = problems(root);
    if problems.is_empty() {
        println!("layers: every crate edge, module layer and literal is as DESIGN.md says");
        return std::process::ExitCode::SUCCESS;
    }
    for p in &problems {
        eprintln!("error: {p}");
    }
    eprintln!("layers: {} problem(s)", problems.len());
    std::process::ExitCode::FAILURE
}

/// The workspace crates each workspace crate depends on (normal and build dependencies), as
/// `cargo metadata` reads the manifests.
fn workspace_edges(root: &Path) -> Result<BTreeMap<String, BTreeSet<String>>, String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let output = std::process::Command::new(&cargo)
        .args(["metadata", "--format-version", "1", "--no-deps", "--offline"])
        .current_dir(root)
        .output()
        .map_err(|e| format!("cannot run cargo metadata: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "cargo metadata failed: {}",
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    let metadata: serde_json::Value =
        serde_json::from_slice(&output.stdout).map_err(|e| format!("cargo metadata's output: {e}"))?;
    let packages = metadata["packages"].as_array().cloned().unwrap_or_default();
    let ours: BTreeSet<String> = packages
        .iter()
        .filter_map(|p| p["name"].as_str().map(str::to_string))
        .collect();
    let mut edges = BTreeMap::new();
    for p in &packages {
        let name = p["name"].as_str().unwrap_or_default().to_string();
        let deps: BTreeSet<String> = p["dependencies"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|d| d["kind"].as_str() != Some("dev"))
            .filter_map(|d| d["name"].as_str())
            .filter(|d| ours.contains(*d))
            .map(str::to_string)
            .collect();
        edges.insert(name, deps);
    }
    Ok(edges)
}

/// Every edge between workspace crates that [`ALLOWED`] does not allow.
fn crate_edges(root: &Path) -> Vec<String> {
    let edges = match workspace_edges(root) {
        Ok(edges) => edges,
        Err(e) => return vec![e],
    };
    let allowed: BTreeMap<&str, &[&str]> = ALLOWED.iter().copied().collect();
    let mut problems = Vec::new();
    for (krate, deps) in &edges {
        // The generator test fixtures are crates of generated code, checked by their own tests.
        if krate.starts_with("fixture-") {
            continue;
        }
        let Some(ok) = allowed.get(krate.as_str()) else {
            problems.push(format!(
                "crate {krate} is not in xtask/src/layers/mod.rs's ALLOWED: say which crates of ours it may depend on"
            ));
            continue;
        };
        for dep in deps.iter().filter(|d| !ok.contains(&d.as_str())) {
            problems.push(format!(
                "crate {krate} depends on {dep}, an edge DESIGN.md does not allow (allowed: {})",
                if ok.is_empty() {
                    "none of ours".to_string()
                } else {
                    ok.join(", ")
                }
            ));
        }
    }
    problems
}

/// The layers `root`'s doc comment declares: each numbered line of its `# Layers` section, the
/// modules it names in backticks.
fn declared_layers(root: &Path) -> Result<Vec<Vec<String>>, String> {
    let text = std::fs::read_to_string(root).map_err(|e| format!("{}: {e}", root.display()))?;
    // Each numbered line, with the lines indented under it, up to the first colon.
    let mut items: Vec<String> = Vec::new();
    let mut inside = false;
    for line in text.lines() {
        let Some(doc) = line.strip_prefix("//!") else {
            if inside {
                break;
            }
            continue;
        };
        let trimmed = doc.trim();
        if trimmed.starts_with('#') {
            inside = trimmed.trim_start_matches('#').trim().eq_ignore_ascii_case("layers");
            continue;
        }
        if !inside {
            continue;
        }
        let numbered = trimmed
            .split_once(". ")
            .is_some_and(|(n, _)| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()));
        if numbered {
            items.push(
                trimmed
                    .split_once(". ")
                    .map(|(_, rest)| rest.to_string())
                    .unwrap_or_default(),
            );
        } else if doc.starts_with("    ")
            && !trimmed.is_empty()
            && let Some(last) = items.last_mut()
        {
            last.push(' ');
            last.push_str(trimmed);
        }
    }
    let layers: Vec<Vec<String>> = items
        .iter()
        .map(|item| {
            // The names before the colon: "[`server`], [`routes`]: what they are".
            let names = item.split(':').next().unwrap_or_default();
            names.split('`').skip(1).step_by(2).map(str::to_string).collect()
        })
        .collect();
    if layers.is_empty() {
        return Err(format!(
            "{}: no `# Layers` section: list the crate's top-level modules top to bottom, one numbered line per layer (`1. [`server`]: ...`)",
            root.display()
        ));
    }
    Ok(layers)
}

/// References from one top-level module to another of a layer above it, and top-level modules
/// the layers leave out.
pub(crate) fn layer_problems(root: &Path, krate: &Crate) -> Vec<String> {
    // A crate of one file (a binary's `main.rs`) has nothing to layer.
    if !krate.modules.iter().any(|m| m.len() == 1) {
        return Vec::new();
    }
    let layers = match declared_layers(root) {
        Ok(layers) => layers,
        Err(e) => return vec![e],
    };
    let level: BTreeMap<&str, usize> = layers
        .iter()
        .enumerate()
        .flat_map(|(i, names)| names.iter().map(move |n| (n.as_str(), i)))
        .collect();
    let mut problems = Vec::new();
    let top: BTreeSet<&str> = krate
        .modules
        .iter()
        .filter(|m| m.len() == 1)
        .map(|m| m[0].as_str())
        .collect();
    for m in &top {
        if !level.contains_key(m) {
            problems.push(format!(
                "{}: module `{m}` is in no layer of the `# Layers` section",
                root.display()
            ));
        }
    }
    for name in level.keys() {
        if !top.contains(name) {
            problems.push(format!(
                "{}: the layers name `{name}`, which is not a module of the crate",
                root.display()
            ));
        }
    }
    let mut seen = BTreeSet::new();
    for r in &krate.references {
        let (Some(from), Some(to)) = (r.from.first(), r.to.first()) else {
            continue;
        };
        if from == to {
            continue;
        }
        let (Some(&a), Some(&b)) = (level.get(from.as_str()), level.get(to.as_str())) else {
            continue;
        };
        if a >= b && seen.insert((from.clone(), to.clone())) {
            let how = if a == b {
                "a module of its own layer"
            } else {
                "a layer above it"
            };
            problems.push(format!(
                "{}: `{}` uses `{}`, {how} (layer {} of {}); move what it needs down, or the user up",
                r.at,
                r.from.join("::"),
                r.to.join("::"),
                b + 1,
                root.display()
            ));
        }
    }
    problems
}

/// Circles among sibling modules below the top level: each as `a -> b -> a` with where one
/// reference of each step is written.
pub(crate) fn circles(krate: &Crate) -> Vec<String> {
    // Edges between siblings: from the child of their common parent on the user's side to the
    // child on the used side.
    let mut graph: BTreeMap<ModPath, BTreeMap<ModPath, &Reference>> = BTreeMap::new();
    for r in &krate.references {
        let common = r.from.iter().zip(&r.to).take_while(|(a, b)| a == b).count();
        // One is the other's ancestor, or the siblings are top-level (the layers judge those).
        if common == r.from.len() || common == r.to.len() || common == 0 {
            continue;
        }
        let a = r.from[..=common].to_vec();
        let b = r.to[..=common].to_vec();
        graph.entry(a).or_default().entry(b).or_insert(r);
    }
    let mut found = Vec::new();
    for component in strongly_connected(&graph) {
        if component.len() < 2 {
            continue;
        }
        let members: BTreeSet<&ModPath> = component.iter().collect();
        let mut steps = Vec::new();
        for from in &component {
            for (to, r) in graph.get(from).into_iter().flatten() {
                if members.contains(to) {
                    steps.push(format!("{} -> {} ({})", from.join("::"), to.join("::"), r.at));
                }
            }
        }
        found.push(format!("an import circle: {}", steps.join("; ")));
    }
    found
}

/// Tarjan's strongly connected components of `graph`.
fn strongly_connected(graph: &BTreeMap<ModPath, BTreeMap<ModPath, &Reference>>) -> Vec<Vec<ModPath>> {
    struct State<'a> {
        graph: &'a BTreeMap<ModPath, BTreeMap<ModPath, &'a Reference>>,
        index: BTreeMap<ModPath, usize>,
        low: BTreeMap<ModPath, usize>,
        stack: Vec<ModPath>,
        on_stack: BTreeSet<ModPath>,
        out: Vec<Vec<ModPath>>,
    }
    fn visit(s: &mut State<'_>, v: &ModPath) {
        let i = s.index.len();
        s.index.insert(v.clone(), i);
        s.low.insert(v.clone(), i);
        s.stack.push(v.clone());
        s.on_stack.insert(v.clone());
        let next: Vec<ModPath> = s.graph.get(v).map(|m| m.keys().cloned().collect()).unwrap_or_default();
        for w in next {
            if !s.index.contains_key(&w) {
                visit(s, &w);
                let low = s.low[v].min(s.low[&w]);
                s.low.insert(v.clone(), low);
            } else if s.on_stack.contains(&w) {
                let low = s.low[v].min(s.index[&w]);
                s.low.insert(v.clone(), low);
            }
        }
        if s.low[v] == s.index[v] {
            let mut component = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack.remove(&w);
                let done = w == *v;
                component.push(w);
                if done {
                    break;
                }
            }
            component.sort();
            s.out.push(component);
        }
    }
    let mut state = State {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in graph.keys() {
        if !state.index.contains_key(v) {
            visit(&mut state, v);
        }
    }
    state.out
}

#[cfg(test)]
mod tests;
