//! kube-apiserver's command line (`cmd/kube-apiserver/app/options`): the generic server's flag
//! groups flattened beside kube-apiserver's own (authentication, authorization, ServiceAccount
//! tokens, admission plugins, Event TTLs, the garbage collector, the Services' networks), turned
//! into a [`Config`] and the HTTPS listener. A binary flattens [`Options`] into its own clap parser.

use std::net::{IpAddr, SocketAddr};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use kube_generic_apiserver::authentication::TokenFile;
use kube_generic_apiserver::server::options::{
    AuditOptions, Error, EtcdOptions, SecureServingOptions, ServerRunOptions, go_duration,
};
use kube_generic_apiserver::server::resource_config::ResourceConfig;
use kube_generic_apiserver::server::tls::server_config;

use crate::service::Network;
use crate::service::ip_allocator::IpRange;
use crate::service::port_allocator::PortRange;
use crate::serviceaccount::{DEFAULT_ISSUER, ServiceAccountTokens, generate_key_pem};
use crate::{Authentication, Config, Mode, Plugin};

/// kube-apiserver's flags.
#[derive(clap::Args, Clone, Debug)]
pub struct Options {
    /// HTTPS serving.
    #[command(flatten)]
    pub secure_serving: SecureServingOptions,
    /// The storage backend.
    #[command(flatten)]
    pub etcd: EtcdOptions,
    /// Limits and feature gates.
    #[command(flatten)]
    pub run: ServerRunOptions,
    /// Auditing.
    #[command(flatten)]
    pub audit: AuditOptions,
    /// CAs whose client certificates are users (CN the name, O the groups), PEM.
    #[arg(long)]
    pub client_ca_file: Option<PathBuf>,
    /// Static bearer tokens, one `token,user,uid,"group1,group2"` line each.
    #[arg(long)]
    pub token_auth_file: Option<PathBuf>,
    /// Whether requests without credentials are served as `system:anonymous`.
    #[arg(long, default_value_t = false, action = clap::ArgAction::Set)]
    pub anonymous_auth: bool,
    /// Authorizers, in order, comma-separated: AlwaysAllow (the default) or RBAC (roles and
    /// bindings; the bootstrap roles are created at start). `system:masters` may always.
    #[arg(long, value_delimiter = ',', default_value = "AlwaysAllow")]
    pub authorization_mode: Vec<Mode>,
    /// The issuer of ServiceAccount tokens (the first signs; all are accepted); repeatable.
    #[arg(long, default_value = DEFAULT_ISSUER)]
    pub service_account_issuer: Vec<String>,
    /// The private key (PKCS#8 PEM, RSA or ECDSA) that signs ServiceAccount tokens; without it
    /// and without `--service-account-key-file`, one is generated into `--cert-dir` as `sa.key`.
    #[arg(long)]
    pub service_account_signing_key_file: Option<PathBuf>,
    /// PEM keys (public, or private whose public half is used) that ServiceAccount tokens are
    /// verified with; repeatable. The signing key's public half when not given.
    #[arg(long)]
    pub service_account_key_file: Vec<PathBuf>,
    /// The audiences API tokens are for, comma-separated; the first issuer when not given.
    #[arg(long, value_delimiter = ',')]
    pub api_audiences: Vec<String>,
    /// How long an Event is kept after its last write (a Go duration, as kube-apiserver's flag:
    /// `1h`, `90m`, `1h0m0s`, `30s`).
    #[arg(long, default_value = "1h", value_parser = go_duration)]
    pub event_ttl: Duration,
    /// Admission plugins to enable beyond the defaults (NamespaceLifecycle), comma-separated
    /// (AlwaysPullImages).
    #[arg(long, value_delimiter = ',', value_parser = str::parse::<Plugin>)]
    pub enable_admission_plugins: Vec<Plugin>,
    /// Default admission plugins to turn off, comma-separated (NamespaceLifecycle).
    #[arg(long, value_delimiter = ',', value_parser = str::parse::<Plugin>)]
    pub disable_admission_plugins: Vec<Plugin>,
    /// Whether the garbage collector runs: owner references delete, orphan or wait for
    /// dependents (kube-controller-manager's flag; `--enable-garbage-collector=false` turns it off).
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set)]
    pub enable_garbage_collector: bool,
    /// Group-versions and resources to serve or not, comma-separated `key=true|false`: `api/all`,
    /// `api/ga`, `api/beta`, `api/alpha`, `<group>/<version>` (`api/v1` for the core group) or
    /// `<group>/<version>/<resource>`. Kubernetes' alpha and beta versions are off unless named.
    #[arg(long, default_value = "")]
    pub runtime_config: String,
    /// The CIDR ClusterIPs are allocated from (one family); its first address is the
    /// `kubernetes` Service's.
    #[arg(long, default_value = "10.0.0.0/24", value_parser = IpRange::parse)]
    pub service_cluster_ip_range: IpRange,
    /// The ports NodePort Services are allocated from (`30000-32767`, or `base+size`).
    #[arg(long, default_value = "30000-32767", value_parser = PortRange::parse)]
    pub service_node_port_range: PortRange,
    /// The address the `kubernetes` Service's endpoints name: where the rest of the cluster
    /// reaches this server. The bind address when that is one host's; the address of the
    /// default route when it is every address; none on loopback (Kubernetes refuses loopback
    /// endpoints).
    #[arg(long)]
    pub advertise_address: Option<IpAddr>,
}

/// Groups of k8s.io/api that kube-apiserver never serves as resources: they describe documents
/// on the wire (aggregated discovery, which `/api` and `/apis` answer) or a webhook's payloads
/// (image policy reviews), whatever `--runtime-config` says.
pub const NEVER_SERVED_GROUPS: [&str; 2] = ["apidiscovery.k8s.io", "imagepolicy.k8s.io"];

/// Kinds of k8s.io/api with object metadata that kube-apiserver has no storage of its own for:
/// bodies of subresources (an Eviction, a TokenRequest), the kubelet's PodStatusResult, and
/// the RangeAllocation it keeps its allocators' bitmaps in, by (group, resource).
pub const NEVER_SERVED_RESOURCES: [(&str, &str); 4] = [
    ("", "podstatusresults"),
    ("", "rangeallocations"),
    ("authentication.k8s.io", "tokenrequests"),
    ("policy", "evictions"),
];

/// Whether kube-apiserver serves the resource `m` maps at all (before `--runtime-config`).
pub fn has_storage(m: &kube_apimachinery::RestMapping) -> bool {
    !NEVER_SERVED_GROUPS.contains(&m.group) && !NEVER_SERVED_RESOURCES.contains(&(m.group, m.resource))
}

/// Whether `group`'s alpha and beta versions are served when `--runtime-config` does not name
/// them: not for Kubernetes' own groups (the core group, the groups without a domain such as
/// `apps` and `batch`, and `*.k8s.io`), whose pre-release APIs are off by default since 1.24
/// (KEP 3136); yes for any other group a server compiles in.
pub fn prerelease_served_by_default(group: &str) -> bool {
    group.contains('.') && !group.ends_with(".k8s.io")
}

impl Options {
    /// The server's configuration: every flag but the listeners'.
    pub fn config(&self) -> Result<Config, Error> {
        let mut resources = ResourceConfig::new(prerelease_served_by_default);
        resources
            .apply(&self.runtime_config)
            .map_err(|e| format!("--runtime-config: {e}"))?;
        Ok(Config {
            generic: self.run.apply(kube_generic_apiserver::Config {
                audit: self.audit.audit()?,
                resources,
                ..kube_generic_apiserver::Config::default()
            }),
            garbage_collection: self.enable_garbage_collector,
            authorization_modes: self.authorization_mode.clone(),
            authentication: self.authentication()?,
            service_account_tokens: Some(Arc::new(self.service_account_tokens()?)),
            event_ttl: self.event_ttl,
            enable_admission_plugins: self.enable_admission_plugins.clone(),
            disable_admission_plugins: self.disable_admission_plugins.clone(),
            services: Network {
                cluster_ip_range: self.service_cluster_ip_range.clone(),
                node_port_range: self.service_node_port_range,
                advertise: self
                    .advertise()
                    .map(|ip| SocketAddr::new(ip, self.secure_serving.secure_port.unwrap_or(6443))),
            },
        })
    }

    /// The address to advertise: the flag's, else the bind address's, else (bound to every
    /// address) the one the host routes from.
    fn advertise(&self) -> Option<IpAddr> {
        if self.advertise_address.is_some() {
            return self.advertise_address;
        }
        let bind = self.secure_serving.bind_address;
        if bind.is_loopback() {
            return None;
        }
        if !bind.is_unspecified() {
            return Some(bind);
        }
        // Connecting a UDP socket sends nothing; it asks the kernel which address the route
        // to a (documentation-range) destination leaves from.
        let socket = std::net::UdpSocket::bind((bind, 0)).ok()?;
        let probe: IpAddr = if bind.is_ipv4() {
            IpAddr::from([192, 0, 2, 1])
        } else {
            "2001:db8::1".parse().ok()?
        };
        socket.connect((probe, 9)).ok()?;
        Some(socket.local_addr().ok()?.ip()).filter(|ip| !ip.is_loopback() && !ip.is_unspecified())
    }

    /// The authenticators the flags turn on.
    pub fn authentication(&self) -> Result<Authentication, Error> {
        let tokens = match &self.token_auth_file {
            Some(path) => Some(TokenFile::read(path)?),
            None => None,
        };
        let client_ca = match &self.client_ca_file {
            Some(path) => {
                Some(std::fs::read_to_string(path).map_err(|e| format!("--client-ca-file {}: {e}", path.display()))?)
            }
            None => None,
        };
        Ok(Authentication {
            client_certificates: self.client_ca_file.is_some(),
            client_ca,
            tokens,
            anonymous: self.anonymous_auth,
            ..Authentication::default()
        })
    }

    /// The ServiceAccount token issuer of the flags: the signing key given, else verification
    /// only when keys are given, else a P-256 key generated into `--cert-dir` on first start (as
    /// the serving certificate is), so that `kubectl create token` works out of the box.
    pub fn service_account_tokens(&self) -> Result<ServiceAccountTokens, Error> {
        let read = |path: &PathBuf| std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()));
        let cert_dir = &self.secure_serving.cert_dir;
        let signing = match (
            &self.service_account_signing_key_file,
            self.service_account_key_file.is_empty(),
        ) {
            (Some(path), _) => Some(read(path)?),
            (None, false) => None,
            (None, true) => {
                let path = cert_dir.join("sa.key");
                if !path.exists() {
                    std::fs::create_dir_all(cert_dir)?;
                    write_private(&path, &generate_key_pem())?;
                }
                Some(read(&path)?)
            }
        };
        let keys = self
            .service_account_key_file
            .iter()
            .map(read)
            .collect::<Result<Vec<_>, _>>()?;
        Ok(ServiceAccountTokens::new(
            self.service_account_issuer.clone(),
            self.api_audiences.clone(),
            signing.as_deref(),
            &keys,
        )?)
    }

    /// The HTTPS listener the flags ask for, beside a plain loopback listener `plain` a binary may
    /// serve: its address and TLS, none when `plain` is given and no `--secure-port`; an error
    /// where the flags would let a request from beyond loopback go unauthenticated.
    pub fn secure_serving(
        &self,
        plain: Option<SocketAddr>,
    ) -> Result<Option<(SocketAddr, Arc<rustls::ServerConfig>)>, Error> {
        if let Some(listen) = plain
            && !listen.ip().is_loopback()
        {
            return Err(format!(
                "--listen {listen}: plain HTTP has no authentication and is served on loopback only; \
                 beyond loopback use --bind-address and --secure-port with an authenticator \
                 (--client-ca-file, --token-auth-file)"
            )
            .into());
        }
        let port = match (self.secure_serving.secure_port, plain) {
            (Some(port), _) => port,
            (None, None) => 6443,
            (None, Some(_)) => return Ok(None),
        };
        let bind = self.secure_serving.bind_address;
        let authenticates = self.client_ca_file.is_some() || self.token_auth_file.is_some();
        // Under AlwaysAllow every authenticated user may do everything, so beyond loopback
        // anonymous requests are refused unless RBAC alone decides.
        let open = self.anonymous_auth && self.authorization_mode.contains(&Mode::AlwaysAllow);
        if !bind.is_loopback() && (!authenticates || open) {
            return Err(format!(
                "--bind-address {bind}: beyond loopback every request must be authenticated; give \
                 --client-ca-file or --token-auth-file without --anonymous-auth=true (or --bind-address 127.0.0.1)"
            )
            .into());
        }
        let (tls, _) = server_config(&self.secure_serving.tls(self.client_ca_file.clone()))?;
        Ok(Some((SocketAddr::new(bind, port), tls)))
    }
}

/// Writes a private key readable by its owner only.
fn write_private(path: &Path, text: &str) -> std::io::Result<()> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)?;
    file.write_all(text.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser, Debug)]
    struct Flags {
        #[arg(long)]
        listen: Option<SocketAddr>,
        #[command(flatten)]
        options: Options,
    }

    fn parse(args: &[&str]) -> Flags {
        Flags::try_parse_from(std::iter::once("kube-apiserver").chain(args.iter().copied())).unwrap()
    }

    #[test]
    fn a_service_account_key_is_generated_once_into_the_cert_dir() {
        let dir = std::env::temp_dir().join(format!("kube-apiserver-sa-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let flags = parse(&["--cert-dir", dir.to_str().unwrap()]);
        let first = flags.options.service_account_tokens().unwrap();
        let key = std::fs::read_to_string(dir.join("sa.key")).unwrap();
        let second = flags.options.service_account_tokens().unwrap();
        assert_eq!(
            std::fs::read_to_string(dir.join("sa.key")).unwrap(),
            key,
            "kept across starts"
        );
        let now = std::time::SystemTime::now();
        let hour = Duration::from_secs(3600);
        let (token, _) = first.issue("t", "a", "u", &[], hour, now).unwrap();
        assert!(matches!(
            second.check(&token, &[], now),
            crate::serviceaccount::Checked::Valid(..)
        ));
        let mode =
            std::os::unix::fs::PermissionsExt::mode(&std::fs::metadata(dir.join("sa.key")).unwrap().permissions());
        assert_eq!(mode & 0o777, 0o600);
        // A verify-only server generates nothing and cannot issue.
        let public = dir.join("other.pub");
        std::fs::write(&public, include_str!("../tests/data/sa-rsa.pub")).unwrap();
        let other = dir.join("elsewhere");
        let flags = parse(&[
            "--cert-dir",
            other.to_str().unwrap(),
            "--service-account-key-file",
            public.to_str().unwrap(),
        ]);
        assert!(!flags.options.service_account_tokens().unwrap().signs());
        assert!(!other.exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn nothing_is_served_beyond_loopback_without_authentication() {
        let refused = |args: &[&str]| {
            let flags = parse(args);
            flags.options.secure_serving(flags.listen).err().map(|e| e.to_string())
        };
        let why = refused(&["--listen", "0.0.0.0:8080"]).unwrap();
        assert!(
            why.starts_with("--listen 0.0.0.0:8080: plain HTTP has no authentication"),
            "{why}"
        );
        // The default: HTTPS on 0.0.0.0:6443, which needs an authenticator.
        let why = refused(&[]).unwrap();
        assert!(why.contains("--client-ca-file or --token-auth-file"), "{why}");
        let tokens = std::env::temp_dir().join("kube-apiserver-tokens.csv");
        std::fs::write(&tokens, "t,u,1\n").unwrap();
        let tokens = tokens.to_str().unwrap();
        assert!(refused(&["--token-auth-file", tokens, "--anonymous-auth=true"]).is_some());
        // Plain loopback HTTP alone serves no HTTPS.
        let flags = parse(&["--listen", "127.0.0.1:8080"]);
        assert!(flags.options.secure_serving(flags.listen).unwrap().is_none());
    }

    #[test]
    fn event_ttls_and_admission_plugins_are_read_as_kube_apiserver_names_them() {
        let dir = std::env::temp_dir().join(format!("kube-apiserver-flags-{}", std::process::id()));
        let flags = parse(&[
            "--cert-dir",
            dir.to_str().unwrap(),
            "--event-ttl",
            "90m",
            "--enable-admission-plugins=AlwaysPullImages",
            "--disable-admission-plugins=NamespaceLifecycle",
        ]);
        let config = flags.options.config().unwrap();
        assert_eq!(config.event_ttl, Duration::from_secs(5400));
        assert_eq!(config.enable_admission_plugins, [Plugin::AlwaysPullImages]);
        assert_eq!(
            Plugin::enabled(&config.enable_admission_plugins, &config.disable_admission_plugins),
            [Plugin::AlwaysPullImages]
        );
        let unknown = Flags::try_parse_from(["kube-apiserver", "--enable-admission-plugins=Nope"]).unwrap_err();
        assert!(
            unknown.to_string().contains("unknown admission plugin \"Nope\""),
            "{unknown}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
