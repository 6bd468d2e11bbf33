#!/usr/bin/env bash
# Writes tests/data/fig-options.json: the options that Fig's completion
# specs list for each program (and subcommand) that has a table of harmless
# options here, for tests/unit/fig_options_test.cpp. The tests read the
# committed JSON and never need npm.
#
# Source: the npm package @withfig/autocomplete, pinned at version 2.692.3
# (MIT License, Copyright (c) 2021 Hercules Labs Inc. (Fig); the package's
# LICENSE file). Only that package is fetched (`npm pack`, into a temporary
# directory removed at the end); nothing else is downloaded, and no code of
# the package runs but its spec modules' top level (plain objects).
#
# The tables' commands come from the unit tests themselves (FigOptions.
# TheDataWasMadeForTheseTables writes them to $TOOLGUARD_FIG_TABLES), so the
# list is the one the C++ side has: build toolguard_unit_tests first.
#
# What Fig makes only by code at completion time (generateSpec, loadSpec
# functions) is skipped; scripts/fig-options.mjs says what else is.
#
# Usage: scripts/fig-options.sh [UNIT_TEST_BINARY]
#   default binary: build/release/tests/toolguard_unit_tests
# Re-runnable: the same version and tables give the same file.
set -euo pipefail
version=2.692.3
root="$(cd "$(dirname "$0")/.." && pwd)"
binary="${1:-$root/build/release/tests/toolguard_unit_tests}"
out="$root/tests/data/fig-options.json"
if [ ! -x "$binary" ]; then
  echo "fig-options: no unit test binary at $binary (build toolguard_unit_tests)" >&2
  exit 1
fi
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

TOOLGUARD_FIG_TABLES="$tmp/tables.txt" "$binary" \
  --gtest_filter='FigOptions.TheDataWasMadeForTheseTables' >"$tmp/gtest.log" 2>&1 || true
if [ ! -s "$tmp/tables.txt" ]; then
  cat "$tmp/gtest.log" >&2
  echo "fig-options: the unit tests wrote no list of tables" >&2
  exit 1
fi

(cd "$tmp" && npm pack --silent "@withfig/autocomplete@$version" >/dev/null)
tar -xzf "$tmp/withfig-autocomplete-$version.tgz" -C "$tmp"
grep -q '^MIT License' "$tmp/package/LICENSE" || {
  echo "fig-options: the package's license is no longer MIT: check it" >&2
  exit 1
}
node "$root/scripts/fig-options.mjs" "$tmp/package" "$tmp/tables.txt" >"$tmp/fig-options.json"
mv "$tmp/fig-options.json" "$out"
echo "fig-options: wrote $out ($(wc -c <"$out") bytes)"
