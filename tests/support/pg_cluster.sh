#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the tests, with Debian's binaries:
#   pg_cluster.sh start DIR   creates and starts a cluster in DIR (a fresh
#                             folder), listening on a socket in DIR only
#   pg_cluster.sh stop DIR    stops it and removes DIR
#   pg_cluster.sh uri DIR DB  prints the connection URI of database DB
# initdb refuses to run as root: as root, the cluster belongs to the
# `postgres` user that Debian's package creates. The cluster trusts local
# connections and does not fsync: it holds test data only.
set -euo pipefail

cmd=${1:?usage: pg_cluster.sh start|stop|uri DIR [DB]}
dir=${2:?usage: pg_cluster.sh start|stop|uri DIR [DB]}
# The socket's name carries the port; nothing listens on TCP.
port=5432

bindir() {
  local d
  d=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
  [ -n "$d" ] || { echo "pg_cluster: PostgreSQL's binaries not found (scripts/deps installs postgresql)" >&2; exit 1; }
  echo "$d"
}

as_owner() {
  if [ "$(id -u)" -eq 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

case "$cmd" in
start)
  bin=$(bindir)
  if [ -e "$dir/data/postmaster.pid" ]; then
    as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
  fi
  rm -rf "$dir"
  mkdir -p "$dir"
  [ "$(id -u)" -ne 0 ] || chown postgres: "$dir"
  as_owner "$bin/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 \
    >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log" >&2; exit 1; }
  as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
    -o "-k $dir -h '' -p $port -c fsync=off -c full_page_writes=off -c max_connections=300" \
    start >/dev/null || { cat "$dir/server.log" >&2; exit 1; }
  ;;
stop)
  bin=$(bindir)
  if [ -e "$dir/data/postmaster.pid" ]; then
    as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 ||
      as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
  fi
  rm -rf "$dir"
  ;;
uri)
  db=${3:?usage: pg_cluster.sh uri DIR DB}
  echo "postgresql://postgres@/$db?host=$dir&port=$port"
  ;;
*)
  echo "pg_cluster: unknown command $cmd" >&2
  exit 2
  ;;
esac
