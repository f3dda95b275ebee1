#!/usr/bin/env bash
# Game steps through sokod's HTTP API against nginx serving a tiny static
# file, on loopback, with the same wrk settings: the ceiling of this machine.
# Every sokod request is one step of a game of its own guest, with the right
# sequence number, acknowledged only after its commit (bench_server.lua).
# Prints, per run, requests (steps) per second, p50 and p99 latency and
# errors of both servers, then both ratios of that run (sokod's steps/s over
# nginx's req/s, sokod's p99 over nginx's p99) against their targets, and
# sokod's memory at the largest count. Absolute figures on a shared machine
# mean little: compare the ratios, measured seconds apart in one run.
# Installs wrk and nginx when missing; starts its own nginx and sokod in a
# temporary folder and stops both on exit, Ctrl-C included.
#
# Usage: bench/bench_server.sh BUILD_DIR
# Settings: BENCH_SERVER_SECONDS (10 per run), BENCH_SERVER_CONNECTIONS
# ("64 1000"), BENCH_SERVER_PAUSE_MS (100: the pause of each connection
# between steps in the last run, at the largest count, as players pause;
# 0: no such run), BENCH_SERVER_WRK_THREADS (2), BENCH_SERVER_SOKOD_ARGS
# (more flags for sokod serve), BENCH_SERVER_LOG (a file to keep sokod's
# log in), BENCH_SERVER_WRK_CPU (a CPU number: wrk runs on that CPU alone
# and both servers on the others, so that neither server competes with its
# load generator; empty, the default: no pinning), BENCH_SERVER_SYSCALLS
# (1: count each server's system calls during its runs with perf's syscall
# tracepoints, and print them per request; the counting slows both servers
# alike, so the throughput of such a run is not the one to quote).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/support/bench.sh"
build=$(cd "${1:-build-bench}" && pwd)
seconds=${BENCH_SERVER_SECONDS:-10}
read -r -a conn_counts <<<"${BENCH_SERVER_CONNECTIONS:-64 1000}"
wrk_threads=${BENCH_SERVER_WRK_THREADS:-2}
pause_ms=${BENCH_SERVER_PAUSE_MS:-100}
read -r -a sokod_args <<<"${BENCH_SERVER_SOKOD_ARGS:-}"
wrk_cpu=${BENCH_SERVER_WRK_CPU:-}
count_syscalls=${BENCH_SERVER_SYSCALLS:-0}

# With BENCH_SERVER_WRK_CPU, wrk and the servers run on CPUs of their own.
wrk_pin=()
server_pin=()
if [ -n "$wrk_cpu" ]; then
  others=$(seq 0 $(($(nproc) - 1)) | grep -vx "$wrk_cpu" | paste -sd, -)
  if [ -z "$others" ]; then
    echo "BENCH_SERVER_WRK_CPU=$wrk_cpu leaves no CPU for the servers"
    exit 1
  fi
  wrk_pin=(taskset -c "$wrk_cpu")
  server_pin=(taskset -c "$others")
fi

# --- tools: wrk and nginx from Debian, for this benchmark only ---
nginx_bin=$(command -v nginx || true)
[ -z "$nginx_bin" ] && [ -x /usr/sbin/nginx ] && nginx_bin=/usr/sbin/nginx
missing=()
command -v wrk >/dev/null || missing+=(wrk)
[ -z "$nginx_bin" ] && missing+=(nginx)
[ "$count_syscalls" = 1 ] && ! command -v perf >/dev/null && missing+=(linux-perf)
if [ ${#missing[@]} -gt 0 ]; then
  bench_install "${missing[@]}"
  nginx_bin=$(command -v nginx || echo /usr/sbin/nginx)
fi

# --- a temporary folder for everything, and a cleanup that runs on any exit ---
tmp=$(mktemp -d /tmp/sokod-bench-server.XXXXXX)
chmod 755 "$tmp" # nginx's workers run as nobody and read the tiny file
sokod_pid=
nginx_pid=
perf_pid=
stop_all() {
  trap - EXIT INT TERM
  if [ -n "$perf_pid" ] && kill -0 "$perf_pid" 2>/dev/null; then
    kill -INT "$perf_pid" 2>/dev/null || true
    wait "$perf_pid" 2>/dev/null || true
  fi
  if [ -n "$sokod_pid" ] && kill -0 "$sokod_pid" 2>/dev/null; then
    kill -TERM "$sokod_pid" 2>/dev/null || true
    wait "$sokod_pid" 2>/dev/null || true
  fi
  if [ -n "$nginx_pid" ] && kill -0 "$nginx_pid" 2>/dev/null; then
    kill -QUIT "$nginx_pid" 2>/dev/null || true
    wait "$nginx_pid" 2>/dev/null || true
  fi
  if [ -n "${BENCH_SERVER_LOG:-}" ] && [ -f "$tmp/sokod/log" ]; then
    cp "$tmp/sokod/log" "$BENCH_SERVER_LOG" || true
  fi
  rm -rf "$tmp"
}
trap stop_all EXIT
trap 'stop_all; exit 130' INT TERM

# Each connection is a socket at both ends: raise the open file limit.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
max_conns=0
for c in "${conn_counts[@]}"; do [ "$c" -gt "$max_conns" ] && max_conns=$c; done
if [ "$(ulimit -n)" != unlimited ] && [ "$(ulimit -n)" -lt $((max_conns + 200)) ]; then
  echo "note: the open file limit is $(ulimit -n), too low for $max_conns connections"
fi

# A loopback port nobody listens on (checked, then taken by the caller).
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

# Waits until `curl URL` answers; false after 10 s.
wait_http() {
  local i
  for i in $(seq 100); do
    curl -s -o /dev/null "$1" && return 0
    sleep 0.1
  done
  return 1
}

# --- nginx: its own prefix, configuration, logs and pid file under $tmp ---
mkdir -p "$tmp/nginx/www" "$tmp/nginx/logs"
printf '{"ok":true}\n' >"$tmp/nginx/www/tiny.json"
chmod -R a+rX "$tmp/nginx/www"
nginx_port=$(free_port)
cat >"$tmp/nginx/nginx.conf" <<EOF
worker_processes auto;
worker_rlimit_nofile $(($(ulimit -n) > 65536 ? 65536 : $(ulimit -n)));
pid $tmp/nginx/nginx.pid;
error_log $tmp/nginx/logs/error.log warn;
events { worker_connections 8192; }
http {
  access_log off;
  default_type application/json;
  client_body_temp_path $tmp/nginx/body;
  proxy_temp_path $tmp/nginx/proxy;
  fastcgi_temp_path $tmp/nginx/fastcgi;
  uwsgi_temp_path $tmp/nginx/uwsgi;
  scgi_temp_path $tmp/nginx/scgi;
  keepalive_requests 10000000;
  keepalive_timeout 60s;
  server {
    listen 127.0.0.1:$nginx_port;
    root $tmp/nginx/www;
  }
}
EOF
"${server_pin[@]}" "$nginx_bin" -e "$tmp/nginx/logs/error.log" -p "$tmp/nginx" -c "$tmp/nginx/nginx.conf" \
  -g 'daemon off;' 2>>"$tmp/nginx/logs/error.log" &
nginx_pid=$!
nginx_url="http://127.0.0.1:$nginx_port/tiny.json"
if ! wait_http "$nginx_url"; then
  echo "nginx did not start:"
  cat "$tmp/nginx/logs/error.log"
  exit 1
fi

# --- sokod: the optimised build, a fresh database, one level to walk on ---
mkdir -p "$tmp/sokod/levels"
# "r" then "l" from the start walks back and forth without touching the box.
printf 'Collection: bench\n\n; Hall\n#######\n#@  $.#\n#######\n' >"$tmp/sokod/levels/bench.sok"
# Every game is a guest of its own, and wrk's connections all come from
# 127.0.0.1: lift the limits per address (new guests, connections), which
# a bench of one address would meet at once.
SOKOD_CONNECTIONS_PER_ADDRESS=${SOKOD_CONNECTIONS_PER_ADDRESS:-1000000} \
  "${server_pin[@]}" "$build/sokod" serve --port 0 --db "$tmp/sokod/data/sokod.db" --levels "$tmp/sokod/levels" \
  --guests-per-minute 60000 "${sokod_args[@]}" >"$tmp/sokod/stdout" 2>"$tmp/sokod/log" &
sokod_pid=$!
sokod_port=
for _ in $(seq 100); do
  # The shell may not have created the file yet: no port then.
  sokod_port=$(sed -n 's/^sokod: listening on http:.*:\([0-9]*\)$/\1/p' "$tmp/sokod/stdout" 2>/dev/null || true)
  [ -n "$sokod_port" ] && break
  kill -0 "$sokod_pid" 2>/dev/null || break
  sleep 0.1
done
if [ -z "$sokod_port" ]; then
  echo "sokod did not start:"
  cat "$tmp/sokod/log"
  exit 1
fi
sokod_url="http://127.0.0.1:$sokod_port"

# Opens N games, each by a new guest, and writes "GAME_ID COOKIE" lines to
# FILE. curl takes 100 URLs per run; with no cookie sent, each is a guest.
make_games() {
  local n=$1 file=$2 done_n=0 batch urls i
  : >"$file"
  while [ "$done_n" -lt "$n" ]; do
    batch=$((n - done_n < 100 ? n - done_n : 100))
    urls=()
    for ((i = 0; i < batch; i++)); do urls+=("$sokod_url/api/v1/levels/1/game"); done
    curl -s -X POST -H 'Content-Type: application/json' -d '{}' \
      -w '\n%header{set-cookie}\n' "${urls[@]}" |
      awk 'NR % 2 == 1 { id = ""; if (match($0, /"game":\{"id":[0-9]+/)) id = substr($0, RSTART + 13, RLENGTH - 13) }
           NR % 2 == 0 { sub(/;.*/, ""); if (id != "" && $0 ~ /^sokod_session=/) print id, $0 }' >>"$file"
    done_n=$((done_n + batch))
  done
  local got
  got=$(wc -l <"$file")
  if [ "$got" -ne "$n" ]; then
    echo "opened $got games of $n"
    return 1
  fi
}

# Reads key=value pairs of the RESULT line in FILE into the array named $2.
read_result() {
  local -n into=$2
  local kv
  into=()
  for kv in $(sed -n 's/^RESULT //p' "$1"); do into[${kv%%=*}]=${kv#*=}; done
  [ -n "${into[requests]:-}" ]
}

ms() { awk -v us="$1" 'BEGIN { printf "%.2f ms", us / 1000 }'; }
# CPU time (user + system) of the processes PID..., in milliseconds.
cpu_ms() {
  local pid sum=0 t
  for pid in "$@"; do
    t=$(awk '{ print $14 + $15 }' "/proc/$pid/stat" 2>/dev/null || echo 0)
    sum=$((sum + t))
  done
  echo $((sum * 1000 / $(getconf CLK_TCK)))
}
# Microseconds of CPU per request, from milliseconds and a request count.
per_req() { awk -v ms="$1" -v r="$2" 'BEGIN { printf "%.1f", (r > 0) ? ms * 1000 / r : 0 }'; }
nginx_pids() { echo "$nginx_pid" $(pgrep -P "$nginx_pid" || true); }
kib_of() { awk -v k="$2" '$1 == k":" { print $2 }' "/proc/$1/status" 2>/dev/null || echo 0; }

# With BENCH_SERVER_SYSCALLS=1, starts counting the system calls of the
# processes PID... (all their threads) into FILE; syscalls_stop ends it.
syscalls_start() {
  [ "$count_syscalls" = 1 ] || return 0
  local file=$1
  shift
  local events threads=0 pid i
  events=$(perf list 'syscalls:sys_enter_*' 2>/dev/null | grep -c 'syscalls:sys_enter_' || true)
  for pid in "$@"; do threads=$((threads + $(find "/proc/$pid/task" -mindepth 1 -maxdepth 1 | wc -l))); done
  perf stat -x, -e 'syscalls:sys_enter_*' -p "$(echo "$@" | tr ' ' ,)" -o "$file" 2>/dev/null &
  perf_pid=$!
  # perf opens a counter per system call and thread before it counts: on a
  # loaded machine that takes seconds, and requests sent before would be
  # counted but their system calls not. Wait for them all (30 s at most).
  for i in $(seq 300); do
    [ "$(find "/proc/$perf_pid/fd" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l)" -ge $((events * threads)) ] && break
    sleep 0.1
  done
}
syscalls_stop() {
  [ -n "$perf_pid" ] || return 0
  kill -INT "$perf_pid" 2>/dev/null || true
  wait "$perf_pid" 2>/dev/null || true
  perf_pid=
}
# From perf's FILE and a request count: the system calls per request, in
# all and the largest by name ("recvfrom 2.00"), those under 0.05 left out.
syscalls_per_request() {
  [ -f "$1" ] || return 0
  awk -F, -v r="$2" '
    $3 ~ /^syscalls:sys_enter_/ && $1 + 0 > 0 {
      name = substr($3, 20); n[name] += $1; total += $1 }
    END {
      if (r <= 0) exit
      line = sprintf("system calls per request %.2f:", total / r)
      m = 0
      for (k in n) keys[++m] = k
      for (i = 1; i <= m; i++)
        for (j = i + 1; j <= m; j++)
          if (n[keys[j]] > n[keys[i]]) { t = keys[i]; keys[i] = keys[j]; keys[j] = t }
      for (i = 1; i <= m; i++)
        if (n[keys[i]] / r >= 0.05) line = line sprintf(" %s %.2f", keys[i], n[keys[i]] / r)
      print line
    }' "$1"
}

# The issue's targets, as ratios against nginx in the same run: sokod's p99
# at most p99_target times nginx's in every run; its steps/s at least
# rate_target CONNS PAUSE times nginx's req/s ("-": none, when a pause sets
# the load and both servers keep up with it).
p99_target=1.5
rate_target() {
  if [ "$2" -gt 0 ]; then
    echo -
  elif [ "$1" -le 64 ]; then
    echo 0.7
  else
    echo 0.6
  fi
}

# Runs wrk against sokod then nginx with CONNS connections, each waiting
# PAUSE_MS after every answer (0: as fast as answers come), and prints a
# line for each and their ratio. LABEL names the run in the first column.
run_pair() {
  local c=$1 pause=$2 label=$3
  # Spare games cover requests that wrk abandons (a socket error).
  local ngames=$((c + c / 8 + wrk_threads))
  local games="$tmp/games-${label//\//-}.txt"
  make_games "$ngames" "$games"
  local rss_before s_cpu0 wrk_pid rss fds rss_peak=0 fds_peak=0 hwm s_cpu n_cpu0 n_cpu
  rss_before=$(kib_of "$sokod_pid" VmRSS)
  s_cpu0=$(cpu_ms "$sokod_pid")
  syscalls_start "$tmp/perf-sokod-${label//\//-}.txt" "$sokod_pid"
  BENCH_SERVER_PAUSE_MS=$pause "${wrk_pin[@]}" wrk -t"$wrk_threads" -c"$c" -d"${seconds}s" --timeout 10s \
    -s "$here/bench_server.lua" "$sokod_url/" -- "$games" "$ngames" "$wrk_threads" \
    >"$tmp/wrk-sokod-${label//\//-}.txt" 2>&1 &
  wrk_pid=$!
  # sokod's memory and sockets while wrk runs.
  while kill -0 "$wrk_pid" 2>/dev/null; do
    rss=$(kib_of "$sokod_pid" VmRSS)
    [ "${rss:-0}" -gt "$rss_peak" ] && rss_peak=$rss
    fds=$(find "/proc/$sokod_pid/fd" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l)
    [ "$fds" -gt "$fds_peak" ] && fds_peak=$fds
    sleep 0.25
  done
  wait "$wrk_pid" || true
  syscalls_stop
  hwm=$(kib_of "$sokod_pid" VmHWM)
  s_cpu=$(($(cpu_ms "$sokod_pid") - s_cpu0))
  n_cpu0=$(cpu_ms $(nginx_pids))
  syscalls_start "$tmp/perf-nginx-${label//\//-}.txt" $(nginx_pids)
  BENCH_SERVER_PAUSE_MS=$pause "${wrk_pin[@]}" wrk -t"$wrk_threads" -c"$c" -d"${seconds}s" --timeout 10s \
    -s "$here/bench_server_nginx.lua" "$nginx_url" >"$tmp/wrk-nginx-${label//\//-}.txt" 2>&1 || true
  syscalls_stop
  n_cpu=$(($(cpu_ms $(nginx_pids)) - n_cpu0))

  local -A s=() n=()
  if ! read_result "$tmp/wrk-sokod-${label//\//-}.txt" s; then
    echo "wrk against sokod printed no result:"
    cat "$tmp/wrk-sokod-${label//\//-}.txt"
    return 0
  fi
  if ! read_result "$tmp/wrk-nginx-${label//\//-}.txt" n; then
    echo "wrk against nginx printed no result:"
    cat "$tmp/wrk-nginx-${label//\//-}.txt"
    return 0
  fi
  local s_err n_err s_rate n_rate notes
  s_err=$((s[connect] + s[read] + s[write] + s[timeout] + s[status] + s[refused] + s[duplicates] + s[unreadable] + s[starved]))
  n_err=$((n[connect] + n[read] + n[write] + n[timeout] + n[status]))
  s_rate=$(awk -v r="${s[accepted]}" -v t="${s[seconds]}" 'BEGIN { printf "%.0f", r / t }')
  n_rate=$(awk -v r="${n[requests]}" -v t="${n[seconds]}" 'BEGIN { printf "%.0f", r / t }')
  notes="steps accepted ${s[accepted]}, CPU $(per_req "$s_cpu" "${s[requests]}") us/request"
  [ "$s_err" -gt 0 ] && notes+=", errors: connect ${s[connect]} read ${s[read]} write ${s[write]} timeout ${s[timeout]} status ${s[status]} refused ${s[refused]} duplicate ${s[duplicates]} unreadable ${s[unreadable]} starved ${s[starved]}"
  printf '%-12s %-6s %10s %10s %10s %7s  %s\n' "$label" sokod "$s_rate" "$(ms "${s[p50_us]}")" \
    "$(ms "${s[p99_us]}")" "$s_err" "$notes"
  notes="CPU $(per_req "$n_cpu" "${n[requests]}") us/request"
  [ "$n_err" -gt 0 ] && notes+=", errors: connect ${n[connect]} read ${n[read]} write ${n[write]} timeout ${n[timeout]} status ${n[status]}"
  printf '%-12s %-6s %10s %10s %10s %7s  %s\n' "$label" nginx "$n_rate" "$(ms "${n[p50_us]}")" \
    "$(ms "${n[p99_us]}")" "$n_err" "$notes"
  local sys_s sys_n
  sys_s=$(syscalls_per_request "$tmp/perf-sokod-${label//\//-}.txt" "${s[requests]}")
  sys_n=$(syscalls_per_request "$tmp/perf-nginx-${label//\//-}.txt" "${n[requests]}")
  [ -n "$sys_s" ] && printf '%-12s %-6s %s\n' "$label" sokod "$sys_s"
  [ -n "$sys_n" ] && printf '%-12s %-6s %s\n' "$label" nginx "$sys_n"
  local rate_ratio p99_ratio rate_goal verdict
  rate_ratio=$(awk -v a="$s_rate" -v b="$n_rate" 'BEGIN { printf "%.2f", (b > 0) ? a / b : 0 }')
  p99_ratio=$(awk -v a="${s[p99_us]}" -v b="${n[p99_us]}" 'BEGIN { printf "%.2f", (b > 0) ? a / b : 0 }')
  rate_goal=$(rate_target "$c" "$pause")
  verdict=$(awk -v r="$rate_ratio" -v g="$rate_goal" -v p="$p99_ratio" -v pg="$p99_target" -v e="$s_err" \
    'BEGIN { ok = (g == "-" || r + 0 >= g + 0) && p + 0 <= pg + 0 && e == 0; print ok ? "met" : "missed" }')
  printf '%-12s %-6s %10s %21s %7s  steps/s / req/s (target %s), p99 / p99 (target <= %s): %s\n' \
    "$label" ratio "$rate_ratio" "$p99_ratio" "" "${rate_goal/#-/none}" "$p99_target" "$verdict"
  ratio_lines+=("$(printf '%-12s %14s %14s %8s' "$label" "$rate_ratio" "$p99_ratio" "$verdict")")
  if [ "$c" -eq "$max_conns" ]; then
    mem_lines+=("$(awk -v b="$rss_before" -v p="$rss_peak" -v h="$hwm" -v f="$fds_peak" -v l="$label" \
      'BEGIN { printf "sokod memory, %s: VmRSS %.1f MiB before, %.1f MiB at most during the run; VmHWM %.1f MiB; %d open files at most", l, b / 1024, p / 1024, h / 1024, f }')")
  fi
}

echo "loopback, $(nproc) CPUs, wrk -t$wrk_threads -d${seconds}s, sokod $("$build/sokod" --version | cut -d' ' -f2)," \
  "$("$nginx_bin" -v 2>&1 | sed 's/.*: //')"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg) (other programs share these CPUs with both servers)"
echo "CONNS: as fast as answers come; CONNS/PAUSE: each connection waits PAUSE ms after each answer"
printf '%-12s %-6s %10s %10s %10s %7s  %s\n' run server "req/s" p50 p99 errors notes

mem_lines=()
ratio_lines=()
for c in "${conn_counts[@]}"; do
  run_pair "$c" 0 "$c"
done
# Players step a few times a second, not as fast as the server answers:
# the largest count again, each connection pausing between steps.
if [ "$pause_ms" -gt 0 ]; then
  run_pair "$max_conns" "$pause_ms" "$max_conns/${pause_ms}ms"
fi
for line in "${mem_lines[@]}"; do echo "$line"; done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "ratios of this run, sokod over nginx (targets: steps/s >= 0.7 at 64 connections and"
echo ">= 0.6 at 1000; p99 <= $p99_target in every run; no errors):"
printf '%-12s %14s %14s %8s\n' run "steps/s ratio" "p99 ratio" targets
for line in "${ratio_lines[@]}"; do echo "$line"; done
