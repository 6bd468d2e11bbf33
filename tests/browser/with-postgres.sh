#!/usr/bin/env bash
# Runs the browser tests of the web queue against `toolguard serve` on a
# throw-away PostgreSQL cluster (scripts/pg-cluster.sh): the cluster is
# started on a free port, its URL given as TOOLGUARD_TEST_STORE, and stopped
# whatever the tests did.
#   tests/browser/with-postgres.sh node --test tests/browser/queue.test.mjs
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
dir="$(mktemp -d)"
chmod 755 "$dir"
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
cleanup() {
  bash "$here/../../scripts/pg-cluster.sh" stop "$dir/pg" >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap cleanup EXIT
TOOLGUARD_TEST_STORE="$(bash "$here/../../scripts/pg-cluster.sh" start "$dir/pg" "$port" | head -1)"
export TOOLGUARD_TEST_STORE
"$@"
