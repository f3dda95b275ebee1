#!/usr/bin/env bash
# How many players one node, and two, hold: players paced like people
# (bench_capacity.mjs: a step every 250 ms on average with pauses, a
# connection each, games of their own, some followed by a live stream)
# are added, doubling, until the p99 of a step passes the target (50 ms),
# errors appear, or the client itself falls behind (its timers late by
# more than 20 ms at p99: then the row says so and the machine, not
# sokod, is the limit). Runs, in one go on loopback:
#   SQLite, one node;
#   PostgreSQL at each round-trip time of BENCH_CAPACITY_RTT_MS through
#   bench/support/delay_proxy, one node;
#   PostgreSQL at the last of them, two nodes behind HAProxy.
# Prints each step of the ramp (players, steps/s, p50, p99, errors, the
# client's lateness) and the CPU each part spent per step (sokod, the
# PostgreSQL cluster, HAProxy; from /proc), then a summary: the players
# each setup held within the target.
#
# Usage: bench/bench_capacity.sh BUILD_DIR (a Release build: scripts/bench)
# Settings: BENCH_CAPACITY_SECONDS (10 per step), BENCH_CAPACITY_START
# (100 players), BENCH_CAPACITY_MAX (6400), BENCH_CAPACITY_P99_MS (50),
# BENCH_CAPACITY_RTT_MS ("0 0.5 1"), BENCH_CAPACITY_WATCHED (percent of
# games followed by a stream, 10).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source_dir=$(cd "$here/.." && pwd)
. "$here/support/bench.sh"
. "$here/support/nodes.sh"
build=$(cd "${1:-build-bench}" && pwd)
seconds=${BENCH_CAPACITY_SECONDS:-10}
start=${BENCH_CAPACITY_START:-100}
max=${BENCH_CAPACITY_MAX:-6400}
target_ms=${BENCH_CAPACITY_P99_MS:-50}
watched_pct=${BENCH_CAPACITY_WATCHED:-10}
read -r -a rtts <<<"${BENCH_CAPACITY_RTT_MS:-0 0.5 1}"

bench_install_missing haproxy node
nodes_begin sokod-bench-capacity
delay_proxy_build

# CPU ticks (user + system) of process PID and of the processes whose
# parent it is (the PostgreSQL cluster's backends); 0 for none.
ticks_of() {
  local pid=$1
  [ -n "$pid" ] || { echo 0; return; }
  # A process may end while the files are read: cat skips it, and its
  # failure must not end the run (pipefail).
  { cat /proc/[0-9]*/stat 2>/dev/null || true; } | awk -v root="$pid" '{
      # The command may hold spaces: fields are counted after its ")".
      pid = $1; sub(/^.*\) /, ""); if (pid == root || $2 == root) sum += $12 + $13
    } END { print sum + 0 }'
}
postmaster_pid() { head -n 1 "$pg_dir/data/postmaster.pid" 2>/dev/null || true; }

# Microseconds of CPU per step: TICKS over HZ over STEPS.
cpu_per_step() {
  awk -v t="$1" -v hz="$2" -v n="$3" 'BEGIN { if (n > 0) printf "%.0f", t / hz * 1e6 / n; else print "-" }'
}

# The ramp for one setup: LABEL, URL the players step at, the sokod PIDS
# (space-separated), the HAProxy pid or "". Sets held[LABEL].
declare -A held=()
ramp() {
  local label=$1 url=$2 sokods=$3 proxy=${4:-}
  local games="$tmp/games-${label//[^a-z0-9]/_}.txt"
  node "$here/bench_nodes.mjs" games "$url" "$max" "$games"
  local n=$start best=0 hz
  hz=$(getconf CLK_TCK)
  while [ "$n" -le "$max" ]; do
    local watched=$((n * watched_pct / 100)) out="$tmp/cap-${label//[^a-z0-9]/_}-$n.txt"
    local s_before=0 s_after=0 p pg_before pg_after hp_before hp_after
    for p in $sokods; do s_before=$((s_before + $(ticks_of "$p"))); done
    pg_before=$(ticks_of "$(postmaster_pid)")
    hp_before=$(ticks_of "$proxy")
    node "$here/bench_capacity.mjs" "$url" "$games" "$n" "$seconds" "$watched" >"$out" 2>&1 || true
    for p in $sokods; do s_after=$((s_after + $(ticks_of "$p"))); done
    pg_after=$(ticks_of "$(postmaster_pid)")
    hp_after=$(ticks_of "$proxy")
    local -A r=()
    if ! read_result "$out" r; then
      echo "the players printed no result:"
      cat "$out"
      return 0
    fi
    # CPU per step over the whole run (warm-up included, as the steps of
    # the warm-up are not counted: an upper bound), in microseconds.
    local total_steps
    total_steps=$(awk -v s="${r[steps]}" -v sec="${r[seconds]}" -v w=2 'BEGIN { printf "%d", s * (sec + w) / sec }')
    local verdict=ok
    if awk -v l="${r[late_p99_ms]}" 'BEGIN { exit !(l > 20) }'; then
      verdict="client late"
    elif [ "${r[errors]}" -gt 0 ]; then
      verdict="errors"
    elif awk -v p="${r[p99_us]}" -v t="$target_ms" 'BEGIN { exit !(p > t * 1000) }'; then
      verdict="p99 > ${target_ms} ms"
    fi
    printf '%-26s %7s %8s %10s %10s %6s %8s %7s %8s %8s %8s  %s\n' "$label" "$n" \
      "$(rate "${r[steps]}" "${r[seconds]}")" "$(ms "${r[p50_us]}")" "$(ms "${r[p99_us]}")" "${r[errors]}" \
      "${r[late_p99_ms]}" "$(rate "${r[events]}" "${r[seconds]}")" \
      "$(cpu_per_step $((s_after - s_before)) "$hz" "$total_steps")" \
      "$(cpu_per_step $((pg_after - pg_before)) "$hz" "$total_steps")" \
      "$([ -n "$proxy" ] && cpu_per_step $((hp_after - hp_before)) "$hz" "$total_steps" || echo -)" "$verdict"
    [ "$verdict" = ok ] || break
    best=$n
    n=$((n * 2))
  done
  held[$label]=$best
  [ "$n" -le "$max" ] || held[$label]="$best (the ramp's end: raise BENCH_CAPACITY_MAX)"
}

echo "loopback, $(nproc) CPUs, ${seconds} s a step, sokod $("$build/sokod" --version | cut -d' ' -f2)," \
  "PostgreSQL $("$pg_bin/postgres" --version | awk '{ print $3 }') (fsync off), $(haproxy -v | head -n 1 | cut -d' ' -f1-3)"
echo "players step every 250 ms on average (exponential, a 2-5 s pause one step in 40); ${watched_pct}% of games followed"
echo "uptime before: $(uptime)"
echo
printf '%-26s %7s %8s %10s %10s %6s %8s %7s %8s %8s %8s  %s\n' setup players "steps/s" p50 p99 errors "late ms" "events" \
  "sokod us" "pg us" "hap us" verdict

start_node sqlite "$tmp/sokod.db"
ramp "sqlite" "${node_url[sqlite]}" "${node_pid[sqlite]}"
order=("sqlite")
stop_node sqlite

psql_do postgres "CREATE DATABASE bench"
last=${rtts[${#rtts[@]} - 1]}
for rtt in "${rtts[@]}"; do
  start_delay "$rtt"
  db="postgresql://postgres@127.0.0.1:$proxy_port/bench?sslmode=disable"
  start_node a "$db&application_name=bench-a"
  ramp "postgresql $rtt ms" "${node_url[a]}" "${node_pid[a]}"
  order+=("postgresql $rtt ms")
  if [ "$rtt" = "$last" ]; then
    start_node b "$db&application_name=bench-b"
    start_proxy
    ramp "postgresql $rtt ms, 2+HAProxy" "$front" "${node_pid[a]} ${node_pid[b]}" "$haproxy_pid"
    order+=("postgresql $rtt ms, 2+HAProxy")
    stop_pid "$haproxy_pid"
    stop_node b
  fi
  stop_node a
  stop_pid "$proxy_pid"
done

echo
echo "== players held with the p99 of a step within ${target_ms} ms (doubling from $start)"
for label in "${order[@]}"; do printf '%-32s %s\n' "$label" "${held[$label]:-0}"; done
echo
echo "uptime after: $(uptime)"
