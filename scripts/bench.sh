#!/usr/bin/env bash
# Builds the release tree and runs the benchmarks (not part of the tests: timings
# are reported, never asserted). Extra arguments go to Google Benchmark.
#
#   scripts/bench.sh --readme   runs the benchmarks of the README's performance
#                               table once and rewrites that table from the run,
#                               each row with its ratio to its floor.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh" release
bench="$root/build/release/bench"
if [[ "${1:-}" == "--readme" ]]; then
  shift
  results="$root/build/release/bench-readme.json"
  "$bench/toolguard_bench" --benchmark_filter="$("$bench/toolguard_bench_readme" --filter)" \
    --benchmark_out="$results" --benchmark_out_format=json "$@"
  "$bench/toolguard_bench_readme" "$results" "$root/README.md"
  echo "bench: README.md's performance table rewritten from $results"
  exit 0
fi
exec "$bench/toolguard_bench" "$@"
