#!/usr/bin/env bash
# The step benchmark of bench/bench_server.sh (wrk and bench_server.lua:
# every request one step of a game of its own guest, answered after its
# commit) against sokod on SQLite, one sokod node on PostgreSQL, and two
# nodes on PostgreSQL behind HAProxy (deploy/haproxy.cfg), in one run on
# loopback, on a throwaway PostgreSQL cluster of its own
# (tests/support/pg_cluster.sh). Prints, for each, steps per second, p50
# and p99 latency, errors, and the PostgreSQL connections each node held
# at most (pg_stat_activity, each node naming its connections with
# application_name in its URI).
#
# Then how many live events NOTIFY carries: steps sent to node A as fast as
# it answers while node B holds one live stream per stepped game, counting
# the `step` events node B's streams receive per second against the steps
# A commits; and PostgreSQL's own NOTIFY ceiling with both nodes
# listening (pgbench: transactions of pg_notify only, as sokod's batches
# send them, against the same transactions without NOTIFY). Last, what an
# entry costs node A: the statements it sends (counted in PostgreSQL's
# log with log_statement = all for 3 s of steps), the entries a commit,
# and the committer's round trips (its writes to PostgreSQL, counted with
# strace when installed: statements only sent go with the next one).
#
# The PostgreSQL rows run at each round-trip time of BENCH_NODES_RTT_MS,
# the nodes reaching the database through bench/support/delay_proxy (a TCP
# proxy that holds each chunk for half the round trip, each way: this
# kernel has no netem), and print beside each row the committer's round
# trips per entry and per commit (sokod_commit_round_trips of /metrics,
# counted by sokod; "-" for a sokod that does not count them) and how
# late the proxy's chunks left against their due time on average.
#
# Usage: bench/bench_nodes.sh BUILD_DIR (a Release build: scripts/bench)
# Settings: BENCH_NODES_SECONDS (10 per run), BENCH_NODES_CONNECTIONS
# ("64 1000"), BENCH_NODES_RTT_MS ("0 0.5 1"), BENCH_NODES_WATCHED ("64
# 256": stepped games followed on node B, one wrk connection each),
# BENCH_NODES_WRK_THREADS (2), BENCH_NODES_STEPS_ONLY (1: the step rows
# only, not the live events, NOTIFY and statements that follow).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source_dir=$(cd "$here/.." && pwd)
. "$here/support/bench.sh"
. "$here/support/nodes.sh"
build=$(cd "${1:-build-bench}" && pwd)
seconds=${BENCH_NODES_SECONDS:-10}
read -r -a conn_counts <<<"${BENCH_NODES_CONNECTIONS:-64 1000}"
read -r -a watched_counts <<<"${BENCH_NODES_WATCHED:-64 256}"
read -r -a rtts <<<"${BENCH_NODES_RTT_MS:-0 0.5 1}"
wrk_threads=${BENCH_NODES_WRK_THREADS:-2}

bench_install_missing wrk haproxy node
nodes_begin sokod-bench-nodes
delay_proxy_build

# The sum over the running nodes NAMES of the samples KEYS of their
# /metrics, one line of numbers in KEYS' order ("-" for a missing one).
scrape_sum() {
  local names=$1 keys=$2 n
  for n in $names; do curl -s "${node_url[$n]}/metrics"; done |
    awk -v keys="$keys" 'BEGIN { nk = split(keys, k, " ") }
      { for (i = 1; i <= nk; i++) if ($1 == k[i]) { v[i] += $2; seen[i] = 1 } }
      END { for (i = 1; i <= nk; i++) printf "%s%s", (i > 1 ? " " : ""), (seen[i] ? v[i] : "-"); print "" }'
}
trip_keys="sokod_commit_round_trips_sum sokod_commit_round_trips_count sokod_commit_batch_jobs_sum"

# Runs wrk with CONNS connections at URL (as fast as answers come), on
# games made through MAKER_URL, and prints a line under LABEL; NODES names
# the nodes whose round trips count.
run_steps() {
  local label=$1 url=$2 maker_url=$3 c=$4 nodes=${5:-}
  local ngames=$((c + c / 8 + wrk_threads)) games="$tmp/games-$label-$c.txt" out="$tmp/wrk-$label-$c.txt"
  node "$here/bench_nodes.mjs" games "$maker_url" "$ngames" "$games"
  local trips_before="" trips_after=""
  [ -z "$nodes" ] || trips_before=$(scrape_sum "$nodes" "$trip_keys")
  wrk -t"$wrk_threads" -c"$c" -d"${seconds}s" --timeout 10s -s "$here/bench_server.lua" "$url/" \
    -- "$games" "$ngames" "$wrk_threads" >"$out" 2>&1 &
  local wrk_pid=$!
  sample_connections "$wrk_pid" "$tmp/conns" &
  local sampler=$!
  wait "$wrk_pid" || true
  wait "$sampler" || true
  [ -z "$nodes" ] || trips_after=$(scrape_sum "$nodes" "$trip_keys")
  local -A s=()
  if ! read_result "$out" s; then
    echo "wrk printed no result:"
    cat "$out"
    return 0
  fi
  local errors=$((s[connect] + s[read] + s[write] + s[timeout] + s[status] + s[refused] + s[duplicates] + s[unreadable] + s[starved]))
  local conns trips
  conns=$(sort "$tmp/conns" | tr '\n' ' ')
  trips=$(awk -v b="$trips_before" -v a="$trips_after" 'BEGIN {
    if (a == "" || index(a, "-")) { print "-"; exit }
    split(b, x, " "); split(a, y, " ")
    t = y[1] - x[1]; n = y[2] - x[2]; e = y[3] - x[3]
    printf "%.2f/e %.2f/c %.1fe/c", (e > 0 ? t / e : 0), (n > 0 ? t / n : 0), (n > 0 ? e / n : 0) }')
  printf '%-30s %6s %9s %10s %10s %7s  %-26s %s\n' "$label" "$c" "$(rate "${s[accepted]}" "${s[seconds]}")" \
    "$(ms "${s[p50_us]}")" "$(ms "${s[p99_us]}")" "$errors" "$trips" "${conns:-(none)}"
}

# Stops the proxy; prints how late its chunks left on average, and at p99.
stop_delay() {
  kill -TERM "$proxy_pid" 2>/dev/null || true
  wait "$proxy_pid" 2>/dev/null || true
  local -A d=()
  read_result "$tmp/delay-$1.out" d || return 0
  echo "  (delay proxy at $1 ms: ${d[chunks]} chunks, late by ${d[late_mean_us]} us on average, p99 ${d[late_p99_us]} us)"
}

echo "loopback, $(nproc) CPUs, wrk -t$wrk_threads -d${seconds}s, sokod $("$build/sokod" --version | cut -d' ' -f2)," \
  "PostgreSQL $("$pg_bin/postgres" --version | awk '{ print $3 }') (fsync off: tests/support/pg_cluster.sh), $(haproxy -v | head -n 1 | cut -d' ' -f1-3)"
echo "uptime before: $(uptime)"
echo
echo "== steps: as fast as answers come; round trips of the committer per entry (/e) and per commit (/c),"
echo "   entries per commit (e/c); connections: the most each node held during the run"
printf '%-30s %6s %9s %10s %10s %7s  %-26s %s\n' run conns "steps/s" p50 p99 errors "round trips" "PostgreSQL connections"

# --- SQLite: one node ---
start_node sqlite "$tmp/sokod.db"
for c in "${conn_counts[@]}"; do run_steps sqlite "${node_url[sqlite]}" "${node_url[sqlite]}" "$c"; done
stop_node sqlite

# --- PostgreSQL at each round trip: one node, then two behind HAProxy ---
psql_do postgres "CREATE DATABASE bench"
for rtt in "${rtts[@]}"; do
  start_delay "$rtt"
  db="postgresql://postgres@127.0.0.1:$proxy_port/bench?sslmode=disable"
  start_node a "$db&application_name=bench-a"
  for c in "${conn_counts[@]}"; do
    run_steps "postgresql ${rtt} ms, 1 node" "${node_url[a]}" "${node_url[a]}" "$c" a
  done
  start_node b "$db&application_name=bench-b"
  start_proxy
  for c in "${conn_counts[@]}"; do
    run_steps "postgresql ${rtt} ms, 2+HAProxy" "$front" "$front" "$c" "a b"
  done
  stop_pid "$haproxy_pid"
  stop_node b
  stop_node a
  stop_delay "$rtt"
done
if [ "${BENCH_NODES_STEPS_ONLY:-0}" = 1 ]; then
  echo
  echo "uptime after: $(uptime)"
  exit 0
fi
# What follows runs on the cluster's socket, without delay.
db="$(pg_uri bench)"
start_node a "$db&application_name=bench-a"
start_node b "$db&application_name=bench-b"

# --- NOTIFY: steps to node A, one stream per stepped game on node B ---
echo
echo "== live events across nodes: steps sent to node A (one connection per game, as fast as answers come);"
echo "   node B holds one stream per game and receives its steps through NOTIFY"
printf '%-8s %9s %11s %11s %9s %10s %9s  %s\n' games "steps/s" "committed" "events/s B" received drained snapshots "p99 of steps"
for w in "${watched_counts[@]}"; do
  games="$tmp/watched-$w.txt"
  ngames=$((w + wrk_threads))
  node "$here/bench_nodes.mjs" games "${node_url[a]}" "$ngames" "$games"
  node "$here/bench_nodes.mjs" watch "${node_url[b]}" "$games" "$ngames" >"$tmp/watch-$w.txt" 2>&1 &
  watcher=$!
  pids+=("$watcher")
  wait_ready "$watcher" "$tmp/watch-$w.txt" "the streams on node B did not open"
  out="$tmp/wrk-watched-$w.txt"
  wrk -t"$wrk_threads" -c"$w" -d"${seconds}s" --timeout 10s -s "$here/bench_server.lua" "${node_url[a]}/" \
    -- "$games" "$ngames" "$wrk_threads" >"$out" 2>&1 || true
  kill -USR1 "$watcher"
  wait "$watcher" || true
  declare -A s=() e=()
  if ! read_result "$out" s || ! read_result "$tmp/watch-$w.txt" e; then
    echo "no result:"
    cat "$out" "$tmp/watch-$w.txt"
    continue
  fi
  ids=$(cut -d' ' -f1 "$games" | paste -sd, -)
  committed=$(psql_do bench "SELECT count(*) FROM game_log WHERE game_id IN ($ids)")
  printf '%-8s %9s %11s %11s %9s %10s %9s  %s\n' "$w" "$(rate "${s[accepted]}" "${s[seconds]}")" "$committed" \
    "$(rate "${e[during]}" "${e[seconds]}")" "${e[total]}" "${e[drained_ms]} ms" "${e[snapshots]}" "$(ms "${s[p99_us]}")"
done

# --- NOTIFY on its own: what PostgreSQL carries, both nodes listening ---
echo
echo "== PostgreSQL's NOTIFY on its own (pgbench, 8 clients, ${seconds} s; both nodes LISTEN and drop"
echo "   notifications of games nobody follows): transactions of N pg_notify, against the same"
echo "   transactions without them (each takes a transaction id, so each commits as a write)"
printf '%-16s %12s %16s %14s\n' "per transaction" "tx/s" "notifications/s" "without: tx/s"
pgbench_tps() {
  "$pg_bin/pgbench" -n -c 8 -j 2 -T "$seconds" -f "$1" -d "$(pg_uri bench)" 2>&1 |
    sed -n 's/^tps = \([0-9.]*\).*/\1/p' | head -n 1
}
for n in 1 16; do
  printf "SELECT txid_current(), pg_notify('sokod', 'game:' || (2000000000 + :client_id) || ':' || g) FROM generate_series(1, %d) g;\n" \
    "$n" >"$tmp/notify.sql"
  printf 'SELECT txid_current(), g FROM generate_series(1, %d) g;\n' "$n" >"$tmp/plain.sql"
  with=$(pgbench_tps "$tmp/notify.sql")
  without=$(pgbench_tps "$tmp/plain.sql")
  printf '%-16s %12.0f %16.0f %14.0f\n' "$n" "${with:-0}" "$(awk -v t="${with:-0}" -v n="$n" 'BEGIN { print t * n }')" "${without:-0}"
done
echo "NOTIFY queue in use at the end: $(psql_do bench 'SELECT pg_notification_queue_usage()')"

# --- what an entry costs node A in statements, each a round trip ---
echo
echo "== node A's statements (all logged): steps to node A for 3 s, 64 connections"
c=64
ngames=$((c + c / 8 + wrk_threads))
games="$tmp/logged.txt"
node "$here/bench_nodes.mjs" games "${node_url[a]}" "$ngames" "$games"
set_logging() {
  psql_do postgres "ALTER SYSTEM SET log_statement = '$1'" && psql_do postgres "SELECT pg_reload_conf()" >/dev/null
  sleep 1 # each backend reads the setting once idle
}
counts() { psql_do bench "SELECT (SELECT count(*) FROM game_log), xact_commit FROM pg_stat_database WHERE datname = 'bench'"; }
set_logging all
log_from=$(stat -c %s "$tmp/pg/server.log")
before=$(counts)
wrk -t"$wrk_threads" -c"$c" -d3s --timeout 10s -s "$here/bench_server.lua" "${node_url[a]}/" \
  -- "$games" "$ngames" "$wrk_threads" >"$tmp/wrk-logged.txt" 2>&1 &
wrk_pid=$!
# Round trips: the committer's writes to PostgreSQL (one each), with strace.
committer=$(grep -lx sokod-commit /proc/"${node_pid[a]}"/task/*/comm 2>/dev/null | head -n 1 | cut -d/ -f5)
tracer=
if [ -n "$committer" ] && command -v strace >/dev/null; then
  strace -f -qq -c -e trace=sendto -p "$committer" -o "$tmp/trips.txt" &
  tracer=$!
fi
wait "$wrk_pid" || true
[ -z "$tracer" ] || { kill -INT "$tracer"; wait "$tracer" || true; }
sleep 2 # a backend's commit counts reach pg_stat_database within a second of going idle
after=$(counts)
set_logging none
statements=$(tail -c +"$((log_from + 1))" "$tmp/pg/server.log" | grep -cE 'LOG:  (statement|execute [^:]*):' || true)
entries=$((${after%%|*} - ${before%%|*}))
commits=$((${after#*|} - ${before#*|}))
trips=$(awk '$NF == "sendto" { print $4 }' "$tmp/trips.txt" 2>/dev/null || true)
awk -v s="$statements" -v e="$entries" -v c="$commits" -v t="${trips:-0}" 'BEGIN {
  printf "entries %d, statements %d (%.1f an entry), commits %d (%.1f entries a commit)\n",
    e, s, (e > 0) ? s / e : 0, c, (c > 0) ? e / c : 0
  if (t > 0) printf "committer round trips %d (%.1f an entry; strace slows it, so fewer entries)\n", t, (e > 0) ? t / e : 0 }'

echo
echo "uptime after: $(uptime)"
