#!/usr/bin/env bash
# Installs the Debian packages toolguard needs to build and test, if any are missing.
# Idempotent: does nothing (and needs no network) when everything is present.
set -euo pipefail

packages=(
  build-essential cmake pkg-config git
  nlohmann-json3-dev libre2-dev libyaml-cpp-dev libcli11-dev libtree-sitter-dev
  libcpp-httplib-dev libssl-dev zlib1g-dev libbrotli-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  clang-format clang libclang-rt-14-dev
  json-schema-test-suite libtomlplusplus-dev libfyaml-dev
  # The JSON Schema Test Suite's drafts 2019-09 and 2020-12 (json-schema-test-suite
  # stops at draft 7): this Perl package ships the whole suite, at commit 47958f8.
  libtest-json-schema-acceptance-perl
  # toolguard serve: the HTTP/1.1 server, the PostgreSQL client library, and
  # the PostgreSQL server its tests start a throw-away cluster of.
  libmicrohttpd-dev libpq-dev postgresql curl
  # The web queue's browser tests drive Debian's chromium (playwright-core,
  # from npm, downloads no browser).
  chromium
  # The bindings (bindings/): Python's tests (pytest, run by /usr/bin/python3)
  # and Go's (Debian's Go, cgo).
  python3-dev python3-pytest python3-yaml python3-setuptools pybind11-dev golang-go
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

# npm fetches the pinned bash grammar (its C sources are compiled into toolguard).
if ! command -v npm >/dev/null 2>&1; then missing+=(nodejs npm); fi

if [ ${#missing[@]} -gt 0 ]; then
  echo "install-deps: installing ${missing[*]}" >&2
  as_root=()
  if [ "$(id -u)" -ne 0 ]; then as_root=(sudo); fi
  export DEBIAN_FRONTEND=noninteractive
  "${as_root[@]}" apt-get update -qq
  "${as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# The tree-sitter-bash grammar, exactly as package-lock.json pins it.
grammar="$(cd "$(dirname "$0")/.." && pwd)/third_party/bash-grammar"
want="$(sed -n 's/.*"tree-sitter-bash": "\([0-9.]*\)".*/\1/p' "$grammar/package.json")"
have="$(sed -n 's/^  "version": "\([0-9.]*\)".*/\1/p' \
  "$grammar/node_modules/tree-sitter-bash/package.json" 2>/dev/null || true)"
if [ "$want" != "$have" ] || [ ! -f "$grammar/node_modules/tree-sitter-bash/src/parser.c" ]; then
  echo "install-deps: fetching tree-sitter-bash $want (npm ci)" >&2
  (cd "$grammar" && npm ci --no-audit --no-fund >/dev/null)
fi

# npm packages the tests run, exactly as each package-lock.json pins them:
# npm ci when a package is missing or has another version than the lock.
# tests/mcp-peers: the real MCP peers of the `toolguard mcp` end-to-end tests
# (the official SDK's client and the reference filesystem server).
# tests/browser: playwright-core, which drives chromium in the web queue's tests.
root="$(cd "$(dirname "$0")/.." && pwd)"
# bindings/node: node-addon-api and cmake-js, which build the Node.js addon,
# and multi-llm-ts, which its adapter is tested with.
for dir in "$root/tests/mcp-peers" "$root/tests/browser" "$root/bindings/node"; do
  if ! (cd "$dir" && node -e '
    const fs = require("fs");
    const lock = JSON.parse(fs.readFileSync("package-lock.json", "utf8")).packages;
    for (const [path, want] of Object.entries(lock)) {
      if (path === "" || want.link) continue;
      let have;
      try { have = JSON.parse(fs.readFileSync(path + "/package.json", "utf8")).version; } catch {}
      if (have === undefined && want.optional) continue;
      if (have !== want.version) process.exit(1);
    }' 2>/dev/null); then
    echo "install-deps: fetching the test packages of ${dir#"$root"/} (npm ci)" >&2
    (cd "$dir" && npm ci --no-audit --no-fund >/dev/null)
  fi
done
