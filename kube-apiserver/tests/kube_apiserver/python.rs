//! A second real client: Debian's python3-kubernetes (22.6) lists, creates, patches and watches
//! a Deployment against the sample server on loopback (`tests/python/deployments.py`).

use crate::support;

use std::process::Command;

#[test]
fn the_python_client_lists_creates_patches_and_watches() {
    let server = support::start();
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/python/deployments.py");
    // Debian's interpreter, where python3-kubernetes is installed (.ci/run installs it).
    let out = Command::new("/usr/bin/python3")
        .arg(script)
        .arg(&server.url)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        stdout,
        "list: empty\ncreate: uid, generation 1, defaults\npatch: replicas 3, generation 2\n\
         watch: MODIFIED 3, MODIFIED 4\nlist: all namespaces with a label selector\nread: 404 for a missing object\n\
         create: 422 Invalid with the causes\ndelete: a dry run keeps it, then a Success Status\n\
         read: a name with a colon, escaped\n"
    );
}
