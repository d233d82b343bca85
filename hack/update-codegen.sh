#!/usr/bin/env bash
# Regenerates every zz_generated_*.rs file; a thin wrapper, all logic lives in the generators crate.
set -euo pipefail
cd "$(dirname "$0")/.."
exec cargo xtask codegen "$@"
