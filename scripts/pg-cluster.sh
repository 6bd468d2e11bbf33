#!/usr/bin/env bash
# A throw-away PostgreSQL cluster for the tests of `toolguard serve`
# (Debian's postgresql package; nothing is downloaded).
#   scripts/pg-cluster.sh start DIR PORT   makes DIR/data, starts it on
#                                          127.0.0.1:PORT, prints its URL
#   scripts/pg-cluster.sh stop DIR         stops it at once (-m immediate)
#   scripts/pg-cluster.sh restart DIR      stops it at once and starts it again
# PostgreSQL refuses to run as root: as root, the cluster belongs to the
# `postgres` user the package made.
set -euo pipefail
command="$1"
dir="$2"
bin="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)"
if [ -z "$bin" ]; then
  echo "pg-cluster: PostgreSQL is not installed (scripts/install-deps.sh installs it)" >&2
  exit 1
fi
as_owner=()
if [ "$(id -u)" -eq 0 ]; then as_owner=(runuser -u postgres --); fi

case "$command" in
  start)
    port="$3"
    mkdir -p "$dir"
    chmod 755 "$dir"
    [ "$(id -u)" -eq 0 ] && chown postgres "$dir"
    if [ ! -f "$dir/data/PG_VERSION" ]; then
      "${as_owner[@]}" "$bin/initdb" -D "$dir/data" -A trust -U toolguard -E UTF8 \
        --no-instructions >"$dir/initdb.log" 2>&1 ||
        { cat "$dir/initdb.log" >&2; exit 1; }
      echo "port = $port" >>"$dir/data/postgresql.conf"
      echo "listen_addresses = '127.0.0.1'" >>"$dir/data/postgresql.conf"
      echo "unix_socket_directories = '$dir'" >>"$dir/data/postgresql.conf"
    fi
    "${as_owner[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 start >/dev/null ||
      { cat "$dir/server.log" >&2; exit 1; }
    "${as_owner[@]}" "$bin/psql" -h 127.0.0.1 -p "$port" -U toolguard -d postgres -qAt \
      -c "SELECT 1 FROM pg_database WHERE datname = 'toolguard'" | grep -q 1 ||
      "${as_owner[@]}" "$bin/createdb" -h 127.0.0.1 -p "$port" -U toolguard toolguard
    echo "postgresql://toolguard@127.0.0.1:$port/toolguard"
    ;;
  stop)
    "${as_owner[@]}" "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
    ;;
  restart)
    "${as_owner[@]}" "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
    "${as_owner[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 start >/dev/null ||
      { cat "$dir/server.log" >&2; exit 1; }
    ;;
  *)
    echo "usage: pg-cluster.sh start DIR PORT | stop DIR | restart DIR" >&2
    exit 2
    ;;
esac
