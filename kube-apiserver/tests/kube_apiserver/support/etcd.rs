//! etcd processes for the tests: a single member or a three-member cluster on free loopback
//! ports, each in a data directory of its own, killed when dropped and its directory removed (each
//! member preallocates 64 MB of write-ahead log, so a test run that kept them would fill a small
//! disk). Needs Debian's etcd-server (`/usr/bin/etcd`, 3.4), which `.ci/run` installs.

#![allow(dead_code)]

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use kube_apiserver_storage::etcd::proto::etcdserverpb::{
    LeaseRevokeRequest, LeaseTimeToLiveRequest, LeaseTimeToLiveResponse, RangeRequest, kv_client::KvClient,
    lease_client::LeaseClient,
};

/// One etcd member.
pub struct Member {
    /// Its client URL.
    pub client: String,
    child: Option<Child>,
    args: Vec<String>,
}

impl Member {
    /// Stops the member (SIGKILL, as a crash would).
    pub fn kill(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

impl Drop for Member {
    fn drop(&mut self) {
        self.kill();
    }
}

/// A running cluster.
pub struct Cluster {
    /// Its members.
    pub members: Vec<Member>,
    /// The directory that holds every member's data directory.
    dir: PathBuf,
}

impl Drop for Cluster {
    fn drop(&mut self) {
        for m in &mut self.members {
            m.kill();
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

impl Cluster {
    /// Every member's client URL.
    pub fn endpoints(&self) -> Vec<String> {
        self.members.iter().map(|m| m.client.clone()).collect()
    }

    /// A gRPC connection to the first member, for reading etcd behind the server's back.
    async fn channel(&self) -> tonic::transport::Channel {
        tonic::transport::Channel::from_shared(self.members[0].client.clone())
            .unwrap()
            .connect()
            .await
            .unwrap()
    }

    /// The lease `key` is attached to (0: none), or `None` when the key does not exist.
    pub async fn lease_of(&self, key: &str) -> Option<i64> {
        let range = RangeRequest {
            key: key.as_bytes().to_vec().into(),
            ..RangeRequest::default()
        };
        let kvs = KvClient::new(self.channel().await)
            .range(range)
            .await
            .unwrap()
            .into_inner()
            .kvs;
        kvs.first().map(|kv| kv.lease)
    }

    /// Lease `id` as etcd has it: its granted TTL and the keys attached to it.
    pub async fn lease(&self, id: i64) -> LeaseTimeToLiveResponse {
        let request = LeaseTimeToLiveRequest { id, keys: true };
        let mut leases = LeaseClient::new(self.channel().await);
        leases.lease_time_to_live(request).await.unwrap().into_inner()
    }

    /// Revokes lease `id`, deleting its keys.
    pub async fn revoke(&self, id: i64) {
        let mut leases = LeaseClient::new(self.channel().await);
        leases.lease_revoke(LeaseRevokeRequest { id }).await.unwrap();
    }
}

/// The body of `GET path` on a member's client URL, if it answers.
fn http_get(client: &str, path: &str) -> Option<String> {
    use std::io::{Read, Write};
    let addr = client.trim_start_matches("http://");
    let mut tcp = std::net::TcpStream::connect(addr).ok()?;
    let _ = tcp.set_read_timeout(Some(Duration::from_secs(1)));
    tcp.write_all(format!("GET {path} HTTP/1.0\r\nHost: {addr}\r\n\r\n").as_bytes())
        .ok()?;
    let mut answer = String::new();
    let _ = tcp.read_to_string(&mut answer);
    Some(answer)
}

/// Whether `GET /health` answers `"health":"true"`.
fn healthy(client: &str) -> bool {
    http_get(client, "/health").is_some_and(|a| a.contains("\"health\":\"true\""))
}

/// The value of an unlabelled Prometheus metric on the member's `/metrics`.
pub fn metric(client: &str, name: &str) -> Option<f64> {
    let text = http_get(client, "/metrics")?;
    text.lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.trim().parse().ok())
}

/// How many TCP connections this process has open to `client`'s port: the sockets among its
/// own file descriptors that /proc/net/tcp lists as established with that remote port.
pub fn connections_from_this_process(client: &str) -> usize {
    let port: u16 = client.rsplit(':').next().unwrap().parse().unwrap();
    let ours: std::collections::HashSet<String> = std::fs::read_dir("/proc/self/fd")
        .unwrap()
        .filter_map(|fd| std::fs::read_link(fd.ok()?.path()).ok())
        .filter_map(|target| {
            let t = target.to_string_lossy().into_owned();
            Some(t.strip_prefix("socket:[")?.strip_suffix(']')?.to_string())
        })
        .collect();
    let table = std::fs::read_to_string("/proc/net/tcp").unwrap();
    table
        .lines()
        .skip(1)
        .filter(|line| {
            let f: Vec<&str> = line.split_whitespace().collect();
            // remote address is "IP:PORT" in hex; state 01 is ESTABLISHED; field 9 is the inode.
            let remote_port = f[2].rsplit(':').next().and_then(|p| u16::from_str_radix(p, 16).ok());
            remote_port == Some(port) && f[3] == "01" && ours.contains(f[9])
        })
        .count()
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// Starts `size` members and waits until every one answers.
pub fn start(name: &str, size: usize) -> Cluster {
    launch(name, size, None)
}

/// The files of an etcd that serves its clients over TLS and asks them for a certificate.
pub struct ServingTls {
    /// The CA that signs the serving certificate and the clients'.
    pub ca: PathBuf,
    /// The serving certificate (for 127.0.0.1) and its key.
    pub cert: PathBuf,
    pub key: PathBuf,
}

/// Starts one member serving its clients on `https://` with `tls` and `--client-cert-auth`, and
/// waits until its port takes connections (readiness over TLS is the caller's first call).
pub fn start_tls(name: &str, tls: &ServingTls) -> Cluster {
    launch(name, 1, Some(tls))
}

fn launch(name: &str, size: usize, tls: Option<&ServingTls>) -> Cluster {
    let scheme = if tls.is_some() { "https" } else { "http" };
    let etcd = "/usr/bin/etcd";
    assert!(
        std::path::Path::new(etcd).exists(),
        "{etcd} is missing: install Debian's etcd-server (.ci/run does)"
    );
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("etcd-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    let ports: Vec<(u16, u16)> = (0..size).map(|_| (free_port(), free_port())).collect();
    let initial: Vec<String> = ports
        .iter()
        .enumerate()
        .map(|(i, (_, peer))| format!("m{i}=http://127.0.0.1:{peer}"))
        .collect();
    let initial = initial.join(",");
    let mut members = Vec::new();
    for (i, (client, peer)) in ports.iter().enumerate() {
        let args: Vec<String> = [
            "--name".into(),
            format!("m{i}"),
            "--data-dir".into(),
            dir.join(format!("m{i}")).display().to_string(),
            "--listen-client-urls".into(),
            format!("{scheme}://127.0.0.1:{client}"),
            "--advertise-client-urls".into(),
            format!("{scheme}://127.0.0.1:{client}"),
            "--listen-peer-urls".into(),
            format!("http://127.0.0.1:{peer}"),
            "--initial-advertise-peer-urls".into(),
            format!("http://127.0.0.1:{peer}"),
            "--initial-cluster".into(),
            initial.clone(),
            "--initial-cluster-token".into(),
            format!("{name}-{}", std::process::id()),
        ]
        .into();
        let mut args = args;
        if let Some(tls) = tls {
            for (flag, path) in [
                ("--cert-file", &tls.cert),
                ("--key-file", &tls.key),
                ("--trusted-ca-file", &tls.ca),
            ] {
                args.extend([flag.to_string(), path.display().to_string()]);
            }
            args.push("--client-cert-auth".into());
        }
        let child = Command::new(etcd)
            .args(&args)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        members.push(Member {
            client: format!("{scheme}://127.0.0.1:{client}"),
            child: Some(child),
            args,
        });
    }
    let deadline = Instant::now() + Duration::from_secs(30);
    for m in &members {
        loop {
            let ready = match tls {
                Some(_) => std::net::TcpStream::connect(m.client.trim_start_matches("https://")).is_ok(),
                None => healthy(&m.client),
            };
            if ready {
                break;
            }
            assert!(Instant::now() < deadline, "etcd at {} did not become healthy", m.client);
            std::thread::sleep(Duration::from_millis(100));
        }
    }
    Cluster { members, dir }
}
