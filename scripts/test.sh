#!/usr/bin/env bash
# Install what is missing, build (release with -Werror, and ASan+UBSan), run every test.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
jobs="$(nproc 2>/dev/null || echo 2)"
"$root/scripts/install-deps.sh" test
"$root/scripts/check-format.sh"
"$root/scripts/check-layers.sh"
/usr/bin/python3 "$root/scripts/check-unity-names.py" "$root"
for kind in release asan; do
  echo "== build: $kind"
  "$root/scripts/build.sh" "$kind"
  echo "== tests: $kind"
  # The service tests (label serve: PostgreSQL, serve processes) run against
  # the release build only; the sanitizer build runs the C++ tests.
  exclude=()
  [ "$kind" = asan ] && exclude=(-LE serve)
  (cd "$root/build/$kind" && ctest --output-on-failure -j "$jobs" "${exclude[@]}")
done
echo "== fuzz: ${TOOLGUARD_FUZZ_SECONDS:-60} s"
"$root/scripts/fuzz.sh"
