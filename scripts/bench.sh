#!/usr/bin/env bash
# Builds the release tree and runs the benchmarks (not part of the tests: timings
# are reported, never asserted). Extra arguments go to Google Benchmark.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh" release
exec "$root/build/release/bench/toolguard_bench" "$@"
