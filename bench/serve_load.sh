#!/usr/bin/env bash
# `toolguard serve` under an independent load generator (wrk), side by side
# with its two floors in the same run: `toolguard check --batch` on the same
# calls (the same engine without HTTP), and the same server answering the
# same requests sent to /healthz (HTTP without a decision). For each:
# requests a second, wrk's p50 and p99, and the CPU each request cost the
# service; the service's and the batch's CPU split into user mode and the
# kernel; then what wrk and (on PostgreSQL) the database's processes spent
# a decision beside it, against what the machine's processors offer at that
# rate.
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
floor_pid=""
cleanup() {
  local pid
  for pid in $serve_pid $floor_pid; do
    kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null || true
  done
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
# half allowed, half denied. SERVE_LOAD_SESSION=ID: each carries that
# session id, as an agent's hook calls do (each call then reads and adds to
# the session's memory in the store, the batch's and the service's alike).
# SERVE_LOAD_SESSIONS=N with it: the calls go to sessions ID-1 .. ID-N in
# turn, one call to each, as the calls of N agents at once come (each agent
# waits for one call's answer before its next; wrk's second thread starts
# half way round).
session_contexts=('{"cwd":"/w"}')
if [ -n "${SERVE_LOAD_SESSION:-}" ]; then
  session_contexts=()
  for ((k = 1; k <= ${SERVE_LOAD_SESSIONS:-1}; k++)); do
    id="$SERVE_LOAD_SESSION"
    [ "${SERVE_LOAD_SESSIONS:-1}" -le 1 ] || id="$SERVE_LOAD_SESSION-$k"
    session_contexts+=("{\"cwd\":\"/w\",\"session\":\"$id\"}")
  done
fi
calls=()
for call in \
  '{"tool":"Bash","args":{"command":"git status && make -j4 test | tail -20"},"context":CONTEXT}' \
  '{"tool":"Bash","args":{"command":"echo ok; rm -rf ~"},"context":CONTEXT}' \
  '{"tool":"Write","args":{"file_path":"src/a.cpp","content":"x"},"context":CONTEXT}' \
  '{"tool":"Read","args":{"file_path":"~/.ssh/id_rsa"},"context":CONTEXT}'; do
  for context in "${session_contexts[@]}"; do calls+=("${call/CONTEXT/$context}"); done
done

# calc EXPRESSION: its value (awk's arithmetic).
calc() { awk "BEGIN { print $1 }"; }
# cpu_sum FIELDS PID...: CPU seconds so far, summed over the processes named
# that still run, of FIELDS (an awk sum of /proc/PID/stat's clock-tick fields).
cpu_sum() {
  local fields="$1" pid total=0
  shift
  for pid in "$@"; do
    [ -r "/proc/$pid/stat" ] || continue
    total=$(awk -v hz="$(getconf CLK_TCK)" -v t="$total" "{ print t + ($fields) / hz }" \
      "/proc/$pid/stat" 2>/dev/null || echo "$total")
  done
  echo "$total"
}
# User and system time; user mode alone (toolguard's code and libraries', not the kernel's).
cpu_of() { cpu_sum '$14 + $15' "$@"; }
user_cpu_of() { cpu_sum '$14' "$@"; }
# The database's processes: its postmaster and those it started.
database_pids() {
  [ "$store_kind" = postgres ] || return 0
  local postmaster
  postmaster="$(head -1 "$work/pg/data/postmaster.pid")"
  echo "$postmaster"
  cat /proc/[0-9]*/stat 2>/dev/null | awk -v p="$postmaster" '$4 == p { print $1 }' || true
}

# The batch: the same calls, 200,000 of them, in one process.
batch_calls=200000
for ((i = 0; i < batch_calls / ${#calls[@]}; i++)); do printf '%s\n' "${calls[@]}"; done >"$work/calls.jsonl"
batch_start=$(date +%s.%N)
/usr/bin/time -f '%U %S' -o "$work/batch.time" "$toolguard" check --batch <"$work/calls.jsonl" >/dev/null
batch_wall=$(calc "$(date +%s.%N) - $batch_start")
read -r batch_user batch_sys <"$work/batch.time"
batch_cpu_us=$(calc "($batch_user + $batch_sys) * 1000000 / $batch_calls")
batch_rate=$(calc "$batch_calls / $batch_wall")

token="$("$toolguard" serve token add --role agent --name bench --owner bench-owner --store "$store" | tail -1)"
# start_service STORE NAME: the service on STORE (toolguard-serve, which
# `toolguard serve` becomes by exec); sets NAME_pid and NAME_port.
start_service() {
  local out="$work/$2.out"
  "$toolguard" serve --store "$1" --listen 127.0.0.1:0 --rate 1000000000 >"$out" 2>"$work/$2.log" &
  local pid=$!
  for _ in $(seq 100); do grep -q listening "$out" 2>/dev/null && break; sleep 0.1; done
  local port
  port="$(sed -n 's/.*127.0.0.1:\([0-9]*\).*/\1/p' "$out")"
  [ -n "$port" ] || { cat "$work/$2.log" >&2; exit 1; }
  printf -v "$2_pid" '%s' "$pid"
  printf -v "$2_port" '%s' "$port"
}
start_service "$store" serve

# request_script PATH TOKEN: wrk's script, sending the calls in turn to PATH.
request_script() {
  cat <<EOF
local calls = {
$(for c in "${calls[@]}"; do printf '  [==[%s]==],\n' "$c"; done)
}
local threads_started = 0
setup = function(thread)
  thread:set("first", threads_started * math.floor(#calls / 2))
  threads_started = threads_started + 1
end
init = function(args)
  n = first or 0
end
request = function()
  n = n + 1
  return wrk.format("POST", "$1", {["Authorization"] = "Bearer $2",
    ["Content-Type"] = "application/json"}, calls[(n % #calls) + 1])
end
EOF
}

# measure NAME PID PORT SCRIPT: a short warm-up, then the measured run. Sets
# NAME_rate, NAME_p50, NAME_p99, and per request in microseconds NAME_cpu
# (the service's CPU), NAME_wrk (wrk's) and NAME_db (the database's).
measure() {
  local name="$1" pid="$2" port="$3" script="$4"
  wrk -t "$threads" -c "$connections" -d 2s -s "$script" "http://127.0.0.1:$port" >/dev/null
  local db_pids cpu_before db_before cpu_after db_after user_before user_after
  db_pids="$(database_pids)"
  cpu_before=$(cpu_of "$pid")
  user_before=$(user_cpu_of "$pid")
  db_before=$(cpu_of $db_pids)
  # SERVE_LOAD_PERF=FILE: the service's profile during its measured run (perf
  # record); SERVE_LOAD_STRACE=FILE: its system calls counted (strace -c).
  local perf_pid=""
  if [ "$name" = serve ] && [ -n "${SERVE_LOAD_PERF:-}" ]; then
    perf record ${SERVE_LOAD_PERF_ARGS:-} -q -o "$SERVE_LOAD_PERF" -p "$pid" -- sleep "$seconds" 2>/dev/null &
    perf_pid=$!
  elif [ "$name" = serve ] && [ -n "${SERVE_LOAD_STRACE:-}" ]; then
    timeout -s INT "$seconds" strace -c -f -o "$SERVE_LOAD_STRACE" -p "$pid" 2>/dev/null &
    perf_pid=$!
  fi
  /usr/bin/time -f '%U %S' -o "$work/$name.wrk.time" wrk -t "$threads" -c "$connections" \
    -d "${seconds}s" --latency -s "$script" "http://127.0.0.1:$port" >"$work/$name.wrk.out"
  cpu_after=$(cpu_of "$pid")
  user_after=$(user_cpu_of "$pid")
  db_after=$(cpu_of $db_pids)
  [ -z "$perf_pid" ] || wait "$perf_pid" || true
  local out="$work/$name.wrk.out" requests errors wrk_user wrk_sys
  errors=$(awk '/Non-2xx|Socket errors/' "$out")
  [ -z "$errors" ] || { echo "serve_load: wrk saw errors ($name): $errors" >&2; exit 1; }
  requests=$(awk '/requests in/ { print $1 }' "$out")
  read -r wrk_user wrk_sys <"$work/$name.wrk.time"
  printf -v "${name}_rate" '%s' "$(awk '/Requests\/sec/ { print $2 }' "$out")"
  printf -v "${name}_p50" '%s' "$(awk '$1 == "50%" { print $2 }' "$out")"
  printf -v "${name}_p99" '%s' "$(awk '$1 == "99%" { print $2 }' "$out")"
  printf -v "${name}_cpu" '%s' "$(calc "($cpu_after - $cpu_before) * 1000000 / $requests")"
  printf -v "${name}_user" '%s' "$(calc "($user_after - $user_before) * 1000000 / $requests")"
  printf -v "${name}_wrk" '%s' "$(calc "($wrk_user + $wrk_sys) * 1000000 / $requests")"
  printf -v "${name}_db" '%s' "$(calc "($db_after - $db_before) * 1000000 / $requests")"
}
request_script /v1/check "$token" >"$work/calls.lua"
measure serve "$serve_pid" "$serve_port" "$work/calls.lua"

# The HTTP floor: the same requests sent to /healthz, which a file store's
# service answers on the event thread without a token, a decision or an
# audit record. On PostgreSQL /healthz is a query, so the floor is taken
# from a service on a file store beside it.
if [ "$store_kind" = postgres ]; then
  HOME="$work/floor" TOOLGUARD_HOME="$work/floor/.toolguard" start_service file floor
else
  floor_pid="$serve_pid" floor_port="$serve_port"
fi
request_script /healthz "$token" >"$work/floor.lua"
measure floor "$floor_pid" "$floor_port" "$work/floor.lua"

row() { printf '%-50s %11.0f %9s %9s %11.1f us\n' "$@"; }
printf '%-50s %11s %9s %9s %14s\n' "" "requests/s" "p50" "p99" "CPU/request"
row "check --batch (one process, its own CPU)" "$batch_rate" "" "" "$batch_cpu_us"
row "serve, $store_kind store, $connections connections (wrk)" \
  "$serve_rate" "$serve_p50" "$serve_p99" "$serve_cpu"
row "HTTP floor: the same requests to /healthz" "$floor_rate" "$floor_p50" "$floor_p99" "$floor_cpu"
printf 'service CPU per decision against the batch: %.2fx (the batch plus the HTTP floor: %.2fx)\n' \
  "$(calc "$serve_cpu / $batch_cpu_us")" "$(calc "($batch_cpu_us + $floor_cpu) / $batch_cpu_us")"
# The same CPU, split: user mode (toolguard's code and its libraries) and the
# kernel (for the service, mostly loopback TCP: a sendmsg also runs wrk's
# receiving side and wakes it).
batch_user_us=$(calc "$batch_user * 1000000 / $batch_calls")
printf 'of which user mode: the service %.1f us, the batch %.1f us (%.2fx); the kernel: %.1f us against %.1f us\n' \
  "$serve_user" "$batch_user_us" "$(calc "$serve_user / $batch_user_us")" \
  "$(calc "$serve_cpu - $serve_user")" "$(calc "$batch_cpu_us - $batch_user_us")"
processors="$(nproc)"
offered="$(calc "$processors * 1000000 / $serve_rate")"
if [ "$store_kind" = postgres ]; then
  printf 'a decision also cost wrk %.1f us and the database %.1f us: %.1f us in all, of the %.1f us %s processors offer at this rate\n' \
    "$serve_wrk" "$serve_db" "$(calc "$serve_cpu + $serve_wrk + $serve_db")" "$offered" "$processors"
else
  printf 'a decision also cost wrk %.1f us: %.1f us in all, of the %.1f us %s processors offer at this rate\n' \
    "$serve_wrk" "$(calc "$serve_cpu + $serve_wrk")" "$offered" "$processors"
fi
printf 'the floor cost wrk %.1f us a request\n' "$floor_wrk"
