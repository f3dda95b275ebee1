#!/usr/bin/env bash
# The flags of every sokod command: --help prints exactly the text kept in
# HELP_DIR/COMMAND.txt, and each malformed, missing or unknown flag gives
# its exact message on stderr and the command's exit status, nothing on
# stdout. Usage: options.sh SOKOD HELP_DIR
# On a failure it prints the command, what was expected and what came out.
set -u
sokod=$1
help=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0

# run ARGS...: runs sokod (never long: a serve that starts is cut short),
# keeping stdout, stderr and the exit status in $tmp/out, $tmp/err, $code.
run() {
  timeout 20 "$sokod" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
  code=$?
}

report() {
  failed=$((failed + 1))
  printf 'FAIL sokod %s: %s\n' "$1" "$2"
  head -5 "$tmp/out" | sed 's/^/    stdout: /'
  head -5 "$tmp/err" | sed 's/^/    stderr: /'
}

# help FILE ARGS...: sokod ARGS exits 0 and prints exactly HELP_DIR/FILE.
help() {
  local file=$1
  shift
  run "$@"
  if [ "$code" -ne 0 ] || ! cmp -s "$tmp/out" "$help/$file"; then
    report "$*" "exit $code, expected 0 and the text of $file"
    diff "$help/$file" "$tmp/out" | head -10 | sed 's/^/    diff: /'
  else
    passed=$((passed + 1))
  fi
}

# refused STATUS LINE ARGS...: sokod ARGS exits STATUS, prints nothing on
# stdout, and LINE is the first line of its stderr.
refused() {
  local want=$1 line=$2
  shift 2
  run "$@"
  local first
  first=$(head -n 1 "$tmp/err")
  if [ "$code" -ne "$want" ] || [ "$first" != "$line" ] || [ -s "$tmp/out" ]; then
    report "$*" "exit $code, expected $want with the line: $line"
  else
    passed=$((passed + 1))
  fi
}

# then_usage COMMAND: the last stderr goes on, after a blank line, with the
# command's whole help.
then_usage() {
  if ! tail -n +3 "$tmp/err" | cmp -s - "$help/$1.txt" || [ -n "$(sed -n 2p "$tmp/err")" ]; then
    report "$1" "the error is not followed by a blank line and the help"
  fi
}

# --- help ---
help sokod.txt --help
help sokod.txt -h
for c in check replay solve generate serve import admin backup restore copy; do
  help "$c.txt" "$c" --help
  help "$c.txt" "$c" -h
done
help check.txt check --json --help file
help serve.txt --port 80 --help

# --- check and replay: switches only ---
for c in check replay; do
  refused 2 "sokod $c: unknown option '--frob'" "$c" --frob file
  then_usage "$c"
  refused 2 "sokod $c: unknown option '-x'" "$c" -x file
  refused 2 "sokod $c: unknown option '--json=1'" "$c" --json=1 file
  refused 2 "usage: sokod $c [--json]$([ "$c" = replay ] && echo ' [--multipush]') FILE..." "$c"
  refused 2 "usage: sokod $c [--json]$([ "$c" = replay ] && echo ' [--multipush]') FILE..." "$c" --json
done
refused 2 "sokod replay: unknown option '--multipush=1'" replay --multipush=1 file

# --- solve: positive numbers ---
for flag in --time-limit --memory; do
  for bad in abc 0 -1 '' nan 1x; do
    refused 2 "sokod solve: $flag needs a positive number" solve "$flag" "$bad" file
  done
  refused 2 "sokod solve: $flag needs a positive number" solve file "$flag"
  then_usage solve
  refused 2 "sokod solve: unknown option '$flag=5'" solve "$flag=5" file
done
refused 2 "sokod solve: unknown option '--optimal=1'" solve --optimal=1 file

# --- generate: whole numbers and ranges, decimal digits only ---
for bad in abc -1 +5 ' 5' '' 18446744073709551616; do
  refused 2 "sokod generate: --seed needs a valid value: $bad" generate --seed "$bad"
done
then_usage generate
while read -r flag bad; do
  refused 2 "sokod generate: $flag needs a valid value: $bad" generate "$flag" "$bad"
done <<'CASES'
--count 0
--count 100001
--jobs 0
--jobs 65
--candidates 0
--candidates 1001
--min-score 100001
--nodes 0
--nodes 50000001
--width 4
--width 41
--width 12-8
--width 8-
--width -8
--width 8-+9
--height x
--boxes 0
--boxes 9
--boxes 1-9
--shape round
CASES
refused 2 "sokod generate: --title needs a valid value: " generate --title ''
refused 2 "sokod generate: --collection needs a valid value: " generate --collection ''
refused 2 "sokod generate: --seed needs a valid value" generate --seed
refused 2 "sokod generate: unknown option '--frob'" generate --frob 1
then_usage generate
refused 2 "sokod generate: unknown option 'file'" generate file --json
refused 2 "sokod generate: unknown option '--seed=5'" generate --seed=5 --json
# An unknown flag that ends the line is worded as a missing value.
refused 2 "sokod generate: --frob needs a valid value" generate --frob
refused 2 "sokod generate: --avoid needs a valid value" generate --avoid
refused 1 "sokod generate: $tmp/missing.sok: cannot read: No such file or directory" \
  generate --avoid "$tmp/missing.sok" --boxes 0

# --- serve, import, admin, backup, restore: config.c's flags ---
port_help='port to listen on (default 8080; 0 picks a free port)'
for bad in abc -1 +80 70000 ''; do
  refused 2 "sokod: invalid value '$bad' for --port ($port_help)" serve --port "$bad"
done
refused 2 "sokod: invalid value 'abc' for --port=abc ($port_help)" serve --port=abc
refused 2 "sokod: invalid value 'abc' for --port=abc ($port_help)" --port=abc
refused 2 "sokod: --port needs a value" serve --port
refused 2 "sokod: unknown flag '--frob' (try --help)" serve --frob
refused 2 "sokod: unknown flag '-x' (try --help)" serve -x
refused 2 "sokod: unknown flag '--help=1' (try --help)" serve --help=1
refused 2 "sokod: unknown flag '--collection' (try --help)" serve --collection x
refused 2 "sokod serve: unexpected argument 'extra' (try --help)" serve extra
refused 2 "sokod: invalid value '0.01' for --hint-seconds (time one hint may search, decimals allowed (default 3))" \
  serve --hint-seconds 0.01
refused 2 "sokod: invalid value '100' for --max-body (largest request body accepted (default 65536; larger ones get 413))" \
  serve --max-body 100
refused 2 "sokod: invalid value 'maybe' for --synchronous (SQLite synchronous setting: NORMAL (default) or FULL)" \
  serve --synchronous maybe
refused 2 "sokod: --max-streams (5000) must be below --max-connections (4096)" serve --max-streams 5000
SOKOD_PORT=abc run serve
[ "$code" -eq 2 ] && [ "$(head -n 1 "$tmp/err")" = "sokod: invalid value 'abc' for SOKOD_PORT ($port_help)" ] &&
  passed=$((passed + 1)) || report "serve with SOKOD_PORT=abc" "exit $code, expected 2 naming SOKOD_PORT"
refused 2 "sokod: invalid value '' for --collection (collection the levels go into (default: the file's Collection: line or its name))" \
  import --collection '' file
refused 2 "sokod: unknown flag '--port' (try --help)" import --port 1 file
refused 2 "usage: sokod import FILE... [--db PATH] [--collection NAME]" import
refused 2 "sokod: --db needs a value" admin grant name --db
refused 2 "usage: sokod admin create|grant|revoke NAME [--db PATH]" admin create
refused 2 "sokod: unknown flag '--frob' (try --help)" backup --frob file
refused 2 "usage: sokod backup FILE [--db PATH|URI] (try --help)" backup
refused 2 "usage: sokod restore FILE [--db PATH|URI] (try --help)" restore a b
refused 2 "usage: sokod copy --from DB --to DB [--migrations DIR] (try --help)" copy
refused 2 "usage: sokod copy --from DB --to DB [--migrations DIR] (try --help)" copy --from a.db
refused 2 "usage: sokod copy --from DB --to DB [--migrations DIR] (try --help)" copy --from a --to b extra
refused 2 "sokod: unknown flag '--db' (try --help)" copy --from a --to b --db c
refused 2 "sokod: --to needs a value" copy --from a --to
refused 2 "sokod: unknown command 'frob'" frob

# sokod --version and sokod version: "sokod X.Y.Z", the project's version
# in CMakeLists.txt, then " (git REV)" when built from a git checkout.
version=$(sed -n 's/^project(sokod VERSION \([0-9.]*\).*/\1/p' "$help/../../../CMakeLists.txt")
for args in --version version; do
  run "$args"
  if [ "$code" -eq 0 ] && [ -n "$version" ] && [ ! -s "$tmp/err" ] &&
    grep -Eqx "sokod $version( \(git [^ ()]+\))?" "$tmp/out"; then
    passed=$((passed + 1))
  else
    report "$args" "exit $code, expected 0 and 'sokod ${version:-?} [(git REV)]'"
  fi
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
