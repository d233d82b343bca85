//! etcd processes for the tests: a single member or a three-member cluster on free loopback
//! ports, each in a data directory of its own, killed when dropped. Needs Debian's etcd-server
//! (`/usr/bin/etcd`, 3.4), which `.ci/run` installs.

#![allow(dead_code)]

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

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
}

impl Cluster {
    /// Every member's client URL.
    pub fn endpoints(&self) -> Vec<String> {
        self.members.iter().map(|m| m.client.clone()).collect()
    }
}

/// Whether `GET /health` answers `"health":"true"`.
fn healthy(client: &str) -> bool {
    use std::io::{Read, Write};
    let addr = client.trim_start_matches("http://");
    let Ok(mut tcp) = std::net::TcpStream::connect(addr) else {
        return false;
    };
    let _ = tcp.set_read_timeout(Some(Duration::from_secs(1)));
    if tcp
        .write_all(format!("GET /health HTTP/1.0\r\nHost: {addr}\r\n\r\n").as_bytes())
        .is_err()
    {
        return false;
    }
    let mut answer = String::new();
    let _ = tcp.read_to_string(&mut answer);
    answer.contains("\"health\":\"true\"")
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// Starts `size` members and waits until every one answers.
pub fn start(name: &str, size: usize) -> Cluster {
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
            format!("http://127.0.0.1:{client}"),
            "--advertise-client-urls".into(),
            format!("http://127.0.0.1:{client}"),
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
        let child = Command::new(etcd)
            .args(&args)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        members.push(Member {
            client: format!("http://127.0.0.1:{client}"),
            child: Some(child),
            args,
        });
    }
    let deadline = Instant::now() + Duration::from_secs(30);
    for m in &members {
        loop {
            if healthy(&m.client) {
                break;
            }
            assert!(Instant::now() < deadline, "etcd at {} did not become healthy", m.client);
            std::thread::sleep(Duration::from_millis(100));
        }
    }
    Cluster { members }
}
