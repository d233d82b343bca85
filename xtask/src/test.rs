//! `cargo xtask test`: every test of the repository on a fresh machine. The tests drive real
//! peers (etcd 3.4, protoc, Debian's python3-kubernetes, kubectl 1.32, the JavaScript client), so
//! this first makes sure they are here: missing Debian packages are installed with apt-get when
//! this runs as root, otherwise the exact command is printed and nothing runs; the pinned
//! @kubernetes/client-node is installed with npm under `target/js-client` (never into the tree).
//! Then a check that the etcd backend's checked-in gRPC client is what hack/etcd-proto generates
//! (protoc is here by then), the workspace tests, then the k8s.io/api v0.23.17 corpus through the
//! generators and rustc's type checker (`cargo xtask corpus`; v0.36 is `apis` itself).

use std::path::Path;
use std::process::{Command, ExitCode};

/// kubectl 1.32 as the machine image ships it; the API server's end-to-end tests run it.
const KUBECTL: &str = "/usr/lib/google-cloud-sdk/bin/kubectl.1.32";

/// The shared k8s.io/api corpus beside the checkout (v0.23.17), when it is here. v0.36 is not
/// checked apart: `apis` is k8s.io/api v0.36.3, built and tested with the workspace.
const CORPORA: [&str; 1] = ["../shared/corpora/k8s-api"];

/// A Debian package the tests need, and how to tell it is installed.
struct Package {
    name: &'static str,
    present: fn() -> bool,
}

/// The JavaScript client the API server's tests run, pinned (1.x runs on Node.js 18 and 20, which
/// Debian and the machine image ship; 2.x wants Node.js 22).
const JS_CLIENT: (&str, &str) = ("@kubernetes/client-node", "1.4.0");

/// Where `JS_CLIENT` is installed; `kube-apiserver/tests/kube_apiserver/javascript.rs` imports it from there.
const JS_DIR: &str = "target/js-client";

const PACKAGES: [Package; 5] = [
    Package {
        name: "etcd-server",
        present: || on_path("etcd"),
    },
    Package {
        name: "protobuf-compiler",
        present: || on_path("protoc"),
    },
    Package {
        // Debian's interpreter, where the package puts the module.
        name: "python3-kubernetes",
        present: || {
            Command::new("/usr/bin/python3")
                .args(["-c", "import kubernetes"])
                .output()
                .is_ok_and(|o| o.status.success())
        },
    },
    Package {
        name: "nodejs",
        present: || on_path("node"),
    },
    Package {
        name: "npm",
        present: || on_path("npm"),
    },
];

/// Runs the set-up, then the tests; the workspace root is the current directory.
pub fn run() -> ExitCode {
    match prepare().and_then(|()| tests()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Installs the missing packages, or says how to.
fn prepare() -> Result<(), String> {
    let missing: Vec<&str> = PACKAGES.iter().filter(|p| !(p.present)()).map(|p| p.name).collect();
    if !missing.is_empty() {
        let install = format!(
            "apt-get update && apt-get install -y --no-install-recommends {}",
            missing.join(" ")
        );
        if !is_root() || !on_path("apt-get") {
            return Err(format!(
                "the tests need {}; install them (as root: `{install}`) and run `cargo xtask test` again",
                missing.join(", ")
            ));
        }
        println!("test: installing {}", missing.join(", "));
        sh(&format!(
            "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends {} >/dev/null",
            missing.join(" ")
        ))
        .map_err(|e| format!("{e}; try `{install}` by hand"))?;
        if let Some(p) = PACKAGES.iter().find(|p| !(p.present)()) {
            return Err(format!("{} was installed but is still not usable", p.name));
        }
    }
    js_client()?;
    if !Path::new(KUBECTL).exists() {
        return Err(format!(
            "{KUBECTL} is missing: the API server's end-to-end tests run the real kubectl 1.32, \
             which the machine image ships (Google Cloud SDK's kubectl bundle); install it there"
        ));
    }
    Ok(())
}

/// Installs the pinned JavaScript client under `JS_DIR`, unless that version is there already.
fn js_client() -> Result<(), String> {
    let (name, version) = JS_CLIENT;
    let dir = Path::new(JS_DIR);
    let installed = dir.join("node_modules").join(name).join("package.json");
    let current = std::fs::read_to_string(&installed).unwrap_or_default();
    if current.contains(&format!("\"version\": \"{version}\"")) {
        return Ok(());
    }
    println!("test: installing {name}@{version} into {JS_DIR}");
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {JS_DIR}: {e}"))?;
    let manifest = format!("{{\"private\": true, \"dependencies\": {{\"{name}\": \"{version}\"}}}}\n");
    std::fs::write(dir.join("package.json"), manifest)
        .map_err(|e| format!("cannot write {JS_DIR}/package.json: {e}"))?;
    sh(&format!(
        "cd {JS_DIR} && npm install --no-audit --no-fund --loglevel=error >/dev/null"
    ))
    .map_err(|e| format!("{e}; the JavaScript client's test needs {name}@{version} in {JS_DIR}"))
}

/// Where the etcd backend's gRPC client is checked in, and where the check writes a fresh one.
const ETCD_CLIENT: &str = "storage/src/etcd/proto";
const ETCD_CLIENT_CHECK: &str = "target/etcd-proto-check";

/// `cargo xtask verify-etcd-client`.
pub fn verify_etcd_client() -> ExitCode {
    match etcd_client_is_current() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Fails when the checked-in etcd client differs from what hack/update-etcd-proto.sh writes from
/// the protos in hack/etcd-proto: a proto changed without regenerating, or the client was edited.
fn etcd_client_is_current() -> Result<(), String> {
    let _ = std::fs::remove_dir_all(ETCD_CLIENT_CHECK);
    sh(&format!("hack/update-etcd-proto.sh {ETCD_CLIENT_CHECK}"))?;
    let names = |dir: &str| -> Result<Vec<String>, String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .map_err(|e| format!("cannot read {dir}: {e}"))?
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .collect();
        names.sort();
        Ok(names)
    };
    let stale = || {
        format!(
            "{ETCD_CLIENT} is not what hack/update-etcd-proto.sh writes from hack/etcd-proto; run it and commit the result"
        )
    };
    if names(ETCD_CLIENT)? != names(ETCD_CLIENT_CHECK)? {
        return Err(stale());
    }
    for name in names(ETCD_CLIENT)? {
        let read = |dir: &str| std::fs::read(Path::new(dir).join(&name)).map_err(|e| format!("{dir}/{name}: {e}"));
        if read(ETCD_CLIENT)? != read(ETCD_CLIENT_CHECK)? {
            return Err(format!("{name}: {}", stale()));
        }
    }
    println!("test: {ETCD_CLIENT} is current");
    Ok(())
}

/// The etcd client check, the workspace tests, then the corpus check.
fn tests() -> Result<(), String> {
    etcd_client_is_current()?;
    // The end-to-end tests mostly wait (on servers on runtimes of their own, etcd members, and
    // kubectl, python and node processes), so four run at once even on two cores: the
    // kube-apiserver binary's 130 tests take about half the time they take two at a time. A
    // RUST_TEST_THREADS given wins.
    let threads = std::env::var("RUST_TEST_THREADS").unwrap_or_else(|_| "4".into());
    cargo_with(&["test", "--workspace"], &[("RUST_TEST_THREADS", &threads)])?;
    let present: Vec<&str> = CORPORA
        .into_iter()
        .filter(|c| Path::new(c).join("src/lib.rs").exists())
        .collect();
    for missing in CORPORA.iter().filter(|c| !present.contains(c)) {
        println!("test: {missing} is not here; that corpus was not checked");
    }
    if present.is_empty() {
        return Ok(());
    }
    let mut args = vec!["xtask", "corpus", "--corpus"];
    args.extend(present);
    cargo(&args)
}

fn cargo(args: &[&str]) -> Result<(), String> {
    cargo_with(args, &[])
}

/// Runs cargo with `args` and the environment variables `envs` added.
fn cargo_with(args: &[&str], envs: &[(&str, &str)]) -> Result<(), String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let status = Command::new(&cargo)
        .args(args)
        .envs(envs.iter().copied())
        .status()
        .map_err(|e| format!("cannot run {cargo}: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("`cargo {}` failed", args.join(" ")))
    }
}

fn sh(script: &str) -> Result<(), String> {
    let status = Command::new("sh")
        .args(["-c", script])
        .status()
        .map_err(|e| format!("cannot run sh: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("`{script}` failed"))
    }
}

fn on_path(program: &str) -> bool {
    std::env::var_os("PATH").is_some_and(|path| std::env::split_paths(&path).any(|dir| dir.join(program).is_file()))
}

/// Whether this process runs as root, which apt-get needs (`id -u` says it without libc).
fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}
