#!/usr/bin/env bash
# Regenerates the etcd backend's checked-in gRPC client (storage/src/etcd/proto/) from the
# trimmed etcd protos in hack/etcd-proto/proto, or writes it into the directory given as the first
# argument (`cargo xtask test` does, to check the checked-in one is current). Needs protoc
# (apt-get install protobuf-compiler); the server itself builds without it.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:-$root/storage/src/etcd/proto}"
mkdir -p "$out"
cargo run --quiet --manifest-path "$root/hack/etcd-proto/Cargo.toml" \
    --target-dir "${CARGO_TARGET_DIR:-$root/target}/etcd-proto" -- "$out"
rustfmt --edition 2024 --config-path "$root/rustfmt.toml" "$out"/*.rs
