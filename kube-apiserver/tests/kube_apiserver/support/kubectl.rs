//! The real kubectl (1.32) pointed at a server of the tests: on the embedded store or etcd,
//! with its own kubeconfig and home directory.

use std::path::PathBuf;
use std::process::{Command, Output};

/// The kubectl the tests run (../shared/PEERS.md).
pub const KUBECTL: &str = "/usr/lib/google-cloud-sdk/bin/kubectl.1.32";

/// kubectl with a kubeconfig of its own, pointed at one server.
pub struct Kubectl {
    /// The server URL.
    pub server: String,
    /// The kubeconfig.
    pub config: PathBuf,
    /// Its scratch directory (HOME, files).
    pub dir: PathBuf,
    /// The etcd the server stores in, kept running as long as the test.
    _etcd: Option<super::etcd::Cluster>,
}

/// Which storage the server under test uses.
#[derive(Clone, Copy)]
pub enum Backend {
    Memory,
    Etcd,
}

impl Kubectl {
    pub fn new(name: &str) -> Kubectl {
        Self::on(name, Backend::Memory)
    }

    /// kubectl of a server on the embedded store configured with `config`.
    pub fn with(name: &str, config: kube_apiserver::Config) -> Kubectl {
        let server = super::start_with(
            std::sync::Arc::new(kube_apiserver_storage::memory::MemoryStorage::default()),
            config,
        );
        Self::of(name, server, None)
    }

    pub fn on(name: &str, backend: Backend) -> Kubectl {
        let (server, etcd) = match backend {
            Backend::Memory => (super::start(), None),
            Backend::Etcd => {
                let cluster = super::etcd::start(&format!("kubectl-{name}"), 1);
                let storage = kube_apiserver_storage::etcd::EtcdStorage::new(cluster.endpoints()).unwrap();
                (super::start_on(std::sync::Arc::new(storage)), Some(cluster))
            }
        };
        Self::of(name, server, etcd)
    }

    /// kubectl of `server`, its files under the test's directory `name`.
    fn of(name: &str, server: super::Running, etcd: Option<super::etcd::Cluster>) -> Kubectl {
        assert!(
            std::path::Path::new(KUBECTL).exists(),
            "{KUBECTL} is missing: these tests run the real kubectl (see ../shared/PEERS.md)"
        );
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("kubectl-{name}"));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let config = dir.join("kubeconfig");
        std::fs::write(&config, "apiVersion: v1\nkind: Config\n").unwrap();
        Kubectl {
            server: server.url,
            config,
            dir,
            _etcd: etcd,
        }
    }

    pub fn command(&self, args: &[&str]) -> Command {
        let mut c = Command::new(KUBECTL);
        c.env("KUBECONFIG", &self.config)
            .env("HOME", &self.dir)
            .arg("--server")
            .arg(&self.server)
            .args(args);
        c
    }

    pub fn run(&self, args: &[&str]) -> Output {
        self.command(args).output().unwrap()
    }

    /// Runs kubectl and returns stdout; fails the test with stderr when kubectl fails.
    pub fn ok(&self, args: &[&str]) -> String {
        let out = self.run(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "kubectl {args:?} failed: {stderr}");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    pub fn file(&self, name: &str, text: &str) -> String {
        let p = self.dir.join(name);
        std::fs::write(&p, text).unwrap();
        p.display().to_string()
    }
}
