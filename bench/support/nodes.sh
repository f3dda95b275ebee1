# What the benchmarks of several sokod nodes on PostgreSQL share
# (bench_nodes.sh, bench_failover.sh); each sources this file after
# bench.sh and sets `here`, `source_dir` and `build` first.

# Makes the temporary folder ($tmp, named after PREFIX), starts a
# throwaway PostgreSQL cluster in $tmp/pg (tests/support/pg_cluster.sh:
# a socket in that folder, fsync off) and writes the one-row level the
# steps walk on to $tmp/levels. Everything started and listed in `pids`,
# and every cluster listed in `clusters`, is stopped on any exit.
nodes_begin() {
  pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
  if [ -z "$pg_bin" ]; then
    bench_install postgresql
    pg_bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
  fi
  tmp=$(mktemp -d "/tmp/$1.XXXXXX")
  chmod 755 "$tmp" # the cluster runs as postgres when this runs as root
  pids=()
  clusters=("$tmp/pg")
  trap nodes_end EXIT
  trap 'nodes_end; exit 130' INT TERM
  ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
  "$source_dir/tests/support/pg_cluster.sh" start "$tmp/pg"
  pg_dir=$tmp/pg
  mkdir -p "$tmp/levels"
  # "r" then "l" from the start walks back and forth without touching the box.
  printf 'Collection: bench\n\n; Hall\n#######\n#@  $.#\n#######\n' >"$tmp/levels/bench.sok"
}
nodes_end() {
  trap - EXIT INT TERM
  local p c
  for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  for c in "${clusters[@]}"; do "$source_dir/tests/support/pg_cluster.sh" stop "$c" || true; done
  rm -rf "$tmp"
}

# The URI of database DB on the cluster whose socket is in $pg_dir.
pg_uri() { "$source_dir/tests/support/pg_cluster.sh" uri "$pg_dir" "$1"; }
# Runs SQL on database DB; prints its rows, columns split by '|'.
psql_do() { psql -X -q -At -v ON_ERROR_STOP=1 -d "$(pg_uri "$1")" -c "$2"; }
# Runs a command as the cluster's owner (postgres when this runs as root).
as_pg_owner() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

# A loopback port nobody listens on, below the kernel's range of
# ephemeral ports: thousands of open connections hold ports of that range,
# and a port one of them holds cannot be listened on.
free_port() {
  local p low=32768
  read -r low _ </proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || true
  [ "$low" -gt 10100 ] || low=32768
  for p in $(shuf -i 10000-$((low - 1)) -n 200); do
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
      echo "$p"
      return 0
    fi
  done
  return 1
}

# Starts node NAME of sokod on DB, in the background; sets node_url[NAME]
# and node_pid[NAME], and exits with its log when it does not start. All
# clients come from 127.0.0.1: the limits per address are lifted, as
# bench_server.sh does. node_args holds further flags for every node (as
# --max-connections and --max-streams for many live streams; a flag given
# twice takes its last value).
declare -A node_url=() node_pid=()
node_args=()
start_node() {
  local name=$1 db=$2 out="$tmp/node-$1"
  SOKOD_CONNECTIONS_PER_ADDRESS=1000000 "$build/sokod" serve --port 0 --db "$db" \
    --levels "$tmp/levels" --guests-per-minute 60000 --streams-per-address 100000 \
    --max-streams 3000 --trusted-proxies 127.0.0.1 ${node_args[@]+"${node_args[@]}"} \
    >"$out.stdout" 2>"$out.log" &
  node_pid[$name]=$!
  pids+=("$!")
  local port=
  for _ in $(seq 300); do
    # The node's output file may not be made yet: it opens it after the fork.
    port=$(sed -n 's/^sokod: listening on http:.*:\([0-9]*\)$/\1/p' "$out.stdout" 2>/dev/null || true)
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
  unset "node_pid[$1]"
}

# Starts HAProxy with deploy/haproxy.cfg, as checked in, before nodes a
# and b, its third server left out (a server that does not answer would be
# tried, then checked, all run long), and the sed script SED applied when
# one is given; sets `front` to its URL once /readyz answers 200 through
# it four times in a row. Its output is in $tmp/haproxy.log; its process
# is haproxy_pid.
start_proxy() {
  sed -e '/^[[:space:]]*server c /d' -e "${1:-}" "$source_dir/deploy/haproxy.cfg" >"$tmp/haproxy.cfg"
  local port ok=0
  port=$(free_port)
  SOKOD_HAPROXY_BIND="127.0.0.1:$port" SOKOD_NODE_A="${node_url[a]#http://}" \
    SOKOD_NODE_B="${node_url[b]#http://}" haproxy -db -f "$tmp/haproxy.cfg" >"$tmp/haproxy.log" 2>&1 &
  haproxy_pid=$!
  pids+=("$!")
  front="http://127.0.0.1:$port"
  for _ in $(seq 100); do
    if [ "$(curl -s -o /dev/null -w '%{http_code}' "$front/readyz")" = 200 ]; then ok=$((ok + 1)); else ok=0; fi
    [ "$ok" -ge 4 ] && return 0
    sleep 0.1
  done
  echo "HAProxy did not answer /readyz:"
  cat "$tmp/haproxy.log"
  exit 1
}

# The client connections to database `bench` of each node, named by the
# application_name of its URI ("bench-NAME"; its listening connection is
# "sokod-listen PID"), as "NAME=COUNT NAME-listen=COUNT ..." sorted by name.
pg_connections() {
  local name rows=""
  rows=$(psql_do postgres "SELECT application_name, count(*) FROM pg_stat_activity
    WHERE datname = 'bench' AND backend_type = 'client backend' AND pid <> pg_backend_pid()
    GROUP BY 1 ORDER BY 1") || return 0
  for name in "${!node_pid[@]}"; do
    rows=${rows//sokod-listen ${node_pid[$name]}|/bench-$name-listen|}
  done
  echo "$rows" | awk -F'|' 'NF == 2 && $1 != "" { sub(/^bench-/, "", $1); printf "%s=%s ", $1, $2 }'
}

# Writes to FILE the largest count of each node's connections seen while
# process PID runs ("NAME=COUNT" lines), sampled twice a second.
sample_connections() {
  local pid=$1 file=$2 kv
  local -A most=()
  while kill -0 "$pid" 2>/dev/null; do
    for kv in $(pg_connections); do
      [ "${kv#*=}" -gt "${most[${kv%%=*}]:-0}" ] && most[${kv%%=*}]=${kv#*=}
    done
    sleep 0.5
  done
  : >"$file"
  for kv in "${!most[@]}"; do echo "$kv=${most[$kv]}" >>"$file"; done
}

# Reads key=value pairs of the RESULT line in FILE into the array named $2;
# false when FILE has none.
read_result() {
  local -n into=$2
  local kv
  into=()
  for kv in $(sed -n 's/^RESULT //p' "$1"); do into[${kv%%=*}]=${kv#*=}; done
  [ ${#into[@]} -gt 0 ]
}
# Microseconds as milliseconds; a count over seconds as a rate.
ms() { awk -v us="$1" 'BEGIN { printf "%.2f ms", us / 1000 }'; }
rate() { awk -v n="$1" -v s="$2" 'BEGIN { printf "%.0f", (s > 0) ? n / s : 0 }'; }

# Waits until the client PID writes a line "ready" to FILE (its output);
# when it ends first, or has not within 60 s, prints WHAT and FILE and
# exits.
wait_ready() {
  local pid=$1 file=$2 what=$3
  for _ in $(seq 600); do
    grep -q '^ready' "$file" && return 0
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  grep -q '^ready' "$file" && return 0
  echo "$what:"
  cat "$file"
  exit 1
}

# The delay proxy (bench/support/delay_proxy.c): the build's, or compiled
# into $tmp for a build without it; sets delay_proxy.
delay_proxy_build() {
  delay_proxy=$build/bench/delay_proxy
  if [ ! -x "$delay_proxy" ]; then
    delay_proxy=$tmp/delay_proxy
    cc -O2 -D_GNU_SOURCE -o "$delay_proxy" "$here/support/delay_proxy.c"
  fi
}
# Starts the proxy to the cluster's socket with a round trip of RTT_MS;
# sets proxy_port and proxy_pid. Its report goes to $tmp/delay-RTT_MS.out.
start_delay() {
  local one_way_us out=$tmp/delay-$1.out
  one_way_us=$(awk -v r="$1" 'BEGIN { printf "%d", r * 500 }')
  "$delay_proxy" 0 "$pg_dir/.s.PGSQL.5432" "$one_way_us" >"$out" &
  proxy_pid=$!
  pids+=("$proxy_pid")
  for _ in $(seq 100); do
    proxy_port=$(sed -n 's/^listening //p' "$out" 2>/dev/null || true)
    [ -n "$proxy_port" ] && return 0
    sleep 0.05
  done
  echo "the delay proxy did not start"
  exit 1
}
# Stops process PID and waits for it.
stop_pid() {
  kill -TERM "$1" 2>/dev/null || true
  wait "$1" 2>/dev/null || true
}
