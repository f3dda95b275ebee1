#!/usr/bin/env bash
# Failover to a streaming standby under load, on loopback: a primary
# cluster and a standby made from it with `pg_basebackup -R` (asynchronous
# streaming replication), two sokod nodes whose URI names both
# (`host=PRIMARY,STANDBY&target_session_attrs=read-write`), and players
# stepping through both nodes with a live stream of each game on the other
# (bench_failover.mjs). The primary is stopped at once (`pg_ctl stop -m
# immediate`, as a crash), the standby promoted a moment later, and the
# players carry on. Prints, second by second, the steps answered, the
# errors and the events the streams received; then, against the promoted
# database, whether any step a player was answered 200 for is missing,
# whether every stream saw every stored entry, and whether the nodes
# answer /readyz again.
#
# Usage: bench/bench_failover.sh BUILD_DIR
# Settings: BENCH_FAILOVER_PLAYERS (16), BENCH_FAILOVER_PROMOTE_AFTER (2:
# seconds between the primary's end and the promotion),
# BENCH_FAILOVER_SECONDS (10: seconds of steps after the promotion),
# BENCH_FAILOVER_LAG (0: seconds before the primary stops that the standby
# is cut off, its WAL sender ended, so that it misses what was committed
# then, as a lagging asynchronous standby would), BENCH_FAILOVER_SYNC (0;
# 1: synchronous replication, the primary answering a commit only once
# the standby has it), BENCH_FAILOVER_PROXY (0; 1: the players and their
# streams go through HAProxy with deploy/haproxy.cfg, which prints when it
# takes a node out and puts it back).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source_dir=$(cd "$here/.." && pwd)
. "$here/support/bench.sh"
. "$here/support/nodes.sh"
build=$(cd "${1:-build-bench}" && pwd)
players=${BENCH_FAILOVER_PLAYERS:-16}
promote_after=${BENCH_FAILOVER_PROMOTE_AFTER:-2}
after_seconds=${BENCH_FAILOVER_SECONDS:-10}
lag=${BENCH_FAILOVER_LAG:-0}
sync=${BENCH_FAILOVER_SYNC:-0}
proxy=${BENCH_FAILOVER_PROXY:-0}

bench_install_missing node
nodes_begin sokod-bench-failover
primary=$tmp/pg
standby=$tmp/standby
psql_do postgres "CREATE DATABASE bench"

# The standby: a base backup of the primary that streams its WAL, with a
# socket in its own folder (initdb allows local replication connections;
# the backup asks for a fast checkpoint, not a spread one of minutes).
mkdir -p "$standby"
[ "$(id -u)" -ne 0 ] || chown postgres: "$standby"
clusters+=("$standby")
as_pg_owner "$pg_bin/pg_basebackup" -D "$standby/data" -R -X stream -c fast -d "host=$primary port=5432 user=postgres"
as_pg_owner "$pg_bin/pg_ctl" -D "$standby/data" -l "$standby/server.log" -w \
  -o "-k $standby -h '' -p 5432 -c fsync=off -c full_page_writes=off -c max_connections=300" start >/dev/null
for _ in $(seq 100); do
  [ "$(psql_do postgres 'SELECT count(*) FROM pg_stat_replication')" = 1 ] && break
  sleep 0.1
done
if [ "$sync" = 1 ]; then
  psql -X -q -d "$(pg_uri postgres)" -c "ALTER SYSTEM SET synchronous_standby_names = '*'" \
    -c "SELECT pg_reload_conf()" >/dev/null
  for _ in $(seq 100); do
    [ "$(psql_do postgres "SELECT count(*) FROM pg_stat_replication WHERE sync_state = 'sync'")" = 1 ] && break
    sleep 0.1
  done
fi
echo "standby streaming: $(psql_do postgres "SELECT application_name || ' ' || state || ', ' || sync_state FROM pg_stat_replication")"

both="postgresql://postgres@/bench?host=$primary,$standby&port=5432&target_session_attrs=read-write"
start_node a "$both&application_name=bench-a"
start_node b "$both&application_name=bench-b"

url_a=${node_url[a]}
url_b=${node_url[b]}
if [ "$proxy" = 1 ]; then
  bench_install_missing haproxy
  start_proxy
  url_a=$front
  url_b=$front
fi
node "$here/bench_failover.mjs" "$url_a" "$url_b" "$players" "$tmp/games.txt" >"$tmp/players.txt" 2>&1 &
players_pid=$!
pids+=("$players_pid")
wait_ready "$players_pid" "$tmp/players.txt" "the players did not start"

sleep 5
if [ "$lag" -gt 0 ]; then
  # Without a primary_conninfo, the standby's WAL receiver stops and is not
  # started again: what the primary commits from now on is missed for good.
  standby_uri="postgresql://postgres@/postgres?host=$standby&port=5432"
  psql -X -q -d "$standby_uri" -c "ALTER SYSTEM SET primary_conninfo = ''" -c "SELECT pg_reload_conf()" >/dev/null
  echo "$(date +%T) the standby is cut off"
  sleep "$lag"
fi
echo "$(date +%T) the primary stops (immediate), $(sed -n '$=' "$tmp/players.txt") s after the players began"
as_pg_owner "$pg_bin/pg_ctl" -D "$primary/data" -m immediate stop >/dev/null
sleep "$promote_after"
echo "$(date +%T) the standby is promoted"
as_pg_owner "$pg_bin/pg_ctl" -D "$standby/data" -w promote >/dev/null
sleep "$after_seconds"
kill -USR1 "$players_pid"
wait "$players_pid" || true
pg_dir=$standby
echo
echo "second by second (steps answered 200, errors, step events on the other node's streams):"
grep -v '^ready' "$tmp/players.txt"
echo
declare -A r=()
read_result "$tmp/players.txt" r || exit 1
lost=0 unseen=0 behind=0
while read -r id acked streamed; do
  stored=$(psql_do bench "SELECT seq FROM games WHERE id = $id")
  rows=$(psql_do bench "SELECT count(*) FROM game_log WHERE game_id = $id")
  [ "$acked" -gt "$stored" ] && lost=$((lost + acked - stored))
  [ "$rows" -ne "$stored" ] && echo "game $id: seq $stored but $rows log rows"
  [ "$streamed" -lt "$stored" ] && unseen=$((unseen + 1)) && behind=$((behind + stored - streamed))
done <"$tmp/games.txt"
echo "games: $players; steps answered 200: ${r[ok]}; errors by kind: ${r[kinds]}"
echo "entries answered 200 that the promoted database lacks: at the end $lost; found by a 409 meanwhile ${r[rewound]}" \
  "(409 answers: ${r[adopted]}, each time the player took the server's seq and went on)"
echo "entries answered 200 whose event never reached the stream on the other node: ${r[unseen]}"
echo "streams that missed stored entries: $unseen (entries missed: $behind); streams the nodes ended: ${r[ended]}"
for n in a b; do
  codes=$(for _ in 1 2 3 4 5; do curl -s -o /dev/null -w '%{http_code} ' "${node_url[$n]}/readyz"; done)
  echo "node $n: /readyz asked five times: $codes; the end of its log:"
  sed 's/^/  /' "$tmp/node-$n.log" | tail -n 8
done
echo "connections on the promoted database: $(pg_connections)"
if [ "$proxy" = 1 ]; then
  echo "HAProxy's view of the nodes:"
  grep -E 'is (DOWN|UP)|no server available' "$tmp/haproxy.log" | sed 's/^/  /' || echo "  no node taken out"
fi
