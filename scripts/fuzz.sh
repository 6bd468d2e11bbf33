#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (ASan+UBSan, build/fuzz) and runs
# them from their seed corpora (tests/fuzz/corpus/NAME; shell's seeds are in
# tests/fuzz/seeds). See docs/fuzzing.md.
#   scripts/fuzz.sh              every target: shell for $TOOLGUARD_FUZZ_SECONDS
#                                (default 60) seconds, each other one for 10 s
#   scripts/fuzz.sh NAME [RUNS]  one target for RUNS executions (default: 10 s)
# Fails on any crash, leak, timeout or sanitizer report, showing the log's tail.
# TOOLGUARD_FUZZ_NO_BUILD=1 skips the build (runs what build/fuzz holds).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="$root/build/fuzz"
targets=(shell policy import schema paths mcp sse hook)
# libfyaml 0.7.12 (Debian) leaks inside itself on some inputs; only reports
# whose every frame is in libfyaml are suppressed (tests/fuzz/lsan.supp).
export LSAN_OPTIONS="suppressions=$root/tests/fuzz/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"

# run NAME LIMIT: LIMIT is -max_total_time=S or -runs=N.
run() {
  local name="$1" limit="$2"
  local binary="$build/tests/fuzz/${name}_fuzz"
  local seeds="$root/tests/fuzz/corpus/$name"
  [ "$name" = shell ] && seeds="$root/tests/fuzz/seeds"
  local corpus="$build/corpus/$name"
  local log="$build/${name}_fuzz.log"
  mkdir -p "$corpus" "$build/artifacts"
  local start end
  start=$(date +%s)
  if ! "$binary" "$corpus" "$seeds" "$limit" -max_len=4096 -timeout=10 -rss_limit_mb=4096 \
    -artifact_prefix="$build/artifacts/${name}-" -print_final_stats=1 >"$log" 2>&1; then
    tail -n 60 "$log" >&2
    echo "fuzz: ${name}_fuzz failed (full log: $log; the input is in $build/artifacts)" >&2
    return 1
  fi
  end=$(date +%s)
  local runs
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  echo "fuzz: ${name}_fuzz: ${runs:-?} executions in $((end - start)) s"
}

# TOOLGUARD_FUZZ_NO_BUILD=1: run what build/fuzz holds, without building first.
[ -n "${TOOLGUARD_FUZZ_NO_BUILD:-}" ] || "$root/scripts/build.sh" fuzz >/dev/null
if [ $# -eq 0 ]; then
  status=0
  for name in "${targets[@]}"; do
    if [ "$name" = shell ]; then
      run shell "-max_total_time=${TOOLGUARD_FUZZ_SECONDS:-60}" || status=1
    else
      run "$name" -max_total_time=10 || status=1
    fi
  done
  exit "$status"
fi
name="$1"
if [[ ! " ${targets[*]} " == *" $name "* ]]; then
  echo "fuzz.sh: unknown target '$name' (${targets[*]})" >&2
  exit 2
fi
if [ $# -ge 2 ]; then
  run "$name" "-runs=$2"
else
  run "$name" -max_total_time=10
fi
