#!/usr/bin/env bash
# The main job: install what is missing, build, and run the guard's demo on its
# built-in default policy (no configuration needed).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh" release
exec "$root/build/release/toolguard" demo
