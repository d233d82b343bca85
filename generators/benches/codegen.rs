//! Benchmark: the whole pipeline (load, model, every generator, format) on a synthetic API tree of
//! `groups` groups, each with an internal and two external versions of `kinds` kinds, on this
//! repository's apis tree, and on all of k8s.io/api and its apps/v1 alone (the shared corpus),
//! and each generator alone on all of k8s.io/api.
//! Time and, through divan's allocation profiler, allocations per run. Run with
//! `cargo bench -p kube-code-generator`. (Peak memory of the whole process, beside Go's code-generator, is
//! measured with `/usr/bin/time -v` on the release binary; see the issues' closing notes.)

use std::path::Path;

/// Sources of one synthetic package: `kinds` kinds, each with a spec, a status and a list.
fn package(group: &str, version: &str, kinds: usize) -> Vec<(String, String)> {
    let internal = version == "__internal";
    let dir = if internal {
        group.to_string()
    } else {
        format!("{group}/{version}")
    };
    let depth = if internal { 2 } else { 3 };
    let up = "../".repeat(depth);
    let mut mod_rs = format!(
        "//! Package.\n//! +k8s:deepcopy-gen=package\n//! +groupName={group}.example.dev\n\nmod types;\npub use types::*;\n"
    );
    if internal {
        mod_rs.push_str("pub mod v1;\npub mod v2;\n");
    }
    for g in ["deepcopy", "register"] {
        mod_rs.push_str(&format!(
            "#[path = \"{up}out/{dir}/zz_generated_{g}.rs\"]\nmod zz_generated_{g};\n"
        ));
        if g == "register" {
            mod_rs.push_str("pub use zz_generated_register::*;\n");
        }
    }
    let (tm, serde) = if internal {
        ("pub type_meta: TypeMeta,", "")
    } else {
        (
            "#[serde(flatten, default)] pub type_meta: Option<TypeMeta>,",
            "#[derive(serde::Serialize, serde::Deserialize)] #[serde(rename_all = \"camelCase\")]",
        )
    };
    let mut types = String::from(
        "//! Types.\nuse std::collections::BTreeMap;\nuse kube_core::TypeMeta;\nuse k8s_openapi::apimachinery::pkg::apis::meta::v1::{ObjectMeta, ListMeta, Time};\n",
    );
    for k in 0..kinds {
        types.push_str(&format!(
            "/// Kind{k} is a kind.\n/// +genclient\n/// +k8s:deepcopy-gen:interfaces=runtime::Object\n{serde}\npub struct Kind{k} {{ {tm} pub metadata: ObjectMeta, /// +optional\n pub spec: Option<Kind{k}Spec>, pub status: Kind{k}Status }}\n\
             /// Spec.\n{serde}\npub struct Kind{k}Spec {{ pub replicas: Option<i32>, pub labels: BTreeMap<String, String>, pub items: Vec<Item{k}>, pub name: String }}\n\
             /// Item.\n{serde}\npub struct Item{k} {{ pub key: String, pub value: Option<String>, pub weight: i64 }}\n\
             /// Status.\n{serde}\npub struct Kind{k}Status {{ pub ready: bool, pub since: Option<Time>, pub conditions: Vec<Item{k}> }}\n\
             /// List.\n/// +k8s:deepcopy-gen:interfaces=runtime::Object\n{serde}\npub struct Kind{k}List {{ {tm} pub metadata: ListMeta, pub items: Vec<Kind{k}> }}\n"
        ));
    }
    vec![(format!("{dir}/mod.rs"), mod_rs), (format!("{dir}/types.rs"), types)]
}

fn tree(groups: usize, kinds: usize) -> Vec<(String, String)> {
    let mods: String = (0..groups).map(|g| format!("pub mod group{g};\n")).collect();
    let mut files = vec![("lib.rs".to_string(), format!("//! Root.\n{mods}"))];
    for g in 0..groups {
        let group = format!("group{g}");
        for version in ["__internal", "v1", "v2"] {
            files.extend(package(&group, version, kinds));
        }
    }
    files
}

#[divan::bench(args = [(10, 10), (40, 10)])]
fn synthetic(bencher: divan::Bencher, (groups, kinds): (usize, usize)) {
    let files = tree(groups, kinds);
    bencher.bench(|| {
        let config = kube_code_generator::Config::new("src").output("out");
        let plan = kube_code_generator::generate_from_sources(&config, files.clone(), "// Header.\n")
            .unwrap_or_else(|f| panic!("{}", f.render()));
        divan::black_box(plan.files.len())
    });
}

#[divan::bench]
fn apis_tree(bencher: divan::Bencher) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../apis/src");
    let files = kube_code_generator::read_sources(&dir).unwrap();
    let boilerplate =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../hack/boilerplate.rs.txt")).unwrap();
    bencher.bench(|| {
        let config = kube_code_generator::Config::new("apis/src")
            .output("generated/apis")
            .documents("generated/openapi")
            .crate_name("generated");
        let plan = kube_code_generator::generate_from_sources(&config, files.clone(), &boilerplate)
            .unwrap_or_else(|f| panic!("{}", f.render()));
        divan::black_box(plan.files.len())
    });
}

/// All of k8s.io/api (the shared corpus, `$K8S_API_CORPUS` or `../shared/corpora/k8s-api`), the
/// admission imports changed as `cargo xtask corpus` changes them; `None` when it is not here.
fn corpus() -> Option<Vec<(String, String)>> {
    let dir = std::env::var_os("K8S_API_CORPUS")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpora/k8s-api"));
    let from = "use k8s_openapi::apimachinery::pkg::apis::meta::v1::{GroupVersionKind, GroupVersionResource, Status};";
    let to = "use k8s_openapi::apimachinery::pkg::apis::meta::v1::Status;\nuse runtime::meta::v1::{GroupVersionKind, GroupVersionResource};";
    let files = kube_code_generator::read_sources(&dir.join("src")).ok()?;
    Some(files.into_iter().map(|(rel, t)| (rel, t.replace(from, to))).collect())
}

fn corpus_plan(files: Vec<(String, String)>) -> usize {
    let config = kube_code_generator::Config::new("k8s-api/src")
        .output("k8s-api/generated/apis")
        .documents("k8s-api/generated/openapi");
    let plan = kube_code_generator::generate_from_sources(&config, files, "// Header.\n")
        .unwrap_or_else(|f| panic!("{}", f.render()));
    divan::black_box(plan.files.len())
}

/// The whole Kubernetes API (48 group-versions, 789 structs) through every generator.
#[divan::bench]
fn k8s_api(bencher: divan::Bencher) {
    let Some(files) = corpus() else {
        eprintln!("k8s_api: the corpus is not here; skipped");
        return;
    };
    bencher.bench(|| corpus_plan(files.clone()));
}

/// apps/v1 alone, with the packages it uses: core/v1, autoscaling/v1 (Scale) and, through core/v1's
/// client methods, authentication/v1 (TokenRequest).
#[divan::bench]
fn k8s_api_apps_v1(bencher: divan::Bencher) {
    let Some(files) = corpus() else {
        eprintln!("k8s_api_apps_v1: the corpus is not here; skipped");
        return;
    };
    let mut files: Vec<(String, String)> = files
        .into_iter()
        .filter(|(rel, _)| {
            ["apps/v1/", "core/", "autoscaling/v1/", "authentication/v1/"]
                .iter()
                .any(|p| rel.starts_with(p))
        })
        .collect();
    let groups = ["apps", "authentication", "autoscaling"];
    let lib: String = groups
        .iter()
        .chain(&["core"])
        .map(|g| format!("pub mod {g};\n"))
        .collect();
    files.push(("lib.rs".into(), lib));
    files.extend(
        groups
            .iter()
            .map(|g| (format!("{g}/mod.rs"), "pub mod v1;\n".to_string())),
    );
    bencher.bench(|| corpus_plan(files.clone()));
}

/// The corpus's checked model, built once for `generator`.
fn corpus_model() -> Option<&'static kube_code_generator::bench::Model> {
    static MODEL: std::sync::OnceLock<Option<kube_code_generator::bench::Model>> = std::sync::OnceLock::new();
    MODEL
        .get_or_init(|| {
            let config = kube_code_generator::Config::new("k8s-api/src")
                .output("k8s-api/generated/apis")
                .documents("k8s-api/generated/openapi")
                .crate_name("k8s-api-generated")
                .apis_crate("k8s-api-corpus");
            let model = kube_code_generator::bench::Model::build(config, corpus()?, "// Header.\n");
            Some(model.unwrap_or_else(|f| panic!("{}", f.render())))
        })
        .as_ref()
}

/// Each generator alone, on one thread, over all of k8s.io/api (the model built once, outside
/// the timing): where a whole run's CPU goes.
#[divan::bench(args = kube_code_generator::bench::Model::generator_names())]
fn generator(bencher: divan::Bencher, name: &str) {
    let Some(model) = corpus_model() else {
        eprintln!("generator: the corpus is not here; skipped");
        return;
    };
    bencher.bench(|| model.run(name).expect("a generator of this run"));
}

#[global_allocator]
static ALLOC: divan::AllocProfiler = divan::AllocProfiler::system();

fn main() {
    divan::main();
}
