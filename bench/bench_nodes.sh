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
# send them, against the same transactions without NOTIFY).
#
# Usage: bench/bench_nodes.sh BUILD_DIR (a Release build: scripts/bench)
# Settings: BENCH_NODES_SECONDS (10 per run), BENCH_NODES_CONNECTIONS
# ("64 1000"), BENCH_NODES_WATCHED ("64 256": stepped games followed on
# node B, one wrk connection each), BENCH_NODES_WRK_THREADS (2).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source_dir=$(cd "$here/.." && pwd)
. "$here/support/bench.sh"
build=$(cd "${1:-build-bench}" && pwd)
seconds=${BENCH_NODES_SECONDS:-10}
read -r -a conn_counts <<<"${BENCH_NODES_CONNECTIONS:-64 1000}"
read -r -a watched_counts <<<"${BENCH_NODES_WATCHED:-64 256}"
wrk_threads=${BENCH_NODES_WRK_THREADS:-2}

bench_install_missing wrk haproxy node
pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[ -n "$pg_bin" ] || bench_install postgresql
pg_bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)

# --- a temporary folder, and a cleanup of everything started, on any exit ---
tmp=$(mktemp -d /tmp/sokod-bench-nodes.XXXXXX)
chmod 755 "$tmp" # the cluster runs as postgres when this runs as root
pids=()
stop_all() {
  trap - EXIT INT TERM
  local p
  for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  "$source_dir/tests/support/pg_cluster.sh" stop "$tmp/pg" || true
  rm -rf "$tmp"
}
trap stop_all EXIT
trap 'stop_all; exit 130' INT TERM
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

"$source_dir/tests/support/pg_cluster.sh" start "$tmp/pg"
pg_uri() { "$source_dir/tests/support/pg_cluster.sh" uri "$tmp/pg" "$1"; }
psql_do() { psql -X -q -At -v ON_ERROR_STOP=1 -d "$(pg_uri "$1")" -c "$2"; }

# A loopback port nobody listens on.
free_port() {
  local p
  for p in $(shuf -i 20000-60999 -n 200); do
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
      echo "$p"
      return 0
    fi
  done
  return 1
}

mkdir -p "$tmp/levels"
# "r" then "l" from the start walks back and forth without touching the box.
printf 'Collection: bench\n\n; Hall\n#######\n#@  $.#\n#######\n' >"$tmp/levels/bench.sok"

# Starts node NAME of sokod on DB, in the background; sets node_url[NAME]
# and node_pid[NAME]. All clients come from 127.0.0.1: the limits per
# address are lifted, as bench_server.sh does.
declare -A node_url=() node_pid=()
start_node() {
  local name=$1 db=$2 out="$tmp/node-$1"
  SOKOD_CONNECTIONS_PER_ADDRESS=1000000 "$build/sokod" serve --port 0 --db "$db" \
    --levels "$tmp/levels" --guests-per-minute 60000 --streams-per-address 100000 \
    --max-streams 3000 --trusted-proxies 127.0.0.1 >"$out.stdout" 2>"$out.log" &
  node_pid[$name]=$!
  pids+=("$!")
  local port=
  for _ in $(seq 300); do
    port=$(sed -n 's/^sokod: listening on http:.*:\([0-9]*\)$/\1/p' "$out.stdout")
    [ -n "$port" ] && break
    kill -0 "${node_pid[$name]}" 2>/dev/null || break
    sleep 0.1
  done
  if [ -z "$port" ]; then
    echo "node $name did not start:"
    cat "$out.log"
    exit 1
  fi
  node_url[$name]="http://127.0.0.1:$port"
}
stop_node() {
  kill -TERM "${node_pid[$1]}" 2>/dev/null || true
  wait "${node_pid[$1]}" 2>/dev/null || true
}

# The PostgreSQL connections of each node, by the application_name of its
# URI (its listening connection is named "sokod-listen PID"), as
# "NAME=COUNT ..." sorted by name.
pg_connections() {
  local name rows=""
  rows=$(psql_do postgres "SELECT application_name, count(*) FROM pg_stat_activity
    WHERE datname = 'bench' AND pid <> pg_backend_pid() GROUP BY 1 ORDER BY 1") || return 0
  for name in "${!node_pid[@]}"; do
    rows=${rows//sokod-listen ${node_pid[$name]}|/bench-$name-listen|}
  done
  echo "$rows" | awk -F'|' 'NF == 2 { sub(/^bench-/, "", $1); printf "%s=%s ", $1, $2 }'
}

# Keeps the largest count of each node's connections seen while PID runs,
# in FILE ("NAME=COUNT" lines).
sample_connections() {
  local pid=$1 file=$2
  declare -A most=()
  local kv
  while kill -0 "$pid" 2>/dev/null; do
    for kv in $(pg_connections); do
      [ "${kv#*=}" -gt "${most[${kv%%=*}]:-0}" ] && most[${kv%%=*}]=${kv#*=}
    done
    sleep 0.5
  done
  : >"$file"
  for kv in "${!most[@]}"; do echo "$kv=${most[$kv]}" >>"$file"; done
}

# Reads key=value pairs of the RESULT line in FILE into the array named $2.
read_result() {
  local -n into=$2
  local kv
  into=()
  for kv in $(sed -n 's/^RESULT //p' "$1"); do into[${kv%%=*}]=${kv#*=}; done
  [ ${#into[@]} -gt 0 ]
}
ms() { awk -v us="$1" 'BEGIN { printf "%.2f ms", us / 1000 }'; }
rate() { awk -v n="$1" -v s="$2" 'BEGIN { printf "%.0f", (s > 0) ? n / s : 0 }'; }

# Runs wrk with CONNS connections at URL (as fast as answers come), on
# games made through MAKER_URL, and prints a line under LABEL.
run_steps() {
  local label=$1 url=$2 maker_url=$3 c=$4
  local ngames=$((c + c / 8 + wrk_threads)) games="$tmp/games-$label-$c.txt" out="$tmp/wrk-$label-$c.txt"
  node "$here/bench_nodes.mjs" games "$maker_url" "$ngames" "$games"
  wrk -t"$wrk_threads" -c"$c" -d"${seconds}s" --timeout 10s -s "$here/bench_server.lua" "$url/" \
    -- "$games" "$ngames" "$wrk_threads" >"$out" 2>&1 &
  local wrk_pid=$!
  sample_connections "$wrk_pid" "$tmp/conns" &
  local sampler=$!
  wait "$wrk_pid" || true
  wait "$sampler" || true
  local -A s=()
  if ! read_result "$out" s; then
    echo "wrk printed no result:"
    cat "$out"
    return 0
  fi
  local errors=$((s[connect] + s[read] + s[write] + s[timeout] + s[status] + s[refused] + s[duplicates] + s[unreadable] + s[starved]))
  local conns
  conns=$(sort "$tmp/conns" | tr '\n' ' ')
  printf '%-24s %6s %9s %10s %10s %7s  %s\n' "$label" "$c" "$(rate "${s[accepted]}" "${s[seconds]}")" \
    "$(ms "${s[p50_us]}")" "$(ms "${s[p99_us]}")" "$errors" "${conns:-(none)}"
}

echo "loopback, $(nproc) CPUs, wrk -t$wrk_threads -d${seconds}s, sokod $("$build/sokod" --version | cut -d' ' -f2)," \
  "PostgreSQL $("$pg_bin/postgres" --version | awk '{ print $3 }') (fsync off: tests/support/pg_cluster.sh), $(haproxy -v | head -n 1 | cut -d' ' -f1-3)"
echo "uptime before: $(uptime)"
echo
echo "== steps: as fast as answers come; connections: the most each node held during the run"
printf '%-24s %6s %9s %10s %10s %7s  %s\n' run conns "steps/s" p50 p99 errors "PostgreSQL connections"

# --- SQLite: one node ---
start_node sqlite "$tmp/sokod.db"
for c in "${conn_counts[@]}"; do run_steps sqlite "${node_url[sqlite]}" "${node_url[sqlite]}" "$c"; done
stop_node sqlite
unset 'node_pid[sqlite]'

# --- PostgreSQL: one node (it migrates and imports) ---
psql_do postgres "CREATE DATABASE bench"
db="$(pg_uri bench)"
start_node a "$db&application_name=bench-a"
for c in "${conn_counts[@]}"; do run_steps "postgresql, 1 node" "${node_url[a]}" "${node_url[a]}" "$c"; done

# --- PostgreSQL: two nodes behind HAProxy, the checked-in configuration
# with its third server left out (a server that does not answer would be
# tried, and then checked, all run long) ---
start_node b "$db&application_name=bench-b"
sed '/^[[:space:]]*server c /d' "$source_dir/deploy/haproxy.cfg" >"$tmp/haproxy.cfg"
proxy_port=$(free_port)
SOKOD_HAPROXY_BIND="127.0.0.1:$proxy_port" SOKOD_NODE_A="${node_url[a]#http://}" \
  SOKOD_NODE_B="${node_url[b]#http://}" haproxy -db -f "$tmp/haproxy.cfg" >"$tmp/haproxy.log" 2>&1 &
pids+=("$!")
front="http://127.0.0.1:$proxy_port"
ok=0
for _ in $(seq 100); do
  if [ "$(curl -s -o /dev/null -w '%{http_code}' "$front/readyz")" = 200 ]; then ok=$((ok + 1)); else ok=0; fi
  [ "$ok" -ge 4 ] && break
  sleep 0.1
done
if [ "$ok" -lt 4 ]; then
  echo "HAProxy did not answer /readyz:"
  cat "$tmp/haproxy.log"
  exit 1
fi
for c in "${conn_counts[@]}"; do run_steps "postgresql, 2 + HAProxy" "$front" "$front" "$c"; done

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
  for _ in $(seq 600); do
    grep -q '^ready' "$tmp/watch-$w.txt" && break
    kill -0 "$watcher" 2>/dev/null || break
    sleep 0.1
  done
  if ! grep -q '^ready' "$tmp/watch-$w.txt"; then
    echo "the streams on node B did not open:"
    cat "$tmp/watch-$w.txt"
    exit 1
  fi
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
echo "   notifications of games nobody follows): transactions of N pg_notify, against N plain SELECTs"
printf '%-16s %12s %16s %14s\n' "per transaction" "with NOTIFY" "notifications/s" "without (tx/s)"
pgbench_tps() {
  "$pg_bin/pgbench" -n -c 8 -j 2 -T "$seconds" -f "$1" -d "$(pg_uri bench)" 2>&1 |
    sed -n 's/^tps = \([0-9.]*\).*/\1/p' | head -n 1
}
for n in 1 16; do
  printf "SELECT pg_notify('sokod', 'game:' || (2000000000 + :client_id) || ':' || g) FROM generate_series(1, %d) g;\n" \
    "$n" >"$tmp/notify.sql"
  printf 'SELECT g FROM generate_series(1, %d) g;\n' "$n" >"$tmp/plain.sql"
  with=$(pgbench_tps "$tmp/notify.sql")
  without=$(pgbench_tps "$tmp/plain.sql")
  printf '%-16s %12.0f %16.0f %14.0f\n' "$n" "${with:-0}" "$(awk -v t="${with:-0}" -v n="$n" 'BEGIN { print t * n }')" "${without:-0}"
done
echo "NOTIFY queue in use at the end: $(psql_do bench 'SELECT pg_notification_queue_usage()')"
echo
echo "uptime after: $(uptime)"
