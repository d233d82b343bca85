//! Writes the etcd backend's gRPC client and messages from `proto/` into the directory given as
//! the first argument (hack/update-etcd-proto.sh passes storage/src/etcd/proto).

fn main() {
    let out = std::env::args().nth(1).expect("usage: etcd-proto <output directory>");
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/proto");
    tonic_prost_build::configure()
        .build_server(false)
        .out_dir(&out)
        // Values are shared with the registry without a copy.
        .bytes(".")
        .compile_protos(
            &[format!("{root}/etcdserverpb/rpc.proto"), format!("{root}/mvccpb/kv.proto")],
            &[root.to_string()],
        )
        .unwrap_or_else(|e| {
            eprintln!("etcd-proto: {e}");
            std::process::exit(1)
        });
}
