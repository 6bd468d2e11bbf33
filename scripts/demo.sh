#!/usr/bin/env bash
# The main job: install what is missing, build, and run the guard's demo on its
# built-in default policy (no configuration needed).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
# Only what the demo runs: the build packages and the toolguard command.
"$root/scripts/install-deps.sh" build
"$root/scripts/build.sh" command
exec "$root/build/release/toolguard" demo
