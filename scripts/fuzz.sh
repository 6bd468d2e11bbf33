#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (ASan+UBSan) and runs the shell
# fuzzer for $TOOLGUARD_FUZZ_SECONDS (default 60) from the seeds in
# tests/fuzz/seeds. Fails on any crash, leak or sanitizer report.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/build.sh" fuzz >/dev/null
corpus="$root/build/fuzz/corpus"
mkdir -p "$corpus"
log="$root/build/fuzz/shell_fuzz.log"
if ! "$root/build/fuzz/tests/fuzz/shell_fuzz" "$corpus" "$root/tests/fuzz/seeds" \
  -max_total_time="${TOOLGUARD_FUZZ_SECONDS:-60}" -max_len=4096 -timeout=10 -rss_limit_mb=4096 \
  -print_final_stats=1 >"$log" 2>&1; then
  tail -n 60 "$log" >&2
  echo "fuzz: shell_fuzz failed (full log: $log)" >&2
  exit 1
fi
grep -E "^(Done|stat::number_of_executed_units|stat::peak_rss_mb)" "$log" || tail -n 5 "$log"
