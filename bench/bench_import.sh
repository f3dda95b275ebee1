#!/usr/bin/env bash
# Checking and importing a 2,000-level file, without the solver: through
# `sokod import` and through the HTTP API (an admin's upload in base64
# parts, checked when its last part arrives, then the import). The file is
# built in a temporary folder from the shared collections: the 1,000
# Boxoban levels, the first 845 of them again with boxes and goals swapped
# (other puzzles), and the 155 Microban levels.
#
# Usage: bench/bench_import.sh BUILD_DIR
set -euo pipefail
build=$(cd "${1:-build-bench}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
shared=${SOKOD_SHARED_DIR:-$here/../../shared}
sokod=$build/sokod
. "$here/support/bench.sh"
bench_begin

boxoban=$shared/levels/boxoban-medium-000.txt
microban=$shared/levels/Microban_155.xsb
file=$tmp/levels2000.sok
{
  echo "Collection: Import benchmark"
  echo
  cat "$boxoban"
  # The first 845 Boxoban levels (12 lines each) with '$' and '.' swapped.
  head -n $((845 * 12)) "$boxoban" | sed 's/^; /; swapped /' | tr '$.' '.$'
  echo
  cat "$microban"
} >"$file"
levels=$("$sokod" check "$file" | tail -n 1)
echo "file: $(wc -c <"$file") bytes; sokod check: $levels"

now() { date +%s.%N; }
seconds() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; }

# --- the command line --------------------------------------------------------------------
t0=$(now)
out=$("$sokod" import "$file" --db "$tmp/cli.db" 2>/dev/null | tail -n 1) || true
t1=$(now)
echo "sokod import (check + import, fresh database): $(seconds "$t0" "$t1") s; $out"

# --- the API ------------------------------------------------------------------------------
password="benchmark password"
printf '%s\n' "$password" | "$sokod" admin create bench --db "$tmp/api.db" >/dev/null 2>&1
bench_serve --port 0 --db "$tmp/api.db" --levels "$tmp/none" --solver-seconds 0
jar=$tmp/cookies
api() { # METHOD PATH [BODY-FILE]
  local args=(-s -b "$jar" -c "$jar" -H 'Content-Type: application/json' -H 'Expect:' -X "$1" "$url$2")
  [ $# -ge 3 ] && args+=(--data-binary "@$3")
  curl "${args[@]}"
}
printf '{"username":"bench","password":"%s"}' "$password" >"$tmp/login.json"
api POST /api/v1/account/login "$tmp/login.json" >/dev/null
size=$(wc -c <"$file")
printf '{"filename":"levels2000.sok","size":%d}' "$size" >"$tmp/create.json"

t0=$(now)
created=$(api POST /api/v1/admin/uploads "$tmp/create.json")
id=$(printf '%s' "$created" | sed -n 's/^{"upload":{"id":\([0-9]*\),.*/\1/p')
part=$(printf '%s' "$created" | sed -n 's/.*"part_bytes":\([0-9]*\),.*/\1/p')
split -b "$part" -d -a 4 "$file" "$tmp/part."
offset=0
parts=0
for chunk in "$tmp"/part.*; do
  printf '{"offset":%d,"data":"%s"}' "$offset" "$(base64 -w0 "$chunk")" >"$tmp/body.json"
  answer=$(api POST "/api/v1/admin/uploads/$id/parts" "$tmp/body.json")
  offset=$((offset + $(wc -c <"$chunk")))
  parts=$((parts + 1))
done
t1=$(now)
summary=$(printf '%s' "$answer" | grep -o '"summary":{[^}]*}')
echo '{}' >"$tmp/import.json"
imported=$(api POST "/api/v1/admin/uploads/$id/import" "$tmp/import.json")
t2=$(now)
result=$(printf '%s' "$imported" | grep -o '"import":{[^}]*}')
# The server's own time per request, from its access log (microseconds),
# which it writes as each request ends.
sleep 0.3
served() { awk -v pat="$1" '$2 ~ pat { sum += $5 + 0 } END { printf "%.3f", sum / 1e6 }' "$tmp/serve.err"; }
echo "API upload in $parts parts + check: $(seconds "$t0" "$t1") s wall clock," \
  "$(served "^/api/v1/admin/uploads(/[0-9]+/parts)?$") s in sokod; $summary"
echo "API import (one transaction): $(seconds "$t1" "$t2") s wall clock," \
  "$(served "^/api/v1/admin/uploads/[0-9]+/import$") s in sokod; $result"
echo "API check + import: $(seconds "$t0" "$t2") s wall clock (curl and base64 included)"
