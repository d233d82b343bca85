//! A third real client: the official JavaScript client, @kubernetes/client-node (pinned in
//! `xtask/src/test.rs`, installed under `target/js-client` by `cargo xtask test`), drives
//! ConfigMaps through its typed API and an informer against the sample server on loopback
//! (`tests/javascript/configmaps.mjs`).

use crate::support;

use std::path::Path;
use std::process::Command;

#[test]
fn the_javascript_client_creates_lists_patches_deletes_and_informs() {
    let entry = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../target/js-client/node_modules/@kubernetes/client-node/dist/index.js"
    );
    assert!(
        Path::new(entry).exists(),
        "{entry} is missing: `cargo xtask test` installs the pinned @kubernetes/client-node there"
    );
    let server = support::start();
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/javascript/configmaps.mjs");
    let out = Command::new("node")
        .arg(script)
        .arg(&server.url)
        .arg(entry)
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
        "informer: started\ncreate and read: 3 objects\nlist: 2 pages, remainingItemCount 1\n\
         patch: merge, JSON patch, apply, apply conflict with causes\n\
         delete: Success Status, 404, 422 with causes, dry run keeps the object\n\
         informer: 4 adds, 1 delete, cache of 3\n"
    );
}
