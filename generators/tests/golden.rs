//! Golden tests: every fixture crate under `tests/fixtures/` through every generator, one insta
//! snapshot per generated file; and determinism: the same input in any file order gives the same
//! bytes. (The fixture crates are workspace members, so their generated code is also compiled
//! under `#![deny(warnings)]` by `cargo test --workspace`.)

use std::path::{Path, PathBuf};

use generators::Config;
use rand::SeedableRng;
use rand::seq::SliceRandom;

const BOILERPLATE: &str = "../hack/boilerplate.rs.txt";

fn fixture_names() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir("tests/fixtures")
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

fn fixture_config(name: &str) -> Config {
    let dir = Path::new("tests/fixtures").join(name);
    Config {
        apis: dir.join("src"),
        output: dir.join("generated"),
        boilerplate: BOILERPLATE.into(),
    }
}

#[test]
fn fixture_outputs_match_snapshots() {
    let names = fixture_names();
    assert!(names.len() >= 2, "fixtures went missing: {names:?}");
    for name in names {
        let config = fixture_config(&name);
        let plan = generators::generate(&config).unwrap_or_else(|f| panic!("fixture {name} failed:\n{}", f.render()));
        assert!(!plan.files.is_empty(), "fixture {name} produced nothing");
        for (path, file) in &plan.files {
            let rel = path
                .strip_prefix(&config.output)
                .unwrap()
                .to_string_lossy()
                .replace(['/', '\\'], "__");
            let snapshot = format!("{name}__{}", rel.trim_end_matches(".rs"));
            insta::assert_snapshot!(snapshot, file.contents);
        }
    }
}

/// Reads every source of a tree as (relative path, text).
fn read_tree(dir: &Path) -> Vec<(String, String)> {
    generators::parse::discover(dir)
        .unwrap()
        .into_iter()
        .map(|(rel, full)| (rel, std::fs::read_to_string(full).unwrap()))
        .collect()
}

#[test]
fn output_does_not_depend_on_input_order() {
    let boilerplate = std::fs::read_to_string(BOILERPLATE).unwrap();
    let mut trees: Vec<(PathBuf, PathBuf)> = vec![("../apis/src".into(), "../generated/apis".into())];
    trees.extend(fixture_names().iter().map(|n| {
        let c = fixture_config(n);
        (c.apis, c.output)
    }));
    for (apis, output) in trees {
        let inputs = read_tree(&apis);
        let first = generators::generate_from_sources(&apis, inputs.clone(), &output, &boilerplate)
            .unwrap_or_else(|f| panic!("{}", f.render()));
        for seed in 0..3 {
            let mut shuffled = inputs.clone();
            shuffled.shuffle(&mut rand::rngs::StdRng::seed_from_u64(seed));
            let again = generators::generate_from_sources(&apis, shuffled, &output, &boilerplate).unwrap();
            assert_eq!(
                first.files,
                again.files,
                "{} differs with input order seed {seed}",
                apis.display()
            );
        }
    }
}

#[test]
fn skipped_items_are_noted_for_verbose_output() {
    let plan = generators::generate(&fixture_config("widgets")).unwrap();
    let has = |needle: &str| plan.notes.iter().any(|n| n.contains(needle));
    assert!(
        has("deepcopy: `Owner` implements Clone itself; not generated"),
        "{:#?}",
        plan.notes
    );
    assert!(has("deepcopy: `Label` is not selected"), "{:#?}", plan.notes);
    let plan = generators::generate(&fixture_config("core")).unwrap();
    assert!(
        plan.notes.iter().any(|n| n.contains("`Untouched` is not selected")),
        "{:#?}",
        plan.notes
    );
}
