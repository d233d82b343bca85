//! Benchmark: the whole pipeline (parse, model, deepcopy, register, format) on a synthetic API
//! tree of `groups` groups, each with an internal and two external versions of `kinds` kinds, and
//! on this repository's apis tree. Run with `cargo bench -p generators`.

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
        let config = generators::Config::new("src").output("out");
        let plan = generators::generate_from_sources(&config, files.clone(), "// Header.\n")
            .unwrap_or_else(|f| panic!("{}", f.render()));
        divan::black_box(plan.files.len())
    });
}

#[divan::bench]
fn apis_tree(bencher: divan::Bencher) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../apis/src");
    let files = generators::read_sources(&dir).unwrap();
    let boilerplate =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../hack/boilerplate.rs.txt")).unwrap();
    bencher.bench(|| {
        let config = generators::Config::new("apis/src")
            .output("generated/apis")
            .documents("generated/openapi")
            .crate_name("generated");
        let plan = generators::generate_from_sources(&config, files.clone(), &boilerplate)
            .unwrap_or_else(|f| panic!("{}", f.render()));
        divan::black_box(plan.files.len())
    });
}

fn main() {
    divan::main();
}
