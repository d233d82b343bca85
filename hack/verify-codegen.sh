#!/usr/bin/env bash
# Fails with a diff when generated/ (or a fixture's generated tree) is stale; writes nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
exec cargo xtask verify-codegen "$@"
