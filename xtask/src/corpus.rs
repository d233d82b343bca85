//! `cargo xtask corpus`: all of k8s.io/api through the generators and through rustc. Copies the
//! corpus (`../shared/corpora/k8s-api`, or a tree `go2rs.py` writes from a kubernetes/api mirror
//! with `--alias-names`) into `target/tmp`, generates into the copy, points its `runtime`
//! dependency at this workspace's, and type-checks it as a crate (`cargo check`; `--build`
//! builds it); prints what was generated and how long each step took. The generated crate
//! (clientset, apply configurations, listers, informers, OpenAPI) is checked beside it, as a
//! workspace of the two. The corpus is read as it is: it imports the runtime's meta wire types
//! and declares the protobuf modules itself.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// Where the corpus comes from.
pub enum Source {
    /// A translated tree (the shared corpus).
    Tree(PathBuf),
    /// `go2rs.py --alias-names` over a kubernetes/api mirror.
    AliasNames { mirror: PathBuf, go2rs: PathBuf },
}

/// Runs the check (`build`: a full build); the workspace root is the current directory. Whether
/// it passed; the error is printed.
pub fn run(source: Source, build: bool) -> bool {
    match check(source, build) {
        Ok(()) => true,
        Err(e) => {
            eprintln!("error: {e}");
            false
        }
    }
}

fn check(source: Source, build: bool) -> Result<(), String> {
    let root = std::env::current_dir().map_err(|e| e.to_string())?;
    let work = root.join("target/tmp/k8s-api-corpus");
    let _ = std::fs::remove_dir_all(&work);
    let started = Instant::now();
    match &source {
        Source::Tree(dir) => {
            println!("corpus: {}", dir.display());
            copy_tree(dir, &work).map_err(|e| format!("cannot copy {}: {e}", dir.display()))?
        }
        Source::AliasNames { mirror, go2rs } => {
            let status = Command::new("python3")
                .arg(go2rs)
                .arg(mirror)
                .arg("v0.23.17")
                .arg(&work)
                .arg("--alias-names")
                .status()
                .map_err(|e| format!("cannot run {}: {e}", go2rs.display()))?;
            if !status.success() {
                return Err("go2rs.py failed".into());
            }
        }
    }
    let declared = declare_validations(&work.join("src")).map_err(|e| format!("cannot prepare the corpus: {e}"))?;
    println!(
        "corpus: prepared in {:.2} s ({declared} packages declare their generated validations)",
        started.elapsed().as_secs_f64()
    );

    let started = Instant::now();
    let config = kube_code_generator::Config::new(work.join("src"))
        .output(work.join("generated/apis"))
        .documents(work.join("generated/openapi"))
        .crate_name("k8s-api-generated")
        .apis_crate("k8s-api-corpus")
        .runtime_path("::runtime")
        .boilerplate(root.join("hack/boilerplate.rs.txt"));
    let plan =
        kube_code_generator::generate(&config).map_err(|f| format!("the corpus does not generate:\n{}", f.render()))?;
    let generated = started.elapsed();
    kube_code_generator::apply(&plan).map_err(|e| format!("cannot write the generated files: {e}"))?;
    let lines: usize = plan.files.values().map(|f| f.contents.lines().count()).sum();
    println!(
        "corpus: {} files, {lines} lines generated in {:.0} ms",
        plan.files.len(),
        generated.as_secs_f64() * 1000.0
    );
    for generator in ["clientset", "applyconfigurations", "listers", "informers"] {
        let files: Vec<_> = plan.files.values().filter(|f| f.generator == generator).collect();
        let lines: usize = files.iter().map(|f| f.contents.lines().count()).sum();
        let bytes: usize = files.iter().map(|f| f.contents.len()).sum();
        let time = plan.timings.get(generator).map_or(0.0, |t| t.as_secs_f64() * 1000.0);
        println!(
            "corpus: {generator}: {} files, {lines} lines, {:.1} MB in {time:.0} ms",
            files.len(),
            bytes as f64 / 1e6
        );
    }

    let manifest = work.join("Cargo.toml");
    let text = std::fs::read_to_string(&manifest).map_err(|e| e.to_string())?;
    // The corpus names the runtime `runtime`, as the tag language spells it: that name for
    // kube-apimachinery, in the corpus and in the generated crate beside it.
    let runtime = format!(
        "runtime = {{ package = \"kube-apimachinery\", path = {:?} }}",
        root.join("runtime").display().to_string()
    );
    let text = text.replace(r#"runtime = { path = "../runtime" }"#, &runtime);
    let text = text.replace("\n[workspace]\n", &workspace(&root)?);
    std::fs::write(&manifest, text).map_err(|e| e.to_string())?;
    std::fs::copy(root.join("Cargo.lock"), work.join("Cargo.lock")).map_err(|e| e.to_string())?;
    let started = Instant::now();
    let status = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args([
            if build { "build" } else { "check" },
            "--quiet",
            "--workspace",
            "--manifest-path",
        ])
        .arg(&manifest)
        // The workspace's target directory: the dependencies it has built (k8s-openapi, serde, the
        // runtime crate) are reused.
        .env("CARGO_TARGET_DIR", root.join("target"))
        .env("K8S_OPENAPI_ENABLED_VERSION", "1.37")
        .status()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if !status.success() {
        return Err("the generated corpus does not compile".into());
    }
    let how = if build { "built" } else { "type-checked (cargo check)" };
    println!("corpus: {how} in {:.1} s", started.elapsed().as_secs_f64());
    Ok(())
}

/// The corpus as a workspace with the generated crate (clients, listers, informers, OpenAPI)
/// beside it: this workspace's `[workspace.dependencies]`, paths made absolute, plus the corpus
/// itself under the name the generated crate depends on.
fn workspace(root: &Path) -> Result<String, String> {
    let ours = std::fs::read_to_string(root.join("Cargo.toml")).map_err(|e| e.to_string())?;
    let start = ours
        .find("[workspace.dependencies]\n")
        .ok_or("Cargo.toml has no [workspace.dependencies]")?;
    let section = &ours[start..];
    let end = section[1..].find("\n[").map_or(section.len(), |i| i + 1);
    let mut deps = String::new();
    for line in section[..end].lines() {
        match line.split_once("path = \"") {
            Some((head, tail)) => {
                let (path, rest) = tail.split_once('"').ok_or("unterminated path")?;
                deps.push_str(&format!(
                    "{head}path = {:?}{rest}\n",
                    root.join(path).display().to_string()
                ));
            }
            None => {
                deps.push_str(line);
                deps.push('\n');
            }
        }
    }
    Ok(format!(
        "\n[workspace]\nmembers = [\".\", \"generated\"]\n\n[workspace.package]\nedition = \"2024\"\n\n{deps}k8s-api-corpus = {{ path = \".\" }}\nruntime = {{ package = \"kube-apimachinery\", path = {:?} }}\n",
        root.join("runtime").display().to_string()
    ))
}

/// Adds the generated validation module to each package of the copy that asks for validation-gen
/// (`//! +k8s:validation-gen=`) and does not declare it: the corpus was translated before the
/// generator existed, so its `mod.rs` files name only the older generators' files. Returns how
/// many packages were changed.
fn declare_validations(src: &Path) -> std::io::Result<usize> {
    let mut changed = 0;
    for group in std::fs::read_dir(src)? {
        let group = group?.path();
        if !group.is_dir() {
            continue;
        }
        for version in std::fs::read_dir(&group)? {
            let mod_rs = version?.path().join("mod.rs");
            let Ok(text) = std::fs::read_to_string(&mod_rs) else {
                continue;
            };
            if !text.contains("//! +k8s:validation-gen=") || text.contains("zz_generated_validations") {
                continue;
            }
            let (Some(g), Some(v)) = (
                group.file_name().and_then(|n| n.to_str()),
                mod_rs.parent().and_then(|p| p.file_name()).and_then(|n| n.to_str()),
            ) else {
                continue;
            };
            let decl = format!(
                "\n#[rustfmt::skip]\n#[path = \"../../../generated/apis/{g}/{v}/zz_generated_validations.rs\"]\nmod zz_generated_validations;\npub use zz_generated_validations::*;\n"
            );
            std::fs::write(&mod_rs, text + &decl)?;
            changed += 1;
        }
    }
    Ok(changed)
}

fn copy_tree(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let target = to.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            copy_tree(&entry.path(), &target)?;
        } else {
            std::fs::copy(entry.path(), target)?;
        }
    }
    Ok(())
}
