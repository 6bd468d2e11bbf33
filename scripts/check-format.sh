#!/usr/bin/env bash
# Fails when a C++ file is not formatted with the project's .clang-format.
# scripts/check-format.sh --fix rewrites them instead.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
mapfile -t files < <(git ls-files -co --exclude-standard -- '*.hpp' '*.cpp' '*.h' '*.cc' | grep -v '^third_party/' || true)
[ ${#files[@]} -eq 0 ] && exit 0
if [ "${1:-}" = "--fix" ]; then
  clang-format -i "${files[@]}"
  exit 0
fi
if ! clang-format --dry-run --Werror "${files[@]}" 2>/tmp/toolguard-format.log; then
  head -40 /tmp/toolguard-format.log >&2
  echo "check-format: run scripts/check-format.sh --fix" >&2
  exit 1
fi
