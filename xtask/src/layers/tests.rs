//! The layers check on small crates written for it, and on this workspace.

use std::path::{Path, PathBuf};

use super::modules::Crate;
use super::{circles, layer_problems};

/// A crate of `files` (path below `src/`, text) in a fresh directory; its root file's path.
fn krate(name: &str, files: &[(&str, &str)]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("xtask-layers-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for (path, text) in files {
        let file = dir.join("src").join(path);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(file, text).unwrap();
    }
    dir.join("src/lib.rs")
}

fn check(root: &Path) -> Vec<String> {
    let krate = Crate::read(root);
    assert!(krate.errors.is_empty(), "{:?}", krate.errors);
    let mut problems = layer_problems(root, &krate);
    problems.extend(circles(&krate));
    problems
}

const LAYERED: &str = "//! A crate.\n//!\n//! # Layers\n//!\n//! 1. [`top`]: uses the rest.\n//! 2. [`bottom`], [`side`]: leaves.\n\npub mod bottom;\npub mod side;\npub mod top;\npub use bottom::Leaf;\n";

#[test]
fn imports_down_the_layers_pass() {
    let root = krate(
        "down",
        &[
            ("lib.rs", LAYERED),
            (
                "top.rs",
                "use crate::bottom::Leaf;\npub fn f(_: Leaf, _: crate::side::S) {}\n",
            ),
            ("bottom.rs", "pub struct Leaf;\n"),
            ("side.rs", "pub struct S;\n"),
        ],
    );
    assert_eq!(check(&root), Vec::<String>::new());
}

#[test]
fn an_import_up_or_across_a_layer_is_reported_with_its_line() {
    let root = krate(
        "up",
        &[
            ("lib.rs", LAYERED),
            ("top.rs", "pub struct T;\n"),
            ("bottom.rs", "pub struct Leaf;\n\nfn g(_: crate::top::T) {}\n"),
            ("side.rs", "use crate::bottom::Leaf;\npub struct S(Leaf);\n"),
        ],
    );
    let problems = check(&root);
    assert_eq!(problems.len(), 2, "{problems:?}");
    assert!(
        problems[0].contains("bottom.rs:3") && problems[0].contains("a layer above it"),
        "{}",
        problems[0]
    );
    assert!(
        problems[1].contains("side.rs:1") && problems[1].contains("its own layer"),
        "{}",
        problems[1]
    );
}

#[test]
fn a_reexport_at_the_root_does_not_hide_where_an_item_comes_from() {
    let root = krate(
        "reexport",
        &[
            ("lib.rs", &format!("{LAYERED}pub use top::T;\n")),
            ("top.rs", "pub struct T;\n"),
            ("bottom.rs", "pub struct Leaf(pub crate::T);\n"),
            ("side.rs", "pub struct S;\n"),
        ],
    );
    let problems = check(&root);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0].contains("`bottom` uses `top`"), "{}", problems[0]);
}

#[test]
fn sibling_circles_below_the_top_are_reported_and_tests_are_not_modules() {
    let root = krate(
        "circle",
        &[
            (
                "lib.rs",
                "//! A crate.\n//!\n//! # Layers\n//!\n//! 1. [`m`]: one.\n\npub mod m;\n",
            ),
            ("m/mod.rs", "pub mod a;\npub mod b;\n#[cfg(test)]\nmod tests;\n"),
            ("m/a.rs", "use super::b::B;\npub struct A(B);\n"),
            ("m/b.rs", "pub struct B;\nfn f(_: super::a::A) {}\n"),
            ("m/tests.rs", "use super::a::A;\n"),
        ],
    );
    let problems = check(&root);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(
        problems[0].starts_with("an import circle: m::a -> m::b"),
        "{}",
        problems[0]
    );
}

#[test]
fn a_module_no_layer_names_is_reported() {
    let root = krate(
        "unlisted",
        &[
            (
                "lib.rs",
                "//! A crate.\n//!\n//! # Layers\n//!\n//! 1. [`a`]: one.\n\npub mod a;\npub mod b;\n",
            ),
            ("a.rs", "\n"),
            ("b.rs", "\n"),
        ],
    );
    let problems = check(&root);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0].contains("module `b` is in no layer"), "{}", problems[0]);
}

/// This workspace keeps the rules, so plain `cargo test --workspace` fails on a new edge, an
/// import that runs back up, or a Kubernetes name in a generic crate.
#[test]
fn the_workspace_keeps_its_layers() {
    let root = crate::workspace_root();
    let problems = super::problems(&root);
    assert!(
        problems.is_empty(),
        "run `cargo xtask layers`:\n{}",
        problems.join("\n")
    );
}

#[test]
fn a_generic_crate_naming_a_group_kind_or_resource_is_reported() {
    let root = krate(
        "literals",
        &[
            (
                "lib.rs",
                "//! A crate.\n//!\n//! # Layers\n//!\n//! 1. [`a`]: one.\n\npub mod a;\n",
            ),
            (
                "a.rs",
                "pub fn f(g: &str) -> bool {\n    g == \"apps\" || g == \"deployments\"\n}\n\npub fn k() -> serde_json::Value {\n    serde_json::json!({\"kind\": \"Deployment\", \"x\": \"fine\"})\n}\n\n#[cfg(test)]\nmod tests {\n    const IN_TESTS: &str = \"apps\";\n}\n",
            ),
        ],
    );
    let krate = Crate::read(&root);
    let problems = super::literals::problems(&crate::workspace_root(), &root, &krate);
    let found: Vec<String> = problems
        .iter()
        .map(|p| {
            p.split(": ")
                .nth(1)
                .unwrap_or_default()
                .split(' ')
                .next()
                .unwrap_or_default()
                .to_string()
        })
        .collect();
    assert_eq!(found, ["\"apps\"", "\"deployments\"", "\"Deployment\""], "{problems:?}");
}
