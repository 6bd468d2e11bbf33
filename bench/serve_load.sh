#!/usr/bin/env bash
# `toolguard serve` under an independent load generator (wrk), side by side
# with `toolguard check --batch` on the same calls in the same run: decisions
# a second, wrk's p50 and p99, and the CPU each decision costs the service
# against what it costs the batch (the floor: the same engine without HTTP).
#   bench/serve_load.sh [file|postgres] [CONNECTIONS] [SECONDS]
# Needs a release build (scripts/build.sh release) and wrk (scripts/install-deps.sh).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
store_kind="${1:-file}"
connections="${2:-8}"
seconds="${3:-10}"
threads=2
# SERVE_LOAD_BINARY: another build's toolguard (with its toolguard-serve beside it), to compare.
toolguard="${SERVE_LOAD_BINARY:-$root/build/release/toolguard}"
[ -x "$toolguard" ] || { echo "serve_load: build first: scripts/build.sh release" >&2; exit 1; }
command -v wrk >/dev/null || { echo "serve_load: wrk is missing (scripts/install-deps.sh)" >&2; exit 1; }

work="$(mktemp -d)"
chmod 755 "$work"
serve_pid=""
cleanup() {
  [ -n "$serve_pid" ] && kill "$serve_pid" 2>/dev/null && wait "$serve_pid" 2>/dev/null || true
  [ "$store_kind" = postgres ] && "$root/scripts/pg-cluster.sh" stop "$work/pg" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
export HOME="$work/home" TOOLGUARD_HOME="$work/home/.toolguard"
export TOOLGUARD_CONFIG_DIR="$work/user" TOOLGUARD_MANAGED_DIR="$work/managed"
mkdir -p "$HOME"

store=file
if [ "$store_kind" = postgres ]; then
  store="$("$root/scripts/pg-cluster.sh" start "$work/pg" 55432)"
fi

# The calls of BM_CheckBatchThroughput: two shell commands, two file calls,
# half allowed, half denied.
calls=(
  '{"tool":"Bash","args":{"command":"git status && make -j4 test | tail -20"},"context":{"cwd":"/w"}}'
  '{"tool":"Bash","args":{"command":"echo ok; rm -rf ~"},"context":{"cwd":"/w"}}'
  '{"tool":"Write","args":{"file_path":"src/a.cpp","content":"x"},"context":{"cwd":"/w"}}'
  '{"tool":"Read","args":{"file_path":"~/.ssh/id_rsa"},"context":{"cwd":"/w"}}'
)

# CPU seconds (user + system) of a process so far.
cpu_of() {
  awk -v hz="$(getconf CLK_TCK)" '{ print ($14 + $15) / hz }' "/proc/$1/stat"
}

# The batch: the same calls, 200,000 of them, in one process.
batch_calls=200000
for ((i = 0; i < batch_calls / 4; i++)); do printf '%s\n' "${calls[@]}"; done >"$work/calls.jsonl"
# calc EXPRESSION: its value (awk's arithmetic).
calc() { awk "BEGIN { print $1 }"; }
batch_start=$(date +%s.%N)
/usr/bin/time -f '%U %S' -o "$work/batch.time" "$toolguard" check --batch <"$work/calls.jsonl" >/dev/null
batch_wall=$(calc "$(date +%s.%N) - $batch_start")
read -r batch_user batch_sys <"$work/batch.time"
batch_cpu_us=$(calc "($batch_user + $batch_sys) * 1000000 / $batch_calls")
batch_rate=$(calc "$batch_calls / $batch_wall")

token="$("$toolguard" serve token add --role agent --name bench --owner bench-owner --store "$store" | tail -1)"
"$toolguard" serve --store "$store" --listen 127.0.0.1:0 --rate 1000000000 \
  >"$work/serve.out" 2>"$work/serve.log" &
serve_pid=$!
for _ in $(seq 100); do grep -q listening "$work/serve.out" 2>/dev/null && break; sleep 0.1; done
port="$(sed -n 's/.*127.0.0.1:\([0-9]*\).*/\1/p' "$work/serve.out")"
[ -n "$port" ] || { cat "$work/serve.log" >&2; exit 1; }
# The service is toolguard-serve, which `toolguard serve` became (exec).
cat >"$work/calls.lua" <<EOF
local calls = {
$(for c in "${calls[@]}"; do printf '  [==[%s]==],\n' "$c"; done)
}
local n = 0
request = function()
  n = n + 1
  return wrk.format("POST", "/v1/check", {["Authorization"] = "Bearer $token",
    ["Content-Type"] = "application/json"}, calls[(n % #calls) + 1])
end
EOF
# A short warm-up, then the measured run.
wrk -t "$threads" -c "$connections" -d 2s -s "$work/calls.lua" "http://127.0.0.1:$port" >/dev/null
cpu_before=$(cpu_of "$serve_pid")
# SERVE_LOAD_PERF=FILE: the service's profile during the measured run (perf
# record); SERVE_LOAD_STRACE=FILE: its system calls counted (strace -c).
perf_pid=""
if [ -n "${SERVE_LOAD_PERF:-}" ]; then
  perf record ${SERVE_LOAD_PERF_ARGS:-} -q -o "$SERVE_LOAD_PERF" -p "$serve_pid" -- sleep "$seconds" 2>/dev/null &
  perf_pid=$!
elif [ -n "${SERVE_LOAD_STRACE:-}" ]; then
  timeout -s INT "$seconds" strace -c -f -o "$SERVE_LOAD_STRACE" -p "$serve_pid" 2>/dev/null &
  perf_pid=$!
fi
/usr/bin/time -f "wrk cpu %U user %S sys" -o "$work/wrk.time" wrk -t "$threads" -c "$connections" -d "${seconds}s" --latency -s "$work/calls.lua" \
  "http://127.0.0.1:$port" >"$work/wrk.out"
cpu_after=$(cpu_of "$serve_pid")
[ -z "$perf_pid" ] || wait "$perf_pid" || true
requests=$(awk '/requests in/ { print $1 }' "$work/wrk.out")
errors=$(awk '/Non-2xx|Socket errors/' "$work/wrk.out")
serve_rate=$(awk '/Requests\/sec/ { print $2 }' "$work/wrk.out")
p50=$(awk '$1 == "50%" { print $2 }' "$work/wrk.out")
p99=$(awk '$1 == "99%" { print $2 }' "$work/wrk.out")
serve_cpu_us=$(calc "($cpu_after - $cpu_before) * 1000000 / $requests")

printf '%-44s %12s %9s %9s %14s\n' "" "decisions/s" "p50" "p99" "CPU/decision"
printf '%-44s %12.0f %9s %9s %11.1f us\n' "check --batch (one process)" "$batch_rate" "" "" "$batch_cpu_us"
printf '%-44s %12.0f %9s %9s %11.1f us\n' "serve, $store_kind store, $connections connections (wrk)" \
  "$serve_rate" "$p50" "$p99" "$serve_cpu_us"
printf 'service CPU per decision against the batch: %.2fx\n' "$(calc "$serve_cpu_us / $batch_cpu_us")"
cat "$work/wrk.time"
[ -z "$errors" ] || { echo "wrk saw errors: $errors" >&2; exit 1; }
