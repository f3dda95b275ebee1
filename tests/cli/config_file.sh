#!/usr/bin/env bash
# sokod --config FILE: a settings file read against the flags' own table.
# A good file sets what its lines say (a server starts where it says; a
# backup reads the database it names, and skips the lines of serve alone);
# the file, the variables and the flags override each other in that order;
# an unknown name, a refused value, a missing value or an unreadable file
# stops the command with the file and line named, exit status 2, nothing
# on stdout. Usage: config_file.sh SOKOD
set -u
sokod=$1
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
  head -5 "$tmp/out" 2>/dev/null | sed 's/^/    stdout: /'
  head -5 "$tmp/err" 2>/dev/null | sed 's/^/    stderr: /'
}

# run ARGS...: sokod ARGS, with stdout, stderr and status in $tmp/out, $tmp/err, $code.
run() {
  timeout 20 "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
  code=$?
}

# refused FILE_TEXT LINE: sokod serve --config on a file of FILE_TEXT exits
# 2 with LINE as its whole stderr and nothing on stdout.
refused() {
  printf '%s\n' "$1" >"$tmp/bad.conf"
  run env -u SOKOD_PORT "$sokod" serve --config "$tmp/bad.conf"
  if [ "$code" -eq 2 ] && [ "$(cat "$tmp/err")" = "$2" ] && [ ! -s "$tmp/out" ]; then
    ok "refused: $2"
  else
    fail "sokod serve --config on:"$'\n'"$1"$'\n'"exit $code, expected 2 and the line: $2"
  fi
}

# A good file: comments, blank lines, both forms, spaces around, serve and
# storage settings together.
cat >"$tmp/good.conf" <<CONF
# The settings of one test server.

address = 127.0.0.1
   port    0
db=$tmp/from-file.db
synchronous FULL
hint-seconds 2.5
metrics-allow none
CONF
run "$sokod" backup "$tmp/copy.db" --config "$tmp/good.conf"
if [ "$code" -eq 1 ] && grep -qF "no database at $tmp/from-file.db" "$tmp/err"; then
  ok "backup reads db from the file and passes over the lines of serve"
else
  fail "sokod backup --config good.conf: exit $code, expected 1 and 'no database at $tmp/from-file.db'"
fi

# Which word wins: the flag, then the variable, then the file.
run env SOKOD_DB="$tmp/from-env.db" "$sokod" backup "$tmp/copy.db" --config "$tmp/good.conf"
if grep -qF "no database at $tmp/from-env.db" "$tmp/err"; then
  ok "the variable overrides the file"
else
  fail "SOKOD_DB and --config: expected the variable's database"
fi
run env SOKOD_DB="$tmp/from-env.db" "$sokod" backup "$tmp/copy.db" --config "$tmp/good.conf" \
  --db "$tmp/from-flag.db"
if grep -qF "no database at $tmp/from-flag.db" "$tmp/err"; then
  ok "the flag overrides the variable and the file"
else
  fail "--db, SOKOD_DB and --config: expected the flag's database"
fi
run "$sokod" backup "$tmp/copy.db" --db "$tmp/from-flag.db" --config="$tmp/good.conf"
if grep -qF "no database at $tmp/from-flag.db" "$tmp/err"; then
  ok "a flag before --config=FILE still overrides the file"
else
  fail "--db before --config=: expected the flag's database"
fi

# A server started from the file alone listens where it says and makes
# its database there.
mkdir -p "$tmp/work"
(cd "$tmp/work" && exec env -u SOKOD_PORT -u SOKOD_DB "$sokod" serve --config "$tmp/good.conf" \
  >"$tmp/serve.out" 2>"$tmp/serve.err") &
pid=$!
url=
for _ in $(seq 300); do
  url=$(sed -n 's/^sokod: listening on \(http:[^ ]*\)$/\1/p' "$tmp/serve.out")
  if [ -n "$url" ] || ! kill -0 "$pid" 2>/dev/null; then break; fi
  sleep 0.1
done
if [ -n "$url" ] && [ -e "$tmp/from-file.db" ]; then
  ok "sokod serve --config listens on $url with the file's database"
else
  fail "sokod serve --config good.conf: no server, or no $tmp/from-file.db"$'\n'"$(cat "$tmp/serve.err")"
fi
# metrics-allow none: even loopback may not read /metrics.
if [ -n "$url" ]; then
  status=$(curl -s -o /dev/null -w '%{http_code}' --max-time 30 "$url/metrics")
  if [ "$status" = 403 ]; then
    ok "metrics-allow none from the file: GET /metrics is 403"
  else
    fail "metrics-allow none from the file: GET /metrics gave $status, expected 403"
  fi
fi
kill "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
pid=

# Refusals, each naming the file and the line.
f=$tmp/bad.conf
refused $'# a comment\n\nprot 8080' \
  "sokod: $f:3: unknown setting 'prot' (the settings are the flags of sokod serve --help, without their dashes)"
refused $'port = eighty' \
  "sokod: $f:1: invalid value 'eighty' for port (port to listen on (default 8080; 0 picks a free port))"
refused $'address 127.0.0.1\nport 70000' \
  "sokod: $f:2: invalid value '70000' for port (port to listen on (default 8080; 0 picks a free port))"
refused $'synchronous =' "sokod: $f:1: synchronous needs a value"
refused $'config /etc/other.conf' \
  "sokod: $f:1: unknown setting 'config' (the settings are the flags of sokod serve --help, without their dashes)"
refused $'help yes' \
  "sokod: $f:1: unknown setting 'help' (the settings are the flags of sokod serve --help, without their dashes)"
run "$sokod" serve --config "$tmp/none.conf"
if [ "$code" -eq 2 ] && [ "$(cat "$tmp/err")" = "sokod: cannot read the settings file $tmp/none.conf: No such file or directory" ]; then
  ok "a missing file is refused by name"
else
  fail "sokod serve --config none.conf: exit $code, expected 2 and 'cannot read the settings file'"
fi
# A wrong value in the file stops backup too, though it takes no port.
printf 'db %s\nport 99999\n' "$tmp/x.db" >"$tmp/bad.conf"
run "$sokod" backup "$tmp/copy.db" --config "$tmp/bad.conf"
if [ "$code" -eq 2 ] && grep -qF "$tmp/bad.conf:2: invalid value '99999' for port" "$tmp/err"; then
  ok "backup refuses a wrong value of a serve setting"
else
  fail "sokod backup --config with port 99999: exit $code, expected 2 and bad.conf:2"
fi

# The package's settings file, written by scripts/settings-file from
# sokod serve --help: it names every setting (each a commented line but
# those set), and sokod takes every line of it.
settings_file=$(dirname "$0")/../../scripts/settings-file
bash "$settings_file" "$sokod" "$tmp/written.conf" db="$tmp/written.db" port=0
flags=$("$sokod" serve --help | grep -o '^  --[a-z-]*' | sed 's/^  --//' | grep -vx 'help\|config' | sort)
named=$(sed -n 's/^#\{0,1\}\([a-z][a-z-]*\) .*/\1/p' "$tmp/written.conf" | sort)
if [ -n "$flags" ] && [ "$flags" = "$named" ]; then
  ok "scripts/settings-file names every setting of sokod serve --help ($(printf '%s\n' "$flags" | wc -l))"
else
  fail "scripts/settings-file: the settings differ from sokod serve --help:"$'\n'"$(diff <(printf '%s\n' "$flags") <(printf '%s\n' "$named"))"
fi
if grep -qx "db $tmp/written.db" "$tmp/written.conf" && grep -qx '#address ADDR' "$tmp/written.conf"; then
  ok "scripts/settings-file sets what it is given and comments out the rest"
else
  fail "scripts/settings-file: no 'db $tmp/written.db' line, or no '#address ADDR'"
fi
# sokod takes the file as written.
run "$sokod" backup "$tmp/copy.db" --config "$tmp/written.conf"
if [ "$code" -eq 1 ] && grep -qF "no database at $tmp/written.db" "$tmp/err"; then
  ok "sokod takes the written file as it is"
else
  fail "sokod backup --config written.conf: exit $code, expected 1 and 'no database at $tmp/written.db'"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
