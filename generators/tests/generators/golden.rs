//! Whole-tree tests of the fixture crates under `tests/fixtures/`: determinism (the same input in
//! any file order gives the same bytes), verbose notes, and the binary's verify/repair cycle. The
//! expected outputs themselves are the fixtures' checked-in `generated/` trees, pinned byte for
//! byte by the staleness test (`xtask`'s `generated_code_is_up_to_date`) and compiled under
//! `#![deny(warnings)]` as workspace members: one copy of each expected output, no snapshot of it.

use std::path::{Path, PathBuf};

use kube_code_generator::Config;
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
    let config = Config::new(dir.join("src"))
        .output(dir.join("generated"))
        .boilerplate(BOILERPLATE)
        .documents(dir.join("generated/openapi"));
    match kube_code_generator::GeneratedCrate::of(&dir) {
        Some(generated) => generated.configure(config.output(dir.join("generated/apis"))),
        None => config,
    }
}

#[test]
fn output_does_not_depend_on_input_order() {
    let boilerplate = std::fs::read_to_string(BOILERPLATE).unwrap();
    let mut configs = vec![
        Config::new("../apis/src")
            .output("../generated/apis")
            .documents("../generated/openapi")
            .crate_name("generated"),
    ];
    configs.extend(fixture_names().iter().map(|n| fixture_config(n)));
    for config in configs {
        let inputs = kube_code_generator::read_sources(config.apis()).unwrap();
        let first = kube_code_generator::generate_from_sources(&config, inputs.clone(), &boilerplate)
            .unwrap_or_else(|f| panic!("{}", f.render()));
        for seed in 0..3 {
            let mut shuffled = inputs.clone();
            shuffled.shuffle(&mut rand::rngs::StdRng::seed_from_u64(seed));
            let again = kube_code_generator::generate_from_sources(&config, shuffled, &boilerplate).unwrap();
            assert_eq!(
                first.files,
                again.files,
                "{} differs with input order seed {seed}",
                config.apis().display()
            );
        }
    }
}

#[test]
fn skipped_items_are_noted_for_verbose_output() {
    let plan = kube_code_generator::generate(&fixture_config("widgets")).unwrap();
    let has = |needle: &str| plan.notes.iter().any(|n| n.contains(needle));
    assert!(
        has("deepcopy: `Owner` implements Clone itself; not generated"),
        "{:#?}",
        plan.notes
    );
    assert!(has("deepcopy: `Label` is not selected"), "{:#?}", plan.notes);
    let plan = kube_code_generator::generate(&fixture_config("core")).unwrap();
    assert!(
        plan.notes.iter().any(|n| n.contains("`Untouched` is not selected")),
        "{:#?}",
        plan.notes
    );
}

/// Copies a directory tree.
fn copy_tree(from: &Path, to: &Path) {
    for entry in walkdir::WalkDir::new(from) {
        let entry = entry.unwrap();
        let target = to.join(entry.path().strip_prefix(from).unwrap());
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// The binary, end to end on a copy of a fixture: verify passes on the checked-in tree; one edited
/// byte makes it exit 1 naming the file with a diff; a write run repairs exactly that file.
#[test]
fn binary_verify_names_an_edited_file_and_codegen_repairs_it() {
    let work = PathBuf::from("../target/tmp/generators-golden-verify");
    let _ = std::fs::remove_dir_all(&work);
    copy_tree(Path::new("tests/fixtures/widgets"), &work);
    let run = |extra: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_kube-code-generator"))
            .args([
                "--apis",
                &work.join("src").to_string_lossy(),
                "--output",
                &work.join("generated").to_string_lossy(),
                "--documents",
                &work.join("generated/openapi").to_string_lossy(),
            ])
            .args(["--boilerplate", BOILERPLATE])
            .args(extra)
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, stdout, _) = run(&["--verify"]);
    assert_eq!(code, Some(0), "{stdout}");
    let files = walkdir::WalkDir::new(work.join("generated"))
        .into_iter()
        .filter(|e| e.as_ref().is_ok_and(|e| e.file_type().is_file()))
        .count();
    assert!(
        stdout.contains(&format!("generated code is up to date ({files} files)")),
        "{stdout}"
    );

    let edited = work.join("generated/widgets/v1/zz_generated_register.rs");
    let text = std::fs::read_to_string(&edited).unwrap();
    std::fs::write(
        &edited,
        text.replacen("pub const GROUP_NAME", "pub const GROUP_NAMF", 1),
    )
    .unwrap();
    let (code, stdout, stderr) = run(&["--verify"]);
    assert_eq!(code, Some(1));
    assert!(
        stdout.contains("stale: ../target/tmp/generators-golden-verify/generated/widgets/v1/zz_generated_register.rs"),
        "{stdout}"
    );
    assert!(
        stdout.contains("-pub const GROUP_NAMF") && stdout.contains("+pub const GROUP_NAME"),
        "{stdout}"
    );
    assert!(
        stderr.contains("1 generated file(s) out of date; run `kube-code-generator --apis"),
        "{stderr}"
    );
    assert!(
        std::fs::read_to_string(&edited).unwrap().contains("GROUP_NAMF"),
        "verify writes nothing"
    );

    let (code, stdout, _) = run(&[]);
    assert_eq!(code, Some(0));
    assert!(
        stdout.contains("register: 1 written, 1 unchanged, 0 removed"),
        "{stdout}"
    );
    assert!(
        stdout.contains("deepcopy: 0 written, 2 unchanged, 0 removed"),
        "{stdout}"
    );
    assert_eq!(std::fs::read_to_string(&edited).unwrap(), text);
    let _ = std::fs::remove_dir_all(&work);
}
