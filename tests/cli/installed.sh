#!/usr/bin/env bash
# An installed sokod runs without flags: `cmake --install` into a temporary
# prefix, then `sokod serve` from another working folder must find its
# migrations, bundled levels, browser client and core.wasm by itself.
# Usage: installed.sh CMAKE BUILD_DIR
set -u
cmake=$1
build=$2
tmp=$(mktemp -d)
pid=
cleanup() {
  if [ -n "$pid" ]; then
    kill "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
  fi
  rm -rf "$tmp"
}
trap cleanup EXIT
passed=0
failed=0
ok() {
  passed=$((passed + 1))
  echo "ok   $1"
}
fail() {
  failed=$((failed + 1))
  printf 'FAIL %s\n' "$1"
}
finish() {
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ]
  exit
}

prefix=$tmp/prefix
if out=$("$cmake" --install "$build" --prefix "$prefix" 2>&1); then
  ok "cmake --install --prefix $prefix"
else
  fail "cmake --install --prefix $prefix"$'\n'"$out"
  finish
fi
for f in bin/sokod share/sokod/migrations/0001_init.sql share/sokod/static/index.html \
  share/sokod/levels/tutorial.sok share/sokod/core.wasm; do
  if [ -e "$prefix/$f" ]; then ok "installed $f"; else fail "installed $f: missing"; fi
done

# Elsewhere, with no flag but the port: the database goes under ./data.
mkdir -p "$tmp/work"
cd "$tmp/work" || exit 1
"$prefix/bin/sokod" serve --port 0 >"$tmp/out" 2>"$tmp/err" &
pid=$!
url=
for _ in $(seq 300); do
  url=$(sed -n 's/^sokod: listening on \(http:[^ ]*\)$/\1/p' "$tmp/out")
  if [ -n "$url" ] || ! kill -0 "$pid" 2>/dev/null; then break; fi
  sleep 0.1
done
if [ -z "$url" ]; then
  fail "installed sokod serve did not start; stderr:"$'\n'"$(cat "$tmp/err")"
  finish
fi
ok "installed sokod serve listens on $url"

get() {
  curl -sS --max-time 30 -o "$tmp/body" -w '%{http_code}' "$url$1"
}
if [ -e data/sokod.db ]; then ok "database under the working folder"; else fail "no data/sokod.db in $PWD"; fi
code=$(get /api/v1/collections)
if [ "$code" = 200 ] && grep -q '"First Steps"' "$tmp/body"; then
  ok "the bundled levels were imported"
else
  fail "GET /api/v1/collections: $code $(head -c 600 "$tmp/body")"
fi
code=$(get /)
if [ "$code" = 200 ] && grep -q '<html' "$tmp/body"; then
  ok "the browser client is served"
else
  fail "GET /: $code $(head -c 300 "$tmp/body")"
fi
code=$(get /core.wasm)
if [ "$code" = 200 ] && cmp -s "$tmp/body" "$prefix/share/sokod/core.wasm"; then
  ok "core.wasm is served"
else
  fail "GET /core.wasm: $code"
fi
kill "$pid"
wait "$pid"
status=$?
pid=
if [ "$status" -eq 0 ]; then ok "a clean stop"; else fail "sokod exited with $status on SIGTERM"; fi
finish
