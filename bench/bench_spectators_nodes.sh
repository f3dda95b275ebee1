#!/usr/bin/env bash
# Live events at scale over two nodes: bench_spectators (one race room,
# its player stepping 10 times a second, many anonymous spectators on
# GET /api/v1/events?room=ID) against two sokod nodes on one PostgreSQL
# database, on a throwaway cluster of its own (tests/support/pg_cluster.sh),
# in one run on loopback. The player steps on node A; the step reaches
# node A's spectators from A's own memory and node B's through PostgreSQL
# (NOTIFY, then B reads the event). The spectators connect in one of two
# ways, each a row:
#   haproxy  through HAProxy (deploy/haproxy.cfg, its round robin spreads
#            them over A and B; the benchmark's copy adds a header naming
#            the node, so that each spectator counts under its node, and
#            raises maxconn to the spectators);
#   direct   half on A, half on B, each connecting to its node.
# HAProxy holds two descriptors a stream (the spectator's and the node's):
# a row through it needs twice the spectators in open files, and one whose
# count is past the hard limit (ulimit -Hn) is left out with a word.
#
# Prints, per row, bench_spectators' figures: the delay from the player's
# answer (its step committed) to each spectator's delivery, median and
# p99 over every (step, spectator) pair and for the last spectator of each
# step, over all and per node; and for each sokod node and HAProxy its
# memory growth per spectator and its CPU while stepping, per step and
# spectator. The nodes are started afresh for each row.
#
# Every spectator comes from 127.0.0.1 (through HAProxy too: its
# X-Forwarded-For is believed, with --trusted-proxies 127.0.0.1): the
# caps per address are lifted (--streams-per-address,
# SOKOD_CONNECTIONS_PER_ADDRESS) and the caps over a node are raised to
# the row's spectators (--max-connections, --max-streams), as no site
# would: there each address is a few people.
#
# Usage: bench/bench_spectators_nodes.sh BUILD_DIR (a Release build:
# scripts/bench)
# Settings: BENCH_SPECTATORS_COUNTS ("1000 5000 10000"),
# BENCH_SPECTATORS_VIA ("haproxy direct"), BENCH_SPECTATORS_RTT_MS ("0":
# round trips to PostgreSQL through bench/support/delay_proxy; 0 goes to
# its socket directly), BENCH_SPECTATORS_SECONDS (20 of stepping),
# BENCH_SPECTATORS_RATE (10 steps a second).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source_dir=$(cd "$here/.." && pwd)
. "$here/support/bench.sh"
. "$here/support/nodes.sh"
build=$(cd "${1:-build-bench}" && pwd)
read -r -a counts <<<"${BENCH_SPECTATORS_COUNTS:-1000 5000 10000}"
read -r -a vias <<<"${BENCH_SPECTATORS_VIA:-haproxy direct}"
read -r -a rtts <<<"${BENCH_SPECTATORS_RTT_MS:-0}"
export BENCH_SPECTATORS_SECONDS=${BENCH_SPECTATORS_SECONDS:-20}
export BENCH_SPECTATORS_RATE=${BENCH_SPECTATORS_RATE:-10}

bench_install_missing haproxy
nodes_begin sokod-bench-spectators
delay_proxy_build
psql_do postgres "CREATE DATABASE bench"
files=$(ulimit -Hn)

echo "loopback, $(nproc) CPUs, sokod $("$build/sokod" --version | cut -d' ' -f2)," \
  "PostgreSQL $("$pg_bin/postgres" --version | awk '{ print $3 }') (fsync off), $(haproxy -v | head -n 1 | cut -d' ' -f1-3)," \
  "open files at most $files"
echo "the player steps on node A, ${BENCH_SPECTATORS_RATE} steps a second for ${BENCH_SPECTATORS_SECONDS} s"

# One row: COUNT spectators VIA haproxy or direct, the database at DB.
row() {
  local count=$1 via=$2 db=$3 rtt=$4
  local maxconn=$((count + 100))
  if [ "$via" = haproxy ] && [ $((2 * maxconn + 200)) -gt "$files" ]; then
    echo
    echo "== $count spectators through HAProxy, PostgreSQL at $rtt ms: left out, HAProxy would" \
      "need $((2 * maxconn + 200)) open files, more than ulimit -Hn ($files)"
    return 0
  fi
  node_args=(--max-connections $((count + 2000)) --max-streams $((count + 1000)))
  start_node a "$db&application_name=bench-a"
  start_node b "$db&application_name=bench-b"
  local at processes="a=${node_pid[a]} b=${node_pid[b]}"
  if [ "$via" = haproxy ]; then
    start_proxy "s/^\([[:space:]]*maxconn\) [0-9]*/\1 $maxconn/
/^backend sokod/a\\    http-response set-header X-Sokod-Node %s"
    at="haproxy=${front##*:}"
    processes="$processes haproxy=$haproxy_pid"
  else
    at="a=${node_url[a]##*:} b=${node_url[b]##*:}"
  fi
  echo
  echo "== $count spectators, $via, PostgreSQL at $rtt ms ($(uptime | sed 's/.*load/load/'))"
  BENCH_SPECTATORS=$count BENCH_SPECTATORS_PLAYER_PORT=${node_url[a]##*:} \
    BENCH_SPECTATORS_AT=$at BENCH_SPECTATORS_PROCESSES=$processes \
    "$build/bench/bench_spectators" || {
    local n
    echo "(bench_spectators failed; the nodes' logs end:)"
    for n in a b; do
      if ! kill -0 "${node_pid[$n]}" 2>/dev/null; then
        wait "${node_pid[$n]}" && echo "node $n ended: status 0" || echo "node $n ended: status $?"
      fi
      tail -n 5 "$tmp/node-$n.log"
    done
  }
  if [ "$via" = haproxy ]; then stop_pid "$haproxy_pid"; fi
  stop_node b
  stop_node a
}

for rtt in "${rtts[@]}"; do
  if [ "$rtt" = 0 ]; then
    db="$(pg_uri bench)"
  else
    start_delay "$rtt"
    db="postgresql://postgres@127.0.0.1:$proxy_port/bench?sslmode=disable"
  fi
  for count in "${counts[@]}"; do
    for via in "${vias[@]}"; do row "$count" "$via" "$db" "$rtt"; done
  done
  [ "$rtt" = 0 ] || stop_pid "$proxy_pid"
done
echo
echo "uptime after: $(uptime)"
