#!/usr/bin/env bash
# Installs the Debian packages (and pinned npm packages) toolguard needs, if any
# are missing. Idempotent: does nothing (and needs no network) when everything
# is present.
#   scripts/install-deps.sh build   what building the command and library needs
#                                   (scripts/demo.sh, scripts/install.sh)
#   scripts/install-deps.sh test    that, and what only the tests need: test
#                                   frameworks, PostgreSQL, chromium, the
#                                   bindings' toolchains, the npm test peers
#                                   (the default; scripts/test.sh)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
purpose="${1:-test}"
case "$purpose" in
  build | test) ;;
  *) echo "install-deps.sh: unknown purpose '$purpose' (build|test)" >&2; exit 2 ;;
esac

# The command, the library, toolguard-http and toolguard-serve.
build_packages=(
  build-essential cmake ninja-build pkg-config git
  nlohmann-json3-dev libre2-dev libyaml-cpp-dev libcli11-dev libtree-sitter-dev
  libcpp-httplib-dev libssl-dev zlib1g-dev libbrotli-dev
  libtomlplusplus-dev libfyaml-dev nettle-dev
  # lld links the command with what a check runs placed together (CMakeLists.txt).
  lld
  # toolguard sandbox: the system-call filter (seccomp).
  libseccomp-dev
  # toolguard serve: the HTTP/1.1 server, its TLS library (client
  # certificates are verified with GnuTLS) and the PostgreSQL client library.
  libmicrohttpd-dev libgnutls28-dev libpq-dev
  # toolguard serve: a malloc that caches per thread (gperftools' tcmalloc).
  libgoogle-perftools-dev
)
# Only the tests (and benchmarks, fuzzers, bindings) need these.
test_packages=(
  libgtest-dev libgmock-dev libbenchmark-dev
  clang-format clang libclang-rt-14-dev
  json-schema-test-suite
  # The JSON Schema Test Suite's drafts 2019-09 and 2020-12 (json-schema-test-suite
  # stops at draft 7): this Perl package ships the whole suite, at commit 47958f8.
  libtest-json-schema-acceptance-perl
  # The PostgreSQL server the service's tests start a throw-away cluster of.
  postgresql curl
  # The TLS tests make a test CA with the openssl command; the service's load
  # benchmark (bench/serve_load.sh) drives it with wrk and times
  # the batch with /usr/bin/time.
  openssl wrk time
  # docs.command_lines runs docs/agent-install.md's check of the installed
  # hook, which reads the command from the settings file with jq.
  jq
  # The web queue's browser tests drive Debian's chromium (playwright-core,
  # from npm, downloads no browser).
  chromium
  # The bindings (bindings/): Python's tests (pytest, run by /usr/bin/python3)
  # and Go's (Debian's Go, cgo).
  python3-dev python3-pytest python3-yaml python3-setuptools pybind11-dev golang-go
  # The sandbox's tests make a virtual environment and run pytest inside it.
  python3-venv
)
packages=("${build_packages[@]}")
[ "$purpose" = test ] && packages+=("${test_packages[@]}")

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

# npm_ci_if_stale DIR WHAT: npm ci in DIR when a package its package-lock.json
# pins is missing or has another version.
npm_ci_if_stale() {
  local dir="$1" what="$2"
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
    echo "install-deps: fetching $what (npm ci in ${dir#"$root"/})" >&2
    (cd "$dir" && npm ci --no-audit --no-fund >/dev/null)
  fi
}

# The tree-sitter-bash grammar, exactly as package-lock.json pins it.
grammar="$root/third_party/bash-grammar"
[ -f "$grammar/node_modules/tree-sitter-bash/src/parser.c" ] || rm -rf "$grammar/node_modules"
npm_ci_if_stale "$grammar" "the tree-sitter-bash grammar"

[ "$purpose" = test ] || exit 0
# npm packages the tests run, exactly as each package-lock.json pins them.
# tests/mcp-peers: the real MCP peers of the `toolguard mcp` end-to-end tests
# (the official SDK's client and the reference filesystem server).
npm_ci_if_stale "$root/tests/mcp-peers" "the MCP peers of the tests"
# tests/browser: playwright-core, which drives chromium in the web queue's tests.
npm_ci_if_stale "$root/tests/browser" "the browser tests' driver"
# bindings/node: node-addon-api and cmake-js, which build the Node.js addon,
# and multi-llm-ts, which its adapter is tested with.
npm_ci_if_stale "$root/bindings/node" "the Node.js binding's build and test packages"
