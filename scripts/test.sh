#!/usr/bin/env bash
# Install what is missing, build (release with -Werror, and ASan+UBSan), run every test.
# Each step's wall time is printed at its end, and all of them at the end.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
jobs="$(nproc 2>/dev/null || echo 2)"
start=$SECONDS
times=()
# step NAME COMMAND...: runs the command and records how long it took.
step() {
  local name="$1" began=$SECONDS
  shift
  echo "== $name"
  "$@"
  times+=("$(printf '%5d s  %s' $((SECONDS - began)) "$name")")
  echo "== $name: $((SECONDS - began)) s"
}
step "install what is missing" "$root/scripts/install-deps.sh" test
step "format, layers, unity names" bash -c '"$1/scripts/check-format.sh" && "$1/scripts/check-layers.sh" &&
  /usr/bin/python3 "$1/scripts/check-unity-names.py" "$1"' _ "$root"
for kind in release asan; do
  step "build: $kind" "$root/scripts/build.sh" "$kind"
  # The service tests (label serve: PostgreSQL, serve processes, the browser)
  # run against the release build only; the sanitizer build runs the C++ tests.
  exclude=()
  [ "$kind" = asan ] && exclude=(-LE serve)
  step "tests: $kind" bash -c 'cd "$1" && shift && ctest --output-on-failure "$@"' _ \
    "$root/build/$kind" -j "$jobs" "${exclude[@]}"
done
step "fuzz: ${TOOLGUARD_FUZZ_SECONDS:-60} s and 10 s per other target" "$root/scripts/fuzz.sh"
echo "== times"
printf '%s\n' "${times[@]}"
printf '%5d s  in all\n' $((SECONDS - start))
