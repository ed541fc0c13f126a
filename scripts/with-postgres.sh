#!/usr/bin/env bash
# Runs a command with a throwaway PostgreSQL server: TAVO_TEST_POSTGRES
# names it (a Unix socket in a temporary directory, trust authentication),
# and it is stopped and removed when the command ends, however it ends.
#   scripts/with-postgres.sh go test ./pkg/store/postgres/
# initdb and pg_ctl come from PATH or /usr/lib/postgresql/*/bin; when there
# are none and we are root, the postgresql package is installed with apt-get.
# Run as root, the server runs as the postgres user (initdb refuses root).
set -euo pipefail

find_bin() {
  local b
  if b=$(command -v "$1" 2>/dev/null); then echo "$b"; return; fi
  b=$(ls -d /usr/lib/postgresql/*/bin/"$1" 2>/dev/null | sort -V | tail -1)
  [ -n "$b" ] && echo "$b"
}

initdb=$(find_bin initdb || true)
if [ -z "$initdb" ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "with-postgres: initdb not found; install PostgreSQL (apt-get install postgresql) or run as root" >&2
    exit 1
  fi
  echo "with-postgres: installing postgresql with apt-get" >&2
  apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >&2
  initdb=$(find_bin initdb)
fi
pg_ctl=$(dirname "$initdb")/pg_ctl
[ -x "$pg_ctl" ] || pg_ctl=$(find_bin pg_ctl)

dir=$(mktemp -d /tmp/tavo-pg.XXXXXX)
as_server() { "$@"; }
if [ "$(id -u)" -eq 0 ]; then
  id postgres >/dev/null 2>&1 || useradd --system --no-create-home postgres
  chown postgres "$dir"
  as_server() { su postgres -s /bin/sh -c "$(printf '%q ' "$@")"; }
fi
port=5432 # on a socket in our own directory, so no clash with any other server

stop() {
  as_server "$pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap stop EXIT

as_server "$initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --no-sync >"$dir/initdb.log" 2>&1 ||
  { cat "$dir/initdb.log" >&2; exit 1; }
# No TCP at all; fsync off: a throwaway server for tests.
as_server "$pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
  -o "-c listen_addresses= -k $dir -p $port -c fsync=off -c max_connections=200" start >/dev/null ||
  { cat "$dir/server.log" >&2; exit 1; }

export TAVO_TEST_POSTGRES="postgres://postgres@localhost/postgres?host=$dir&port=$port&sslmode=disable"
echo "with-postgres: $("$initdb" --version) on $dir" >&2
"$@"
