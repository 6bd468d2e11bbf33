#!/usr/bin/env bash
# Puts the toolguard command (and the library, headers and CMake package) under
# a prefix: ~/.local by default, or the first argument (/usr/local as root).
# Builds the release tree first if needed; idempotent.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
prefix="${1:-$HOME/.local}"
"$root/scripts/install-deps.sh" build
"$root/scripts/build.sh" product
cmake --install "$root/build/release" --prefix "$prefix" >/dev/null
echo "install: $prefix/bin/toolguard"
case ":$PATH:" in
  *":$prefix/bin:"*) ;;
  *) echo "install: $prefix/bin is not on your PATH; add it, e.g. echo 'export PATH=\"$prefix/bin:\$PATH\"' >> ~/.bashrc" ;;
esac
